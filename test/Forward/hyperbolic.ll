; Forward mode, hyperbolic rules of plugin/Core/DerivativeRules.def: sinh
; cosh tanh in LLVM-intrinsic and C library (float) form; asinh acosh atanh,
; which have no LLVM 19 intrinsic, in their double, float and long double
; library spellings. Each request is replaced by a call to
; <f>.tapestry.fwd_d_ra, which multiplies the partial by the tangent x'.
;
; DEFINE: %{fc} = FileCheck %s --input-file=%t
; RUN: %opt -passes=tapestry -S %s -o %t
; RUN: %{fc} --check-prefix=CALL \
; RUN:   --implicit-check-not=__enzyme_ --implicit-check-not=@enzyme_
; RUN: %{fc} --check-prefix=SINH-I
; RUN: %{fc} --check-prefix=SINH-F
; RUN: %{fc} --check-prefix=COSH-I
; RUN: %{fc} --check-prefix=COSH-F
; RUN: %{fc} --check-prefix=TANH-I
; RUN: %{fc} --check-prefix=TANH-F
; RUN: %{fc} --check-prefix=ASINH-D
; RUN: %{fc} --check-prefix=ACOSH-F
; RUN: %{fc} --check-prefix=ATANH-L

@enzyme_dup = external global i32
@enzyme_const = external global i32

declare double @__enzyme_fwddiff(ptr, ...)
declare float @__enzyme_fwddiff_f(ptr, ...)
declare x86_fp80 @__enzyme_fwddiff_l(ptr, ...)

declare double @llvm.sinh.f64(double)
declare double @llvm.cosh.f64(double)
declare double @llvm.tanh.f64(double)
declare float @sinhf(float)
declare float @coshf(float)
declare float @tanhf(float)
declare double @asinh(double)
declare float @acoshf(float)
declare x86_fp80 @atanhl(x86_fp80)

define double @sinh_i(double %x) {
  %y = call double @llvm.sinh.f64(double %x)
  ret double %y
}

define float @sinh_f(float %x) {
  %y = call float @sinhf(float %x)
  ret float %y
}

define double @cosh_i(double %x) {
  %y = call double @llvm.cosh.f64(double %x)
  ret double %y
}

define float @cosh_f(float %x) {
  %y = call float @coshf(float %x)
  ret float %y
}

define double @tanh_i(double %x) {
  %y = call double @llvm.tanh.f64(double %x)
  ret double %y
}

define float @tanh_f(float %x) {
  %y = call float @tanhf(float %x)
  ret float %y
}

define double @asinh_d(double %x) {
  %y = call double @asinh(double %x)
  ret double %y
}

define float @acosh_f(float %x) {
  %y = call float @acoshf(float %x)
  ret float %y
}

define x86_fp80 @atanh_l(x86_fp80 %x) {
  %y = call x86_fp80 @atanhl(x86_fp80 %x)
  ret x86_fp80 %y
}

define void @test(double %x, double %dx, float %xf, float %dxf, x86_fp80 %xl, x86_fp80 %dxl, ptr %out) {
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %r1 = call double (ptr, ...) @__enzyme_fwddiff(ptr @sinh_i, i32 %d, double %x, double %dx)
  store double %r1, ptr %out
  %r2 = call float (ptr, ...) @__enzyme_fwddiff_f(ptr @sinh_f, i32 %d, float %xf, float %dxf)
  store float %r2, ptr %out
  %r3 = call double (ptr, ...) @__enzyme_fwddiff(ptr @cosh_i, i32 %d, double %x, double %dx)
  store double %r3, ptr %out
  %r4 = call float (ptr, ...) @__enzyme_fwddiff_f(ptr @cosh_f, i32 %d, float %xf, float %dxf)
  store float %r4, ptr %out
  %r5 = call double (ptr, ...) @__enzyme_fwddiff(ptr @tanh_i, i32 %d, double %x, double %dx)
  store double %r5, ptr %out
  %r6 = call float (ptr, ...) @__enzyme_fwddiff_f(ptr @tanh_f, i32 %d, float %xf, float %dxf)
  store float %r6, ptr %out
  %r7 = call double (ptr, ...) @__enzyme_fwddiff(ptr @asinh_d, i32 %d, double %x, double %dx)
  store double %r7, ptr %out
  %r8 = call float (ptr, ...) @__enzyme_fwddiff_f(ptr @acosh_f, i32 %d, float %xf, float %dxf)
  store float %r8, ptr %out
  %r9 = call x86_fp80 (ptr, ...) @__enzyme_fwddiff_l(ptr @atanh_l, i32 %d, x86_fp80 %xl, x86_fp80 %dxl)
  store x86_fp80 %r9, ptr %out
  ret void
}

; CALL-LABEL: define void @test(
; CALL:      [[R1:%.*]] = call double @sinh_i.tapestry.fwd_d_ra(double %x, double %dx)
; CALL-NEXT: store double [[R1]], ptr %out
; CALL:      call float @sinh_f.tapestry.fwd_d_ra(float %xf, float %dxf)
; CALL:      call double @cosh_i.tapestry.fwd_d_ra(double %x, double %dx)
; CALL:      call float @cosh_f.tapestry.fwd_d_ra(float %xf, float %dxf)
; CALL:      call double @tanh_i.tapestry.fwd_d_ra(double %x, double %dx)
; CALL:      call float @tanh_f.tapestry.fwd_d_ra(float %xf, float %dxf)
; CALL:      call double @asinh_d.tapestry.fwd_d_ra(double %x, double %dx)
; CALL:      call float @acosh_f.tapestry.fwd_d_ra(float %xf, float %dxf)
; CALL:      [[R9:%.*]] = call x86_fp80 @atanh_l.tapestry.fwd_d_ra(x86_fp80 %xl, x86_fp80 %dxl)
; CALL-NEXT: store x86_fp80 [[R9]], ptr %out
; CALL:      ret void

; sinh'(x) = cosh(x).
; SINH-I-LABEL: define internal double @sinh_i.tapestry.fwd_d_ra(double %x, double %"x'")
; SINH-I-DAG:   [[P:%.*]] = call double @llvm.cosh.f64(double %x)
; SINH-I-DAG:   [[T:%.*]] = fmul double [[P]], %"x'"
; SINH-I:       ret double [[T]]
; SINH-I-LABEL: {{^}}}

; SINH-F-LABEL: define internal float @sinh_f.tapestry.fwd_d_ra(float %x, float %"x'")
; SINH-F-DAG:   [[P:%.*]] = call float @llvm.cosh.f32(float %x)
; SINH-F-DAG:   [[T:%.*]] = fmul float [[P]], %"x'"
; SINH-F:       ret float [[T]]
; SINH-F-LABEL: {{^}}}

; cosh'(x) = sinh(x).
; COSH-I-LABEL: define internal double @cosh_i.tapestry.fwd_d_ra(double %x, double %"x'")
; COSH-I-DAG:   [[P:%.*]] = call double @llvm.sinh.f64(double %x)
; COSH-I-DAG:   [[T:%.*]] = fmul double [[P]], %"x'"
; COSH-I:       ret double [[T]]
; COSH-I-LABEL: {{^}}}

; COSH-F-LABEL: define internal float @cosh_f.tapestry.fwd_d_ra(float %x, float %"x'")
; COSH-F-DAG:   [[P:%.*]] = call float @llvm.sinh.f32(float %x)
; COSH-F-DAG:   [[T:%.*]] = fmul float [[P]], %"x'"
; COSH-F:       ret float [[T]]
; COSH-F-LABEL: {{^}}}

; tanh'(x) = 1 - tanh(x)^2, from the primal result.
; TANH-I-LABEL: define internal double @tanh_i.tapestry.fwd_d_ra(double %x, double %"x'")
; TANH-I-DAG:   [[Y:%.*]] = call double @llvm.tanh.f64(double %x)
; TANH-I-DAG:   [[Y2:%.*]] = fmul double [[Y]], [[Y]]
; TANH-I-DAG:   [[P:%.*]] = fsub double 1.000000e+00, [[Y2]]
; TANH-I-DAG:   [[T:%.*]] = fmul double [[P]], %"x'"
; TANH-I:       ret double [[T]]
; TANH-I-LABEL: {{^}}}

; TANH-F-LABEL: define internal float @tanh_f.tapestry.fwd_d_ra(float %x, float %"x'")
; TANH-F-DAG:   [[Y:%.*]] = call float @tanhf(float %x)
; TANH-F-DAG:   [[Y2:%.*]] = fmul float [[Y]], [[Y]]
; TANH-F-DAG:   [[P:%.*]] = fsub float 1.000000e+00, [[Y2]]
; TANH-F-DAG:   [[T:%.*]] = fmul float [[P]], %"x'"
; TANH-F:       ret float [[T]]
; TANH-F-LABEL: {{^}}}

; asinh'(x) = 1 / sqrt(x^2 + 1).
; ASINH-D-LABEL: define internal double @asinh_d.tapestry.fwd_d_ra(double %x, double %"x'")
; ASINH-D-DAG:   [[X2:%.*]] = fmul double %x, %x
; ASINH-D-DAG:   [[S:%.*]] = fadd double [[X2]], 1.000000e+00
; ASINH-D-DAG:   [[R:%.*]] = call double @llvm.sqrt.f64(double [[S]])
; ASINH-D-DAG:   [[P:%.*]] = fdiv double 1.000000e+00, [[R]]
; ASINH-D-DAG:   [[T:%.*]] = fmul double [[P]], %"x'"
; ASINH-D:       ret double [[T]]
; ASINH-D-LABEL: {{^}}}

; acosh'(x) = 1 / sqrt(x^2 - 1).
; ACOSH-F-LABEL: define internal float @acosh_f.tapestry.fwd_d_ra(float %x, float %"x'")
; ACOSH-F-DAG:   [[X2:%.*]] = fmul float %x, %x
; ACOSH-F-DAG:   [[S:%.*]] = fadd float [[X2]], -1.000000e+00
; ACOSH-F-DAG:   [[R:%.*]] = call float @llvm.sqrt.f32(float [[S]])
; ACOSH-F-DAG:   [[P:%.*]] = fdiv float 1.000000e+00, [[R]]
; ACOSH-F-DAG:   [[T:%.*]] = fmul float [[P]], %"x'"
; ACOSH-F:       ret float [[T]]
; ACOSH-F-LABEL: {{^}}}

; atanh'(x) = 1 / (1 - x^2), here in long double.
; ATANH-L-LABEL: define internal x86_fp80 @atanh_l.tapestry.fwd_d_ra(x86_fp80 %x, x86_fp80 %"x'")
; ATANH-L-DAG:   [[X2:%.*]] = fmul x86_fp80 %x, %x
; ATANH-L-DAG:   [[S:%.*]] = fsub x86_fp80 0xK3FFF8000000000000000, [[X2]]
; ATANH-L-DAG:   [[P:%.*]] = fdiv x86_fp80 0xK3FFF8000000000000000, [[S]]
; ATANH-L-DAG:   [[T:%.*]] = fmul x86_fp80 [[P]], %"x'"
; ATANH-L:       ret x86_fp80 [[T]]
; ATANH-L-LABEL: {{^}}}
