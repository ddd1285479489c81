; Inline assembly that is a fused multiply-add with its accumulator tied to
; the result (Eigen's packet pmadd under clang with FMA) becomes llvm.fma
; before differentiation, so both modes differentiate it: the reverse adds
; b * adj to a's adjoint and a * adj to b's, and passes adj to c's. Other
; assembly is still an error (test/Errors/variadic-and-asm.c).
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
@enzyme_dup = external global i32
declare void @__enzyme_autodiff(ptr, ...)
declare <4 x double> @__enzyme_fwddiff(ptr, ...)

define <4 x double> @madd(<4 x double> %a, <4 x double> %b, <4 x double> %c) {
  %r = call <4 x double> asm "vfmadd231pd $1, $2, $0", "=x,x,x,0,~{dirflag},~{fpsr},~{flags}"(<4 x double> %a, <4 x double> %b, <4 x double> %c)
  ret <4 x double> %r
}

define double @sum(ptr %x) {
  %a = load <4 x double>, ptr %x
  %p = getelementptr inbounds i8, ptr %x, i64 32
  %b = load <4 x double>, ptr %p
  %q = getelementptr inbounds i8, ptr %x, i64 64
  %c = load <4 x double>, ptr %q
  %r = call <4 x double> @madd(<4 x double> %a, <4 x double> %b, <4 x double> %c)
  %s = call double @llvm.vector.reduce.fadd.v4f64(double 0.0, <4 x double> %r)
  ret double %s
}
declare double @llvm.vector.reduce.fadd.v4f64(double, <4 x double>)

define void @grad(ptr %x, ptr %dx) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @sum, ptr @enzyme_dup, ptr %x, ptr %dx)
  ret void
}

; CHECK-LABEL: define internal void @sum.tapestry.rev_d_ra(
; CHECK-NOT: asm
; CHECK: fmul <4 x double> %b, [[SEED:%.*]]
; CHECK: fmul <4 x double> %a, [[SEED]]
; CHECK: fadd <4 x double> {{%.*}}, [[SEED]]
; CHECK-NOT: asm
; CHECK: ret void
