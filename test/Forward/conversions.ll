; Forward mode, floating-point conversions: the tangent goes through the same
; conversion as the value, for float/double, double/x86_fp80 and double/half.
; @chain mixes the conversions with a float math rule and a double product.
;
; DEFINE: %{fc} = FileCheck %s --input-file=%t
; RUN: %opt -passes=tapestry -S %s -o %t
; RUN: %{fc} --check-prefix=CALL \
; RUN:   --implicit-check-not=__enzyme_ --implicit-check-not=@enzyme_
; RUN: %{fc} --check-prefix=FPEXT
; RUN: %{fc} --check-prefix=FPTRUNC
; RUN: %{fc} --check-prefix=FPEXT-L
; RUN: %{fc} --check-prefix=FPTRUNC-H
; RUN: %{fc} --check-prefix=CHAIN

@enzyme_dup = external global i32
@enzyme_const = external global i32

declare double @__enzyme_fwddiff(ptr, ...)
declare float @__enzyme_fwddiff_f(ptr, ...)
declare x86_fp80 @__enzyme_fwddiff_l(ptr, ...)
declare half @__enzyme_fwddiff_h(ptr, ...)

declare float @llvm.sin.f32(float)

define double @fpext_(float %x) {
  %e = fpext float %x to double
  ret double %e
}

define float @fptrunc_(double %x) {
  %t = fptrunc double %x to float
  ret float %t
}

define x86_fp80 @fpext_l(double %x) {
  %e = fpext double %x to x86_fp80
  ret x86_fp80 %e
}

define half @fptrunc_h(double %x) {
  %t = fptrunc double %x to half
  ret half %t
}

; chain(x) = x * (double) sinf((float) x)
define double @chain(double %x) {
  %t = fptrunc double %x to float
  %s = call float @llvm.sin.f32(float %t)
  %e = fpext float %s to double
  %m = fmul double %e, %x
  ret double %m
}

define void @test(float %xf, float %dxf, double %x, double %dx, ptr %out) {
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %r1 = call double (ptr, ...) @__enzyme_fwddiff(ptr @fpext_, i32 %d, float %xf, float %dxf)
  store double %r1, ptr %out
  %r2 = call float (ptr, ...) @__enzyme_fwddiff_f(ptr @fptrunc_, i32 %d, double %x, double %dx)
  store float %r2, ptr %out
  %r3 = call x86_fp80 (ptr, ...) @__enzyme_fwddiff_l(ptr @fpext_l, i32 %d, double %x, double %dx)
  store x86_fp80 %r3, ptr %out
  %r4 = call half (ptr, ...) @__enzyme_fwddiff_h(ptr @fptrunc_h, i32 %d, double %x, double %dx)
  store half %r4, ptr %out
  %r5 = call double (ptr, ...) @__enzyme_fwddiff(ptr @chain, i32 %d, double %x, double %dx)
  store double %r5, ptr %out
  ret void
}

; CALL-LABEL: define void @test(
; CALL:      [[R1:%.*]] = call double @fpext_.tapestry.fwd_d_ra(float %xf, float %dxf)
; CALL-NEXT: store double [[R1]], ptr %out
; CALL:      call float @fptrunc_.tapestry.fwd_d_ra(double %x, double %dx)
; CALL:      call x86_fp80 @fpext_l.tapestry.fwd_d_ra(double %x, double %dx)
; CALL:      call half @fptrunc_h.tapestry.fwd_d_ra(double %x, double %dx)
; CALL:      [[R5:%.*]] = call double @chain.tapestry.fwd_d_ra(double %x, double %dx)
; CALL-NEXT: store double [[R5]], ptr %out
; CALL:      ret void

; FPEXT-LABEL: define internal double @fpext_.tapestry.fwd_d_ra(float %x, float %"x'")
; FPEXT:       [[T:%.*]] = fpext float %"x'" to double
; FPEXT-NEXT:  ret double [[T]]
; FPEXT-LABEL: {{^}}}

; FPTRUNC-LABEL: define internal float @fptrunc_.tapestry.fwd_d_ra(double %x, double %"x'")
; FPTRUNC:       [[T:%.*]] = fptrunc double %"x'" to float
; FPTRUNC-NEXT:  ret float [[T]]
; FPTRUNC-LABEL: {{^}}}

; FPEXT-L-LABEL: define internal x86_fp80 @fpext_l.tapestry.fwd_d_ra(double %x, double %"x'")
; FPEXT-L:       [[T:%.*]] = fpext double %"x'" to x86_fp80
; FPEXT-L-NEXT:  ret x86_fp80 [[T]]
; FPEXT-L-LABEL: {{^}}}

; FPTRUNC-H-LABEL: define internal half @fptrunc_h.tapestry.fwd_d_ra(double %x, double %"x'")
; FPTRUNC-H:       [[T:%.*]] = fptrunc double %"x'" to half
; FPTRUNC-H-NEXT:  ret half [[T]]
; FPTRUNC-H-LABEL: {{^}}}

; d chain = (double)(cos(t) (float) x') x + (double) sin(t) x'.
; CHAIN-LABEL: define internal double @chain.tapestry.fwd_d_ra(double %x, double %"x'")
; CHAIN-DAG:   [[TT:%.*]] = fptrunc double %"x'" to float
; CHAIN-DAG:   [[T:%.*]] = fptrunc double %x to float
; CHAIN-DAG:   [[C:%.*]] = call float @llvm.cos.f32(float [[T]])
; CHAIN-DAG:   [[TS:%.*]] = fmul float [[C]], [[TT]]
; CHAIN-DAG:   [[TE:%.*]] = fpext float [[TS]] to double
; CHAIN-DAG:   [[S:%.*]] = call float @llvm.sin.f32(float [[T]])
; CHAIN-DAG:   [[E:%.*]] = fpext float [[S]] to double
; CHAIN-DAG:   [[M1:%.*]] = fmul double [[TE]], %x
; CHAIN-DAG:   [[M2:%.*]] = fmul double [[E]], %"x'"
; CHAIN:       [[R:%.*]] = fadd double [[M1]], [[M2]]
; CHAIN-NEXT:  ret double [[R]]
; CHAIN-LABEL: {{^}}}
