; A call to @sum_exp, which has registered rules, whose inputs carry no
; derivative (%x is enzyme_const, the local %o is only written by the
; call): the derivatives keep the primal call and call no rule, which
; would receive a NULL shadow for %x. The call in @obj2, whose local %y
; holds an active value, calls the rules with its shadow.
; End to end: test/Integration/custom-rule-inactive-inputs.c.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
; CHECK-LABEL: define internal double @obj2.tapestry.fwd_cd_ra(
; CHECK: call void @sum_exp_fwd(ptr nonnull %y, ptr nonnull %"y'"
; CHECK-LABEL: define internal double @obj.tapestry.fwd_cd_ra(
; CHECK-NOT: @sum_exp_fwd
; CHECK: call void @sum_exp(ptr %x, ptr nonnull %o)
; CHECK-NOT: @sum_exp_fwd
; CHECK: ret double
; CHECK-LABEL: define internal double @obj.tapestry.rev_ca_ra(
; CHECK-NOT: @sum_exp_aug
; CHECK-NOT: @sum_exp_rev
; CHECK: call void @sum_exp(ptr %x, ptr nonnull %o)
; CHECK-NOT: @sum_exp_aug
; CHECK-NOT: @sum_exp_rev
; CHECK: ret double
declare double @__enzyme_fwddiff(...)
declare double @__enzyme_autodiff(...)
declare double @exp(double)
@enzyme_dup = external global i32
@enzyme_const = external global i32
@enzyme_out = external global i32
@__enzyme_register_derivative_sum_exp = global [2 x ptr] [ptr @sum_exp, ptr @sum_exp_fwd]
@__enzyme_register_gradient_sum_exp = global [3 x ptr] [ptr @sum_exp, ptr @sum_exp_aug, ptr @sum_exp_rev]

define double @test(ptr %x, double %s) {
  %f = call double (...) @__enzyme_fwddiff(ptr @obj, ptr @enzyme_const, ptr %x, ptr @enzyme_dup, double %s, double 1.0)
  %r = call double (...) @__enzyme_autodiff(ptr @obj, ptr @enzyme_const, ptr %x, ptr @enzyme_out, double %s)
  %f2 = call double (...) @__enzyme_fwddiff(ptr @obj2, ptr @enzyme_const, ptr %x, ptr @enzyme_dup, double %s, double 1.0)
  %a = fadd double %f, %r
  %b = fadd double %a, %f2
  ret double %b
}

define double @obj(ptr %x, double %s) {
  %o = alloca double
  call void @sum_exp(ptr %x, ptr %o)
  %v = load double, ptr %o
  %r = fmul double %v, %s
  ret double %r
}

define double @obj2(ptr %x, double %s) {
  %y = alloca double
  %o = alloca double
  %x0 = load double, ptr %x
  %y0 = fmul double %x0, %s
  store double %y0, ptr %y
  call void @sum_exp(ptr %y, ptr %o)
  %v = load double, ptr %o
  %r = fmul double %v, %s
  ret double %r
}

define void @sum_exp(ptr %x, ptr %out) noinline {
  %x0 = load double, ptr %x
  %e = call double @exp(double %x0)
  store double %e, ptr %out
  ret void
}

define void @sum_exp_fwd(ptr %x, ptr %dx, ptr %out, ptr %dout) {
  %x0 = load double, ptr %x
  %d0 = load double, ptr %dx
  %e = call double @exp(double %x0)
  store double %e, ptr %out
  %t = fmul double %e, %d0
  store double %t, ptr %dout
  ret void
}

define ptr @sum_exp_aug(ptr %x, ptr %dx, ptr %out, ptr %dout) {
  call void @sum_exp(ptr %x, ptr %out)
  ret ptr null
}

define void @sum_exp_rev(ptr %x, ptr %dx, ptr %out, ptr %dout, ptr %tape) {
  %x0 = load double, ptr %x
  %e = call double @exp(double %x0)
  %g = load double, ptr %dout
  %t = fmul double %e, %g
  %d0 = load double, ptr %dx
  %n = fadd double %d0, %t
  store double %n, ptr %dx
  store double 0.0, ptr %dout
  ret void
}
