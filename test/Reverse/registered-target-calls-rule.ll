; A request whose target is itself registered as like a math function
; (fastLog1p, like log1p) or as inactive (noisy): the derivative is built
; for a wrapper that calls the target, so the call carries the registered
; rule (log1p's partial 1 / (1 + a); none for an inactive function), not
; the target's body (2 a and 3 a, whose derivatives 2 and 3 came out
; before). End to end: test/Integration/registered-target-by-rule.c.
;
; RUN: %opt -passes=tapestry -S %s | FileCheck %s
@.like = private constant [6 x i8] c"log1p\00"
@__enzyme_function_like = global [2 x ptr] [ptr @fastLog1p, ptr @.like]
@__enzyme_inactivefn = global [1 x ptr] [ptr @noisy]
declare double @__enzyme_autodiff(ptr, ...)

define double @fastLog1p(double %a) {
  %r = fmul double 2.0, %a
  ret double %r
}

define double @noisy(double %a) {
  %r = fmul double 3.0, %a
  ret double %r
}

define double @g(double %a) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @fastLog1p, double %a)
  ret double %d
}

define double @h(double %a) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @noisy, double %a)
  ret double %d
}

; CHECK-LABEL: define double @g(
; CHECK: call {{.*}}@fastLog1p.tapestry.registered.tapestry.rev
; CHECK-LABEL: define double @h(
; CHECK: call {{.*}}@noisy.tapestry.registered.tapestry.rev
; CHECK-LABEL: define internal {{.*}}@noisy.tapestry.registered.tapestry.rev
; CHECK-NOT: 3.000000e+00
; CHECK: ret double 0.000000e+00
; CHECK-LABEL: define internal {{.*}}@fastLog1p.tapestry.registered.tapestry.rev
; CHECK-NEXT: entry:
; CHECK-NEXT: call double @fastLog1p(double %0)
; CHECK-NOT: 2.000000e+00
; CHECK: %[[D:.*]] = fadd double %0, 1.000000e+00
; CHECK-NEXT: fdiv double 1.000000e+00, %[[D]]
; CHECK-NOT: 2.000000e+00
; CHECK: ret
