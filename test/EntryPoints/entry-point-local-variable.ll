; Enzyme's entry point kept in a local variable (a function pointer of
; another prototype) and called through it is a request like a direct call:
; the call becomes the derivative's, and the variable goes, so no reference
; to __enzyme_autodiff reaches the linker (it was an undefined reference).
; RUN: %opt -passes=tapestry,verify -S %s 2>&1 | FileCheck %s
; CHECK-NOT: error:
; CHECK-LABEL: define double @grad(
; CHECK-NEXT: %[[R:.+]] = call double @sq.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CHECK-NEXT: ret double %[[R]]
; CHECK-NOT: store ptr @__enzyme_autodiff
declare double @__enzyme_autodiff(ptr, ...)
@enzyme_out = external global i32

define double @sq(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

define double @grad(double %x) {
  %fp = alloca ptr
  store ptr @__enzyme_autodiff, ptr %fp
  %g = load ptr, ptr %fp
  %r = call double (ptr, ...) %g(ptr @sq, ptr @enzyme_out, double %x)
  ret double %r
}
