; sin and cos of one angle (a rotation's): the partial of each is the
; other, which the code already computes, so the derivative calls each once
; (the primal's calls) instead of computing cos and sin again for the
; partials. Reverse mode uses the pair whatever their order in the block;
; forward mode only a call before the one it differentiates (here cos's
; tangent computes sin again).
;
; RUN: %opt -passes=tapestry -S %s -o %t
; RUN: FileCheck %s --check-prefix=REV --input-file=%t
; RUN: FileCheck %s --check-prefix=FWD --input-file=%t
@enzyme_dup = external global i32
declare { double, double } @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)
declare double @sin(double)
declare double @cos(double)

define double @f(double %t, double %p) {
entry:
  %c = call double @cos(double %t)
  %s = call double @sin(double %t)
  %a = fmul double %c, %p
  %b = fmul double %s, %p
  %r = fadd double %a, %b
  ret double %r
}

define { double, double } @grad(double %t, double %p) {
  %r = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %t, double %p)
  ret { double, double } %r
}

define double @tangent(double %t, double %p, double %dt) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %t, double %dt, double %p, double 0.0)
  ret double %r
}

; REV-LABEL: define internal {{.*}} @f.tapestry.rev
; REV-NOT: @llvm.sin
; REV-NOT: @llvm.cos
; REV: call double @cos(double %t)
; REV-NEXT: call double @sin(double %t)
; REV-NOT: @llvm.sin
; REV-NOT: @llvm.cos
; REV-NOT: @sin
; REV-NOT: @cos
; REV: ret

; FWD-LABEL: define internal {{.*}} @f.tapestry.fwd
; FWD: %c = call double @cos(double %t)
; FWD: call double @llvm.sin.f64(double %t)
; FWD: %s = call double @sin(double %t)
; FWD-NOT: @llvm.cos
; FWD-NOT: @llvm.sin
; FWD: ret
