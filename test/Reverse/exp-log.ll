; Reverse mode, exponential, logarithm and error-function rules of
; plugin/Core/DerivativeRules.def: exp exp2 exp10 log log2 log10 in
; LLVM-intrinsic and C library (float) form; expm1 log1p erf erfc, which have
; no LLVM 19 intrinsic, in library form (double and float spellings). Each
; request is replaced by a call to <f>.tapestry.rev_a_ra, which multiplies
; the partial by the seed.
;
; DEFINE: %{fc} = FileCheck %s --input-file=%t
; RUN: %opt -passes=tapestry -S %s -o %t
; RUN: %{fc} --check-prefix=CALL \
; RUN:   --implicit-check-not=__enzyme_ --implicit-check-not=@enzyme_
; RUN: %{fc} --check-prefix=EXP-I
; RUN: %{fc} --check-prefix=EXP-F
; RUN: %{fc} --check-prefix=EXP2-I
; RUN: %{fc} --check-prefix=EXP2-F
; RUN: %{fc} --check-prefix=EXP10-I
; RUN: %{fc} --check-prefix=EXP10-F
; RUN: %{fc} --check-prefix=EXPM1-D
; RUN: %{fc} --check-prefix=LOG-I
; RUN: %{fc} --check-prefix=LOG-F
; RUN: %{fc} --check-prefix=LOG2-I
; RUN: %{fc} --check-prefix=LOG2-F
; RUN: %{fc} --check-prefix=LOG10-I
; RUN: %{fc} --check-prefix=LOG10-F
; RUN: %{fc} --check-prefix=LOG1P-F
; RUN: %{fc} --check-prefix=ERF-D
; RUN: %{fc} --check-prefix=ERFC-F

@enzyme_out = external global i32

declare double @__enzyme_autodiff(ptr, ...)
declare float @__enzyme_autodiff_f(ptr, ...)

declare double @llvm.exp.f64(double)
declare double @llvm.exp2.f64(double)
declare double @llvm.exp10.f64(double)
declare double @llvm.log.f64(double)
declare double @llvm.log2.f64(double)
declare double @llvm.log10.f64(double)
declare float @expf(float)
declare float @exp2f(float)
declare float @exp10f(float)
declare double @expm1(double)
declare float @logf(float)
declare float @log2f(float)
declare float @log10f(float)
declare float @log1pf(float)
declare double @erf(double)
declare float @erfcf(float)

define double @exp_i(double %x) {
  %y = call double @llvm.exp.f64(double %x)
  ret double %y
}

define float @exp_f(float %x) {
  %y = call float @expf(float %x)
  ret float %y
}

define double @exp2_i(double %x) {
  %y = call double @llvm.exp2.f64(double %x)
  ret double %y
}

define float @exp2_f(float %x) {
  %y = call float @exp2f(float %x)
  ret float %y
}

define double @exp10_i(double %x) {
  %y = call double @llvm.exp10.f64(double %x)
  ret double %y
}

define float @exp10_f(float %x) {
  %y = call float @exp10f(float %x)
  ret float %y
}

define double @expm1_d(double %x) {
  %y = call double @expm1(double %x)
  ret double %y
}

define double @log_i(double %x) {
  %y = call double @llvm.log.f64(double %x)
  ret double %y
}

define float @log_f(float %x) {
  %y = call float @logf(float %x)
  ret float %y
}

define double @log2_i(double %x) {
  %y = call double @llvm.log2.f64(double %x)
  ret double %y
}

define float @log2_f(float %x) {
  %y = call float @log2f(float %x)
  ret float %y
}

define double @log10_i(double %x) {
  %y = call double @llvm.log10.f64(double %x)
  ret double %y
}

define float @log10_f(float %x) {
  %y = call float @log10f(float %x)
  ret float %y
}

define float @log1p_f(float %x) {
  %y = call float @log1pf(float %x)
  ret float %y
}

define double @erf_d(double %x) {
  %y = call double @erf(double %x)
  ret double %y
}

define float @erfc_f(float %x) {
  %y = call float @erfcf(float %x)
  ret float %y
}

define void @test(double %x, float %xf, ptr %out) {
  %m = load i32, ptr @enzyme_out
  %r1 = call double (ptr, ...) @__enzyme_autodiff(ptr @exp_i, i32 %m, double %x)
  store double %r1, ptr %out
  %r2 = call float (ptr, ...) @__enzyme_autodiff_f(ptr @exp_f, i32 %m, float %xf)
  store float %r2, ptr %out
  %r3 = call double (ptr, ...) @__enzyme_autodiff(ptr @exp2_i, i32 %m, double %x)
  store double %r3, ptr %out
  %r4 = call float (ptr, ...) @__enzyme_autodiff_f(ptr @exp2_f, i32 %m, float %xf)
  store float %r4, ptr %out
  %r5 = call double (ptr, ...) @__enzyme_autodiff(ptr @exp10_i, i32 %m, double %x)
  store double %r5, ptr %out
  %r6 = call float (ptr, ...) @__enzyme_autodiff_f(ptr @exp10_f, i32 %m, float %xf)
  store float %r6, ptr %out
  %r7 = call double (ptr, ...) @__enzyme_autodiff(ptr @expm1_d, i32 %m, double %x)
  store double %r7, ptr %out
  %r8 = call double (ptr, ...) @__enzyme_autodiff(ptr @log_i, i32 %m, double %x)
  store double %r8, ptr %out
  %r9 = call float (ptr, ...) @__enzyme_autodiff_f(ptr @log_f, i32 %m, float %xf)
  store float %r9, ptr %out
  %r10 = call double (ptr, ...) @__enzyme_autodiff(ptr @log2_i, i32 %m, double %x)
  store double %r10, ptr %out
  %r11 = call float (ptr, ...) @__enzyme_autodiff_f(ptr @log2_f, i32 %m, float %xf)
  store float %r11, ptr %out
  %r12 = call double (ptr, ...) @__enzyme_autodiff(ptr @log10_i, i32 %m, double %x)
  store double %r12, ptr %out
  %r13 = call float (ptr, ...) @__enzyme_autodiff_f(ptr @log10_f, i32 %m, float %xf)
  store float %r13, ptr %out
  %r14 = call float (ptr, ...) @__enzyme_autodiff_f(ptr @log1p_f, i32 %m, float %xf)
  store float %r14, ptr %out
  %r15 = call double (ptr, ...) @__enzyme_autodiff(ptr @erf_d, i32 %m, double %x)
  store double %r15, ptr %out
  %r16 = call float (ptr, ...) @__enzyme_autodiff_f(ptr @erfc_f, i32 %m, float %xf)
  store float %r16, ptr %out
  ret void
}

; CALL-LABEL: define void @test(
; CALL:      [[R1:%.*]] = call double @exp_i.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CALL-NEXT: store double [[R1]], ptr %out
; CALL:      call float @exp_f.tapestry.rev_a_ra(float %xf, float 1.000000e+00)
; CALL:      call double @exp2_i.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CALL:      call float @exp2_f.tapestry.rev_a_ra(float %xf, float 1.000000e+00)
; CALL:      call double @exp10_i.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CALL:      call float @exp10_f.tapestry.rev_a_ra(float %xf, float 1.000000e+00)
; CALL:      call double @expm1_d.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CALL:      call double @log_i.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CALL:      call float @log_f.tapestry.rev_a_ra(float %xf, float 1.000000e+00)
; CALL:      call double @log2_i.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CALL:      call float @log2_f.tapestry.rev_a_ra(float %xf, float 1.000000e+00)
; CALL:      call double @log10_i.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CALL:      call float @log10_f.tapestry.rev_a_ra(float %xf, float 1.000000e+00)
; CALL:      call float @log1p_f.tapestry.rev_a_ra(float %xf, float 1.000000e+00)
; CALL:      call double @erf_d.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CALL:      [[R16:%.*]] = call float @erfc_f.tapestry.rev_a_ra(float %xf, float 1.000000e+00)
; CALL-NEXT: store float [[R16]], ptr %out
; CALL:      ret void

; exp'(x) = exp(x): the primal result times the seed.
; EXP-I-LABEL: define internal double @exp_i.tapestry.rev_a_ra(double %x, double %seed)
; EXP-I-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; EXP-I-DAG:   [[Y:%.*]] = call double @llvm.exp.f64(double %x)
; EXP-I-DAG:   [[T:%.*]] = fmul double [[Y]], %seed
; EXP-I:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; EXP-I:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; EXP-I:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; EXP-I-NEXT:  ret double [[D]]
; EXP-I-LABEL: {{^}}}

; EXP-F-LABEL: define internal float @exp_f.tapestry.rev_a_ra(float %x, float %seed)
; EXP-F-DAG:   [[SZ:%.*]] = fcmp oeq float %seed, 0.000000e+00
; EXP-F-DAG:   [[Y:%.*]] = call float @expf(float %x)
; EXP-F-DAG:   [[T:%.*]] = fmul float [[Y]], %seed
; EXP-F:       [[NAN_D:%.*]] = fcmp uno float [[T]], {{.*}}
; EXP-F:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; EXP-F:       [[D:%.*]] = select i1 [[DROP_D]], float 0.000000e+00, float [[T]]
; EXP-F-NEXT:  ret float [[D]]
; EXP-F-LABEL: {{^}}}

; exp2'(x) = exp2(x) * ln 2.
; EXP2-I-LABEL: define internal double @exp2_i.tapestry.rev_a_ra(double %x, double %seed)
; EXP2-I-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; EXP2-I-DAG:   [[Y:%.*]] = call double @llvm.exp2.f64(double %x)
; EXP2-I-DAG:   [[P:%.*]] = fmul double [[Y]], 0x3FE62E42FEFA39EF
; EXP2-I-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; EXP2-I:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; EXP2-I:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; EXP2-I:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; EXP2-I-NEXT:  ret double [[D]]
; EXP2-I-LABEL: {{^}}}

; EXP2-F-LABEL: define internal float @exp2_f.tapestry.rev_a_ra(float %x, float %seed)
; EXP2-F-DAG:   [[SZ:%.*]] = fcmp oeq float %seed, 0.000000e+00
; EXP2-F-DAG:   [[Y:%.*]] = call float @exp2f(float %x)
; EXP2-F-DAG:   [[P:%.*]] = fmul float [[Y]], 0x3FE62E4300000000
; EXP2-F-DAG:   [[T:%.*]] = fmul float [[P]], %seed
; EXP2-F:       [[NAN_D:%.*]] = fcmp uno float [[T]], {{.*}}
; EXP2-F:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; EXP2-F:       [[D:%.*]] = select i1 [[DROP_D]], float 0.000000e+00, float [[T]]
; EXP2-F-NEXT:  ret float [[D]]
; EXP2-F-LABEL: {{^}}}

; exp10'(x) = exp10(x) * ln 10.
; EXP10-I-LABEL: define internal double @exp10_i.tapestry.rev_a_ra(double %x, double %seed)
; EXP10-I-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; EXP10-I-DAG:   [[Y:%.*]] = call double @llvm.exp10.f64(double %x)
; EXP10-I-DAG:   [[P:%.*]] = fmul double [[Y]], 0x40026BB1BBB55516
; EXP10-I-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; EXP10-I:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; EXP10-I:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; EXP10-I:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; EXP10-I-NEXT:  ret double [[D]]
; EXP10-I-LABEL: {{^}}}

; EXP10-F-LABEL: define internal float @exp10_f.tapestry.rev_a_ra(float %x, float %seed)
; EXP10-F-DAG:   [[SZ:%.*]] = fcmp oeq float %seed, 0.000000e+00
; EXP10-F-DAG:   [[Y:%.*]] = call float @exp10f(float %x)
; EXP10-F-DAG:   [[P:%.*]] = fmul float [[Y]], 0x40026BB1C0000000
; EXP10-F-DAG:   [[T:%.*]] = fmul float [[P]], %seed
; EXP10-F:       [[NAN_D:%.*]] = fcmp uno float [[T]], {{.*}}
; EXP10-F:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; EXP10-F:       [[D:%.*]] = select i1 [[DROP_D]], float 0.000000e+00, float [[T]]
; EXP10-F-NEXT:  ret float [[D]]
; EXP10-F-LABEL: {{^}}}

; expm1'(x) = expm1(x) + 1.
; EXPM1-D-LABEL: define internal double @expm1_d.tapestry.rev_a_ra(double %x, double %seed)
; EXPM1-D-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; EXPM1-D-DAG:   [[Y:%.*]] = call double @expm1(double %x)
; EXPM1-D-DAG:   [[P:%.*]] = fadd double [[Y]], 1.000000e+00
; EXPM1-D-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; EXPM1-D:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; EXPM1-D:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; EXPM1-D:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; EXPM1-D-NEXT:  ret double [[D]]
; EXPM1-D-LABEL: {{^}}}

; log'(x) = 1 / x.
; LOG-I-LABEL: define internal double @log_i.tapestry.rev_a_ra(double %x, double %seed)
; LOG-I-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; LOG-I-DAG:   [[P:%.*]] = fdiv double 1.000000e+00, %x
; LOG-I-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; LOG-I:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; LOG-I:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; LOG-I:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; LOG-I-NEXT:  ret double [[D]]
; LOG-I-LABEL: {{^}}}

; LOG-F-LABEL: define internal float @log_f.tapestry.rev_a_ra(float %x, float %seed)
; LOG-F-DAG:   [[SZ:%.*]] = fcmp oeq float %seed, 0.000000e+00
; LOG-F-DAG:   [[P:%.*]] = fdiv float 1.000000e+00, %x
; LOG-F-DAG:   [[T:%.*]] = fmul float [[P]], %seed
; LOG-F:       [[NAN_D:%.*]] = fcmp uno float [[T]], {{.*}}
; LOG-F:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; LOG-F:       [[D:%.*]] = select i1 [[DROP_D]], float 0.000000e+00, float [[T]]
; LOG-F-NEXT:  ret float [[D]]
; LOG-F-LABEL: {{^}}}

; log2'(x) = 1 / (x ln 2).
; LOG2-I-LABEL: define internal double @log2_i.tapestry.rev_a_ra(double %x, double %seed)
; LOG2-I-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; LOG2-I-DAG:   [[M:%.*]] = fmul double %x, 0x3FE62E42FEFA39EF
; LOG2-I-DAG:   [[P:%.*]] = fdiv double 1.000000e+00, [[M]]
; LOG2-I-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; LOG2-I:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; LOG2-I:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; LOG2-I:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; LOG2-I-NEXT:  ret double [[D]]
; LOG2-I-LABEL: {{^}}}

; LOG2-F-LABEL: define internal float @log2_f.tapestry.rev_a_ra(float %x, float %seed)
; LOG2-F-DAG:   [[SZ:%.*]] = fcmp oeq float %seed, 0.000000e+00
; LOG2-F-DAG:   [[M:%.*]] = fmul float %x, 0x3FE62E4300000000
; LOG2-F-DAG:   [[P:%.*]] = fdiv float 1.000000e+00, [[M]]
; LOG2-F-DAG:   [[T:%.*]] = fmul float [[P]], %seed
; LOG2-F:       [[NAN_D:%.*]] = fcmp uno float [[T]], {{.*}}
; LOG2-F:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; LOG2-F:       [[D:%.*]] = select i1 [[DROP_D]], float 0.000000e+00, float [[T]]
; LOG2-F-NEXT:  ret float [[D]]
; LOG2-F-LABEL: {{^}}}

; log10'(x) = 1 / (x ln 10).
; LOG10-I-LABEL: define internal double @log10_i.tapestry.rev_a_ra(double %x, double %seed)
; LOG10-I-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; LOG10-I-DAG:   [[M:%.*]] = fmul double %x, 0x40026BB1BBB55516
; LOG10-I-DAG:   [[P:%.*]] = fdiv double 1.000000e+00, [[M]]
; LOG10-I-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; LOG10-I:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; LOG10-I:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; LOG10-I:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; LOG10-I-NEXT:  ret double [[D]]
; LOG10-I-LABEL: {{^}}}

; LOG10-F-LABEL: define internal float @log10_f.tapestry.rev_a_ra(float %x, float %seed)
; LOG10-F-DAG:   [[SZ:%.*]] = fcmp oeq float %seed, 0.000000e+00
; LOG10-F-DAG:   [[M:%.*]] = fmul float %x, 0x40026BB1C0000000
; LOG10-F-DAG:   [[P:%.*]] = fdiv float 1.000000e+00, [[M]]
; LOG10-F-DAG:   [[T:%.*]] = fmul float [[P]], %seed
; LOG10-F:       [[NAN_D:%.*]] = fcmp uno float [[T]], {{.*}}
; LOG10-F:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; LOG10-F:       [[D:%.*]] = select i1 [[DROP_D]], float 0.000000e+00, float [[T]]
; LOG10-F-NEXT:  ret float [[D]]
; LOG10-F-LABEL: {{^}}}

; log1p'(x) = 1 / (1 + x).
; LOG1P-F-LABEL: define internal float @log1p_f.tapestry.rev_a_ra(float %x, float %seed)
; LOG1P-F-DAG:   [[SZ:%.*]] = fcmp oeq float %seed, 0.000000e+00
; LOG1P-F-DAG:   [[S:%.*]] = fadd float %x, 1.000000e+00
; LOG1P-F-DAG:   [[P:%.*]] = fdiv float 1.000000e+00, [[S]]
; LOG1P-F-DAG:   [[T:%.*]] = fmul float [[P]], %seed
; LOG1P-F:       [[NAN_D:%.*]] = fcmp uno float [[T]], {{.*}}
; LOG1P-F:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; LOG1P-F:       [[D:%.*]] = select i1 [[DROP_D]], float 0.000000e+00, float [[T]]
; LOG1P-F-NEXT:  ret float [[D]]
; LOG1P-F-LABEL: {{^}}}

; erf'(x) = 2/sqrt(pi) exp(-x^2).
; ERF-D-LABEL: define internal double @erf_d.tapestry.rev_a_ra(double %x, double %seed)
; ERF-D-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; ERF-D-DAG:   [[N:%.*]] = fneg double %x
; ERF-D-DAG:   [[Q:%.*]] = fmul double [[N]], %x
; ERF-D-DAG:   [[E:%.*]] = call double @llvm.exp.f64(double [[Q]])
; ERF-D-DAG:   [[P:%.*]] = fmul double [[E]], 0x3FF20DD750429B6D
; ERF-D-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; ERF-D:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; ERF-D:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; ERF-D:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; ERF-D-NEXT:  ret double [[D]]
; ERF-D-LABEL: {{^}}}

; erfc'(x) = -2/sqrt(pi) exp(-x^2).
; ERFC-F-LABEL: define internal float @erfc_f.tapestry.rev_a_ra(float %x, float %seed)
; ERFC-F-DAG:   [[SZ:%.*]] = fcmp oeq float %seed, 0.000000e+00
; ERFC-F-DAG:   [[N:%.*]] = fneg float %x
; ERFC-F-DAG:   [[Q:%.*]] = fmul float [[N]], %x
; ERFC-F-DAG:   [[E:%.*]] = call float @llvm.exp.f32(float [[Q]])
; ERFC-F-DAG:   [[P:%.*]] = fmul float [[E]], 0xBFF20DD760000000
; ERFC-F-DAG:   [[T:%.*]] = fmul float [[P]], %seed
; ERFC-F:       [[NAN_D:%.*]] = fcmp uno float [[T]], {{.*}}
; ERFC-F:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; ERFC-F:       [[D:%.*]] = select i1 [[DROP_D]], float 0.000000e+00, float [[T]]
; ERFC-F-NEXT:  ret float [[D]]
; ERFC-F-LABEL: {{^}}}
