; Synthesised functions returning more than two doubles (a request for
; three active values, a kept callee's reverse with three active
; arguments) use x86_regcallcc on x86-64, at the definition and at every
; call: the C convention returns the third double on the x87 stack, which
; LLVM 19 moves at -O0 under AVX-512 with an illegal instruction (fuzz seed
; 15374; Passes/FloatingPointReturns.h). Functions returning two or fewer
; stay C. The run against analytic values:
; test/Integration/three-adjoints-returned-in-sse.c.
; RUN: %opt -passes=tapestry -S %s -o - | FileCheck %s
; CHECK-LABEL: define { double, double, double } @grad3(
; CHECK: call x86_regcallcc { double, double, double } @f.tapestry.rev_aaa_ra(
; CHECK-LABEL: define { double, double } @grad2(
; CHECK: call { double, double } @h.tapestry.rev_aa_ra(
; CHECK-DAG: define internal x86_regcallcc { double, double, double } @f.tapestry.rev_aaa_ra(
; CHECK-DAG: call x86_regcallcc { double, double, double } @g.tapestry.split_aaa_ra.call.rev(
; CHECK-DAG: define internal x86_regcallcc { double, double, double } @g.tapestry.split_aaa_ra.call.rev(
; CHECK-DAG: define internal { double, double } @h.tapestry.rev_aa_ra(
target triple = "x86_64-pc-linux-gnu"

declare void @__enzyme_autodiff(ptr, ...)
declare double @llvm.sin.f64(double)

define internal double @g(double %a, double %b, double %c) noinline {
  %s = call double @llvm.sin.f64(double %a)
  %m = fmul double %s, %b
  %r = fmul double %m, %c
  ret double %r
}

define double @f(double %a, double %b, double %c) {
  %x = call double @g(double %a, double %b, double %c)
  %y = call double @g(double %b, double %c, double %a)
  %r = fmul double %x, %y
  ret double %r
}

define double @h(double %a, double %b) {
  %r = fmul double %a, %b
  ret double %r
}

define { double, double, double } @grad3(double %a, double %b, double %c) {
  %d = call { double, double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %a, double %b, double %c)
  ret { double, double, double } %d
}

define { double, double } @grad2(double %a, double %b) {
  %d = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @h, double %a, double %b)
  ret { double, double } %d
}
