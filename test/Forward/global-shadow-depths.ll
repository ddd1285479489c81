; Forward over reverse of code that writes a global: the inner gradient
; keeps G's adjoint in @G.tapestry.shadow (depth 0); the outer derivative
; (GlobalDepth 1, suffix _g1) keeps G's tangent in @G.tapestry.shadow.d1,
; never in the inner derivative's shadow (probe22a W1: one shadow for both
; gave f'' = 20 for 12). End to end in Integration/global-shadows-nested.c.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
declare double @__enzyme_autodiff(...)
declare double @__enzyme_fwddiff(...)
@enzyme_out = external global i32
@G = global double 0.0

; f(x) = G x with G = x^2, leaving G in a global.
define double @f(double %x) {
  %sq = fmul double %x, %x
  store double %sq, ptr @G
  %g = load double, ptr @G
  %r = fmul double %g, %x
  ret double %r
}

define double @grad_f(double %x) {
  %o = load i32, ptr @enzyme_out
  %d = call double (...) @__enzyme_autodiff(ptr @f, i32 %o, double %x)
  ret double %d
}

define double @second(double %x) {
  %t = call double (...) @__enzyme_fwddiff(ptr @grad_f, double %x, double 1.0)
  ret double %t
}

; CHECK: @G.tapestry.shadow = internal global double 0.000000e+00, !tapestry.implicit_shadow ![[D0:[0-9]+]]
; CHECK: @G.tapestry.shadow.d1 = internal global double 0.000000e+00, !tapestry.implicit_shadow ![[D1:[0-9]+]]

; Each request's call site zeroes the shadows its derivative uses.
; CHECK-LABEL: define double @second(
; CHECK:         call void @llvm.memset.p0.i64(ptr align 8 @G.tapestry.shadow.d1, i8 0, i64 8, i1 false)
; CHECK:         call double @grad_f.tapestry.fwd_d_ra_g1(

; CHECK-LABEL: define internal double @f.tapestry.rev_a_ra(
; CHECK:         load double, ptr @G.tapestry.shadow,
; CHECK-NOT:     @G.tapestry.shadow.d1
; CHECK:         ret double

; CHECK-LABEL: define internal double @grad_f.tapestry.fwd_d_ra_g1(
; CHECK:         store double %sq.i, ptr @G,
; CHECK-NEXT:    store double %"sq.i'", ptr @G.tapestry.shadow.d1,
; CHECK-NOT:     store double %"sq.i'", ptr @G.tapestry.shadow,
; CHECK:         ret double

; CHECK: ![[D0]] = !{i32 0}
; CHECK: ![[D1]] = !{i32 1}
