; Library calls prepared into what AD differentiates (issue 14):
;  - fdim(x, y) becomes x <= y ? 0 : x - y;
;  - llvm.lround (and lround, lrint, ilogb: integer results) is inactive
;    (its result carries no derivative, and the reverse does not need it);
;  - cabsf of a float complex passed as <2 x float> (x86-64) becomes
;    hypotf of its two lanes.
; End to end: test/Integration/libm-fdim-logb.c,
; test/Integration/integer-rounding-functions.c,
; test/Integration/cpp-complex-float.cpp.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
declare double @__enzyme_autodiff(ptr, ...)
declare float @__enzyme_autodiff_f(ptr, ...)
declare double @fdim(double, double)
declare i64 @llvm.lround.i64.f64(double)
declare float @cabsf(<2 x float>)

define double @hinge(double %x, double %y) {
  %d = call double @fdim(double %x, double %y)
  %k = call i64 @llvm.lround.i64.f64(double %x)
  %kf = sitofp i64 %k to double
  %r = fadd double %d, %kf
  ret double %r
}

define float @modulus(float %re, float %im) {
  %z0 = insertelement <2 x float> poison, float %re, i64 0
  %z = insertelement <2 x float> %z0, float %im, i64 1
  %m = call float @cabsf(<2 x float> %z)
  ret float %m
}

define void @grad(double %x, double %y, float %a, float %b) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @hinge, double %x, double %y)
  %e = call float (ptr, ...) @__enzyme_autodiff_f(ptr @modulus, float %a, float %b)
  ret void
}

; CHECK-LABEL: define internal {{.*}} @hinge.tapestry.rev
; CHECK-NOT: call double @fdim
; CHECK: %[[LE:.*]] = fcmp ole double %x, %y
; CHECK: select i1 %[[LE]]
; CHECK-LABEL: define internal {{.*}} @modulus.tapestry.rev
; CHECK-NOT: call float @cabsf
; CHECK: call float @hypotf(float
