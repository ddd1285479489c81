; A request whose function is one of several (a select or a phi of
; functions: a ternary in the source, or requests in an if's branches that
; simplifycfg merged into one call) is split into one request per
; function, chosen by comparing the pointer. Was "the first argument of
; __enzyme_autodiff must be a function ... known only at run time". End to
; end, in the opt flow: test/Integration/request-function-chosen.c.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
declare double @__enzyme_autodiff(ptr, ...)

define double @g(double %a) {
  ret double %a
}

define double @h(double %a) {
  %m = fmul double %a, %a
  ret double %m
}

define double @grad(i1 %c, double %a) {
  %fn = select i1 %c, ptr @g, ptr @h
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr %fn, double %a)
  ret double %d
}

; CHECK-LABEL: define double @grad(
; CHECK: %fn = select i1 %c, ptr @g, ptr @h
; CHECK-NEXT: %[[IS:.*]] = icmp eq ptr %fn, @g
; CHECK-NEXT: br i1 %[[IS]]
; CHECK: %[[DG:.*]] = call double @g.tapestry.rev_a_ra(double %a, double 1.000000e+00)
; CHECK: %[[DH:.*]] = call double @h.tapestry.rev_a_ra(double %a, double 1.000000e+00)
; CHECK: %[[D:.*]] = phi double [ %[[DG]], %{{.*}} ], [ %[[DH]], %{{.*}} ]
; CHECK: ret double %[[D]]
; CHECK-NOT: @__enzyme_autodiff(
