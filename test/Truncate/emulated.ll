; Truncation to formats the target has no type for (5 exponent and 3
; mantissa bits, ...): values stay doubles holding numbers of the format.
; Each operation computes the plain double result, then adds the correction
; returned by an internal helper (inactive for differentiation), keeping the
; plain result's sign: the helper rounds the exact result once to the
; format. Op mode rounds each input not already in the format; mem mode
; takes them as they are and rounds constants at compile time.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s

target datalayout = "e-m:e-i64:64-f80:128-n8:16:32:64-S128"

declare ptr @__enzyme_truncate_op_func(...)
declare ptr @__enzyme_truncate_mem_func(...)
declare double @__enzyme_truncate_mem_value(double, i64, i64, i64)
declare double @__enzyme_expand_mem_value(double, i64, i64, i64)
declare double @llvm.sqrt.f64(double)
declare double @llvm.fmuladd.f64(double, double, double)
declare double @sin(double)

define double @f(double %x, double %y, i64 %n) {
  %m = fmul double %x, %y
  %s = call double @llvm.sqrt.f64(double %m)
  %fma = call double @llvm.fmuladd.f64(double %s, double %x, double 1.000000e-01)
  %sn = call double @sin(double %fma)
  %i = sitofp i64 %n to double
  %k = fdiv double %sn, %i
  %c = fcmp olt double %k, %x
  %r = select i1 %c, double %k, double %x
  ret double %r
}

define <2 x double> @v(<2 x double> %a, <2 x double> %b) {
  %s = fadd <2 x double> %a, %b
  ret <2 x double> %s
}

define half @h(half %a, half %b) {
  %p = fmul half %a, %b
  ret half %p
}

define double @op(double %x, double %y, i64 %n) {
  %f = call ptr (...) @__enzyme_truncate_op_func(ptr @f, i64 64, i64 5, i64 3)
  %r = call double %f(double %x, double %y, i64 %n)
  ret double %r
}

define <2 x double> @opv(<2 x double> %a, <2 x double> %b) {
  %f = call ptr (...) @__enzyme_truncate_op_func(ptr @v, i64 64, i64 11, i64 20)
  %r = call <2 x double> %f(<2 x double> %a, <2 x double> %b)
  ret <2 x double> %r
}

define half @oph(half %a, half %b) {
  %f = call ptr (...) @__enzyme_truncate_op_func(ptr @h, i64 16, i64 4, i64 5)
  %r = call half %f(half %a, half %b)
  ret half %r
}

define double @mem(double %x, double %y, i64 %n) {
  %xm = call double @__enzyme_truncate_mem_value(double %x, i64 64, i64 5, i64 3)
  %f = call ptr (...) @__enzyme_truncate_mem_func(ptr @f, i64 64, i64 5, i64 3)
  %r = call double %f(double %xm, double %y, i64 %n)
  %e = call double @__enzyme_expand_mem_value(double %r, i64 64, i64 5, i64 3)
  ret double %e
}

; CHECK-LABEL: define double @mem(
; CHECK: %[[D:.*]] = call double @__tapestry_fpround.e5m3.f64.round(double %x)
; CHECK: %[[S:.*]] = fadd double %x, %[[D]]
; CHECK: %[[XM:.*]] = call double @llvm.copysign.f64(double %[[S]], double %x)
; CHECK: %r = call double @__tapestry_truncate_mem_64toe5m3.f(double %[[XM]], double %y, i64 %n)
; CHECK-NEXT: ret double %r

; Op mode: inputs rounded, then each operation rounded once.
; CHECK-LABEL: define internal half @__tapestry_truncate_op_16toe4m5.h(
; CHECK: call half @__tapestry_fpround.e4m5.f16.round(half %a)
; CHECK: call half @__tapestry_fpround.e4m5.f16.round(half %b)
; CHECK: %[[P:.*]] = fmul half
; CHECK: %[[C:.*]] = call half @__tapestry_fpround.e4m5.f16.mul(half %{{.*}}, half %{{.*}}, half %[[P]])
; CHECK: %[[Q:.*]] = fadd half %[[P]], %[[C]]
; CHECK: %p = call half @llvm.copysign.f16(half %[[Q]], half %[[P]])

; The helpers read and write no memory; from half they work in float.
; CHECK: define internal half @__tapestry_fpround.e4m5.f16.round(half %0) #[[ATTR:[0-9]+]]
; CHECK: define internal float @__tapestry_fpround.e4m5.f16.core(float %0, float %1, i32 %2) #[[ATTR]]
; Round to odd at float precision, then to the format's quantum: exponents
; -6 to 7 (bias 7), 5 mantissa bits; the largest value is 252.
; CHECK: %odd = add i32
; CHECK: %exponent = add i32 %{{.*}}, %2
; CHECK: icmp sgt i32 %exponent, 7
; CHECK: call i32 @llvm.smax.i32(i32 %exponent, i32 -6)
; CHECK: %quantum = sub i32 %{{.*}}, 5
; CHECK: %rounded = add i32
; CHECK: fcmp ogt float %{{.*}}, 2.520000e+02
; CHECK: define internal half @__tapestry_fpround.e4m5.f16.mul(half %0, half %1, half %2) #[[ATTR]]

; Vectors: the helpers are called lane by lane.
; CHECK-LABEL: define internal <2 x double> @__tapestry_truncate_op_64toe11m20.v(
; CHECK: %[[A:.*]] = call <2 x double> @llvm.copysign.v2f64({{.*}}, <2 x double> %a)
; CHECK: %[[B:.*]] = call <2 x double> @llvm.copysign.v2f64({{.*}}, <2 x double> %b)
; CHECK: %[[SUM:.*]] = fadd <2 x double> %[[A]], %[[B]]
; CHECK: %[[A0:.*]] = extractelement <2 x double> %[[A]], i64 0
; CHECK: %[[B0:.*]] = extractelement <2 x double> %[[B]], i64 0
; CHECK: %[[S0:.*]] = extractelement <2 x double> %[[SUM]], i64 0
; CHECK: call double @__tapestry_fpround.e11m20.f64.add(double %[[A0]], double %[[B0]], double %[[S0]])
; CHECK: call double @__tapestry_fpround.e11m20.f64.add(
; CHECK: %s = call <2 x double> @llvm.copysign.v2f64(

; CHECK-LABEL: define internal double @__tapestry_truncate_op_64toe5m3.f(
; CHECK: %[[X:.*]] = call double @llvm.copysign.f64(double %{{.*}}, double %x)
; CHECK: %[[Y:.*]] = call double @llvm.copysign.f64(double %{{.*}}, double %y)
; CHECK: %[[M:.*]] = fmul double %[[X]], %[[Y]]
; CHECK: call double @__tapestry_fpround.e5m3.f64.mul(double %[[X]], double %[[Y]], double %[[M]])
; A result already in the format is not rounded again.
; CHECK: %m = call double @llvm.copysign.f64(
; CHECK-NEXT: %[[R:.*]] = call double @llvm.sqrt.f64(double %m)
; CHECK-NEXT: call double @__tapestry_fpround.e5m3.f64.sqrt(double %m, double %[[R]])
; fmuladd: rounded after the product and after the sum; 0.1 is rounded
; to 0.1015625 at compile time.
; CHECK: call double @__tapestry_fpround.e5m3.f64.mul(
; CHECK: %[[MA:.*]] = fadd double %{{.*}}, 0x3FBA000000000000
; CHECK: call double @__tapestry_fpround.e5m3.f64.add(double %{{.*}}, double 0x3FBA000000000000, double %[[MA]])
; Math functions: computed in double, the result rounded.
; CHECK: %[[SIN:.*]] = call double @sin(double %fma)
; CHECK: call double @__tapestry_fpround.e5m3.f64.round(double %[[SIN]])
; Integers: rounded once from the integer.
; CHECK: %[[I:.*]] = sitofp i64 %n to double
; CHECK: call double @__tapestry_fpround.e5m3.f64.sitofp.i64(i64 %n, double %[[I]])
; CHECK: call double @__tapestry_fpround.e5m3.f64.div(
; Comparisons are exact on the rounded inputs; selects move values.
; CHECK: %c = fcmp olt double
; CHECK: %r = select i1 %c, double %k, double %x

; Integer conversions round in integers (to 4 significant bits), then
; convert exactly.
; CHECK: define internal double @__tapestry_fpround.e5m3.f64.sitofp.i64(i64 %0, double %1)
; CHECK: call i64 @llvm.ctlz.i64(
; CHECK: call i64 @llvm.usub.sat.i64(i64 %{{.*}}, i64 4)

; Mem mode: no rounding of inputs; the constant is rounded.
; CHECK-LABEL: define internal double @__tapestry_truncate_mem_64toe5m3.f(
; CHECK-NEXT: %[[MM:.*]] = fmul double %x, %y
; CHECK-NEXT: call double @__tapestry_fpround.e5m3.f64.mul(double %x, double %y, double %[[MM]])
; CHECK-NOT: f64.round(double %x)
; CHECK: 0x3FBA000000000000
; CHECK: %c = fcmp olt double %k, %x

; CHECK: attributes #[[ATTR]] = { nounwind speculatable willreturn memory(none) }
