; Reverse mode, power and root rules of plugin/Core/DerivativeRules.def:
; sqrt pow ldexp in LLVM-intrinsic and C library form; cbrt hypot (library
; only in LLVM 19) and powi (intrinsic only). The integer exponents of powi
; and ldexp are constant (explicitly, and by default for an integer). Each
; request is replaced by a call to <f>.tapestry.rev_<activities>_ra.
; Non-differentiable points follow Enzyme: sqrt'(0) = 0, pow'(x, 0) = 0 in x.
;
; DEFINE: %{fc} = FileCheck %s --input-file=%t
; RUN: %opt -passes=tapestry -S %s -o %t
; RUN: %{fc} --check-prefix=CALL \
; RUN:   --implicit-check-not=__enzyme_ --implicit-check-not=@enzyme_
; RUN: %{fc} --check-prefix=SQRT-I
; RUN: %{fc} --check-prefix=SQRT-F
; RUN: %{fc} --check-prefix=CBRT-D
; RUN: %{fc} --check-prefix=POW-IX
; RUN: %{fc} --check-prefix=POW-IY
; RUN: %{fc} --check-prefix=POW-F
; RUN: %{fc} --check-prefix=POWI-I
; RUN: %{fc} --check-prefix=HYPOT-DX
; RUN: %{fc} --check-prefix=HYPOT-DY
; RUN: %{fc} --check-prefix=LDEXP-I
; RUN: %{fc} --check-prefix=LDEXP-F

@enzyme_out = external global i32
@enzyme_const = external global i32

declare double @__enzyme_autodiff(ptr, ...)
declare float @__enzyme_autodiff_f(ptr, ...)
declare { float, float } @__enzyme_autodiff_ff(ptr, ...)

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

define void @test(double %x, double %y, float %xf, float %yf, i32 %n, ptr %out) {
  %m = load i32, ptr @enzyme_out
  %c = load i32, ptr @enzyme_const
  %r1 = call double (ptr, ...) @__enzyme_autodiff(ptr @sqrt_i, i32 %m, double %x)
  store double %r1, ptr %out
  %r2 = call float (ptr, ...) @__enzyme_autodiff_f(ptr @sqrt_f, i32 %m, float %xf)
  store float %r2, ptr %out
  %r3 = call double (ptr, ...) @__enzyme_autodiff(ptr @cbrt_d, i32 %m, double %x)
  store double %r3, ptr %out
  %r4 = call double (ptr, ...) @__enzyme_autodiff(ptr @pow_i, i32 %m, double %x, i32 %c, double %y)
  store double %r4, ptr %out
  %r4y = call double (ptr, ...) @__enzyme_autodiff(ptr @pow_i, i32 %c, double %x, i32 %m, double %y)
  store double %r4y, ptr %out
  %r5 = call { float, float } (ptr, ...) @__enzyme_autodiff_ff(ptr @pow_f, i32 %m, float %xf, i32 %m, float %yf)
  store { float, float } %r5, ptr %out
  %r6 = call double (ptr, ...) @__enzyme_autodiff(ptr @powi_i, i32 %m, double %x, i32 %c, i32 %n)
  store double %r6, ptr %out
  %r7 = call double (ptr, ...) @__enzyme_autodiff(ptr @hypot_d, i32 %m, double %x, i32 %c, double %y)
  store double %r7, ptr %out
  %r7y = call double (ptr, ...) @__enzyme_autodiff(ptr @hypot_d, i32 %c, double %x, i32 %m, double %y)
  store double %r7y, ptr %out
  %r8 = call double (ptr, ...) @__enzyme_autodiff(ptr @ldexp_i, i32 %m, double %x, i32 %c, i32 %n)
  store double %r8, ptr %out
  %r9 = call float (ptr, ...) @__enzyme_autodiff_f(ptr @ldexp_f, i32 %m, float %xf, i32 %n)
  store float %r9, ptr %out
  ret void
}

; CALL-LABEL: define void @test(
; CALL:      call double @sqrt_i.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CALL:      call float @sqrt_f.tapestry.rev_a_ra(float %xf, float 1.000000e+00)
; CALL:      call double @cbrt_d.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CALL:      [[R4:%.*]] = call double @pow_i.tapestry.rev_ac_ra(double %x, double %y, double 1.000000e+00)
; CALL-NEXT: store double [[R4]], ptr %out
; CALL:      call double @pow_i.tapestry.rev_ca_ra(double %x, double %y, double 1.000000e+00)
; CALL:      call { float, float } @pow_f.tapestry.rev_aa_ra(float %xf, float %yf, float 1.000000e+00)
; CALL:      [[R6:%.*]] = call double @powi_i.tapestry.rev_ac_ra(double %x, i32 %n, double 1.000000e+00)
; CALL-NEXT: store double [[R6]], ptr %out
; CALL:      call double @hypot_d.tapestry.rev_ac_ra(double %x, double %y, double 1.000000e+00)
; CALL:      call double @hypot_d.tapestry.rev_ca_ra(double %x, double %y, double 1.000000e+00)
; CALL:      call double @ldexp_i.tapestry.rev_ac_ra(double %x, i32 %n, double 1.000000e+00)
; CALL:      call float @ldexp_f.tapestry.rev_ac_ra(float %xf, i32 %n, float 1.000000e+00)
; CALL:      ret void

; sqrt'(x) = 0.5 / sqrt(x), and 0 at x = 0.
; SQRT-I-LABEL: define internal double @sqrt_i.tapestry.rev_a_ra(double %x, double %seed)
; SQRT-I-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; SQRT-I-DAG:   [[Z:%.*]] = fcmp oeq double %x, 0.000000e+00
; SQRT-I-DAG:   [[Y:%.*]] = call double @llvm.sqrt.f64(double %x)
; SQRT-I-DAG:   [[Q:%.*]] = fdiv double 5.000000e-01, [[Y]]
; SQRT-I-DAG:   [[P:%.*]] = select i1 [[Z]], double 0.000000e+00, double [[Q]]
; SQRT-I-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; SQRT-I:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; SQRT-I:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; SQRT-I:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; SQRT-I-NEXT:  ret double [[D]]
; SQRT-I-LABEL: {{^}}}

; SQRT-F-LABEL: define internal float @sqrt_f.tapestry.rev_a_ra(float %x, float %seed)
; SQRT-F-DAG:   [[SZ:%.*]] = fcmp oeq float %seed, 0.000000e+00
; SQRT-F-DAG:   [[Z:%.*]] = fcmp oeq float %x, 0.000000e+00
; SQRT-F-DAG:   [[Y:%.*]] = call float @sqrtf(float %x)
; SQRT-F-DAG:   [[Q:%.*]] = fdiv float 5.000000e-01, [[Y]]
; SQRT-F-DAG:   [[P:%.*]] = select i1 [[Z]], float 0.000000e+00, float [[Q]]
; SQRT-F-DAG:   [[T:%.*]] = fmul float [[P]], %seed
; SQRT-F:       [[NAN_D:%.*]] = fcmp uno float [[T]], {{.*}}
; SQRT-F:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; SQRT-F:       [[D:%.*]] = select i1 [[DROP_D]], float 0.000000e+00, float [[T]]
; SQRT-F-NEXT:  ret float [[D]]
; SQRT-F-LABEL: {{^}}}

; cbrt'(x) = cbrt(x) / (3x), and 0 at x = 0.
; CBRT-D-LABEL: define internal double @cbrt_d.tapestry.rev_a_ra(double %x, double %seed)
; CBRT-D-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; CBRT-D-DAG:   [[Y:%.*]] = call double @cbrt(double %x)
; CBRT-D-DAG:   [[Z:%.*]] = fcmp oeq double %x, 0.000000e+00
; CBRT-D-DAG:   [[X3:%.*]] = fmul double %x, 3.000000e+00
; CBRT-D-DAG:   [[Q:%.*]] = fdiv double [[Y]], [[X3]]
; CBRT-D-DAG:   [[P:%.*]] = select i1 [[Z]], double 0.000000e+00, double [[Q]]
; CBRT-D-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; CBRT-D:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; CBRT-D:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; CBRT-D:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; CBRT-D-NEXT:  ret double [[D]]
; CBRT-D-LABEL: {{^}}}

; pow(x, y): d/dx = y pow(x, y - 1) (0 if x = y = 0), d/dy = pow(x, y) log(x)
; (0 if x = 0). With one operand constant only its partial is computed.
; POW-IX-LABEL: define internal double @pow_i.tapestry.rev_ac_ra(double %x, double %y, double %seed)
; POW-IX-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; POW-IX-DAG:   [[AX:%.*]] = call double @llvm.fabs.f64(double %x)
; POW-IX-DAG:   [[AY:%.*]] = call double @llvm.fabs.f64(double %y)
; POW-IX-DAG:   [[AXY:%.*]] = fadd double [[AX]], [[AY]]
; POW-IX-DAG:   [[YZ:%.*]] = fcmp oeq double [[AXY]], 0.000000e+00
; POW-IX-DAG:   [[YM1:%.*]] = fadd double %y, -1.000000e+00
; POW-IX-DAG:   [[PW:%.*]] = call double @llvm.pow.f64(double %x, double [[YM1]])
; POW-IX-DAG:   [[Q:%.*]] = fmul double [[PW]], %y
; POW-IX-DAG:   [[P:%.*]] = select i1 [[YZ]], double 0.000000e+00, double [[Q]]
; POW-IX-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; POW-IX:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; POW-IX:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; POW-IX:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; POW-IX-NEXT:  ret double [[D]]
; POW-IX-LABEL: {{^}}}

; POW-IY-LABEL: define internal double @pow_i.tapestry.rev_ca_ra(double %x, double %y, double %seed)
; POW-IY-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; POW-IY-DAG:   [[XZ:%.*]] = fcmp oeq double %x, 0.000000e+00
; POW-IY-DAG:   [[R:%.*]] = call double @llvm.pow.f64(double %x, double %y)
; POW-IY-DAG:   [[L:%.*]] = call double @llvm.log.f64(double %x)
; POW-IY-DAG:   [[Q:%.*]] = fmul double [[R]], [[L]]
; POW-IY-DAG:   [[P:%.*]] = select i1 [[XZ]], double 0.000000e+00, double [[Q]]
; POW-IY-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; POW-IY:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; POW-IY:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; POW-IY:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; POW-IY-NEXT:  ret double [[D]]
; POW-IY-LABEL: {{^}}}

; powf with both operands active: both partials, adjoints in argument order.
; POW-F-LABEL: define internal { float, float } @pow_f.tapestry.rev_aa_ra(float %x, float %y, float %seed)
; POW-F-DAG:   [[R:%.*]] = call float @powf(float %x, float %y)
; POW-F-DAG:   [[YM1:%.*]] = fadd float %y, -1.000000e+00
; POW-F-DAG:   [[PW:%.*]] = call float @llvm.pow.f32(float %x, float [[YM1]])
; POW-F-DAG:   [[QX:%.*]] = fmul float [[PW]], %y
; POW-F-DAG:   [[L:%.*]] = call float @llvm.log.f32(float %x)
; POW-F-DAG:   [[QY:%.*]] = fmul float [[R]], [[L]]
; POW-F-DAG:   [[SZ:%.*]] = fcmp oeq float %seed, 0.000000e+00
; POW-F-DAG:   [[AX:%.*]] = call float @llvm.fabs.f32(float %x)
; POW-F-DAG:   [[AY:%.*]] = call float @llvm.fabs.f32(float %y)
; POW-F-DAG:   [[AXY:%.*]] = fadd float [[AX]], [[AY]]
; POW-F-DAG:   [[YZ:%.*]] = fcmp oeq float [[AXY]], 0.000000e+00
; POW-F-DAG:   [[XZ:%.*]] = fcmp oeq float %x, 0.000000e+00
; POW-F-DAG:   [[PX:%.*]] = select i1 [[YZ]], float 0.000000e+00, float [[QX]]
; POW-F-DAG:   [[PY:%.*]] = select i1 [[XZ]], float 0.000000e+00, float [[QY]]
; POW-F-DAG:   [[TX:%.*]] = fmul float [[PX]], %seed
; POW-F-DAG:   [[TY:%.*]] = fmul float [[PY]], %seed
; POW-F-DAG:   [[NAN_DX:%.*]] = fcmp uno float [[TX]], {{.*}}
; POW-F-DAG:   [[DROP_DX:%.*]] = and i1 [[SZ]], [[NAN_DX]]
; POW-F-DAG:   [[DX:%.*]] = select i1 [[DROP_DX]], float 0.000000e+00, float [[TX]]
; POW-F-DAG:   [[NAN_DY:%.*]] = fcmp uno float [[TY]], {{.*}}
; POW-F-DAG:   [[DROP_DY:%.*]] = and i1 [[SZ]], [[NAN_DY]]
; POW-F-DAG:   [[DY:%.*]] = select i1 [[DROP_DY]], float 0.000000e+00, float [[TY]]
; POW-F:       [[V0:%.*]] = insertvalue { float, float } poison, float [[DX]], 0
; POW-F-NEXT:  [[V1:%.*]] = insertvalue { float, float } [[V0]], float [[DY]], 1
; POW-F-NEXT:  ret { float, float } [[V1]]
; POW-F-LABEL: {{^}}}

; powi'(x, n) = n powi(x, n - 1); the exponent gets no derivative.
; POWI-I-LABEL: define internal double @powi_i.tapestry.rev_ac_ra(double %x, i32 %n, double %seed)
; POWI-I-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; POWI-I-DAG:   [[NM1:%.*]] = add i32 %n, -1
; POWI-I-DAG:   [[PW:%.*]] = call double @llvm.powi.f64.i32(double %x, i32 [[NM1]])
; POWI-I-DAG:   [[NF:%.*]] = sitofp i32 %n to double
; POWI-I-DAG:   [[P:%.*]] = fmul double [[PW]], [[NF]]
; POWI-I-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; POWI-I:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; POWI-I:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; POWI-I:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; POWI-I-NEXT:  ret double [[D]]
; POWI-I-LABEL: {{^}}}

; hypot(x, y): d/dx = x / hypot, d/dy = y / hypot (0 where hypot = 0).
; HYPOT-DX-LABEL: define internal double @hypot_d.tapestry.rev_ac_ra(double %x, double %y, double %seed)
; HYPOT-DX-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; HYPOT-DX-DAG:   [[H:%.*]] = call double @hypot(double %x, double %y)
; HYPOT-DX-DAG:   [[Z:%.*]] = fcmp oeq double [[H]], 0.000000e+00
; HYPOT-DX-DAG:   [[Q:%.*]] = fdiv double %x, [[H]]
; HYPOT-DX-DAG:   [[P:%.*]] = select i1 [[Z]], double 0.000000e+00, double [[Q]]
; HYPOT-DX-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; HYPOT-DX:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; HYPOT-DX:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; HYPOT-DX:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; HYPOT-DX-NEXT:  ret double [[D]]
; HYPOT-DX-LABEL: {{^}}}

; HYPOT-DY-LABEL: define internal double @hypot_d.tapestry.rev_ca_ra(double %x, double %y, double %seed)
; HYPOT-DY-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; HYPOT-DY-DAG:   [[H:%.*]] = call double @hypot(double %x, double %y)
; HYPOT-DY-DAG:   [[Z:%.*]] = fcmp oeq double [[H]], 0.000000e+00
; HYPOT-DY-DAG:   [[Q:%.*]] = fdiv double %y, [[H]]
; HYPOT-DY-DAG:   [[P:%.*]] = select i1 [[Z]], double 0.000000e+00, double [[Q]]
; HYPOT-DY-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; HYPOT-DY:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; HYPOT-DY:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; HYPOT-DY:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; HYPOT-DY-NEXT:  ret double [[D]]
; HYPOT-DY-LABEL: {{^}}}

; ldexp'(x, n) = 2^n, computed as ldexp(1, n).
; LDEXP-I-LABEL: define internal double @ldexp_i.tapestry.rev_ac_ra(double %x, i32 %n, double %seed)
; LDEXP-I-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; LDEXP-I-DAG:   [[P:%.*]] = call double @llvm.ldexp.f64.i32(double 1.000000e+00, i32 %n)
; LDEXP-I-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; LDEXP-I:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; LDEXP-I:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; LDEXP-I:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; LDEXP-I-NEXT:  ret double [[D]]
; LDEXP-I-LABEL: {{^}}}

; LDEXP-F-LABEL: define internal float @ldexp_f.tapestry.rev_ac_ra(float %x, i32 %n, float %seed)
; LDEXP-F-DAG:   [[SZ:%.*]] = fcmp oeq float %seed, 0.000000e+00
; LDEXP-F-DAG:   [[P:%.*]] = call float @llvm.ldexp.f32.i32(float 1.000000e+00, i32 %n)
; LDEXP-F-DAG:   [[T:%.*]] = fmul float [[P]], %seed
; LDEXP-F:       [[NAN_D:%.*]] = fcmp uno float [[T]], {{.*}}
; LDEXP-F:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; LDEXP-F:       [[D:%.*]] = select i1 [[DROP_D]], float 0.000000e+00, float [[T]]
; LDEXP-F-NEXT:  ret float [[D]]
; LDEXP-F-LABEL: {{^}}}
