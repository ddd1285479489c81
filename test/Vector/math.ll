; Vector math: llvm.sqrt/sin/exp/fma/fmuladd/maxnum on <4 x double> use the
; scalar rules lane by lane, and libmvec's vector variants (_ZGVdN4v_sin,
; _ZGVdN4v_exp, which clang -fveclib=libmvec has the loop vectoriser call)
; those of sin and exp. The derivative functions keep the primal's target
; attributes, so the <4 x double> passed to _ZGVdN4v_sin travels in one AVX
; register as the library expects (without them its upper lanes were lost).
; Shapes, then a run against analytic values (Inputs/math-main.c).
;
; RUN: %opt -passes=tapestry -S %s -o %t.ll
; RUN: FileCheck %s --input-file=%t.ll
; RUN: %plain_cc -O1 -Wno-override-module %t.ll %S/Inputs/math-main.c \
; RUN:   -lm -o %t && %t | FileCheck %s --check-prefix=EXEC
; EXEC-NOT: FAIL
; EXEC: ALL PASSED

; CHECK: define internal void @mvec.tapestry.rev_d_ra(ptr %p, ptr %"p'", double %seed) #[[TARGET:[0-9]+]]
; CHECK: %s = call <4 x double> @_ZGVdN4v_sin(<4 x double> %v)
; CHECK: %e = call <4 x double> @_ZGVdN4v_exp(<4 x double> %w)
; CHECK: call <4 x double> @llvm.cos.v4f64(<4 x double> %v)
; CHECK: define internal double @mvec.tapestry.fwd_d_ra(ptr %p, ptr %"p'") #[[TARGET]]
; CHECK: %[[COS:.*]] = call <4 x double> @llvm.cos.v4f64(<4 x double> %v)
; CHECK: %"s'" = fmul <4 x double> %[[COS]], %"v'"
; CHECK: %"e'" = fmul <4 x double> %e, %"w'"
; CHECK-LABEL: define internal double @math.tapestry.fwd_d_ra(
; CHECK: call <4 x double> @llvm.cos.v4f64(<4 x double> %v)
; CHECK: %"d'" =
; CHECK: fcmp olt <4 x double> %v, %w
; CHECK: attributes #[[TARGET]] = { "target-cpu"="x86-64-v3" "target-features"="+avx,+avx2,+fma" }

@enzyme_dup = external global i32

declare void @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)
declare double @llvm.vector.reduce.fadd.v4f64(double, <4 x double>)
declare <4 x double> @llvm.sqrt.v4f64(<4 x double>)
declare <4 x double> @llvm.sin.v4f64(<4 x double>)
declare <4 x double> @llvm.exp.v4f64(<4 x double>)
declare <4 x double> @llvm.fma.v4f64(<4 x double>, <4 x double>, <4 x double>)
declare <4 x double> @llvm.fmuladd.v4f64(<4 x double>, <4 x double>, <4 x double>)
declare <4 x double> @llvm.maxnum.v4f64(<4 x double>, <4 x double>)
declare <4 x double> @_ZGVdN4v_sin(<4 x double>)
declare <4 x double> @_ZGVdN4v_exp(<4 x double>)

; v = p[0..3], w = p[4..7]: the sum over lanes of sqrt(v^2 + 1) + sin(v)
; + exp(w / 2) + fma(v, w, sqrt(..)) + fmuladd(w, w, sin(v)) + maxnum(v, w).
define double @math(ptr %p) {
  %q = getelementptr inbounds double, ptr %p, i64 4
  %v = load <4 x double>, ptr %p, align 8
  %w = load <4 x double>, ptr %q, align 8
  %v2 = fmul <4 x double> %v, %v
  %v21 = fadd <4 x double> %v2, <double 1.0, double 1.0, double 1.0, double 1.0>
  %a = call <4 x double> @llvm.sqrt.v4f64(<4 x double> %v21)
  %b = call <4 x double> @llvm.sin.v4f64(<4 x double> %v)
  %wh = fmul <4 x double> %w, <double 0.5, double 0.5, double 0.5, double 0.5>
  %c = call <4 x double> @llvm.exp.v4f64(<4 x double> %wh)
  %d = call <4 x double> @llvm.fma.v4f64(<4 x double> %v, <4 x double> %w, <4 x double> %a)
  %e = call <4 x double> @llvm.fmuladd.v4f64(<4 x double> %w, <4 x double> %w, <4 x double> %b)
  %m = call <4 x double> @llvm.maxnum.v4f64(<4 x double> %v, <4 x double> %w)
  %s1 = fadd <4 x double> %a, %b
  %s2 = fadd <4 x double> %s1, %c
  %s3 = fadd <4 x double> %s2, %d
  %s4 = fadd <4 x double> %s3, %e
  %s5 = fadd <4 x double> %s4, %m
  %r = call reassoc double @llvm.vector.reduce.fadd.v4f64(double -0.0, <4 x double> %s5)
  ret double %r
}

; The sum over lanes of sin(v) exp(w) through libmvec's AVX2 variants, as
; clang -fveclib=libmvec has the loop vectoriser call them.
define double @mvec(ptr %p) #0 {
  %q = getelementptr inbounds double, ptr %p, i64 4
  %v = load <4 x double>, ptr %p, align 8
  %w = load <4 x double>, ptr %q, align 8
  %s = call <4 x double> @_ZGVdN4v_sin(<4 x double> %v)
  %e = call <4 x double> @_ZGVdN4v_exp(<4 x double> %w)
  %m = fmul <4 x double> %s, %e
  %r = call reassoc double @llvm.vector.reduce.fadd.v4f64(double -0.0, <4 x double> %m)
  ret double %r
}

attributes #0 = { "target-cpu"="x86-64-v3" "target-features"="+avx,+avx2,+fma" }

define void @grad_math(ptr %p, ptr %dp) {
  %dup = load i32, ptr @enzyme_dup
  call void (ptr, ...) @__enzyme_autodiff(ptr @math, i32 %dup, ptr %p, ptr %dp)
  ret void
}
define double @tan_math(ptr %p, ptr %tp) {
  %dup = load i32, ptr @enzyme_dup
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @math, i32 %dup, ptr %p, ptr %tp)
  ret double %r
}
define void @grad_mvec(ptr %p, ptr %dp) {
  %dup = load i32, ptr @enzyme_dup
  call void (ptr, ...) @__enzyme_autodiff(ptr @mvec, i32 %dup, ptr %p, ptr %dp)
  ret void
}
define double @tan_mvec(ptr %p, ptr %tp) {
  %dup = load i32, ptr @enzyme_dup
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @mvec, i32 %dup, ptr %p, ptr %tp)
  ret double %r
}
