; -tapestry-print-prepared (clang: -fplugin=<plugin> -mllvm
; -tapestry-print-prepared; default off): each function is printed to
; standard error as differentiation starts from it, its callees inlined
; (@leaf here) and simplified; the module's output is the same either way.
;
; RUN: %opt -passes=tapestry,verify -tapestry-print-prepared -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=PRINTED
; RUN: %opt -passes=tapestry,verify -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=QUIET --allow-empty
; RUN: %opt -passes=tapestry,verify -tapestry-print-prepared -S %s 2>/dev/null \
; RUN:   | FileCheck %s --check-prefix=MODULE
; PRINTED-LABEL: define internal double @f.tapestry.primal(double %x)
; PRINTED-NOT: call double @leaf
; PRINTED: call double @llvm.sin.f64(double %x)
; PRINTED: fmul double
; PRINTED: ret double
; QUIET-NOT: tapestry.primal
; MODULE-NOT: tapestry.primal
; MODULE: define double @grad(double %x)
; MODULE-NEXT: call double @f.tapestry.rev_a_ra(double %x, double 1.0
declare double @__enzyme_autodiff(...)
declare double @llvm.sin.f64(double)

define internal double @leaf(double %x) {
  %s = call double @llvm.sin.f64(double %x)
  %m = fmul double %s, %x
  ret double %m
}

define double @f(double %x) {
  %r = call double @leaf(double %x)
  ret double %r
}

define double @grad(double %x) {
  %d = call double (...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %d
}
