; Vector reductions in optimised IR: llvm.vector.reduce.fadd in order with a
; start value and reassociating, llvm.vector.reduce.fmul (its partials are
; the products of the other lanes, built from prefix and suffix products so
; a zero lane needs no division), and fmax/fmin/fmaximum/fminimum, whose
; derivative goes to the first lane holding the result. Shapes of both
; modes, then a run against analytic values (Inputs/reductions-main.c).
;
; RUN: %opt -passes=tapestry -S %s -o %t.ll
; RUN: FileCheck %s --check-prefix=SUMF --input-file=%t.ll
; RUN: FileCheck %s --check-prefix=SUMA --input-file=%t.ll
; RUN: FileCheck %s --check-prefix=SUMR --input-file=%t.ll
; RUN: FileCheck %s --check-prefix=PROD --input-file=%t.ll
; RUN: FileCheck %s --check-prefix=EXTF --input-file=%t.ll
; RUN: FileCheck %s --check-prefix=EXTR --input-file=%t.ll
; RUN: %plain_cc -O1 -Wno-override-module %t.ll %S/Inputs/reductions-main.c \
; RUN:   -lm -o %t && %t | FileCheck %s --check-prefix=EXEC
; EXEC-NOT: FAIL
; EXEC: ALL PASSED

; The tangent of an ordered sum is the ordered sum of the tangents, the
; start's included; the reassociating one keeps its flag.
; SUMF-LABEL: define internal double @sum_ordered.tapestry.fwd_d_ra(
; SUMF: %"r'" = call double @llvm.vector.reduce.fadd.v4f64(double %"s'", <4 x double> %"v'")
; SUMA-LABEL: define internal double @sum_reassoc.tapestry.fwd_d_ra(
; SUMA: call reassoc double @llvm.vector.reduce.fadd.v4f64(
;
; In reverse every lane gets the result's adjoint.
; SUMR-LABEL: define internal void @sum_ordered.tapestry.rev_d_ra(
; SUMR: %[[SPLAT:.*]] = shufflevector <4 x double> %{{.*}}, <4 x double> poison, <4 x i32> zeroinitializer
; SUMR: %[[OLD:.*]] = load <4 x double>, ptr %"p'"
; SUMR: fadd <4 x double> %[[OLD]], %[[SPLAT]]
;
; The product: v times v shifted by one lane (filled with 1), and so on.
; PROD-LABEL: define internal void @product.tapestry.rev_d_ra(
; PROD-NOT: fdiv
; PROD: call double @llvm.vector.reduce.fmul.v4f64(double 1.000000e+00, <4 x double> %v)
; PROD: shufflevector <4 x double> %v, <4 x double> <double 1.000000e+00,
; PROD-NOT: fdiv
; PROD: ret void
;
; The extremum's lane: first lane equal to the result (cttz of the mask).
; EXTF-LABEL: define internal double @extrema.tapestry.fwd_d_ra(
; EXTF: %a = call double @llvm.vector.reduce.fmax.v4f64(<4 x double> %v)
; EXTF: %[[EQ:.*]] = fcmp oeq <4 x double> %v,
; EXTF: %[[BITS:.*]] = bitcast <4 x i1> %[[EQ]] to i4
; EXTF: call {{.*}}i4 @llvm.cttz.i4(i4 %[[BITS]], i1 false)
; EXTF: %[[ONE:.*]] = icmp eq <4 x i4>
; EXTF: %[[PICK:.*]] = select <4 x i1> %[[ONE]], <4 x double> %"v'", <4 x double> zeroinitializer
; EXTF: %"a'" = call reassoc double @llvm.vector.reduce.fadd.v4f64(double -0.000000e+00, <4 x double> %[[PICK]])
; EXTR-LABEL: define internal void @extrema.tapestry.rev_d_ra(
; EXTR-COUNT-4: call {{.*}}i4 @llvm.cttz.i4(
; EXTR: ret void

@enzyme_dup = external global i32
@enzyme_const = external global i32

declare void @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)
declare double @llvm.vector.reduce.fadd.v4f64(double, <4 x double>)
declare double @llvm.vector.reduce.fmul.v4f64(double, <4 x double>)
declare double @llvm.vector.reduce.fmax.v4f64(<4 x double>)
declare double @llvm.vector.reduce.fmin.v4f64(<4 x double>)
declare double @llvm.vector.reduce.fmaximum.v4f64(<4 x double>)
declare double @llvm.vector.reduce.fminimum.v4f64(<4 x double>)

; s + v0 + v1 + v2 + v3 in order (no fast-math flags), s = p[4] * p[4].
define double @sum_ordered(ptr %p) {
  %v = load <4 x double>, ptr %p, align 8
  %ps = getelementptr inbounds double, ptr %p, i64 4
  %s0 = load double, ptr %ps
  %s = fmul double %s0, %s0
  %r = call double @llvm.vector.reduce.fadd.v4f64(double %s, <4 x double> %v)
  ret double %r
}

; The same, reassociating, of v * v.
define double @sum_reassoc(ptr %p) {
  %v = load <4 x double>, ptr %p, align 8
  %sq = fmul <4 x double> %v, %v
  %r = call reassoc double @llvm.vector.reduce.fadd.v4f64(double -0.0, <4 x double> %sq)
  ret double %r
}

; s * v0 * v1 * v2 * v3 with s = p[4].
define double @product(ptr %p) {
  %v = load <4 x double>, ptr %p, align 8
  %ps = getelementptr inbounds double, ptr %p, i64 4
  %s = load double, ptr %ps
  %r = call double @llvm.vector.reduce.fmul.v4f64(double %s, <4 x double> %v)
  ret double %r
}

; max + 2 min + 3 maximum + 4 minimum of the four elements.
define double @extrema(ptr %p) {
  %v = load <4 x double>, ptr %p, align 8
  %a = call double @llvm.vector.reduce.fmax.v4f64(<4 x double> %v)
  %b = call double @llvm.vector.reduce.fmin.v4f64(<4 x double> %v)
  %c = call double @llvm.vector.reduce.fmaximum.v4f64(<4 x double> %v)
  %d = call double @llvm.vector.reduce.fminimum.v4f64(<4 x double> %v)
  %b2 = fmul double %b, 2.0
  %c3 = fmul double %c, 3.0
  %d4 = fmul double %d, 4.0
  %s1 = fadd double %a, %b2
  %s2 = fadd double %s1, %c3
  %s3 = fadd double %s2, %d4
  ret double %s3
}

define void @grad_sum_ordered(ptr %p, ptr %dp) {
  %dup = load i32, ptr @enzyme_dup
  call void (ptr, ...) @__enzyme_autodiff(ptr @sum_ordered, i32 %dup, ptr %p, ptr %dp)
  ret void
}
define double @tan_sum_ordered(ptr %p, ptr %tp) {
  %dup = load i32, ptr @enzyme_dup
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @sum_ordered, i32 %dup, ptr %p, ptr %tp)
  ret double %r
}
define void @grad_sum_reassoc(ptr %p, ptr %dp) {
  %dup = load i32, ptr @enzyme_dup
  call void (ptr, ...) @__enzyme_autodiff(ptr @sum_reassoc, i32 %dup, ptr %p, ptr %dp)
  ret void
}
define double @tan_sum_reassoc(ptr %p, ptr %tp) {
  %dup = load i32, ptr @enzyme_dup
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @sum_reassoc, i32 %dup, ptr %p, ptr %tp)
  ret double %r
}
define void @grad_product(ptr %p, ptr %dp) {
  %dup = load i32, ptr @enzyme_dup
  call void (ptr, ...) @__enzyme_autodiff(ptr @product, i32 %dup, ptr %p, ptr %dp)
  ret void
}
define double @tan_product(ptr %p, ptr %tp) {
  %dup = load i32, ptr @enzyme_dup
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @product, i32 %dup, ptr %p, ptr %tp)
  ret double %r
}
define void @grad_extrema(ptr %p, ptr %dp) {
  %dup = load i32, ptr @enzyme_dup
  call void (ptr, ...) @__enzyme_autodiff(ptr @extrema, i32 %dup, ptr %p, ptr %dp)
  ret void
}
define double @tan_extrema(ptr %p, ptr %tp) {
  %dup = load i32, ptr @enzyme_dup
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @extrema, i32 %dup, ptr %p, ptr %tp)
  ret double %r
}
