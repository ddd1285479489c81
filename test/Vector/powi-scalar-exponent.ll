; llvm.powi on a vector with one scalar exponent (what -ffast-math makes of
; pow(x, -2.5) = sqrt(x) * powi(x, -3) once the loop vectoriser widens it):
; the partial n x^(n-1) converts the scalar exponent and splats it over the
; lanes. It crashed the plugin (a scalar-to-vector sitofp), in forward and
; reverse mode (fuzz seed 4389, test/Fuzz/vector-powi-fast-math-crash.c).
; RUN: %opt -passes=tapestry,verify -S %s 2>&1 | FileCheck %s
; CHECK-NOT: error:
; CHECK-LABEL: define internal void @f.tapestry.rev_dc_ra(
; CHECK: call <4 x double> @llvm.powi.v4f64.i32(<4 x double> %v, i32 %{{.+}})
; CHECK-NEXT: sitofp i32 %n to double
; CHECK-LABEL: define internal double @f.tapestry.fwd_dc_ra(
; CHECK: %[[NM1:.+]] = add i32 %n, -1
; CHECK-NEXT: %[[P:.+]] = call <4 x double> @llvm.powi.v4f64.i32(<4 x double> %v, i32 %[[NM1]])
; CHECK-NEXT: %[[N:.+]] = sitofp i32 %n to double
; CHECK-NEXT: %[[INS:.+]] = insertelement <4 x double> poison, double %[[N]], i64 0
; CHECK-NEXT: %[[SPLAT:.+]] = shufflevector <4 x double> %[[INS]], <4 x double> poison, <4 x i32> zeroinitializer
; CHECK-NEXT: %[[D:.+]] = fmul <4 x double> %[[SPLAT]], %[[P]]
; CHECK-NEXT: %"p'" = fmul <4 x double> %[[D]], %"v'"
declare <4 x double> @llvm.powi.v4f64.i32(<4 x double>, i32)
declare double @llvm.vector.reduce.fadd.v4f64(double, <4 x double>)
declare void @__enzyme_autodiff(...)
declare double @__enzyme_fwddiff(...)
@enzyme_dup = external global i32
@enzyme_const = external global i32

define double @f(ptr %a, i32 %n) {
  %v = load <4 x double>, ptr %a
  %p = call <4 x double> @llvm.powi.v4f64.i32(<4 x double> %v, i32 %n)
  %s = call double @llvm.vector.reduce.fadd.v4f64(double 0.0, <4 x double> %p)
  ret double %s
}

define void @rev(ptr %a, ptr %da, i32 %n) {
  call void (...) @__enzyme_autodiff(ptr @f, ptr @enzyme_dup, ptr %a, ptr %da, ptr @enzyme_const, i32 %n)
  ret void
}

define double @fwd(ptr %a, ptr %da, i32 %n) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, ptr @enzyme_dup, ptr %a, ptr %da, ptr @enzyme_const, i32 %n)
  ret double %r
}
