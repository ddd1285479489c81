; Lanes vectorised code leaves undefined (a shuffle mask's poison elements,
; a constant's poison elements) get a value before AD
; (PrimalPreparation.cpp, defineUndefinedLanes): the reverse multiplies
; those lanes' zero adjoints by them, and poison times zero is poison,
; which in batched reverse mode swallowed real adjoints (fuzz seeds 7024,
; 7075, 7256, 7319, 7399; end-to-end: test/Fuzz/batch-reverse-poison-lane-*.c).
; The derivative's copy of the primal reads a lane of the undefined
; operand (now zero) or a lane the mask already picks, never a lane the
; primal did not read (it may hold other data: a float's bytes under a
; <2 x double> reload, probe24a R3), and the partials' poison lanes are 0.
;
; RUN: %opt -passes=tapestry -S %s -o - | FileCheck %s

@enzyme_dup = external global i32
declare void @__enzyme_autodiff(ptr, ...)

define double @pair(ptr %a) {
  %v = load <2 x double>, ptr %a
  %s = shufflevector <2 x double> %v, <2 x double> poison, <2 x i32> <i32 1, i32 poison>
  %m = fmul <2 x double> %v, %s
  %k = fmul <2 x double> %m, <double 3.0, double poison>
  %r = extractelement <2 x double> %k, i64 0
  ret double %r
}

define void @grad(ptr %a, ptr %da) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @pair, ptr @enzyme_dup, ptr %a, ptr %da)
  ret void
}

; CHECK-LABEL: define internal void @pair.tapestry.rev_d_ra(
; CHECK:       %s = shufflevector <2 x double> %v, <2 x double> <double 0.000000e+00, {{.*}}>, <2 x i32> <i32 1, i32 2>
; CHECK:       fmul <2 x double> %{{.*}}, <double 3.000000e+00, double 0.000000e+00>
; CHECK-NOT:   <i32 1, i32 poison>
; CHECK-NOT:   double 3.000000e+00, double poison
; CHECK-LABEL: {{^}}}
