; glibc's sincos(x, &s, &c) is differentiated as sin and cos stored through
; its two pointers (PrimalPreparation.cpp). It was rejected ("no derivative
; is known for external function 'sincos'"). Here d/dx (sin x cos x) =
; cos x * (cos x x') + sin x * (-sin x x').
; RUN: %opt -passes=tapestry,verify -S %s 2>&1 | FileCheck %s
; CHECK-NOT: error:
; CHECK-LABEL: define internal double @f.tapestry.fwd_d_ra(
; CHECK-NOT: @sincos
; CHECK: %[[S:.+]] = call double @llvm.sin.f64(double %x)
; CHECK-NEXT: %[[C:.+]] = call double @llvm.cos.f64(double %x)
; CHECK-NEXT: %[[DS:.+]] = fmul double %[[C]], %"x'"
; CHECK-NEXT: %[[NS:.+]] = fneg double %[[S]]
; CHECK-NEXT: %[[DC:.+]] = fmul double %[[NS]], %"x'"
; CHECK-NEXT: %[[A:.+]] = fmul double %[[C]], %[[DS]]
; CHECK-NEXT: %[[B:.+]] = fmul double %[[S]], %[[DC]]
; CHECK-NEXT: %"m'" = fadd double %[[A]], %[[B]]
; CHECK-NEXT: ret double %"m'"
declare void @sincos(double, ptr, ptr)
declare double @__enzyme_fwddiff(...)
@enzyme_dup = external global i32

define double @f(double %x) {
  %s = alloca double
  %c = alloca double
  call void @sincos(double %x, ptr %s, ptr %c)
  %sv = load double, ptr %s
  %cv = load double, ptr %c
  %m = fmul double %sv, %cv
  ret double %m
}

define double @fwd(double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %r
}
