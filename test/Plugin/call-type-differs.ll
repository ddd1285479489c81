; A request whose call has a different function type than the entry point's
; declaration, as clang emits for an unprototyped `double
; __enzyme_autodiff();` and as Enzyme-style IR writes it: a well-formed
; request is resolved, a malformed one is reported as an error (this used to
; crash on a null CallBase::getCalledFunction()).
;
; RUN: %opt -passes=tapestry -S %s | FileCheck %s \
; RUN:   --implicit-check-not=__enzyme_ --implicit-check-not=@enzyme_
; RUN: not %opt -passes=tapestry -disable-output %S/Inputs/call-type-differs-error.ll 2>&1 \
; RUN:   | FileCheck %S/Inputs/call-type-differs-error.ll

@enzyme_out = external global i32

declare double @__enzyme_autodiff(...)

define double @sq(double %x) {
  %r = fmul double %x, %x
  ret double %r
}

define double @grad(double %x) {
  %m = load i32, ptr @enzyme_out
  %d = call double (ptr, i32, double) @__enzyme_autodiff(ptr @sq, i32 %m, double %x)
  ret double %d
}

; CHECK-LABEL: define double @grad(double %x)
; CHECK:       [[D:%.*]] = call double @sq.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CHECK-NEXT:  ret double [[D]]
