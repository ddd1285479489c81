; The C library's complex square root of a double complex passed as two
; doubles (how clang calls csqrt for std::complex<double>) becomes its real
; formula before differentiation: hypot and sqrt, whose derivatives are
; known; no call to csqrt is left in the derivative.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
declare double @__enzyme_autodiff(...)
declare { double, double } @csqrt(double, double)

define double @f(double %a, double %b) {
  %z = call { double, double } @csqrt(double %a, double %b)
  %re = extractvalue { double, double } %z, 0
  %im = extractvalue { double, double } %z, 1
  %r = fadd double %re, %im
  ret double %r
}

define { double, double } @caller(double %a, double %b) {
  %d = call { double, double } (...) @__enzyme_autodiff(ptr @f, double %a, double %b)
  ret { double, double } %d
}

; CHECK-LABEL: define internal { double, double } @f.tapestry.rev_
; CHECK-NOT: @csqrt
; CHECK: call double @hypot(double %a, double %b)
; CHECK-NOT: @csqrt
; CHECK: ret { double, double }
