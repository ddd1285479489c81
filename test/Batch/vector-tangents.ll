; Batch mode in IR: a scalar's N tangents or adjoints are one <N x double>
; (the partial is computed once in scalar and splat), pointer shadows are
; [N x ptr] with per-lane address arithmetic, results come back as
; [N x double], the reverse seed is 1 in every lane, enzyme_dupv's shadows
; are base + k * stride, and enzyme_width 1 is scalar mode: the same memo
; key, the same function. The dot product's reverse sweep reloads the primal
; loads (no tape), once for all lanes; as a reverse sweep with a loop, its
; lanes are then split into scalars so the loop vectoriser can vectorise it
; across iterations.
;
; DEFINE: %{fc} = FileCheck %s --input-file=%t
; RUN: %opt -passes=tapestry -S %s -o %t
; RUN: %{fc} --check-prefix=CALL \
; RUN:   --implicit-check-not=__enzyme_ --implicit-check-not=@enzyme_
; RUN: %{fc} --check-prefix=FWD
; RUN: %{fc} --check-prefix=REV
; RUN: %{fc} --check-prefix=DOT
; RUN: %{fc} --check-prefix=ONE

; CALL-LABEL: define [4 x double] @fwd4(
; CALL: call [4 x double] @sq.tapestry.fwd_d_ra_w4(double %x, <4 x double> <double 1.000000e+00, double 2.000000e+00, double 3.000000e+00, double 4.000000e+00>)
; CALL-LABEL: define [2 x double] @rev2(
; CALL: call [2 x double] @sq.tapestry.rev_a_ra_w2(double %x, <2 x double> <double 1.000000e+00, double 1.000000e+00>)
; CALL-LABEL: define void @revdot(
; CALL: %[[L0:.*]] = insertvalue [2 x ptr] poison, ptr %da0, 0
; CALL: %[[A:.*]] = insertvalue [2 x ptr] %[[L0]], ptr %da1, 1
; CALL: %[[LANE1:.*]] = getelementptr i8, ptr %db, i64 800
; CALL: %[[M0:.*]] = insertvalue [2 x ptr] poison, ptr %db, 0
; CALL: %[[B:.*]] = insertvalue [2 x ptr] %[[M0]], ptr %[[LANE1]], 1
; CALL: call void @dot.tapestry.rev_ddc_ra_w2(ptr %a, [2 x ptr] %[[A]], ptr %b, [2 x ptr] %[[B]], i64 %n, <2 x double> <double 1.000000e+00, double 1.000000e+00>)

; FWD-LABEL: define internal [4 x double] @sq.tapestry.fwd_d_ra_w4(double %x, <4 x double> %"x'")
; FWD: %[[SX:.*]] = shufflevector <4 x double> %{{.*}}, <4 x double> poison, <4 x i32> zeroinitializer
; FWD: %[[T:.*]] = fmul <4 x double> %[[SX]], %"x'"
; FWD: %"y'" = fadd <4 x double> %[[T]], %[[T]]
; FWD: %[[COS:.*]] = call double @llvm.cos.f64(double %y)
; FWD-NOT: call double @llvm.cos
; FWD: %"s'" = fmul <4 x double> %{{.*}}, %"y'"
; FWD: ret [4 x double]

; REV-LABEL: define internal [2 x double] @sq.tapestry.rev_a_ra_w2(double %x, <2 x double> %seed)
; REV: fmul <2 x double> %{{.*}}, %seed
; REV: fadd <2 x double>
; REV: ret [2 x double]

; DOT-LABEL: define internal void @dot.tapestry.rev_ddc_ra_w2(ptr %a, [2 x ptr] %"a'", ptr %b, [2 x ptr] %"b'", i64 %n, <2 x double> %seed)
; DOT-NOT: call void @tapestry.tape.reserve
; DOT: rev.loop:
; DOT: %vb.re = load double, ptr %pb.re
; DOT-NOT: load double, ptr %pb.re
; DOT: fmul double %vb.re, %seed.i0
; DOT: fmul double %vb.re, %seed.i1
; DOT: extractvalue [2 x ptr] %"b'", 0
; DOT: extractvalue [2 x ptr] %"b'", 1
; DOT: ret void

; ONE-LABEL: define double @fwd1(
; ONE: call double @sq.tapestry.fwd_d_ra(double %x, double 1.000000e+00)
; ONE-LABEL: define double @fwdscalar(
; ONE: call double @sq.tapestry.fwd_d_ra(double %x, double 1.000000e+00)
; ONE-LABEL: define double @rev1(
; ONE: call double @sq.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; ONE-LABEL: define double @revscalar(
; ONE: call double @sq.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; ONE: define internal double @sq.tapestry.fwd_d_ra(double %x, double %"x'")
; ONE-NOT: define internal double @sq.tapestry.fwd_d_ra
; ONE: define internal double @sq.tapestry.rev_a_ra(double %x, double %seed)
; ONE-NOT: define internal double @sq.tapestry.rev_a_ra

@enzyme_width = external global i32
@enzyme_dup = external global i32
@enzyme_dupv = external global i32
@enzyme_const = external global i32
@enzyme_out = external global i32

declare double @__enzyme_fwddiff(ptr, ...)
declare [4 x double] @__enzyme_fwddiff4(ptr, ...)
declare [2 x double] @__enzyme_autodiff2(ptr, ...)
declare void @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_autodiff1(ptr, ...)

define double @sq(double %x) {
  %y = fmul double %x, %x
  %s = call double @llvm.sin.f64(double %y)
  ret double %s
}

define double @dot(ptr %a, ptr %b, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi double [ 0.0, %entry ], [ %acc1, %loop ]
  %pa = getelementptr inbounds double, ptr %a, i64 %i
  %pb = getelementptr inbounds double, ptr %b, i64 %i
  %va = load double, ptr %pa
  %vb = load double, ptr %pb
  %m = fmul double %va, %vb
  %acc1 = fadd double %acc, %m
  %i1 = add nuw nsw i64 %i, 1
  %c = icmp ult i64 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret double %acc1
}

declare double @llvm.sin.f64(double)

define [4 x double] @fwd4(double %x) {
  %w = load i32, ptr @enzyme_width
  %r = call [4 x double] (ptr, ...) @__enzyme_fwddiff4(ptr @sq, i32 %w, i32 4, double %x, double 1.0, double 2.0, double 3.0, double 4.0)
  ret [4 x double] %r
}

define double @fwd1(double %x) {
  %w = load i32, ptr @enzyme_width
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @sq, i32 %w, i32 1, double %x, double 1.0)
  ret double %r
}

define double @fwdscalar(double %x) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @sq, double %x, double 1.0)
  ret double %r
}

define double @rev1(double %x) {
  %w = load i32, ptr @enzyme_width
  %out = load i32, ptr @enzyme_out
  %r = call double (ptr, ...) @__enzyme_autodiff1(ptr @sq, i32 %w, i32 1, i32 %out, double %x)
  ret double %r
}

define double @revscalar(double %x) {
  %out = load i32, ptr @enzyme_out
  %r = call double (ptr, ...) @__enzyme_autodiff1(ptr @sq, i32 %out, double %x)
  ret double %r
}

define [2 x double] @rev2(double %x) {
  %w = load i32, ptr @enzyme_width
  %out = load i32, ptr @enzyme_out
  %r = call [2 x double] (ptr, ...) @__enzyme_autodiff2(ptr @sq, i32 %w, i32 2, i32 %out, double %x)
  ret [2 x double] %r
}

define void @revdot(ptr %a, ptr %da0, ptr %da1, ptr %b, ptr %db, i64 %n) {
  %w = load i32, ptr @enzyme_width
  %dup = load i32, ptr @enzyme_dup
  %dupv = load i32, ptr @enzyme_dupv
  %const = load i32, ptr @enzyme_const
  call void (ptr, ...) @__enzyme_autodiff(ptr @dot, i32 %w, i32 2, i32 %dup, ptr %a, ptr %da0, ptr %da1, i32 %dupv, i64 800, ptr %b, ptr %db, i32 %const, i64 %n)
  ret void
}
