; Optimised IR (SLP-vectorised code under -ffast-math, then InstCombine/SROA)
; reads lanes of a double vector through integers: bitcast <4 x double> to
; i256, lshr by a multiple of 64, trunc to i64 (or i128) and bitcast back to
; double (or <2 x double>). That is extractelement (shufflevector), and is
; differentiated as such; `freeze` of a double passes its derivative on.
; Once both were "cannot differentiate" errors (fuzz seeds 6, 23, 65 of the
; vectorize feature). Shapes, then a run against analytic values.
;
; RUN: %opt -passes=tapestry -S %s -o %t.ll
; RUN: FileCheck %s --input-file=%t.ll
; RUN: %plain_cc -O1 -Wno-override-module %t.ll %S/Inputs/lanes-main.c \
; RUN:   -lm -o %t && %t | FileCheck %s --check-prefix=EXEC
; EXEC-NOT: FAIL
; EXEC: ALL PASSED

; CHECK-LABEL: define internal void @lanes.tapestry.rev_d_ra(
; CHECK-NOT: i256
; CHECK: ret void
; CHECK-LABEL: define internal double @lanes.tapestry.fwd_d_ra(
; CHECK-NOT: i256
; CHECK: ret double

@enzyme_dup = external global i32
declare void @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)

; r = x0 * x2 + freeze(x3 / x1) + (x2 + x3) * x1   (lanes 2, 3 read as
; <2 x double> through i128)
define double @lanes(ptr %x) {
  %v = load <4 x double>, ptr %x, align 8
  %sq = fmul fast <4 x double> %v, <double 1.0, double 1.0, double 1.0, double 1.0>
  %i = bitcast <4 x double> %sq to i256
  %t0 = trunc i256 %i to i64
  %x0 = bitcast i64 %t0 to double
  %s1 = lshr i256 %i, 64
  %t1 = trunc i256 %s1 to i64
  %x1 = bitcast i64 %t1 to double
  %s2 = lshr i256 %i, 128
  %t2 = trunc i256 %s2 to i64
  %x2 = bitcast i64 %t2 to double
  %t23 = trunc i256 %s2 to i128
  %v23 = bitcast i128 %t23 to <2 x double>
  %x3 = extractelement <2 x double> %v23, i64 1
  %p = fmul double %x0, %x2
  %q = fdiv double %x3, %x1
  %qf = freeze double %q
  %sum = fadd double %p, %qf
  %h = call double @llvm.vector.reduce.fadd.v2f64(double -0.0, <2 x double> %v23)
  %m = fmul double %h, %x1
  %r = fadd double %sum, %m
  ret double %r
}
declare double @llvm.vector.reduce.fadd.v2f64(double, <2 x double>)

define void @grad_lanes(ptr %x, ptr %dx) {
  %dup = load i32, ptr @enzyme_dup
  call void (ptr, ...) @__enzyme_autodiff(ptr @lanes, i32 %dup, ptr %x, ptr %dx)
  ret void
}

define double @tan_lanes(ptr %x, ptr %tx) {
  %dup = load i32, ptr @enzyme_dup
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @lanes, i32 %dup, ptr %x, ptr %tx)
  ret double %t
}
