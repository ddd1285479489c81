; __enzyme_fwddiff declared to return a struct the C ABI returns in memory
; (Vec3, 24 bytes), spelled as source code writes it: `Vec3 d =
; __enzyme_fwddiff((void *)polar, r, 0.0, th, 1.0)`. The request's own
; sret pointer is not an argument of polar: it receives the tangent (the
; shadow of polar's sret result, DuplicatedNoNeed), and the primal result
; goes to a local (Passes/RequestDecoder.cpp, decodeImplicitStructResult).
; The C spelling runs in test/Integration/strangers-fwd-sret-result-spelling.c.
;
; RUN: %opt -passes=tapestry -S %s -o - | FileCheck %s

%struct.Vec3 = type { double, double, double }
declare double @cos(double)
declare double @sin(double)
declare void @__enzyme_fwddiff(ptr sret(%struct.Vec3), ptr, ...)

define void @polar(ptr sret(%struct.Vec3) %res, double %r, double %th) {
  %c = call double @cos(double %th)
  %x = fmul double %c, %r
  store double %x, ptr %res
  %py = getelementptr inbounds i8, ptr %res, i64 8
  %s = call double @sin(double %th)
  %y = fmul double %s, %r
  store double %y, ptr %py
  %pz = getelementptr inbounds i8, ptr %res, i64 16
  %z = fmul double %r, %th
  store double %z, ptr %pz
  ret void
}

define void @tangent(ptr sret(%struct.Vec3) %out, double %r, double %th) {
  call void (ptr, ptr, ...) @__enzyme_fwddiff(ptr sret(%struct.Vec3) %out, ptr @polar, double %r, double 0.0, double %th, double 1.0)
  ret void
}

; CHECK-LABEL: define void @tangent(ptr sret(%struct.Vec3) %out, double %r, double %th)
; CHECK-NEXT:  %primal.result = alloca %struct.Vec3
; CHECK-NEXT:  call void @polar.tapestry.fwd_ndd(ptr %primal.result, ptr %out, double %r, double 0.000000e+00, double %th, double 1.000000e+00)
; CHECK-NEXT:  ret void
; The tangents go through the shadow of polar's result, the primal stores
; stay out (the primal result is not needed).
; CHECK-LABEL: define internal void @polar.tapestry.fwd_ndd(ptr %res, ptr %"res'", double %r, double %"r'", double %th, double %"th'")
; CHECK-NOT:   store double %x,
; CHECK:       store double %"x'", ptr %"res'"
; CHECK:       %"py'" = getelementptr inbounds i8, ptr %"res'", i64 8
; CHECK:       store double %"y'", ptr %"py'"
; CHECK:       %"pz'" = getelementptr inbounds i8, ptr %"res'", i64 16
; CHECK:       store double %"z'", ptr %"pz'"
; CHECK-NEXT:  ret void
