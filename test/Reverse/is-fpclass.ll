; isnan of an active value (llvm.is.fpclass, as clang 19 emits isnan,
; isfinite and isnormal) is an inactive class test, like fcmp, and the
; function is differentiated: f'(x) = 2x where x is not NaN, 0 where it is.
; The derivative may spell isnan(x) (class mask 3) as fcmp uno x, 0.
;
; RUN: %opt -passes=tapestry -S %s -o %t
; RUN: FileCheck %s --input-file=%t \
; RUN:   --implicit-check-not=__enzyme_ --implicit-check-not=@enzyme_
; RUN: FileCheck %s --input-file=%t --check-prefix=REV
; RUN: FileCheck %s --input-file=%t --check-prefix=FWD

@enzyme_out = external global i32

declare double @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)
declare i1 @llvm.is.fpclass.f64(double, i32)

; f(x) = isnan(x) ? 0 : x * x
define double @f(double %x) {
  %nan = call i1 @llvm.is.fpclass.f64(double %x, i32 3)
  %sq = fmul double %x, %x
  %r = select i1 %nan, double 0.0, double %sq
  ret double %r
}

define double @grad(double %x) {
  %m = load i32, ptr @enzyme_out
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %m, double %x)
  ret double %d
}

define double @tangent(double %x) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %d
}

; CHECK-LABEL: define double @grad(
; CHECK:       call double @f.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CHECK-LABEL: define double @tangent(
; CHECK:       call double @f.tapestry.fwd_d_ra(double %x, double 1.000000e+00)

; REV-LABEL: define internal double @f.tapestry.rev_a_ra(double %x, double %seed)
; REV-DAG:   [[NAN:%.*]] = {{call i1 @llvm.is.fpclass.f64\(double %x, i32 3\)|fcmp uno double %x, 0.000000e\+00}}
; REV-DAG:   [[DSQ:%.*]] = select i1 [[NAN]], double 0.000000e+00, double %seed
; REV-DAG:   [[Z:%.*]] = fcmp oeq double [[DSQ]], 0.000000e+00
; REV-DAG:   [[T:%.*]] = fmul double [[DSQ]], %x
; REV-DAG:   [[NAN_S:%.*]] = fcmp uno double [[T]], {{.*}}
; REV-DAG:   [[DROP_S:%.*]] = and i1 [[Z]], [[NAN_S]]
; REV-DAG:   [[S:%.*]] = select i1 [[DROP_S]], double 0.000000e+00, double [[T]]
; REV:       [[D:%.*]] = fadd double [[S]], [[S]]
; REV-NEXT:  ret double [[D]]
; REV-LABEL: {{^}}}

; FWD-LABEL: define internal double @f.tapestry.fwd_d_ra(double %x, double %"x'")
; FWD-DAG:   [[NAN:%.*]] = {{call i1 @llvm.is.fpclass.f64\(double %x, i32 3\)|fcmp uno double %x, 0.000000e\+00}}
; FWD-DAG:   [[T:%.*]] = fmul double %x, %"x'"
; FWD-DAG:   [[DSQ:%.*]] = fadd double [[T]], [[T]]
; FWD:       [[D:%.*]] = select i1 [[NAN]], double 0.000000e+00, double [[DSQ]]
; FWD-NEXT:  ret double [[D]]
; FWD-LABEL: {{^}}}
