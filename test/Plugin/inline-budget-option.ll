; -tapestry-inline-budget=N (clang: -fplugin=<plugin> -mllvm
; -tapestry-inline-budget=N; default 4000): callees are inlined into the
; function before it is differentiated while it stays under N instructions;
; calls beyond the budget stay calls, of the callee's own derivative.
;
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s --check-prefix=INLINED
; RUN: %opt -passes=tapestry,verify -tapestry-inline-budget=4000 -S %s \
; RUN:   | FileCheck %s --check-prefix=INLINED
; RUN: %opt -passes=tapestry,verify -tapestry-inline-budget=1 -S %s \
; RUN:   | FileCheck %s --check-prefix=CALLED
declare double @__enzyme_autodiff(...)
declare double @llvm.sin.f64(double)

define double @leaf(double %x) {
  %s = call double @llvm.sin.f64(double %x)
  %m = fmul double %s, %x
  ret double %m
}

define double @f(double %x) {
  %a = call double @leaf(double %x)
  %h = fmul double %x, 5.000000e-01
  %b = call double @leaf(double %h)
  %r = fadd double %a, %b
  ret double %r
}

define double @caller(double %x) {
  %d = call double (...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %d
}

; Within the budget: leaf's body is part of f's derivative.
; INLINED-LABEL: define internal double @f.tapestry.rev_a_ra(
; INLINED-NOT:   call {{.*}}@leaf
; INLINED:       call double @llvm.cos.f64(
; INLINED:       ret double
; INLINED-NOT:   define {{.*}}@leaf.tapestry

; Beyond it: both calls stay calls, of leaf's split derivative.
; CALLED-LABEL: define internal double @f.tapestry.rev_a_ra(
; CALLED:       call { ptr, double } @leaf.tapestry.split_a_ra.call.fwd(double %x)
; CALLED:       call { ptr, double } @leaf.tapestry.split_a_ra.call.fwd(double %h)
; CALLED:       call double @leaf.tapestry.split_a_ra.call.rev(
; CALLED:       call double @leaf.tapestry.split_a_ra.call.rev(
; CALLED:       ret double
