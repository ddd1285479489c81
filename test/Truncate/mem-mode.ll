; __enzyme_truncate_mem_func(f, 64, 32): every double f handles holds a
; float in its first 4 bytes, the rest zero. Operations unpack their
; inputs (the low 32 bits on this little-endian target), run in float and
; pack their result; constants and constant globals are packed; values only
; moved (loads, stores, phis, selects, returns) are unchanged.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s

target datalayout = "e-m:e-i64:64-f80:128-n8:16:32:64-S128"

declare ptr @__enzyme_truncate_mem_func(...)
declare double @__enzyme_truncate_mem_value(double, i64, i64)
declare double @__enzyme_expand_mem_value(double, i64, i64)
declare double @llvm.sqrt.f64(double)
declare double @cos(double)

@coef = private unnamed_addr constant [2 x double] [double 5.000000e-01, double 2.000000e+00]

define double @h(double %x) {
  %c = call double @cos(double %x)
  ret double %c
}

define double @f(ptr %p, i64 %i, i1 %b) {
entry:
  %x = load double, ptr %p
  %cp = getelementptr [2 x double], ptr @coef, i64 0, i64 %i
  %c = load double, ptr %cp
  %m = fmul double %x, %c
  %lt = fcmp olt double %m, 1.000000e+00
  %sel = select i1 %b, double %m, double 3.000000e+00
  %r = call double @llvm.sqrt.f64(double %sel)
  %hc = call double @h(double %r)
  store double 2.500000e-01, ptr %p
  br i1 %lt, label %yes, label %no
yes:
  br label %done
no:
  br label %done
done:
  %phi = phi double [ %hc, %yes ], [ 1.000000e+00, %no ]
  ret double %phi
}

define double @caller(ptr %p, i64 %i) {
  %fp = call ptr (...) @__enzyme_truncate_mem_func(ptr @f, i64 64, i64 32)
  %r = call double %fp(ptr %p, i64 %i, i1 true)
  ret double %r
}

define double @values(double %v) {
  %t = call double @__enzyme_truncate_mem_value(double %v, i64 64, i64 32)
  %e = call double @__enzyme_expand_mem_value(double %t, i64 64, i64 32)
  ret double %e
}

; A constant global holding doubles is read through a packed copy.
; CHECK: @coef.mem64to32 = private unnamed_addr constant [2 x double] [double 0x3F000000, double 0x40000000]

; CHECK-LABEL: define double @caller(
; CHECK-NEXT: call double @__tapestry_truncate_mem_64to32.f(ptr %p, i64 %i, i1 true)

; The value conversions: fptrunc then the float's bits in the low half;
; back: the low half's bits as a float, then fpext.
; CHECK-LABEL: define double @values(double %v)
; CHECK-NEXT: %[[N:.+]] = fptrunc double %v to float
; CHECK-NEXT: %[[B:.+]] = bitcast float %[[N]] to i32
; CHECK-NEXT: %[[Z:.+]] = zext i32 %[[B]] to i64
; CHECK-NEXT: %[[T:.+]] = bitcast i64 %[[Z]] to double
; CHECK-NEXT: %[[I:.+]] = bitcast double %[[T]] to i64
; CHECK-NEXT: %[[L:.+]] = trunc i64 %[[I]] to i32
; CHECK-NEXT: %[[F:.+]] = bitcast i32 %[[L]] to float
; CHECK-NEXT: %[[E:.+]] = fpext float %[[F]] to double
; CHECK-NEXT: ret double %[[E]]

; CHECK-LABEL: define internal double @__tapestry_truncate_mem_64to32.f(ptr %p, i64 %i, i1 %b)
; CHECK-NEXT: entry:
; CHECK-NEXT: %x = load double, ptr %p
; CHECK-NEXT: %cp = getelementptr [2 x double], ptr @coef.mem64to32, i64 0, i64 %i
; CHECK-NEXT: %c = load double, ptr %cp
; CHECK-NEXT: %[[C1:.+]] = bitcast double %c to i64
; CHECK-NEXT: %[[C2:.+]] = trunc i64 %[[C1]] to i32
; CHECK-NEXT: %[[C:.+]] = bitcast i32 %[[C2]] to float
; CHECK-NEXT: %[[X1:.+]] = bitcast double %x to i64
; CHECK-NEXT: %[[X2:.+]] = trunc i64 %[[X1]] to i32
; CHECK-NEXT: %[[X:.+]] = bitcast i32 %[[X2]] to float
; CHECK-NEXT: %[[M:.+]] = fmul float %[[X]], %[[C]]
; CHECK-NEXT: %[[M1:.+]] = bitcast float %[[M]] to i32
; CHECK-NEXT: %[[M2:.+]] = zext i32 %[[M1]] to i64
; CHECK-NEXT: %m = bitcast i64 %[[M2]] to double
; CHECK-NEXT: %[[L1:.+]] = bitcast double %m to i64
; CHECK-NEXT: %[[L2:.+]] = trunc i64 %[[L1]] to i32
; CHECK-NEXT: %[[L:.+]] = bitcast i32 %[[L2]] to float
; CHECK-NEXT: %lt = fcmp olt float %[[L]], 1.000000e+00
; The constant 3.0 as a packed float: 0x40400000 in the low bits.
; CHECK-NEXT: %sel = select i1 %b, double %m, double 0x40400000
; CHECK: call float @llvm.sqrt.f32(float
; CHECK: %r = bitcast i64 %{{.+}} to double
; CHECK-NEXT: %hc = call double @__tapestry_truncate_mem_64to32.h(double %r)
; CHECK-NEXT: store double 0x3E800000, ptr %p
; CHECK: %phi = phi double [ %hc, %yes ], [ 0x3F800000, %no ]
; CHECK-NEXT: ret double %phi

; CHECK-LABEL: define internal double @__tapestry_truncate_mem_64to32.h(double %x)
; CHECK: call float @cosf(float
