; __enzyme_truncate_op_func(f, 64, 32): each double operation of f (and of
; the functions it calls) runs in float on inputs rounded to float, its
; result extended back to double; loads, stores, phis and selects move
; double values unchanged.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s

declare ptr @__enzyme_truncate_op_func(...)
declare double @llvm.sqrt.f64(double)
declare double @llvm.fmuladd.f64(double, double, double)
declare double @llvm.powi.f64.i32(double, i32)
declare double @sin(double)
declare double @atan2(double, double)

define double @g(double %x) {
  %m = fmul double %x, 3.000000e-01
  ret double %m
}

define double @f(ptr %p, double %y, i32 %n) {
entry:
  %x = load double, ptr %p
  %s = fadd double %x, %y
  %c = fcmp olt double %s, 1.000000e+00
  %sel = select i1 %c, double %s, double %y
  %r = call double @llvm.sqrt.f64(double %sel)
  %fma = call double @llvm.fmuladd.f64(double %r, double %x, double %y)
  %pi = call double @llvm.powi.f64.i32(double %fma, i32 %n)
  %sn = call double @sin(double %pi)
  %at = call double @atan2(double %sn, double %x)
  %gg = call double @g(double %at)
  %ng = fneg double %gg
  %i = sitofp i32 %n to double
  %k = fdiv double %ng, %i
  %t = fptosi double %k to i64
  %u = sitofp i64 %t to double
  store double %u, ptr %p
  ret double %k
}

define double @caller(ptr %p, double %y) {
  %fp = call ptr (...) @__enzyme_truncate_op_func(ptr @f, i64 64, i64 32)
  %r = call double %fp(ptr %p, double %y, i32 3)
  ret double %r
}

; The request becomes a direct call of the truncated copy.
; CHECK-LABEL: define double @caller(
; CHECK: call double @__tapestry_truncate_op_64to32.f(ptr %p, double %y, i32 3)

; CHECK-LABEL: define internal double @__tapestry_truncate_op_64to32.f(ptr %p, double %y, i32 %n)
; CHECK-NEXT: entry:
; Memory keeps doubles: the load is unchanged, its value rounded where used.
; CHECK-NEXT: %x = load double, ptr %p
; CHECK-NEXT: %[[Y:.+]] = fptrunc double %y to float
; CHECK-NEXT: %[[X:.+]] = fptrunc double %x to float
; CHECK-NEXT: %[[S:.+]] = fadd float %[[X]], %[[Y]]
; CHECK-NEXT: %s = fpext float %[[S]] to double
; Comparisons compare the rounded inputs; the constant is folded to float.
; CHECK-NEXT: %[[S2:.+]] = fptrunc double %s to float
; CHECK-NEXT: %c = fcmp olt float %[[S2]], 1.000000e+00
; A select only moves a value.
; CHECK-NEXT: %sel = select i1 %c, double %s, double %y
; Intrinsics run on float.
; CHECK-NEXT: %[[SEL:.+]] = fptrunc double %sel to float
; CHECK-NEXT: %[[R:.+]] = call float @llvm.sqrt.f32(float %[[SEL]])
; CHECK-NEXT: %r = fpext float %[[R]] to double
; CHECK: call float @llvm.fmuladd.f32(float
; CHECK: call float @llvm.powi.f32.i32(float %{{.+}}, i32 %n)
; The C library's float variants.
; CHECK: call float @sinf(float
; CHECK: call float @atan2f(float %{{.+}}, float
; CHECK: %at = fpext float
; A user function is called as its truncated copy.
; CHECK-NEXT: %gg = call double @__tapestry_truncate_op_64to32.g(double %at)
; CHECK: fneg float
; Conversions from integers round to float.
; CHECK: %[[I:.+]] = sitofp i32 %n to float
; CHECK-NEXT: %i = fpext float %[[I]] to double
; CHECK: %[[K:.+]] = fdiv float
; CHECK-NEXT: %k = fpext float %[[K]] to double
; CHECK-NEXT: %[[K2:.+]] = fptrunc double %k to float
; CHECK-NEXT: %t = fptosi float %[[K2]] to i64
; CHECK-NEXT: %[[U:.+]] = sitofp i64 %t to float
; CHECK-NEXT: %u = fpext float %[[U]] to double
; CHECK-NEXT: store double %u, ptr %p
; CHECK-NEXT: ret double %k

; The constant 0.3 is rounded to float (0x3FD3333340000000).
; CHECK-LABEL: define internal double @__tapestry_truncate_op_64to32.g(double %x)
; CHECK-NEXT: %[[X:.+]] = fptrunc double %x to float
; CHECK-NEXT: %[[M:.+]] = fmul float %[[X]], 0x3FD3333340000000
; CHECK-NEXT: %m = fpext float %[[M]] to double
; CHECK-NEXT: ret double %m
