; Requests on a helper's function parameter, as IR (end to end:
; test/Integration/request-wrapper-helper-differentiated.c and
; request-wrapper-optional-callback.c). @hess differentiates @grad,
; which requests its parameter %f, passing @sq as enzyme_const: the
; request is pointed at a copy of @grad with @sq in place, whose own
; request names @sq (Passes/RequestWrappers.cpp). @check is called with
; null for %f and tests it first: the site is inlined and the test folded,
; so no request on null is left, nor a stop.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
; CHECK-NOT: define internal double @grad(
; CHECK-NOT: was asked for the derivative of a null function pointer
; CHECK-LABEL: define double @hess(
; CHECK: call {{.*}}@grad.with.sq
; CHECK-LABEL: define double @optional(
; CHECK-NOT: call {{.*}}@check(
; CHECK: ret double

@enzyme_const = external global i32
@enzyme_dup = external global i32
@enzyme_out = external global i32
declare double @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)

define internal double @sq(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

define internal double @grad(ptr %f, double %x) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr %f, ptr @enzyme_out, double %x)
  ret double %d
}

define double @hess(double %x) {
  %h = call double (ptr, ...) @__enzyme_fwddiff(ptr @grad, ptr @enzyme_const, ptr @sq, ptr @enzyme_dup, double %x, double 1.0)
  ret double %h
}

define internal double @check(ptr %f, double %x) {
entry:
  %none = icmp eq ptr %f, null
  br i1 %none, label %skip, label %ask

ask:
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr %f, ptr @enzyme_out, double %x)
  br label %skip

skip:
  %r = phi double [ 0.0, %entry ], [ %d, %ask ]
  ret double %r
}

define double @optional(double %x) {
  %a = call double @check(ptr null, double %x)
  %b = call double @check(ptr @sq, double %x)
  %s = fadd double %a, %b
  ret double %s
}
