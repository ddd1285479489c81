; __enzyme_error_estimate: forward mode whose tangents are error estimates.
; Each rounding operation y = op(a...) gets
;   max(ulp(y), sum_i |err(a_i) * a_i / y * partial_i|)
; with the partials of the derivative rules and ulp(y) = |y - y'|, y' being
; y with the last bit of its encoding flipped (as Enzyme's forward error
; mode). Exact operations (fneg, fabs, fpext) have no ulp term; memory moves
; the errors through the shadows.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
declare double @__enzyme_error_estimate(...)
declare void @__enzyme_error_estimate_v(...)
declare double @llvm.cos.f64(double)
declare double @llvm.fabs.f64(double)
declare double @llvm.fmuladd.f64(double, double, double)

define double @add(double %x, double %y) {
  %r = fadd double %x, %y
  ret double %r
}

define double @div(double %x, double %y) {
  %r = fdiv double %x, %y
  ret double %r
}

define double @cosine(double %x) {
  %r = call double @llvm.cos.f64(double %x)
  ret double %r
}

define double @exact(double %x) {
  %a = fneg double %x
  %b = call double @llvm.fabs.f64(double %a)
  ret double %b
}

define double @widen(float %x) {
  %r = fpext float %x to double
  ret double %r
}

define float @narrow(double %x) {
  %r = fptrunc double %x to float
  ret float %r
}

define double @fused(double %a, double %b, double %c) {
  %r = call double @llvm.fmuladd.f64(double %a, double %b, double %c)
  ret double %r
}

define void @copy(ptr %p, ptr %q) {
  %v = load double, ptr %p
  %w = fmul double %v, %v
  store double %w, ptr %q
  ret void
}

define void @test(double %x, double %y, float %f, ptr %p, ptr %ep, ptr %q, ptr %eq, ptr %out) {
  %1 = call double (...) @__enzyme_error_estimate(ptr @add, double %x, double 0.0, double %y, double 0.0)
  store volatile double %1, ptr %out
  %2 = call double (...) @__enzyme_error_estimate(ptr @div, double %x, double 0.0, double %y, double 0.0)
  store volatile double %2, ptr %out
  %3 = call double (...) @__enzyme_error_estimate(ptr @cosine, double %x, double 1.0)
  store volatile double %3, ptr %out
  %4 = call double (...) @__enzyme_error_estimate(ptr @exact, double %x, double 1.0)
  store volatile double %4, ptr %out
  %5 = call double (...) @__enzyme_error_estimate(ptr @widen, float %f, float 1.0)
  store volatile double %5, ptr %out
  %6 = call double (...) @__enzyme_error_estimate(ptr @narrow, double %x, double 1.0)
  store volatile double %6, ptr %out
  %7 = call double (...) @__enzyme_error_estimate(ptr @fused, double %x, double 1.0, double %y, double 2.0, double %x, double 3.0)
  store volatile double %7, ptr %out
  call void (...) @__enzyme_error_estimate_v(ptr @copy, ptr %p, ptr %ep, ptr %q, ptr %eq)
  ret void
}

; The request calls the error function with values and input errors.
; CHECK-LABEL: define void @test(
; CHECK: call double @add.tapestry.err_dd_ra(double %x, double 0.000000e+00, double %y, double 0.000000e+00)
; CHECK: call void @copy.tapestry.err_dd(ptr %p, ptr %ep, ptr %q, ptr %eq)

; CHECK-LABEL: define internal double @fused.tapestry.err_ddd_ra(double %a, double %"a'", double %b, double %"b'", double %c, double %"c'")
; CHECK-NEXT: %r = call double @llvm.fmuladd.f64(double %a, double %b, double %c)
; CHECK-NEXT: %[[A1:.+]] = fmul double %"a'", %a
; CHECK-NEXT: %[[A2:.+]] = fdiv double %[[A1]], %r
; CHECK-NEXT: %[[A3:.+]] = fmul double %[[A2]], %b
; CHECK-NEXT: %[[A4:.+]] = call double @llvm.fabs.f64(double %[[A3]])
; CHECK-NEXT: %[[B1:.+]] = fmul double %"b'", %b
; CHECK-NEXT: %[[B2:.+]] = fdiv double %[[B1]], %r
; CHECK-NEXT: %[[B3:.+]] = fmul double %[[B2]], %a
; CHECK-NEXT: %[[B4:.+]] = call double @llvm.fabs.f64(double %[[B3]])
; CHECK-NEXT: %[[AB:.+]] = fadd double %[[A4]], %[[B4]]
; CHECK-NEXT: %[[C1:.+]] = fmul double %"c'", %c
; CHECK-NEXT: %[[C2:.+]] = fdiv double %[[C1]], %r
; CHECK-NEXT: %[[C4:.+]] = call double @llvm.fabs.f64(double %[[C2]])
; CHECK-NEXT: %[[SUM:.+]] = fadd double %[[AB]], %[[C4]]
; CHECK-NEXT: %[[I:.+]] = bitcast double %r to i64
; CHECK-NEXT: %[[F:.+]] = xor i64 %[[I]], 1
; CHECK-NEXT: %[[N:.+]] = bitcast i64 %[[F]] to double
; CHECK-NEXT: %[[D:.+]] = fsub double %r, %[[N]]
; CHECK-NEXT: %ulp = call double @llvm.fabs.f64(double %[[D]])
; CHECK-NEXT: %"r'" = call double @llvm.maxnum.f64(double %ulp, double %[[SUM]])
; CHECK-NEXT: ret double %"r'"

; fptrunc rounds (in float); the operand's error is converted first.
; CHECK-LABEL: define internal float @narrow.tapestry.err_d_ra(double %x, double %"x'")
; CHECK-NEXT: %r = fptrunc double %x to float
; CHECK-NEXT: %[[E:.+]] = fptrunc double %"x'" to float
; CHECK-NEXT: %[[M:.+]] = fmul float %[[E]], %r
; CHECK-NEXT: %[[Q:.+]] = fdiv float %[[M]], %r
; CHECK-NEXT: %[[T:.+]] = call float @llvm.fabs.f32(float %[[Q]])
; CHECK-NEXT: %[[I:.+]] = bitcast float %r to i32
; CHECK-NEXT: %[[F:.+]] = xor i32 %[[I]], 1
; CHECK-NEXT: %[[N:.+]] = bitcast i32 %[[F]] to float
; CHECK-NEXT: %[[D:.+]] = fsub float %r, %[[N]]
; CHECK-NEXT: %ulp = call float @llvm.fabs.f32(float %[[D]])
; CHECK-NEXT: %"r'" = call float @llvm.maxnum.f32(float %ulp, float %[[T]])
; CHECK-NEXT: ret float %"r'"

; fpext is exact: the error is only widened.
; CHECK-LABEL: define internal double @widen.tapestry.err_d_ra(float %x, float %"x'")
; CHECK-NEXT: %"r'" = fpext float %"x'" to double
; CHECK-NEXT: ret double %"r'"

; fabs and fneg are exact: no ulp, no maxnum.
; CHECK-LABEL: define internal double @exact.tapestry.err_d_ra(
; CHECK-NOT: maxnum
; CHECK-NOT: xor
; CHECK: ret double

; cos: the partial -sin(x) scales the relative input error.
; CHECK-LABEL: define internal double @cosine.tapestry.err_d_ra(double %x, double %"x'")
; CHECK-NEXT: %r = call double @llvm.cos.f64(double %x)
; CHECK-NEXT: %[[S:.+]] = call double @llvm.sin.f64(double %x)
; CHECK-NEXT: %[[NS:.+]] = fneg double %[[S]]
; CHECK-NEXT: %[[M:.+]] = fmul double %"x'", %x
; CHECK-NEXT: %[[Q:.+]] = fdiv double %[[M]], %r
; CHECK-NEXT: %[[P:.+]] = fmul double %[[Q]], %[[NS]]
; CHECK-NEXT: %[[T:.+]] = call double @llvm.fabs.f64(double %[[P]])
; CHECK: %ulp = call double @llvm.fabs.f64
; CHECK-NEXT: %"r'" = call double @llvm.maxnum.f64(double %ulp, double %[[T]])

; x / y: partials 1/y and -(r/y).
; CHECK-LABEL: define internal double @div.tapestry.err_dd_ra(double %x, double %"x'", double %y, double %"y'")
; CHECK-NEXT: %r = fdiv double %x, %y
; CHECK-NEXT: %[[D0:.+]] = fdiv double 1.000000e+00, %y
; CHECK-NEXT: %[[A1:.+]] = fmul double %"x'", %x
; CHECK-NEXT: %[[A2:.+]] = fdiv double %[[A1]], %r
; CHECK-NEXT: %[[A3:.+]] = fmul double %[[A2]], %[[D0]]
; CHECK-NEXT: %[[A4:.+]] = call double @llvm.fabs.f64(double %[[A3]])
; CHECK-NEXT: %[[NR:.+]] = fneg double %r
; CHECK-NEXT: %[[D1:.+]] = fdiv double %[[NR]], %y
; CHECK-NEXT: %[[B1:.+]] = fmul double %"y'", %y
; CHECK-NEXT: %[[B2:.+]] = fdiv double %[[B1]], %r
; CHECK-NEXT: %[[B3:.+]] = fmul double %[[B2]], %[[D1]]
; CHECK-NEXT: %[[B4:.+]] = call double @llvm.fabs.f64(double %[[B3]])
; CHECK-NEXT: %[[SUM:.+]] = fadd double %[[A4]], %[[B4]]
; CHECK: %"r'" = call double @llvm.maxnum.f64(double %ulp, double %[[SUM]])

; CHECK-LABEL: define internal double @add.tapestry.err_dd_ra(double %x, double %"x'", double %y, double %"y'")
; CHECK-NEXT: %r = fadd double %x, %y
; CHECK-NEXT: %[[A1:.+]] = fmul double %"x'", %x
; CHECK-NEXT: %[[A2:.+]] = fdiv double %[[A1]], %r
; CHECK-NEXT: %[[A3:.+]] = call double @llvm.fabs.f64(double %[[A2]])
; CHECK-NEXT: %[[B1:.+]] = fmul double %"y'", %y
; CHECK-NEXT: %[[B2:.+]] = fdiv double %[[B1]], %r
; CHECK-NEXT: %[[B3:.+]] = call double @llvm.fabs.f64(double %[[B2]])
; CHECK-NEXT: %[[SUM:.+]] = fadd double %[[A3]], %[[B3]]
; CHECK: %"r'" = call double @llvm.maxnum.f64(double %ulp, double %[[SUM]])

; Loads and stores move errors through the shadows.
; CHECK-LABEL: define internal void @copy.tapestry.err_dd(ptr %p, ptr %"p'", ptr %q, ptr %"q'")
; CHECK: %"v'" = load double, ptr %"p'"
; CHECK: %"w'" = call double @llvm.maxnum.f64(
; CHECK: store double %"w'", ptr %"q'"

; CHECK-NOT: __enzyme_error_estimate
