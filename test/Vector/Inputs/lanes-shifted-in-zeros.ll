; Not a lane read: the <2 x double>'s upper half is the zeros `lshr`
; brought in (lane 2 of the low 192 bits shifted to the bottom, nothing
; above it), and both halves are used. Used by
; lanes-through-truncated-integers.ll.
@enzyme_dup = external global i32
declare void @__enzyme_autodiff(ptr, ...)
declare double @llvm.vector.reduce.fadd.v2f64(double, <2 x double>)

define double @zeros(ptr %x) {
  %v = load <8 x double>, ptr %x, align 8
  %i = bitcast <8 x double> %v to i512
  %low = trunc i512 %i to i192
  %s = lshr i192 %low, 128
  %t = trunc i192 %s to i128
  %w = bitcast i128 %t to <2 x double>
  %r = call double @llvm.vector.reduce.fadd.v2f64(double -0.0, <2 x double> %w)
  ret double %r
}

define void @grad(ptr %x, ptr %dx) {
  %dup = load i32, ptr @enzyme_dup
  call void (ptr, ...) @__enzyme_autodiff(ptr @zeros, i32 %dup, ptr %x, ptr %dx)
  ret void
}
