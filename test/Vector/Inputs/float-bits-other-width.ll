; A 64-bit xor of the sign mask over two floats flips only the second:
; no fneg, an error. Used by float-bit-operations.ll.
@enzyme_dup = external global i32
declare void @__enzyme_autodiff(ptr, ...)

define float @other_width(ptr %x) {
  %v = load <2 x float>, ptr %x, align 8
  %u = bitcast <2 x float> %v to i64
  %f = xor i64 %u, -9223372036854775808
  %w = bitcast i64 %f to <2 x float>
  %a = extractelement <2 x float> %w, i64 0
  %b = extractelement <2 x float> %w, i64 1
  %s = fadd float %a, %b
  ret float %s
}

define void @grad(ptr %x, ptr %dx) {
  %dup = load i32, ptr @enzyme_dup
  call void (ptr, ...) @__enzyme_autodiff(ptr @other_width, i32 %dup, ptr %x, ptr %dx)
  ret void
}
