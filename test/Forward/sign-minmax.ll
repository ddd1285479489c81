; Forward mode, sign, magnitude and selection rules of
; plugin/Core/DerivativeRules.def: fabs copysign fmax fmin in LLVM-intrinsic
; (llvm.fabs, llvm.copysign, llvm.maxnum, llvm.minnum) and C library form,
; and the intrinsic-only llvm.maximum / llvm.minimum. With both operands
; active the tangent is the sum of each partial times its operand's tangent.
; Conventions (Enzyme's): fabs'(x) = copysign(1, x) (+1 at +0, -1 at -0); fmax/fmin take the tangent of the
; operand they chose (the first on ties), decided by comparing the operands;
; copysign's sign operand contributes nothing.
;
; DEFINE: %{fc} = FileCheck %s --input-file=%t
; RUN: %opt -passes=tapestry -S %s -o %t
; RUN: %{fc} --check-prefix=CALL \
; RUN:   --implicit-check-not=__enzyme_ --implicit-check-not=@enzyme_
; RUN: %{fc} --check-prefix=FABS-I
; RUN: %{fc} --check-prefix=FABS-F
; RUN: %{fc} --check-prefix=COPYSIGN-I
; RUN: %{fc} --check-prefix=COPYSIGN-F
; RUN: %{fc} --check-prefix=FMAX-I
; RUN: %{fc} --check-prefix=FMAX-D
; RUN: %{fc} --check-prefix=FMIN-I
; RUN: %{fc} --check-prefix=FMIN-F
; RUN: %{fc} --check-prefix=MAXIMUM-I
; RUN: %{fc} --check-prefix=MINIMUM-I

@enzyme_dup = external global i32
@enzyme_const = external global i32

declare double @__enzyme_fwddiff(ptr, ...)
declare float @__enzyme_fwddiff_f(ptr, ...)

declare double @llvm.fabs.f64(double)
declare double @llvm.copysign.f64(double, double)
declare double @llvm.maxnum.f64(double, double)
declare double @llvm.minnum.f64(double, double)
declare double @llvm.maximum.f64(double, double)
declare double @llvm.minimum.f64(double, double)
declare float @fabsf(float)
declare float @copysignf(float, float)
declare double @fmax(double, double)
declare float @fminf(float, float)

define double @fabs_i(double %x) {
  %y = call double @llvm.fabs.f64(double %x)
  ret double %y
}

define float @fabs_f(float %x) {
  %y = call float @fabsf(float %x)
  ret float %y
}

define double @copysign_i(double %x, double %y) {
  %r = call double @llvm.copysign.f64(double %x, double %y)
  ret double %r
}

define float @copysign_f(float %x, float %y) {
  %r = call float @copysignf(float %x, float %y)
  ret float %r
}

define double @fmax_i(double %x, double %y) {
  %r = call double @llvm.maxnum.f64(double %x, double %y)
  ret double %r
}

define double @fmax_d(double %x, double %y) {
  %r = call double @fmax(double %x, double %y)
  ret double %r
}

define double @fmin_i(double %x, double %y) {
  %r = call double @llvm.minnum.f64(double %x, double %y)
  ret double %r
}

define float @fmin_f(float %x, float %y) {
  %r = call float @fminf(float %x, float %y)
  ret float %r
}

define double @maximum_i(double %x, double %y) {
  %r = call double @llvm.maximum.f64(double %x, double %y)
  ret double %r
}

define double @minimum_i(double %x, double %y) {
  %r = call double @llvm.minimum.f64(double %x, double %y)
  ret double %r
}

define void @test(double %x, double %dx, float %xf, float %dxf, double %y, double %dy, float %yf, float %dyf, ptr %out) {
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %r1 = call double (ptr, ...) @__enzyme_fwddiff(ptr @fabs_i, i32 %d, double %x, double %dx)
  store double %r1, ptr %out
  %r2 = call float (ptr, ...) @__enzyme_fwddiff_f(ptr @fabs_f, i32 %d, float %xf, float %dxf)
  store float %r2, ptr %out
  %r3 = call double (ptr, ...) @__enzyme_fwddiff(ptr @copysign_i, i32 %d, double %x, double %dx, i32 %d, double %y, double %dy)
  store double %r3, ptr %out
  %r4 = call float (ptr, ...) @__enzyme_fwddiff_f(ptr @copysign_f, i32 %d, float %xf, float %dxf, i32 %d, float %yf, float %dyf)
  store float %r4, ptr %out
  %r5 = call double (ptr, ...) @__enzyme_fwddiff(ptr @fmax_i, i32 %d, double %x, double %dx, i32 %d, double %y, double %dy)
  store double %r5, ptr %out
  %r6 = call double (ptr, ...) @__enzyme_fwddiff(ptr @fmax_d, i32 %d, double %x, double %dx, i32 %d, double %y, double %dy)
  store double %r6, ptr %out
  %r7 = call double (ptr, ...) @__enzyme_fwddiff(ptr @fmin_i, i32 %d, double %x, double %dx, i32 %d, double %y, double %dy)
  store double %r7, ptr %out
  %r8 = call float (ptr, ...) @__enzyme_fwddiff_f(ptr @fmin_f, i32 %d, float %xf, float %dxf, i32 %d, float %yf, float %dyf)
  store float %r8, ptr %out
  %r9 = call double (ptr, ...) @__enzyme_fwddiff(ptr @maximum_i, i32 %d, double %x, double %dx, i32 %d, double %y, double %dy)
  store double %r9, ptr %out
  %r10 = call double (ptr, ...) @__enzyme_fwddiff(ptr @minimum_i, i32 %d, double %x, double %dx, i32 %d, double %y, double %dy)
  store double %r10, ptr %out
  ret void
}

; CALL-LABEL: define void @test(
; CALL:      [[R1:%.*]] = call double @fabs_i.tapestry.fwd_d_ra(double %x, double %dx)
; CALL-NEXT: store double [[R1]], ptr %out
; CALL:      call float @fabs_f.tapestry.fwd_d_ra(float %xf, float %dxf)
; CALL:      call double @copysign_i.tapestry.fwd_dd_ra(double %x, double %dx, double %y, double %dy)
; CALL:      call float @copysign_f.tapestry.fwd_dd_ra(float %xf, float %dxf, float %yf, float %dyf)
; CALL:      call double @fmax_i.tapestry.fwd_dd_ra(double %x, double %dx, double %y, double %dy)
; CALL:      call double @fmax_d.tapestry.fwd_dd_ra(double %x, double %dx, double %y, double %dy)
; CALL:      call double @fmin_i.tapestry.fwd_dd_ra(double %x, double %dx, double %y, double %dy)
; CALL:      call float @fmin_f.tapestry.fwd_dd_ra(float %xf, float %dxf, float %yf, float %dyf)
; CALL:      call double @maximum_i.tapestry.fwd_dd_ra(double %x, double %dx, double %y, double %dy)
; CALL:      [[R10:%.*]] = call double @minimum_i.tapestry.fwd_dd_ra(double %x, double %dx, double %y, double %dy)
; CALL-NEXT: store double [[R10]], ptr %out
; CALL:      ret void

; fabs'(x) = sign(x): 1 above zero, -1 below, 0 at zero.
; FABS-I-LABEL: define internal double @fabs_i.tapestry.fwd_d_ra(double %x, double %"x'")
; FABS-I-DAG:   [[P:%.*]] = call double @llvm.copysign.f64(double 1.000000e+00, double %x)
; FABS-I-DAG:   [[T:%.*]] = fmul double [[P]], %"x'"
; FABS-I:       ret double [[T]]
; FABS-I-LABEL: {{^}}}

; FABS-F-LABEL: define internal float @fabs_f.tapestry.fwd_d_ra(float %x, float %"x'")
; FABS-F-DAG:   [[P:%.*]] = call float @llvm.copysign.f32(float 1.000000e+00, float %x)
; FABS-F-DAG:   [[T:%.*]] = fmul float [[P]], %"x'"
; FABS-F:       ret float [[T]]
; FABS-F-LABEL: {{^}}}

; copysign(x, y): copysign(1, x) copysign(1, y) x' + 0 y'.
; COPYSIGN-I-LABEL: define internal double @copysign_i.tapestry.fwd_dd_ra(double %x, double %"x'", double %y, double %"y'")
; COPYSIGN-I-DAG:   [[SX:%.*]] = call double @llvm.copysign.f64(double 1.000000e+00, double %x)
; COPYSIGN-I-DAG:   [[SY:%.*]] = call double @llvm.copysign.f64(double 1.000000e+00, double %y)
; COPYSIGN-I-DAG:   [[P:%.*]] = fmul double [[SX]], [[SY]]
; COPYSIGN-I-DAG:   [[TX:%.*]] = fmul double [[P]], %"x'"
; COPYSIGN-I-DAG:   [[TY:%.*]] = fmul double %"y'", 0.000000e+00
; COPYSIGN-I:       [[T:%.*]] = fadd double [[TX]], [[TY]]
; COPYSIGN-I-NEXT:  ret double [[T]]
; COPYSIGN-I-LABEL: {{^}}}

; COPYSIGN-F-LABEL: define internal float @copysign_f.tapestry.fwd_dd_ra(float %x, float %"x'", float %y, float %"y'")
; COPYSIGN-F-DAG:   [[SX:%.*]] = call float @llvm.copysign.f32(float 1.000000e+00, float %x)
; COPYSIGN-F-DAG:   [[SY:%.*]] = call float @llvm.copysign.f32(float 1.000000e+00, float %y)
; COPYSIGN-F-DAG:   [[P:%.*]] = fmul float [[SX]], [[SY]]
; COPYSIGN-F-DAG:   [[TX:%.*]] = fmul float [[P]], %"x'"
; COPYSIGN-F-DAG:   [[TY:%.*]] = fmul float %"y'", 0.000000e+00
; COPYSIGN-F:       [[T:%.*]] = fadd float [[TX]], [[TY]]
; COPYSIGN-F-NEXT:  ret float [[T]]
; COPYSIGN-F-LABEL: {{^}}}

; FMAX-I-LABEL: define internal double @fmax_i.tapestry.fwd_dd_ra(double %x, double %"x'", double %y, double %"y'")
; FMAX-I-DAG:   fcmp olt double %x, %y
; FMAX-I-DAG:   [[PX:%.*]] = select i1 [[C:%.*]], double 0.000000e+00, double 1.000000e+00
; FMAX-I-DAG:   [[PY:%.*]] = select i1 [[C]], double 1.000000e+00, double 0.000000e+00
; FMAX-I-DAG:   [[TX:%.*]] = fmul double [[PX]], %"x'"
; FMAX-I-DAG:   [[TY:%.*]] = fmul double [[PY]], %"y'"
; FMAX-I:       [[T:%.*]] = fadd double [[TX]], [[TY]]
; FMAX-I-NEXT:  ret double [[T]]
; FMAX-I-LABEL: {{^}}}

; FMAX-D-LABEL: define internal double @fmax_d.tapestry.fwd_dd_ra(double %x, double %"x'", double %y, double %"y'")
; FMAX-D-DAG:   fcmp olt double %x, %y
; FMAX-D-DAG:   [[PX:%.*]] = select i1 [[C:%.*]], double 0.000000e+00, double 1.000000e+00
; FMAX-D-DAG:   [[PY:%.*]] = select i1 [[C]], double 1.000000e+00, double 0.000000e+00
; FMAX-D-DAG:   [[TX:%.*]] = fmul double [[PX]], %"x'"
; FMAX-D-DAG:   [[TY:%.*]] = fmul double [[PY]], %"y'"
; FMAX-D:       [[T:%.*]] = fadd double [[TX]], [[TY]]
; FMAX-D-NEXT:  ret double [[T]]
; FMAX-D-LABEL: {{^}}}

; FMIN-I-LABEL: define internal double @fmin_i.tapestry.fwd_dd_ra(double %x, double %"x'", double %y, double %"y'")
; FMIN-I-DAG:   fcmp olt double %y, %x
; FMIN-I-DAG:   [[PX:%.*]] = select i1 [[C:%.*]], double 0.000000e+00, double 1.000000e+00
; FMIN-I-DAG:   [[PY:%.*]] = select i1 [[C]], double 1.000000e+00, double 0.000000e+00
; FMIN-I-DAG:   [[TX:%.*]] = fmul double [[PX]], %"x'"
; FMIN-I-DAG:   [[TY:%.*]] = fmul double [[PY]], %"y'"
; FMIN-I:       [[T:%.*]] = fadd double [[TX]], [[TY]]
; FMIN-I-NEXT:  ret double [[T]]
; FMIN-I-LABEL: {{^}}}

; FMIN-F-LABEL: define internal float @fmin_f.tapestry.fwd_dd_ra(float %x, float %"x'", float %y, float %"y'")
; FMIN-F-DAG:   fcmp olt float %y, %x
; FMIN-F-DAG:   [[PX:%.*]] = select i1 [[C:%.*]], float 0.000000e+00, float 1.000000e+00
; FMIN-F-DAG:   [[PY:%.*]] = select i1 [[C]], float 1.000000e+00, float 0.000000e+00
; FMIN-F-DAG:   [[TX:%.*]] = fmul float [[PX]], %"x'"
; FMIN-F-DAG:   [[TY:%.*]] = fmul float [[PY]], %"y'"
; FMIN-F:       [[T:%.*]] = fadd float [[TX]], [[TY]]
; FMIN-F-NEXT:  ret float [[T]]
; FMIN-F-LABEL: {{^}}}

; MAXIMUM-I-LABEL: define internal double @maximum_i.tapestry.fwd_dd_ra(double %x, double %"x'", double %y, double %"y'")
; MAXIMUM-I-DAG:   fcmp olt double %x, %y
; MAXIMUM-I-DAG:   [[PX:%.*]] = select i1 [[C:%.*]], double 0.000000e+00, double 1.000000e+00
; MAXIMUM-I-DAG:   [[PY:%.*]] = select i1 [[C]], double 1.000000e+00, double 0.000000e+00
; MAXIMUM-I-DAG:   [[TX:%.*]] = fmul double [[PX]], %"x'"
; MAXIMUM-I-DAG:   [[TY:%.*]] = fmul double [[PY]], %"y'"
; MAXIMUM-I:       [[T:%.*]] = fadd double [[TX]], [[TY]]
; MAXIMUM-I-NEXT:  ret double [[T]]
; MAXIMUM-I-LABEL: {{^}}}

; MINIMUM-I-LABEL: define internal double @minimum_i.tapestry.fwd_dd_ra(double %x, double %"x'", double %y, double %"y'")
; MINIMUM-I-DAG:   fcmp olt double %y, %x
; MINIMUM-I-DAG:   [[PX:%.*]] = select i1 [[C:%.*]], double 0.000000e+00, double 1.000000e+00
; MINIMUM-I-DAG:   [[PY:%.*]] = select i1 [[C]], double 1.000000e+00, double 0.000000e+00
; MINIMUM-I-DAG:   [[TX:%.*]] = fmul double [[PX]], %"x'"
; MINIMUM-I-DAG:   [[TY:%.*]] = fmul double [[PY]], %"y'"
; MINIMUM-I:       [[T:%.*]] = fadd double [[TX]], [[TY]]
; MINIMUM-I-NEXT:  ret double [[T]]
; MINIMUM-I-LABEL: {{^}}}
