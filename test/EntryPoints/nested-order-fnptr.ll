; Request order: a request inside code that another request differentiates
; is resolved first, also when that code is reached only through a function
; pointer (here @innerGrad, passed to @outer as a callback). The outer
; forward request comes first in the module, so the pass must reorder: the
; inner gradient of @g is made first and @innerGrad calls it, then the
; forward derivative of @f differentiates that call (forward over reverse).
; End to end: test/Bench/nested-fwd-over-rev-fnptr.c.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
; CHECK-NOT: __enzyme_
; CHECK-LABEL: define double @test(
; CHECK-NEXT: call double @f.tapestry.fwd_d_ra(ptr %p, ptr %dp)
; CHECK-LABEL: define internal void @innerGrad(
; CHECK-NEXT: store double 0.0
; CHECK-NEXT: call void @g.tapestry.rev_cd_ra(ptr %p, ptr %q, ptr %dq, double 1.0
; CHECK-NEXT: ret void
; The inner gradient is made before the outer derivative, which calls it
; (here inlined: d/dp of p * 2 p q at q = 3 is 12 p, in terms of p * 3).
; CHECK: define internal void @g.tapestry.rev_cd_ra(
; CHECK: define internal double @f.tapestry.fwd_d_ra(ptr %p, ptr %"p'")
; CHECK: fmul double %{{.*}}, 3.0
; CHECK-NOT: __enzyme_
declare double @__enzyme_fwddiff(...)
declare void @__enzyme_autodiff(...)
@enzyme_const = external global i32
@enzyme_dup = external global i32

define double @test(ptr %p, ptr %dp) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, ptr @enzyme_dup, ptr %p, ptr %dp)
  ret double %r
}

define internal double @g(ptr %p, ptr %q) {
  %pv = load double, ptr %p
  %qv = load double, ptr %q
  %m = fmul double %pv, %qv
  %r = fmul double %m, %qv
  ret double %r
}

define internal void @innerGrad(ptr %p, ptr %q, ptr %dq) {
  store double 0.0, ptr %dq
  call void (...) @__enzyme_autodiff(ptr @g, ptr @enzyme_const, ptr %p, ptr @enzyme_dup, ptr %q, ptr %dq)
  ret void
}

define internal double @outer(ptr %p, ptr %grad) {
  %q = alloca double
  %dq = alloca double
  store double 3.0, ptr %q
  call void %grad(ptr %p, ptr %q, ptr %dq)
  %d = load double, ptr %dq
  %pv = load double, ptr %p
  %r = fmul double %d, %pv
  ret double %r
}

define double @f(ptr %p) {
  %r = call double @outer(ptr %p, ptr @innerGrad)
  ret double %r
}
