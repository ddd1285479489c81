; Forward mode, trigonometric rules of plugin/Core/DerivativeRules.def:
; sin cos tan asin acos atan atan2, each in its LLVM-intrinsic form and its C
; library form (float spelling; sinl for long double; atan2 has no intrinsic
; in LLVM 19). Each request is replaced by a call to
; <f>.tapestry.fwd_<activities>_ra, which multiplies the rule's partial by the
; tangent argument (the shadow, named x'); with two active operands the
; tangent is the sum of both products. The float requests pass their tangents
; without markers (a float argument is enzyme_dup by default in forward
; mode).
;
; DEFINE: %{fc} = FileCheck %s --input-file=%t
; RUN: %opt -passes=tapestry -S %s -o %t
; RUN: %{fc} --check-prefix=CALL \
; RUN:   --implicit-check-not=__enzyme_ --implicit-check-not=@enzyme_
; RUN: %{fc} --check-prefix=SIN-I
; RUN: %{fc} --check-prefix=SIN-F
; RUN: %{fc} --check-prefix=SIN-L
; RUN: %{fc} --check-prefix=COS-I
; RUN: %{fc} --check-prefix=COS-F
; RUN: %{fc} --check-prefix=TAN-I
; RUN: %{fc} --check-prefix=TAN-F
; RUN: %{fc} --check-prefix=ASIN-I
; RUN: %{fc} --check-prefix=ASIN-F
; RUN: %{fc} --check-prefix=ACOS-I
; RUN: %{fc} --check-prefix=ACOS-F
; RUN: %{fc} --check-prefix=ATAN-I
; RUN: %{fc} --check-prefix=ATAN-F
; RUN: %{fc} --check-prefix=ATAN2-D
; RUN: %{fc} --check-prefix=ATAN2-F

@enzyme_dup = external global i32
@enzyme_const = external global i32

declare double @__enzyme_fwddiff(ptr, ...)
declare float @__enzyme_fwddiff_f(ptr, ...)
declare x86_fp80 @__enzyme_fwddiff_l(ptr, ...)

declare double @llvm.sin.f64(double)
declare double @llvm.cos.f64(double)
declare double @llvm.tan.f64(double)
declare double @llvm.asin.f64(double)
declare double @llvm.acos.f64(double)
declare double @llvm.atan.f64(double)
declare float @sinf(float)
declare x86_fp80 @sinl(x86_fp80)
declare float @cosf(float)
declare float @tanf(float)
declare float @asinf(float)
declare float @acosf(float)
declare float @atanf(float)
declare double @atan2(double, double)
declare float @atan2f(float, float)

define double @sin_i(double %x) {
  %y = call double @llvm.sin.f64(double %x)
  ret double %y
}

define float @sin_f(float %x) {
  %y = call float @sinf(float %x)
  ret float %y
}

define x86_fp80 @sin_l(x86_fp80 %x) {
  %y = call x86_fp80 @sinl(x86_fp80 %x)
  ret x86_fp80 %y
}

define double @cos_i(double %x) {
  %y = call double @llvm.cos.f64(double %x)
  ret double %y
}

define float @cos_f(float %x) {
  %y = call float @cosf(float %x)
  ret float %y
}

define double @tan_i(double %x) {
  %y = call double @llvm.tan.f64(double %x)
  ret double %y
}

define float @tan_f(float %x) {
  %y = call float @tanf(float %x)
  ret float %y
}

define double @asin_i(double %x) {
  %y = call double @llvm.asin.f64(double %x)
  ret double %y
}

define float @asin_f(float %x) {
  %y = call float @asinf(float %x)
  ret float %y
}

define double @acos_i(double %x) {
  %y = call double @llvm.acos.f64(double %x)
  ret double %y
}

define float @acos_f(float %x) {
  %y = call float @acosf(float %x)
  ret float %y
}

define double @atan_i(double %x) {
  %y = call double @llvm.atan.f64(double %x)
  ret double %y
}

define float @atan_f(float %x) {
  %y = call float @atanf(float %x)
  ret float %y
}

define double @atan2_d(double %x, double %y) {
  %r = call double @atan2(double %x, double %y)
  ret double %r
}

define float @atan2_f(float %x, float %y) {
  %r = call float @atan2f(float %x, float %y)
  ret float %r
}

define void @test(double %x, double %dx, float %xf, float %dxf, x86_fp80 %xl, x86_fp80 %dxl, double %y, double %dy, float %yf, float %dyf, ptr %out) {
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %r1 = call double (ptr, ...) @__enzyme_fwddiff(ptr @sin_i, i32 %d, double %x, double %dx)
  store double %r1, ptr %out
  %r2 = call float (ptr, ...) @__enzyme_fwddiff_f(ptr @sin_f, float %xf, float %dxf)
  store float %r2, ptr %out
  %r3 = call x86_fp80 (ptr, ...) @__enzyme_fwddiff_l(ptr @sin_l, i32 %d, x86_fp80 %xl, x86_fp80 %dxl)
  store x86_fp80 %r3, ptr %out
  %r4 = call double (ptr, ...) @__enzyme_fwddiff(ptr @cos_i, i32 %d, double %x, double %dx)
  store double %r4, ptr %out
  %r5 = call float (ptr, ...) @__enzyme_fwddiff_f(ptr @cos_f, float %xf, float %dxf)
  store float %r5, ptr %out
  %r6 = call double (ptr, ...) @__enzyme_fwddiff(ptr @tan_i, i32 %d, double %x, double %dx)
  store double %r6, ptr %out
  %r7 = call float (ptr, ...) @__enzyme_fwddiff_f(ptr @tan_f, float %xf, float %dxf)
  store float %r7, ptr %out
  %r8 = call double (ptr, ...) @__enzyme_fwddiff(ptr @asin_i, i32 %d, double %x, double %dx)
  store double %r8, ptr %out
  %r9 = call float (ptr, ...) @__enzyme_fwddiff_f(ptr @asin_f, float %xf, float %dxf)
  store float %r9, ptr %out
  %r10 = call double (ptr, ...) @__enzyme_fwddiff(ptr @acos_i, i32 %d, double %x, double %dx)
  store double %r10, ptr %out
  %r11 = call float (ptr, ...) @__enzyme_fwddiff_f(ptr @acos_f, float %xf, float %dxf)
  store float %r11, ptr %out
  %r12 = call double (ptr, ...) @__enzyme_fwddiff(ptr @atan_i, i32 %d, double %x, double %dx)
  store double %r12, ptr %out
  %r13 = call float (ptr, ...) @__enzyme_fwddiff_f(ptr @atan_f, float %xf, float %dxf)
  store float %r13, ptr %out
  %r14 = call double (ptr, ...) @__enzyme_fwddiff(ptr @atan2_d, i32 %d, double %x, double %dx, i32 %d, double %y, double %dy)
  store double %r14, ptr %out
  %r15 = call float (ptr, ...) @__enzyme_fwddiff_f(ptr @atan2_f, float %xf, float %dxf, float %yf, float %dyf)
  store float %r15, ptr %out
  ret void
}

; CALL-LABEL: define void @test(
; CALL:      [[R1:%.*]] = call double @sin_i.tapestry.fwd_d_ra(double %x, double %dx)
; CALL-NEXT: store double [[R1]], ptr %out
; CALL:      call float @sin_f.tapestry.fwd_d_ra(float %xf, float %dxf)
; CALL:      call x86_fp80 @sin_l.tapestry.fwd_d_ra(x86_fp80 %xl, x86_fp80 %dxl)
; CALL:      call double @cos_i.tapestry.fwd_d_ra(double %x, double %dx)
; CALL:      call float @cos_f.tapestry.fwd_d_ra(float %xf, float %dxf)
; CALL:      call double @tan_i.tapestry.fwd_d_ra(double %x, double %dx)
; CALL:      call float @tan_f.tapestry.fwd_d_ra(float %xf, float %dxf)
; CALL:      call double @asin_i.tapestry.fwd_d_ra(double %x, double %dx)
; CALL:      call float @asin_f.tapestry.fwd_d_ra(float %xf, float %dxf)
; CALL:      call double @acos_i.tapestry.fwd_d_ra(double %x, double %dx)
; CALL:      call float @acos_f.tapestry.fwd_d_ra(float %xf, float %dxf)
; CALL:      call double @atan_i.tapestry.fwd_d_ra(double %x, double %dx)
; CALL:      call float @atan_f.tapestry.fwd_d_ra(float %xf, float %dxf)
; CALL:      call double @atan2_d.tapestry.fwd_dd_ra(double %x, double %dx, double %y, double %dy)
; CALL:      [[R15:%.*]] = call float @atan2_f.tapestry.fwd_dd_ra(float %xf, float %dxf, float %yf, float %dyf)
; CALL-NEXT: store float [[R15]], ptr %out
; CALL:      ret void

; sin'(x) = cos(x).
; SIN-I-LABEL: define internal double @sin_i.tapestry.fwd_d_ra(double %x, double %"x'")
; SIN-I-DAG:   [[P:%.*]] = call double @llvm.cos.f64(double %x)
; SIN-I-DAG:   [[T:%.*]] = fmul double [[P]], %"x'"
; SIN-I:       ret double [[T]]
; SIN-I-LABEL: {{^}}}

; SIN-F-LABEL: define internal float @sin_f.tapestry.fwd_d_ra(float %x, float %"x'")
; SIN-F-DAG:   [[P:%.*]] = call float @llvm.cos.f32(float %x)
; SIN-F-DAG:   [[T:%.*]] = fmul float [[P]], %"x'"
; SIN-F:       ret float [[T]]
; SIN-F-LABEL: {{^}}}

; SIN-L-LABEL: define internal x86_fp80 @sin_l.tapestry.fwd_d_ra(x86_fp80 %x, x86_fp80 %"x'")
; SIN-L-DAG:   [[P:%.*]] = call x86_fp80 @llvm.cos.f80(x86_fp80 %x)
; SIN-L-DAG:   [[T:%.*]] = fmul x86_fp80 [[P]], %"x'"
; SIN-L:       ret x86_fp80 [[T]]
; SIN-L-LABEL: {{^}}}

; cos'(x) = -sin(x).
; COS-I-LABEL: define internal double @cos_i.tapestry.fwd_d_ra(double %x, double %"x'")
; COS-I-DAG:   [[S:%.*]] = call double @llvm.sin.f64(double %x)
; COS-I-DAG:   [[P:%.*]] = fneg double [[S]]
; COS-I-DAG:   [[T:%.*]] = fmul double [[P]], %"x'"
; COS-I:       ret double [[T]]
; COS-I-LABEL: {{^}}}

; COS-F-LABEL: define internal float @cos_f.tapestry.fwd_d_ra(float %x, float %"x'")
; COS-F-DAG:   [[S:%.*]] = call float @llvm.sin.f32(float %x)
; COS-F-DAG:   [[P:%.*]] = fneg float [[S]]
; COS-F-DAG:   [[T:%.*]] = fmul float [[P]], %"x'"
; COS-F:       ret float [[T]]
; COS-F-LABEL: {{^}}}

; tan'(x) = 1 + tan(x)^2, from the primal result.
; TAN-I-LABEL: define internal double @tan_i.tapestry.fwd_d_ra(double %x, double %"x'")
; TAN-I-DAG:   [[Y:%.*]] = call double @llvm.tan.f64(double %x)
; TAN-I-DAG:   [[Y2:%.*]] = fmul double [[Y]], [[Y]]
; TAN-I-DAG:   [[P:%.*]] = fadd double [[Y2]], 1.000000e+00
; TAN-I-DAG:   [[T:%.*]] = fmul double [[P]], %"x'"
; TAN-I:       ret double [[T]]
; TAN-I-LABEL: {{^}}}

; TAN-F-LABEL: define internal float @tan_f.tapestry.fwd_d_ra(float %x, float %"x'")
; TAN-F-DAG:   [[Y:%.*]] = call float @tanf(float %x)
; TAN-F-DAG:   [[Y2:%.*]] = fmul float [[Y]], [[Y]]
; TAN-F-DAG:   [[P:%.*]] = fadd float [[Y2]], 1.000000e+00
; TAN-F-DAG:   [[T:%.*]] = fmul float [[P]], %"x'"
; TAN-F:       ret float [[T]]
; TAN-F-LABEL: {{^}}}

; asin'(x) = 1 / sqrt(1 - x^2).
; ASIN-I-LABEL: define internal double @asin_i.tapestry.fwd_d_ra(double %x, double %"x'")
; ASIN-I-DAG:   [[X2:%.*]] = fmul double %x, %x
; ASIN-I-DAG:   [[S:%.*]] = fsub double 1.000000e+00, [[X2]]
; ASIN-I-DAG:   [[R:%.*]] = call double @llvm.sqrt.f64(double [[S]])
; ASIN-I-DAG:   [[P:%.*]] = fdiv double 1.000000e+00, [[R]]
; ASIN-I-DAG:   [[T:%.*]] = fmul double [[P]], %"x'"
; ASIN-I:       ret double [[T]]
; ASIN-I-LABEL: {{^}}}

; ASIN-F-LABEL: define internal float @asin_f.tapestry.fwd_d_ra(float %x, float %"x'")
; ASIN-F-DAG:   [[X2:%.*]] = fmul float %x, %x
; ASIN-F-DAG:   [[S:%.*]] = fsub float 1.000000e+00, [[X2]]
; ASIN-F-DAG:   [[R:%.*]] = call float @llvm.sqrt.f32(float [[S]])
; ASIN-F-DAG:   [[P:%.*]] = fdiv float 1.000000e+00, [[R]]
; ASIN-F-DAG:   [[T:%.*]] = fmul float [[P]], %"x'"
; ASIN-F:       ret float [[T]]
; ASIN-F-LABEL: {{^}}}

; acos'(x) = -1 / sqrt(1 - x^2).
; ACOS-I-LABEL: define internal double @acos_i.tapestry.fwd_d_ra(double %x, double %"x'")
; ACOS-I-DAG:   [[X2:%.*]] = fmul double %x, %x
; ACOS-I-DAG:   [[S:%.*]] = fsub double 1.000000e+00, [[X2]]
; ACOS-I-DAG:   [[R:%.*]] = call double @llvm.sqrt.f64(double [[S]])
; ACOS-I-DAG:   [[P:%.*]] = fdiv double -1.000000e+00, [[R]]
; ACOS-I-DAG:   [[T:%.*]] = fmul double [[P]], %"x'"
; ACOS-I:       ret double [[T]]
; ACOS-I-LABEL: {{^}}}

; ACOS-F-LABEL: define internal float @acos_f.tapestry.fwd_d_ra(float %x, float %"x'")
; ACOS-F-DAG:   [[X2:%.*]] = fmul float %x, %x
; ACOS-F-DAG:   [[S:%.*]] = fsub float 1.000000e+00, [[X2]]
; ACOS-F-DAG:   [[R:%.*]] = call float @llvm.sqrt.f32(float [[S]])
; ACOS-F-DAG:   [[P:%.*]] = fdiv float -1.000000e+00, [[R]]
; ACOS-F-DAG:   [[T:%.*]] = fmul float [[P]], %"x'"
; ACOS-F:       ret float [[T]]
; ACOS-F-LABEL: {{^}}}

; atan'(x) = 1 / (1 + x^2).
; ATAN-I-LABEL: define internal double @atan_i.tapestry.fwd_d_ra(double %x, double %"x'")
; ATAN-I-DAG:   [[X2:%.*]] = fmul double %x, %x
; ATAN-I-DAG:   [[S:%.*]] = fadd double [[X2]], 1.000000e+00
; ATAN-I-DAG:   [[P:%.*]] = fdiv double 1.000000e+00, [[S]]
; ATAN-I-DAG:   [[T:%.*]] = fmul double [[P]], %"x'"
; ATAN-I:       ret double [[T]]
; ATAN-I-LABEL: {{^}}}

; ATAN-F-LABEL: define internal float @atan_f.tapestry.fwd_d_ra(float %x, float %"x'")
; ATAN-F-DAG:   [[X2:%.*]] = fmul float %x, %x
; ATAN-F-DAG:   [[S:%.*]] = fadd float [[X2]], 1.000000e+00
; ATAN-F-DAG:   [[P:%.*]] = fdiv float 1.000000e+00, [[S]]
; ATAN-F-DAG:   [[T:%.*]] = fmul float [[P]], %"x'"
; ATAN-F:       ret float [[T]]
; ATAN-F-LABEL: {{^}}}

; atan2(x, y): d/dx = y / (x^2 + y^2) times x', d/dy = -x / (x^2 + y^2)
; times y'.
; ATAN2-D-LABEL: define internal double @atan2_d.tapestry.fwd_dd_ra(double %x, double %"x'", double %y, double %"y'")
; ATAN2-D-DAG:   [[X2:%.*]] = fmul double %x, %x
; ATAN2-D-DAG:   [[Y2:%.*]] = fmul double %y, %y
; ATAN2-D-DAG:   [[S:%.*]] = fadd double [[X2]], [[Y2]]
; ATAN2-D-DAG:   [[PX:%.*]] = fdiv double %y, [[S]]
; ATAN2-D-DAG:   [[N:%.*]] = fneg double %x
; ATAN2-D-DAG:   [[PY:%.*]] = fdiv double [[N]], [[S]]
; ATAN2-D-DAG:   [[TX:%.*]] = fmul double [[PX]], %"x'"
; ATAN2-D-DAG:   [[TY:%.*]] = fmul double [[PY]], %"y'"
; ATAN2-D:       [[T:%.*]] = fadd double [[TX]], [[TY]]
; ATAN2-D-NEXT:  ret double [[T]]
; ATAN2-D-LABEL: {{^}}}

; ATAN2-F-LABEL: define internal float @atan2_f.tapestry.fwd_dd_ra(float %x, float %"x'", float %y, float %"y'")
; ATAN2-F-DAG:   [[S:%.*]] = fadd float {{%.*}}, {{%.*}}
; ATAN2-F-DAG:   [[PX:%.*]] = fdiv float %y, [[S]]
; ATAN2-F-DAG:   [[N:%.*]] = fneg float %x
; ATAN2-F-DAG:   [[PY:%.*]] = fdiv float [[N]], [[S]]
; ATAN2-F-DAG:   [[TX:%.*]] = fmul float [[PX]], %"x'"
; ATAN2-F-DAG:   [[TY:%.*]] = fmul float [[PY]], %"y'"
; ATAN2-F:       [[T:%.*]] = fadd float [[TX]], [[TY]]
; ATAN2-F-NEXT:  ret float [[T]]
; ATAN2-F-LABEL: {{^}}}
