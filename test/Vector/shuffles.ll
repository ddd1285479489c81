; shufflevector, insertelement and extractelement as the vectorisers emit
; them. Reverse mode transposes a shuffle: each input lane gets the sum of
; the result lanes it was copied to, poison mask lanes give nothing, the
; output may be narrower (de-interleaving) or wider (concatenation) than the
; inputs, a broadcast sums all lanes, and both operands may be the same
; value. Inserts and extracts take run-time indices. Shapes, then a run
; against analytic values (Inputs/shuffles-main.c).
;
; RUN: %opt -passes=tapestry -S %s -o %t.ll
; RUN: FileCheck %s --check-prefix=DEINT --input-file=%t.ll
; RUN: FileCheck %s --check-prefix=MIX --input-file=%t.ll
; RUN: FileCheck %s --check-prefix=DYN --input-file=%t.ll
; RUN: %plain_cc -O1 -Wno-override-module %t.ll %S/Inputs/shuffles-main.c \
; RUN:   -lm -o %t && %t | FileCheck %s --check-prefix=EXEC
; EXEC-NOT: FAIL
; EXEC: ALL PASSED

; The even and odd lanes' adjoints interleave back into the <8 x double>
; load's, with zeros where the other half goes.
; DEINT-LABEL: define internal void @deinterleave.tapestry.rev_d_ra(
; DEINT: %[[E:.*]] = shufflevector <4 x double> %{{.*}}, <4 x double> <double 0.000000e+00, {{.*}}>, <8 x i32> <i32 4, i32 0, i32 4, i32 1, i32 4, i32 2, i32 4, i32 3>
; DEINT: %[[O:.*]] = shufflevector <4 x double> %{{.*}}, <4 x double> <double 0.000000e+00, {{.*}}>, <8 x i32> <i32 0, i32 4, i32 1, i32 4, i32 2, i32 4, i32 3, i32 4>
; DEINT: %[[S:.*]] = fadd <8 x double> %[[E]], %[[O]]
; DEINT: load <8 x double>, ptr %"p'"
; DEINT: ret void

; The broadcast of lane 1 sums all eight result lanes; the reversal of %b
; (used as both operands) sends each lane back from two places; the
; concatenation's poison lanes 1 and 6 send nothing back.
; MIX-LABEL: define internal void @mix.tapestry.rev_d_ra(
; MIX-DAG: shufflevector <8 x double> %[[D:.*]], <8 x double> poison, <4 x i32> <i32 3, i32 2, i32 1, i32 0>
; MIX-DAG: shufflevector <8 x double> %[[D]], <8 x double> poison, <4 x i32> <i32 7, i32 6, i32 5, i32 4>
; MIX-DAG: %[[SUM:.*]] = call reassoc double @llvm.vector.reduce.fadd.v8f64(double -0.000000e+00,
; MIX-DAG: insertelement <4 x double> <double 0.000000e+00, double poison, double 0.000000e+00, double 0.000000e+00>, double %[[SUM]], i64 1
; MIX-DAG: shufflevector <8 x double> %{{.*}}, <8 x double> <double 0.000000e+00, {{.*}}>, <4 x i32> <i32 0, i32 8, i32 2, i32 3>
; MIX-DAG: shufflevector <8 x double> %{{.*}}, <8 x double> <double 0.000000e+00, {{.*}}>, <4 x i32> <i32 4, i32 5, i32 8, i32 7>
; MIX: ret void
; MIX-LABEL: define internal double @mix.tapestry.fwd_d_ra(
; MIX: shufflevector <4 x double> %"a'", <4 x double> %"b'", <8 x i32> <i32 0, i32 poison, i32 2, i32 3, i32 4, i32 5, i32 poison, i32 7>

; DYN-LABEL: define internal void @dynamic.tapestry.rev_dc_ra(
; DYN: extractelement <4 x double> %{{.*}}, i64 %k
; DYN: insertelement <4 x double> %{{.*}}, double 0.000000e+00, i64 %k
; DYN: insertelement <4 x double> zeroinitializer, double %{{.*}}, i64 %k
; DYN-LABEL: define internal double @dynamic.tapestry.fwd_dc_ra(
; DYN: %"e'" = extractelement <4 x double> %"v'", i64 %k
; DYN: %"ins'" = insertelement <4 x double> %"v'", double %"e2'", i64 %k

@enzyme_dup = external global i32
@enzyme_const = external global i32

declare void @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)
declare double @llvm.vector.reduce.fadd.v4f64(double, <4 x double>)
declare double @llvm.vector.reduce.fadd.v8f64(double, <8 x double>)

; Weights 1..8 on the result lanes, so each input lane's derivative says
; which result lanes it reached.
define double @weigh8(<8 x double> %v) {
  %w = fmul <8 x double> %v, <double 1.0, double 2.0, double 3.0, double 4.0, double 5.0, double 6.0, double 7.0, double 8.0>
  %s = call reassoc double @llvm.vector.reduce.fadd.v8f64(double -0.0, <8 x double> %w)
  ret double %s
}
define double @weigh4(<4 x double> %v) {
  %w = fmul <4 x double> %v, <double 1.0, double 2.0, double 3.0, double 4.0>
  %s = call reassoc double @llvm.vector.reduce.fadd.v4f64(double -0.0, <4 x double> %w)
  ret double %s
}

; De-interleaving a <8 x double> load into even and odd lanes (<4 x>), the
; loop vectoriser's interleaved access: the output is narrower.
define double @deinterleave(ptr %p) {
  %v = load <8 x double>, ptr %p, align 8
  %even = shufflevector <8 x double> %v, <8 x double> poison, <4 x i32> <i32 0, i32 2, i32 4, i32 6>
  %odd = shufflevector <8 x double> %v, <8 x double> poison, <4 x i32> <i32 1, i32 3, i32 5, i32 7>
  %m = fmul <4 x double> %even, %odd
  %r = call double @weigh4(<4 x double> %m)
  ret double %r
}

; Concatenating two <4 x> loads with poison mask lanes (wider output), a
; broadcast of lane 1 of the first, and a reversal of the second (both
; operands the same value). The poison lanes are then discarded.
define double @mix(ptr %p) {
  %q = getelementptr inbounds double, ptr %p, i64 4
  %a = load <4 x double>, ptr %p, align 8
  %b = load <4 x double>, ptr %q, align 8
  %cat = shufflevector <4 x double> %a, <4 x double> %b, <8 x i32> <i32 0, i32 poison, i32 2, i32 3, i32 4, i32 5, i32 poison, i32 7>
  %splat = shufflevector <4 x double> %a, <4 x double> poison, <8 x i32> <i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %rev = shufflevector <4 x double> %b, <4 x double> %b, <8 x i32> <i32 3, i32 2, i32 1, i32 0, i32 7, i32 6, i32 5, i32 4>
  %x = fmul <8 x double> %cat, %splat
  %xd = select <8 x i1> <i1 1, i1 0, i1 1, i1 1, i1 1, i1 1, i1 0, i1 1>, <8 x double> %x, <8 x double> zeroinitializer
  %y = fadd <8 x double> %xd, %rev
  %r = call double @weigh8(<8 x double> %y)
  ret double %r
}

; insertelement and extractelement at a run-time index k.
define double @dynamic(ptr %p, i64 %k) {
  %v = load <4 x double>, ptr %p, align 8
  %e = extractelement <4 x double> %v, i64 %k
  %e2 = fmul double %e, %e
  %ins = insertelement <4 x double> %v, double %e2, i64 %k
  %r = call double @weigh4(<4 x double> %ins)
  ret double %r
}

define void @grad_deinterleave(ptr %p, ptr %dp) {
  %dup = load i32, ptr @enzyme_dup
  call void (ptr, ...) @__enzyme_autodiff(ptr @deinterleave, i32 %dup, ptr %p, ptr %dp)
  ret void
}
define double @tan_deinterleave(ptr %p, ptr %tp) {
  %dup = load i32, ptr @enzyme_dup
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @deinterleave, i32 %dup, ptr %p, ptr %tp)
  ret double %r
}
define void @grad_mix(ptr %p, ptr %dp) {
  %dup = load i32, ptr @enzyme_dup
  call void (ptr, ...) @__enzyme_autodiff(ptr @mix, i32 %dup, ptr %p, ptr %dp)
  ret void
}
define double @tan_mix(ptr %p, ptr %tp) {
  %dup = load i32, ptr @enzyme_dup
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @mix, i32 %dup, ptr %p, ptr %tp)
  ret double %r
}
define void @grad_dynamic(ptr %p, ptr %dp, i64 %k) {
  %dup = load i32, ptr @enzyme_dup
  %const = load i32, ptr @enzyme_const
  call void (ptr, ...) @__enzyme_autodiff(ptr @dynamic, i32 %dup, ptr %p, ptr %dp, i32 %const, i64 %k)
  ret void
}
define double @tan_dynamic(ptr %p, ptr %tp, i64 %k) {
  %dup = load i32, ptr @enzyme_dup
  %const = load i32, ptr @enzyme_const
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @dynamic, i32 %dup, ptr %p, ptr %tp, i32 %const, i64 %k)
  ret double %r
}
