; Request order through a registered rule: @k's custom reverse @k_rev
; computes its adjoint with a request of its own (__enzyme_autodiff of
; @helper). The forward request on @grad_use differentiates the reverse
; derivative of @use, which calls @k_rev in @k's place, so the request in
; @k_rev must be resolved before it, although nothing calls @k_rev (only
; the registration global names it) and it comes last in the module.
; Before the fix the forward request was resolved first and stopped at
; "no derivative is known for external function '__enzyme_autodiff'".
; End to end: test/EntryPoints/custom-rule-with-request.c.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
; CHECK-NOT: __enzyme_autodiff
; CHECK-NOT: __enzyme_fwddiff
; CHECK-LABEL: define double @test(
; CHECK-NEXT: call double @grad_use.tapestry.fwd_d_ra(double %x, double 1.0
; CHECK-LABEL: define double @grad_use(
; CHECK-NEXT: call double @use.tapestry.rev_a_ra(double %x, double 1.0
; CHECK-LABEL: define double @k_rev(
; CHECK-NEXT: call double @helper.tapestry.rev_a_ra(double %x, double 1.0
; The reverse derivative of @use calls the registered rules...
; CHECK-LABEL: define internal double @use.tapestry.rev_a_ra(
; CHECK: call double @k_aug(double %x)
; CHECK: call double @k_rev(double %x,
; ...and the forward derivative of @grad_use differentiates them, the
; inner gradient of @helper (sin x + x cos x) included: the derivative of
; its cos x is -sin x, the sin x the same block computes.
; CHECK-LABEL: define internal double @grad_use.tapestry.fwd_d_ra(
; CHECK-NOT: @llvm.sin
; CHECK: %[[SIN:s\.i[0-9]+]] = call double @sin(double %x)
; CHECK-NEXT: fcmp
; CHECK-NEXT: fneg double %[[SIN]]
; CHECK-NOT: __enzyme_autodiff
; CHECK-NOT: __enzyme_fwddiff
declare double @__enzyme_fwddiff(...)
declare double @__enzyme_autodiff(...)
declare double @sin(double)
@enzyme_dup = external global i32
@enzyme_out = external global i32
@__enzyme_register_gradient_k = global [3 x ptr] [ptr @k, ptr @k_aug, ptr @k_rev]

define double @test(double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @grad_use, ptr @enzyme_dup, double %x, double 1.0)
  ret double %r
}

define double @grad_use(double %x) {
  %r = call double (...) @__enzyme_autodiff(ptr @use, ptr @enzyme_out, double %x)
  ret double %r
}

define double @use(double %x) {
  %k = call double @k(double %x)
  %r = fmul double %k, %x
  ret double %r
}

define internal double @helper(double %x) {
  %s = call double @sin(double %x)
  %r = fmul double %s, %x
  ret double %r
}

define double @k(double %x) {
  %r = call double @helper(double %x)
  ret double %r
}

define double @k_aug(double %x) {
  %s = call double @sin(double %x)
  %r = fmul double %s, %x
  ret double %r
}

define double @k_rev(double %x, double %d) {
  %g = call double (...) @__enzyme_autodiff(ptr @helper, ptr @enzyme_out, double %x)
  %r = fmul double %d, %g
  ret double %r
}
