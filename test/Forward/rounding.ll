; Forward mode, piecewise-constant rules of plugin/Core/DerivativeRules.def:
; floor ceil round roundeven trunc rint nearbyint, each in LLVM-intrinsic
; (double) and C library (float) form. The tangent is the input tangent times
; the partial 0, and no rounding call remains in the intrinsic forms'
; derivatives.
;
; DEFINE: %{fc} = FileCheck %s --input-file=%t
; RUN: %opt -passes=tapestry -S %s -o %t
; RUN: %{fc} --check-prefix=CALL \
; RUN:   --implicit-check-not=__enzyme_ --implicit-check-not=@enzyme_
; RUN: %{fc} --check-prefix=FLOOR-I
; RUN: %{fc} --check-prefix=FLOOR-F
; RUN: %{fc} --check-prefix=CEIL-I
; RUN: %{fc} --check-prefix=CEIL-F
; RUN: %{fc} --check-prefix=ROUND-I
; RUN: %{fc} --check-prefix=ROUND-F
; RUN: %{fc} --check-prefix=ROUNDEVEN-I
; RUN: %{fc} --check-prefix=ROUNDEVEN-F
; RUN: %{fc} --check-prefix=TRUNC-I
; RUN: %{fc} --check-prefix=TRUNC-F
; RUN: %{fc} --check-prefix=RINT-I
; RUN: %{fc} --check-prefix=RINT-F
; RUN: %{fc} --check-prefix=NEARBYINT-I
; RUN: %{fc} --check-prefix=NEARBYINT-F

@enzyme_dup = external global i32
@enzyme_const = external global i32

declare double @__enzyme_fwddiff(ptr, ...)
declare float @__enzyme_fwddiff_f(ptr, ...)

declare double @llvm.floor.f64(double)
declare double @llvm.ceil.f64(double)
declare double @llvm.round.f64(double)
declare double @llvm.roundeven.f64(double)
declare double @llvm.trunc.f64(double)
declare double @llvm.rint.f64(double)
declare double @llvm.nearbyint.f64(double)
declare float @floorf(float)
declare float @ceilf(float)
declare float @roundf(float)
declare float @roundevenf(float)
declare float @truncf(float)
declare float @rintf(float)
declare float @nearbyintf(float)

define double @floor_i(double %x) {
  %y = call double @llvm.floor.f64(double %x)
  ret double %y
}

define float @floor_f(float %x) {
  %y = call float @floorf(float %x)
  ret float %y
}

define double @ceil_i(double %x) {
  %y = call double @llvm.ceil.f64(double %x)
  ret double %y
}

define float @ceil_f(float %x) {
  %y = call float @ceilf(float %x)
  ret float %y
}

define double @round_i(double %x) {
  %y = call double @llvm.round.f64(double %x)
  ret double %y
}

define float @round_f(float %x) {
  %y = call float @roundf(float %x)
  ret float %y
}

define double @roundeven_i(double %x) {
  %y = call double @llvm.roundeven.f64(double %x)
  ret double %y
}

define float @roundeven_f(float %x) {
  %y = call float @roundevenf(float %x)
  ret float %y
}

define double @trunc_i(double %x) {
  %y = call double @llvm.trunc.f64(double %x)
  ret double %y
}

define float @trunc_f(float %x) {
  %y = call float @truncf(float %x)
  ret float %y
}

define double @rint_i(double %x) {
  %y = call double @llvm.rint.f64(double %x)
  ret double %y
}

define float @rint_f(float %x) {
  %y = call float @rintf(float %x)
  ret float %y
}

define double @nearbyint_i(double %x) {
  %y = call double @llvm.nearbyint.f64(double %x)
  ret double %y
}

define float @nearbyint_f(float %x) {
  %y = call float @nearbyintf(float %x)
  ret float %y
}

define void @test(double %x, double %dx, float %xf, float %dxf, ptr %out) {
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %r1 = call double (ptr, ...) @__enzyme_fwddiff(ptr @floor_i, i32 %d, double %x, double %dx)
  store double %r1, ptr %out
  %r2 = call float (ptr, ...) @__enzyme_fwddiff_f(ptr @floor_f, i32 %d, float %xf, float %dxf)
  store float %r2, ptr %out
  %r3 = call double (ptr, ...) @__enzyme_fwddiff(ptr @ceil_i, i32 %d, double %x, double %dx)
  store double %r3, ptr %out
  %r4 = call float (ptr, ...) @__enzyme_fwddiff_f(ptr @ceil_f, i32 %d, float %xf, float %dxf)
  store float %r4, ptr %out
  %r5 = call double (ptr, ...) @__enzyme_fwddiff(ptr @round_i, i32 %d, double %x, double %dx)
  store double %r5, ptr %out
  %r6 = call float (ptr, ...) @__enzyme_fwddiff_f(ptr @round_f, i32 %d, float %xf, float %dxf)
  store float %r6, ptr %out
  %r7 = call double (ptr, ...) @__enzyme_fwddiff(ptr @roundeven_i, i32 %d, double %x, double %dx)
  store double %r7, ptr %out
  %r8 = call float (ptr, ...) @__enzyme_fwddiff_f(ptr @roundeven_f, i32 %d, float %xf, float %dxf)
  store float %r8, ptr %out
  %r9 = call double (ptr, ...) @__enzyme_fwddiff(ptr @trunc_i, i32 %d, double %x, double %dx)
  store double %r9, ptr %out
  %r10 = call float (ptr, ...) @__enzyme_fwddiff_f(ptr @trunc_f, i32 %d, float %xf, float %dxf)
  store float %r10, ptr %out
  %r11 = call double (ptr, ...) @__enzyme_fwddiff(ptr @rint_i, i32 %d, double %x, double %dx)
  store double %r11, ptr %out
  %r12 = call float (ptr, ...) @__enzyme_fwddiff_f(ptr @rint_f, i32 %d, float %xf, float %dxf)
  store float %r12, ptr %out
  %r13 = call double (ptr, ...) @__enzyme_fwddiff(ptr @nearbyint_i, i32 %d, double %x, double %dx)
  store double %r13, ptr %out
  %r14 = call float (ptr, ...) @__enzyme_fwddiff_f(ptr @nearbyint_f, i32 %d, float %xf, float %dxf)
  store float %r14, ptr %out
  ret void
}

; CALL-LABEL: define void @test(
; CALL:      [[R1:%.*]] = call double @floor_i.tapestry.fwd_d_ra(double %x, double %dx)
; CALL-NEXT: store double [[R1]], ptr %out
; CALL:      call float @floor_f.tapestry.fwd_d_ra(float %xf, float %dxf)
; CALL:      call double @ceil_i.tapestry.fwd_d_ra(double %x, double %dx)
; CALL:      call float @ceil_f.tapestry.fwd_d_ra(float %xf, float %dxf)
; CALL:      call double @round_i.tapestry.fwd_d_ra(double %x, double %dx)
; CALL:      call float @round_f.tapestry.fwd_d_ra(float %xf, float %dxf)
; CALL:      call double @roundeven_i.tapestry.fwd_d_ra(double %x, double %dx)
; CALL:      call float @roundeven_f.tapestry.fwd_d_ra(float %xf, float %dxf)
; CALL:      call double @trunc_i.tapestry.fwd_d_ra(double %x, double %dx)
; CALL:      call float @trunc_f.tapestry.fwd_d_ra(float %xf, float %dxf)
; CALL:      call double @rint_i.tapestry.fwd_d_ra(double %x, double %dx)
; CALL:      call float @rint_f.tapestry.fwd_d_ra(float %xf, float %dxf)
; CALL:      call double @nearbyint_i.tapestry.fwd_d_ra(double %x, double %dx)
; CALL:      [[R14:%.*]] = call float @nearbyint_f.tapestry.fwd_d_ra(float %xf, float %dxf)
; CALL-NEXT: store float [[R14]], ptr %out
; CALL:      ret void

; FLOOR-I-LABEL: define internal double @floor_i.tapestry.fwd_d_ra(double %x, double %"x'")
; FLOOR-I-NOT:   call
; FLOOR-I:       [[T:%.*]] = fmul double %"x'", 0.000000e+00
; FLOOR-I-NOT:   call
; FLOOR-I:       ret double [[T]]
; FLOOR-I-LABEL: {{^}}}

; FLOOR-F-LABEL: define internal float @floor_f.tapestry.fwd_d_ra(float %x, float %"x'")
; FLOOR-F:       [[T:%.*]] = fmul float %"x'", 0.000000e+00
; FLOOR-F:       ret float [[T]]
; FLOOR-F-LABEL: {{^}}}

; CEIL-I-LABEL: define internal double @ceil_i.tapestry.fwd_d_ra(double %x, double %"x'")
; CEIL-I-NOT:   call
; CEIL-I:       [[T:%.*]] = fmul double %"x'", 0.000000e+00
; CEIL-I-NOT:   call
; CEIL-I:       ret double [[T]]
; CEIL-I-LABEL: {{^}}}

; CEIL-F-LABEL: define internal float @ceil_f.tapestry.fwd_d_ra(float %x, float %"x'")
; CEIL-F:       [[T:%.*]] = fmul float %"x'", 0.000000e+00
; CEIL-F:       ret float [[T]]
; CEIL-F-LABEL: {{^}}}

; ROUND-I-LABEL: define internal double @round_i.tapestry.fwd_d_ra(double %x, double %"x'")
; ROUND-I-NOT:   call
; ROUND-I:       [[T:%.*]] = fmul double %"x'", 0.000000e+00
; ROUND-I-NOT:   call
; ROUND-I:       ret double [[T]]
; ROUND-I-LABEL: {{^}}}

; ROUND-F-LABEL: define internal float @round_f.tapestry.fwd_d_ra(float %x, float %"x'")
; ROUND-F:       [[T:%.*]] = fmul float %"x'", 0.000000e+00
; ROUND-F:       ret float [[T]]
; ROUND-F-LABEL: {{^}}}

; ROUNDEVEN-I-LABEL: define internal double @roundeven_i.tapestry.fwd_d_ra(double %x, double %"x'")
; ROUNDEVEN-I-NOT:   call
; ROUNDEVEN-I:       [[T:%.*]] = fmul double %"x'", 0.000000e+00
; ROUNDEVEN-I-NOT:   call
; ROUNDEVEN-I:       ret double [[T]]
; ROUNDEVEN-I-LABEL: {{^}}}

; ROUNDEVEN-F-LABEL: define internal float @roundeven_f.tapestry.fwd_d_ra(float %x, float %"x'")
; ROUNDEVEN-F:       [[T:%.*]] = fmul float %"x'", 0.000000e+00
; ROUNDEVEN-F:       ret float [[T]]
; ROUNDEVEN-F-LABEL: {{^}}}

; TRUNC-I-LABEL: define internal double @trunc_i.tapestry.fwd_d_ra(double %x, double %"x'")
; TRUNC-I-NOT:   call
; TRUNC-I:       [[T:%.*]] = fmul double %"x'", 0.000000e+00
; TRUNC-I-NOT:   call
; TRUNC-I:       ret double [[T]]
; TRUNC-I-LABEL: {{^}}}

; TRUNC-F-LABEL: define internal float @trunc_f.tapestry.fwd_d_ra(float %x, float %"x'")
; TRUNC-F:       [[T:%.*]] = fmul float %"x'", 0.000000e+00
; TRUNC-F:       ret float [[T]]
; TRUNC-F-LABEL: {{^}}}

; RINT-I-LABEL: define internal double @rint_i.tapestry.fwd_d_ra(double %x, double %"x'")
; RINT-I-NOT:   call
; RINT-I:       [[T:%.*]] = fmul double %"x'", 0.000000e+00
; RINT-I-NOT:   call
; RINT-I:       ret double [[T]]
; RINT-I-LABEL: {{^}}}

; RINT-F-LABEL: define internal float @rint_f.tapestry.fwd_d_ra(float %x, float %"x'")
; RINT-F:       [[T:%.*]] = fmul float %"x'", 0.000000e+00
; RINT-F:       ret float [[T]]
; RINT-F-LABEL: {{^}}}

; NEARBYINT-I-LABEL: define internal double @nearbyint_i.tapestry.fwd_d_ra(double %x, double %"x'")
; NEARBYINT-I-NOT:   call
; NEARBYINT-I:       [[T:%.*]] = fmul double %"x'", 0.000000e+00
; NEARBYINT-I-NOT:   call
; NEARBYINT-I:       ret double [[T]]
; NEARBYINT-I-LABEL: {{^}}}

; NEARBYINT-F-LABEL: define internal float @nearbyint_f.tapestry.fwd_d_ra(float %x, float %"x'")
; NEARBYINT-F:       [[T:%.*]] = fmul float %"x'", 0.000000e+00
; NEARBYINT-F:       ret float [[T]]
; NEARBYINT-F-LABEL: {{^}}}
