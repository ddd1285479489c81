; Fast-math's nnan and ninf make an infinite or NaN result poison, which the
; reverse sweep's zero-adjoint guard cannot catch (fuzz seeds 12426, 12617:
; a lane x / 0 that the primal never used became poison in the adjoints).
; The prepared primal keeps the other fast-math flags and drops those two;
; end to end: test/Vector/fastmath-undefined-lanes.c.
; RUN: %opt -passes=tapestry -tapestry-print-prepared -disable-output %s 2>&1 | FileCheck %s

declare { double, double } @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define {{.*}}@f.tapestry.primal(
; CHECK: fdiv reassoc nsz arcp contract afn <2 x double>
; CHECK: fmul reassoc nsz arcp contract afn <2 x double>
; CHECK-NOT: nnan
; CHECK-NOT: ninf
; CHECK: ret double
define double @f(double %x, double %y) {
  %a = insertelement <2 x double> poison, double %x, i64 0
  %v = insertelement <2 x double> %a, double %y, i64 1
  %d = shufflevector <2 x double> %v, <2 x double> poison, <2 x i32> <i32 1, i32 poison>
  %q = fdiv fast <2 x double> %v, %d
  %qq = fmul fast <2 x double> %q, %q
  %r = extractelement <2 x double> %qq, i64 0
  ret double %r
}

define { double, double } @g(double %x, double %y) {
  %r = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %r
}
