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

; The variable copied into a second one, and tested against null before the
; call (as C users guard a function pointer): the call is the derivative's,
; the test is folded (an entry point's address is never null) and both
; variables go.
; CHECK-LABEL: define double @grad_copied(
; CHECK-NOT: alloca
; CHECK: br i1 true, label %call, label %none
; CHECK: call: 
; CHECK-NEXT: %[[R2:.+]] = call double @sq.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CHECK-NOT: @__enzyme_autodiff
; CHECK: ret double
define double @grad_copied(double %x) {
entry:
  %fp = alloca ptr
  %fp2 = alloca ptr
  store ptr @__enzyme_autodiff, ptr %fp
  %g = load ptr, ptr %fp
  store ptr %g, ptr %fp2
  %g2 = load ptr, ptr %fp2
  %set = icmp ne ptr %g2, null
  br i1 %set, label %call, label %none
call:
  %g3 = load ptr, ptr %fp2
  %r = call double (ptr, ...) %g3(ptr @sq, ptr @enzyme_out, double %x)
  ret double %r
none:
  ret double 0.0
}
