; C99's inverse complex functions have no derivative of their own: the
; prepared primal computes them with Kahan's real formulas (products of
; complex square roots, then atan2 and asinh), which AD differentiates; the
; reverse needs the square roots (hypot, sqrt, copysign), and no call to
; the C library function is left in the derivative (catan is
; -i catanh(iz), whose partials are divisions). Before, both were "no
; derivative is known for external function". End to end, against the C library and
; central differences: test/Integration/c99-complex-inverse-functions.c.
; RUN: %opt -passes=tapestry,verify -S %s -o %t
; RUN: FileCheck %s --input-file=%t
; RUN: FileCheck %s --input-file=%t --check-prefix=ATAN
declare double @__enzyme_autodiff(...)
declare { double, double } @casin(double, double)
declare { double, double } @catan(double, double)

define double @f(double %a, double %b) {
  %z = call { double, double } @casin(double %a, double %b)
  %re = extractvalue { double, double } %z, 0
  %im = extractvalue { double, double } %z, 1
  %r = fadd double %re, %im
  ret double %r
}

define double @g(double %a, double %b) {
  %z = call { double, double } @catan(double %a, double %b)
  %re = extractvalue { double, double } %z, 0
  %im = extractvalue { double, double } %z, 1
  %r = fmul double %re, %im
  ret double %r
}

define void @caller(double %a, double %b) {
  %d1 = call { double, double } (...) @__enzyme_autodiff(ptr @f, double %a, double %b)
  %d2 = call { double, double } (...) @__enzyme_autodiff(ptr @g, double %a, double %b)
  ret void
}

; CHECK-LABEL: define internal { double, double } @f.tapestry.rev_
; CHECK-NOT: @casin
; CHECK: call double @hypot(
; CHECK: call double @llvm.sqrt.f64(
; CHECK: call double @llvm.copysign.f64(
; CHECK-NOT: @casin
; CHECK: ret { double, double }
; ATAN-LABEL: define internal { double, double } @g.tapestry.rev_
; ATAN-NOT: @catan
; ATAN: fdiv double
; ATAN-NOT: @catan
; ATAN: ret { double, double }
