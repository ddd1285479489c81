; Forward mode, power and root rules of plugin/Core/DerivativeRules.def:
; sqrt pow ldexp in LLVM-intrinsic and C library form; cbrt hypot (library
; only in LLVM 19) and powi (intrinsic only). The integer exponents of powi
; and ldexp are enzyme_const. Each request is replaced by a call to
; <f>.tapestry.fwd_<activities>_ra; with two active operands the tangent is
; the sum of each partial times its operand's tangent, so the checks tell
; which partial goes with x' and which with y'. Non-differentiable points
; follow Enzyme: sqrt'(0) = 0, pow'(x, 0) = 0 in x, pow'(0, y) = 0 in y.
;
; DEFINE: %{fc} = FileCheck %s --input-file=%t
; RUN: %opt -passes=tapestry -S %s -o %t
; RUN: %{fc} --check-prefix=CALL \
; RUN:   --implicit-check-not=__enzyme_ --implicit-check-not=@enzyme_
; RUN: %{fc} --check-prefix=SQRT-I
; RUN: %{fc} --check-prefix=SQRT-F
; RUN: %{fc} --check-prefix=CBRT-D
; RUN: %{fc} --check-prefix=POW-I
; RUN: %{fc} --check-prefix=POW-F
; RUN: %{fc} --check-prefix=POWI-I
; RUN: %{fc} --check-prefix=HYPOT-D
; RUN: %{fc} --check-prefix=LDEXP-I
; RUN: %{fc} --check-prefix=LDEXP-F

@enzyme_dup = external global i32
@enzyme_const = external global i32

declare double @__enzyme_fwddiff(ptr, ...)
declare float @__enzyme_fwddiff_f(ptr, ...)

declare double @llvm.sqrt.f64(double)
declare double @llvm.pow.f64(double, double)
declare double @llvm.powi.f64.i32(double, i32)
declare double @llvm.ldexp.f64.i32(double, i32)
declare float @sqrtf(float)
declare double @cbrt(double)
declare float @powf(float, float)
declare double @hypot(double, double)
declare float @ldexpf(float, i32)

define double @sqrt_i(double %x) {
  %y = call double @llvm.sqrt.f64(double %x)
  ret double %y
}

define float @sqrt_f(float %x) {
  %y = call float @sqrtf(float %x)
  ret float %y
}

define double @cbrt_d(double %x) {
  %y = call double @cbrt(double %x)
  ret double %y
}

define double @pow_i(double %x, double %y) {
  %r = call double @llvm.pow.f64(double %x, double %y)
  ret double %r
}

define float @pow_f(float %x, float %y) {
  %r = call float @powf(float %x, float %y)
  ret float %r
}

define double @powi_i(double %x, i32 %n) {
  %r = call double @llvm.powi.f64.i32(double %x, i32 %n)
  ret double %r
}

define double @hypot_d(double %x, double %y) {
  %r = call double @hypot(double %x, double %y)
  ret double %r
}

define double @ldexp_i(double %x, i32 %n) {
  %r = call double @llvm.ldexp.f64.i32(double %x, i32 %n)
  ret double %r
}

define float @ldexp_f(float %x, i32 %n) {
  %r = call float @ldexpf(float %x, i32 %n)
  ret float %r
}

define void @test(double %x, double %dx, float %xf, float %dxf, double %y, double %dy, float %yf, float %dyf, i32 %n, ptr %out) {
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %r1 = call double (ptr, ...) @__enzyme_fwddiff(ptr @sqrt_i, i32 %d, double %x, double %dx)
  store double %r1, ptr %out
  %r2 = call float (ptr, ...) @__enzyme_fwddiff_f(ptr @sqrt_f, i32 %d, float %xf, float %dxf)
  store float %r2, ptr %out
  %r3 = call double (ptr, ...) @__enzyme_fwddiff(ptr @cbrt_d, i32 %d, double %x, double %dx)
  store double %r3, ptr %out
  %r4 = call double (ptr, ...) @__enzyme_fwddiff(ptr @pow_i, i32 %d, double %x, double %dx, i32 %d, double %y, double %dy)
  store double %r4, ptr %out
  %r5 = call float (ptr, ...) @__enzyme_fwddiff_f(ptr @pow_f, i32 %d, float %xf, float %dxf, i32 %d, float %yf, float %dyf)
  store float %r5, ptr %out
  %r6 = call double (ptr, ...) @__enzyme_fwddiff(ptr @powi_i, i32 %d, double %x, double %dx, i32 %c, i32 %n)
  store double %r6, ptr %out
  %r7 = call double (ptr, ...) @__enzyme_fwddiff(ptr @hypot_d, i32 %d, double %x, double %dx, i32 %d, double %y, double %dy)
  store double %r7, ptr %out
  %r8 = call double (ptr, ...) @__enzyme_fwddiff(ptr @ldexp_i, i32 %d, double %x, double %dx, i32 %c, i32 %n)
  store double %r8, ptr %out
  %r9 = call float (ptr, ...) @__enzyme_fwddiff_f(ptr @ldexp_f, i32 %d, float %xf, float %dxf, i32 %c, i32 %n)
  store float %r9, ptr %out
  ret void
}

; CALL-LABEL: define void @test(
; CALL:      [[R1:%.*]] = call double @sqrt_i.tapestry.fwd_d_ra(double %x, double %dx)
; CALL-NEXT: store double [[R1]], ptr %out
; CALL:      call float @sqrt_f.tapestry.fwd_d_ra(float %xf, float %dxf)
; CALL:      call double @cbrt_d.tapestry.fwd_d_ra(double %x, double %dx)
; CALL:      call double @pow_i.tapestry.fwd_dd_ra(double %x, double %dx, double %y, double %dy)
; CALL:      call float @pow_f.tapestry.fwd_dd_ra(float %xf, float %dxf, float %yf, float %dyf)
; CALL:      call double @powi_i.tapestry.fwd_dc_ra(double %x, double %dx, i32 %n)
; CALL:      call double @hypot_d.tapestry.fwd_dd_ra(double %x, double %dx, double %y, double %dy)
; CALL:      call double @ldexp_i.tapestry.fwd_dc_ra(double %x, double %dx, i32 %n)
; CALL:      [[R9:%.*]] = call float @ldexp_f.tapestry.fwd_dc_ra(float %xf, float %dxf, i32 %n)
; CALL-NEXT: store float [[R9]], ptr %out
; CALL:      ret void

; sqrt'(x) = 0.5 / sqrt(x), and 0 at x = 0.
; SQRT-I-LABEL: define internal double @sqrt_i.tapestry.fwd_d_ra(double %x, double %"x'")
; SQRT-I-DAG:   [[Y:%.*]] = call double @llvm.sqrt.f64(double %x)
; SQRT-I-DAG:   [[Q:%.*]] = fdiv double 5.000000e-01, [[Y]]
; SQRT-I-DAG:   [[Z:%.*]] = fcmp oeq double %x, 0.000000e+00
; SQRT-I-DAG:   [[P:%.*]] = select i1 [[Z]], double 0.000000e+00, double [[Q]]
; SQRT-I-DAG:   [[T:%.*]] = fmul double [[P]], %"x'"
; SQRT-I:       ret double [[T]]
; SQRT-I-LABEL: {{^}}}

; SQRT-F-LABEL: define internal float @sqrt_f.tapestry.fwd_d_ra(float %x, float %"x'")
; SQRT-F-DAG:   [[Y:%.*]] = call float @sqrtf(float %x)
; SQRT-F-DAG:   [[Q:%.*]] = fdiv float 5.000000e-01, [[Y]]
; SQRT-F-DAG:   [[Z:%.*]] = fcmp oeq float %x, 0.000000e+00
; SQRT-F-DAG:   [[P:%.*]] = select i1 [[Z]], float 0.000000e+00, float [[Q]]
; SQRT-F-DAG:   [[T:%.*]] = fmul float [[P]], %"x'"
; SQRT-F:       ret float [[T]]
; SQRT-F-LABEL: {{^}}}

; cbrt'(x) = cbrt(x) / (3x), and 0 at x = 0.
; CBRT-D-LABEL: define internal double @cbrt_d.tapestry.fwd_d_ra(double %x, double %"x'")
; CBRT-D-DAG:   [[Y:%.*]] = call double @cbrt(double %x)
; CBRT-D-DAG:   [[X3:%.*]] = fmul double %x, 3.000000e+00
; CBRT-D-DAG:   [[Q:%.*]] = fdiv double [[Y]], [[X3]]
; CBRT-D-DAG:   [[Z:%.*]] = fcmp oeq double %x, 0.000000e+00
; CBRT-D-DAG:   [[P:%.*]] = select i1 [[Z]], double 0.000000e+00, double [[Q]]
; CBRT-D-DAG:   [[T:%.*]] = fmul double [[P]], %"x'"
; CBRT-D:       ret double [[T]]
; CBRT-D-LABEL: {{^}}}

; pow(x, y): y pow(x, y - 1) x' + pow(x, y) log(x) y'.
; POW-I-LABEL: define internal double @pow_i.tapestry.fwd_dd_ra(double %x, double %"x'", double %y, double %"y'")
; POW-I-DAG:   [[YM1:%.*]] = fadd double %y, -1.000000e+00
; POW-I-DAG:   [[PW:%.*]] = call double @llvm.pow.f64(double %x, double [[YM1]])
; POW-I-DAG:   [[QX:%.*]] = fmul double [[PW]], %y
; POW-I-DAG:   [[AX:%.*]] = call double @llvm.fabs.f64(double %x)
; POW-I-DAG:   [[AY:%.*]] = call double @llvm.fabs.f64(double %y)
; POW-I-DAG:   [[AXY:%.*]] = fadd double [[AX]], [[AY]]
; POW-I-DAG:   [[YZ:%.*]] = fcmp oeq double [[AXY]], 0.000000e+00
; POW-I-DAG:   [[PX:%.*]] = select i1 [[YZ]], double 0.000000e+00, double [[QX]]
; POW-I-DAG:   [[R:%.*]] = call double @llvm.pow.f64(double %x, double %y)
; POW-I-DAG:   [[L:%.*]] = call double @llvm.log.f64(double %x)
; POW-I-DAG:   [[QY:%.*]] = fmul double [[R]], [[L]]
; POW-I-DAG:   [[XZ:%.*]] = fcmp oeq double %x, 0.000000e+00
; POW-I-DAG:   [[PY:%.*]] = select i1 [[XZ]], double 0.000000e+00, double [[QY]]
; POW-I-DAG:   [[TX:%.*]] = fmul double [[PX]], %"x'"
; POW-I-DAG:   [[TY:%.*]] = fmul double [[PY]], %"y'"
; POW-I:       [[T:%.*]] = fadd double [[TX]], [[TY]]
; POW-I-NEXT:  ret double [[T]]
; POW-I-LABEL: {{^}}}

; POW-F-LABEL: define internal float @pow_f.tapestry.fwd_dd_ra(float %x, float %"x'", float %y, float %"y'")
; POW-F-DAG:   [[YM1:%.*]] = fadd float %y, -1.000000e+00
; POW-F-DAG:   [[PW:%.*]] = call float @llvm.pow.f32(float %x, float [[YM1]])
; POW-F-DAG:   [[QX:%.*]] = fmul float [[PW]], %y
; POW-F-DAG:   [[PX:%.*]] = select i1 {{%.*}}, float 0.000000e+00, float [[QX]]
; POW-F-DAG:   [[R:%.*]] = call float @powf(float %x, float %y)
; POW-F-DAG:   [[L:%.*]] = call float @llvm.log.f32(float %x)
; POW-F-DAG:   [[QY:%.*]] = fmul float [[R]], [[L]]
; POW-F-DAG:   [[PY:%.*]] = select i1 {{%.*}}, float 0.000000e+00, float [[QY]]
; POW-F-DAG:   [[TX:%.*]] = fmul float [[PX]], %"x'"
; POW-F-DAG:   [[TY:%.*]] = fmul float [[PY]], %"y'"
; POW-F:       [[T:%.*]] = fadd float [[TX]], [[TY]]
; POW-F-NEXT:  ret float [[T]]
; POW-F-LABEL: {{^}}}

; powi'(x, n) = n powi(x, n - 1).
; POWI-I-LABEL: define internal double @powi_i.tapestry.fwd_dc_ra(double %x, double %"x'", i32 %n)
; POWI-I-DAG:   [[NM1:%.*]] = add i32 %n, -1
; POWI-I-DAG:   [[PW:%.*]] = call double @llvm.powi.f64.i32(double %x, i32 [[NM1]])
; POWI-I-DAG:   [[NF:%.*]] = sitofp i32 %n to double
; POWI-I-DAG:   [[P:%.*]] = fmul double [[PW]], [[NF]]
; POWI-I-DAG:   [[T:%.*]] = fmul double [[P]], %"x'"
; POWI-I:       ret double [[T]]
; POWI-I-LABEL: {{^}}}

; hypot(x, y): (x x' + y y') / hypot, 0 where hypot = 0.
; HYPOT-D-LABEL: define internal double @hypot_d.tapestry.fwd_dd_ra(double %x, double %"x'", double %y, double %"y'")
; HYPOT-D-DAG:   [[H:%.*]] = call double @hypot(double %x, double %y)
; HYPOT-D-DAG:   [[Z:%.*]] = fcmp oeq double [[H]], 0.000000e+00
; HYPOT-D-DAG:   [[QX:%.*]] = fdiv double %x, [[H]]
; HYPOT-D-DAG:   [[PX:%.*]] = select i1 [[Z]], double 0.000000e+00, double [[QX]]
; HYPOT-D-DAG:   [[QY:%.*]] = fdiv double %y, [[H]]
; HYPOT-D-DAG:   [[PY:%.*]] = select i1 [[Z]], double 0.000000e+00, double [[QY]]
; HYPOT-D-DAG:   [[TX:%.*]] = fmul double [[PX]], %"x'"
; HYPOT-D-DAG:   [[TY:%.*]] = fmul double [[PY]], %"y'"
; HYPOT-D:       [[T:%.*]] = fadd double [[TX]], [[TY]]
; HYPOT-D-NEXT:  ret double [[T]]
; HYPOT-D-LABEL: {{^}}}

; ldexp'(x, n) = 2^n, computed as ldexp(1, n).
; LDEXP-I-LABEL: define internal double @ldexp_i.tapestry.fwd_dc_ra(double %x, double %"x'", i32 %n)
; LDEXP-I-DAG:   [[P:%.*]] = call double @llvm.ldexp.f64.i32(double 1.000000e+00, i32 %n)
; LDEXP-I-DAG:   [[T:%.*]] = fmul double [[P]], %"x'"
; LDEXP-I:       ret double [[T]]
; LDEXP-I-LABEL: {{^}}}

; LDEXP-F-LABEL: define internal float @ldexp_f.tapestry.fwd_dc_ra(float %x, float %"x'", i32 %n)
; LDEXP-F-DAG:   [[P:%.*]] = call float @llvm.ldexp.f32.i32(float 1.000000e+00, i32 %n)
; LDEXP-F-DAG:   [[T:%.*]] = fmul float [[P]], %"x'"
; LDEXP-F:       ret float [[T]]
; LDEXP-F-LABEL: {{^}}}
