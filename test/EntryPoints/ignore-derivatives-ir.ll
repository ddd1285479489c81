; __enzyme_ignore_derivatives(x): inactive in the function differentiated
; (only the other use of %x gets the adjoint: d/dx (stop(x) + x)^2 is
; 2 (x + x), with no second term), and replaced by its argument once the
; request is resolved, in the primal and in the derivative alike.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
; CHECK-NOT: call {{.*}}@__enzyme_ignore_derivatives
declare double @__enzyme_ignore_derivatives(double)
declare double @__enzyme_autodiff(...)

define double @tester(double %x) {
  %y = call double @__enzyme_ignore_derivatives(double %x)
  %z = fadd double %y, %x
  %r = fmul double %z, %z
  ret double %r
}
; CHECK-LABEL: define double @tester(double %x)
; CHECK: %z = fadd double %x, %x

define double @dtester(double %x) {
  %d = call double (...) @__enzyme_autodiff(ptr @tester, double %x)
  ret double %d
}
; The adjoint of %x is the seed times 2 z, once: the adjoint of %z
; (z seed, from both operands of z * z) reaches %x through one operand of
; the fadd only; through %y nothing flows (else it would be doubled again).
; CHECK-LABEL: define internal double @tester.tapestry.rev_a_ra(double %x, double %seed)
; CHECK: %z = fadd double %x, %x
; CHECK-NEXT: [[M:%.*]] = fmul double %z, %seed
; CHECK-NEXT: [[NAN:%.*]] = fcmp uno double [[M]], {{.*}}
; CHECK-NEXT: [[DROP:%.*]] = and i1 {{%.*}}, [[NAN]]
; CHECK-NEXT: [[S:%.*]] = select i1 [[DROP]], double 0.000000e+00, double [[M]]
; CHECK-NEXT: [[D:%.*]] = fadd double [[S]], [[S]]
; CHECK-NEXT: ret double [[D]]
