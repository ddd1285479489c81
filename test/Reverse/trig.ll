; Reverse mode, trigonometric rules of plugin/Core/DerivativeRules.def:
; sin cos tan asin acos atan atan2, each in its LLVM-intrinsic form and its C
; library form (float spelling; sinl for the long double one; atan2 has no
; intrinsic in LLVM 19). Each request is replaced by a call to
; <f>.tapestry.rev_<activities>_ra, whose body multiplies the rule's partial
; derivative by the return adjoint (the seed 1.0 the call site passes). The
; partials may be infinite, so the contribution is strong-zero guarded:
; select(seed == 0, 0, partial * seed).
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
; RUN: %{fc} --check-prefix=ATAN2-DX
; RUN: %{fc} --check-prefix=ATAN2-DY
; RUN: %{fc} --check-prefix=ATAN2-F

@enzyme_out = external global i32
@enzyme_const = external global i32

declare double @__enzyme_autodiff(ptr, ...)
declare float @__enzyme_autodiff_f(ptr, ...)
declare x86_fp80 @__enzyme_autodiff_l(ptr, ...)
declare { float, float } @__enzyme_autodiff_ff(ptr, ...)

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

define void @test(double %x, double %y, float %xf, float %yf, x86_fp80 %xl, ptr %out) {
  %m = load i32, ptr @enzyme_out
  %c = load i32, ptr @enzyme_const
  %r1 = call double (ptr, ...) @__enzyme_autodiff(ptr @sin_i, i32 %m, double %x)
  store double %r1, ptr %out
  %r2 = call float (ptr, ...) @__enzyme_autodiff_f(ptr @sin_f, i32 %m, float %xf)
  store float %r2, ptr %out
  %r3 = call x86_fp80 (ptr, ...) @__enzyme_autodiff_l(ptr @sin_l, i32 %m, x86_fp80 %xl)
  store x86_fp80 %r3, ptr %out
  %r4 = call double (ptr, ...) @__enzyme_autodiff(ptr @cos_i, i32 %m, double %x)
  store double %r4, ptr %out
  %r5 = call float (ptr, ...) @__enzyme_autodiff_f(ptr @cos_f, i32 %m, float %xf)
  store float %r5, ptr %out
  %r6 = call double (ptr, ...) @__enzyme_autodiff(ptr @tan_i, i32 %m, double %x)
  store double %r6, ptr %out
  %r7 = call float (ptr, ...) @__enzyme_autodiff_f(ptr @tan_f, i32 %m, float %xf)
  store float %r7, ptr %out
  %r8 = call double (ptr, ...) @__enzyme_autodiff(ptr @asin_i, i32 %m, double %x)
  store double %r8, ptr %out
  %r9 = call float (ptr, ...) @__enzyme_autodiff_f(ptr @asin_f, i32 %m, float %xf)
  store float %r9, ptr %out
  %r10 = call double (ptr, ...) @__enzyme_autodiff(ptr @acos_i, i32 %m, double %x)
  store double %r10, ptr %out
  %r11 = call float (ptr, ...) @__enzyme_autodiff_f(ptr @acos_f, i32 %m, float %xf)
  store float %r11, ptr %out
  %r12 = call double (ptr, ...) @__enzyme_autodiff(ptr @atan_i, i32 %m, double %x)
  store double %r12, ptr %out
  %r13 = call float (ptr, ...) @__enzyme_autodiff_f(ptr @atan_f, i32 %m, float %xf)
  store float %r13, ptr %out
  %r14 = call double (ptr, ...) @__enzyme_autodiff(ptr @atan2_d, i32 %m, double %x, i32 %c, double %y)
  store double %r14, ptr %out
  %r14y = call double (ptr, ...) @__enzyme_autodiff(ptr @atan2_d, i32 %c, double %x, i32 %m, double %y)
  store double %r14y, ptr %out
  %r15 = call { float, float } (ptr, ...) @__enzyme_autodiff_ff(ptr @atan2_f, i32 %m, float %xf, i32 %m, float %yf)
  store { float, float } %r15, ptr %out
  ret void
}

; Every request became a call to its derivative, seeded with 1.0, whose
; result replaces the request's.
; CALL-LABEL: define void @test(
; CALL:      [[R1:%.*]] = call double @sin_i.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CALL-NEXT: store double [[R1]], ptr %out
; CALL:      [[R2:%.*]] = call float @sin_f.tapestry.rev_a_ra(float %xf, float 1.000000e+00)
; CALL-NEXT: store float [[R2]], ptr %out
; CALL:      [[R3:%.*]] = call x86_fp80 @sin_l.tapestry.rev_a_ra(x86_fp80 %xl, x86_fp80 0xK3FFF8000000000000000)
; CALL-NEXT: store x86_fp80 [[R3]], ptr %out
; CALL:      call double @cos_i.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CALL:      call float @cos_f.tapestry.rev_a_ra(float %xf, float 1.000000e+00)
; CALL:      call double @tan_i.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CALL:      call float @tan_f.tapestry.rev_a_ra(float %xf, float 1.000000e+00)
; CALL:      call double @asin_i.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CALL:      call float @asin_f.tapestry.rev_a_ra(float %xf, float 1.000000e+00)
; CALL:      call double @acos_i.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CALL:      call float @acos_f.tapestry.rev_a_ra(float %xf, float 1.000000e+00)
; CALL:      call double @atan_i.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CALL:      call float @atan_f.tapestry.rev_a_ra(float %xf, float 1.000000e+00)
; CALL:      [[R14:%.*]] = call double @atan2_d.tapestry.rev_ac_ra(double %x, double %y, double 1.000000e+00)
; CALL-NEXT: store double [[R14]], ptr %out
; CALL:      call double @atan2_d.tapestry.rev_ca_ra(double %x, double %y, double 1.000000e+00)
; CALL:      call { float, float } @atan2_f.tapestry.rev_aa_ra(float %xf, float %yf, float 1.000000e+00)
; CALL:      ret void

; sin'(x) = cos(x).
; SIN-I-LABEL: define internal double @sin_i.tapestry.rev_a_ra(double %x, double %seed)
; SIN-I-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; SIN-I-DAG:   [[P:%.*]] = call double @llvm.cos.f64(double %x)
; SIN-I-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; SIN-I:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; SIN-I:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; SIN-I:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; SIN-I-NEXT:  ret double [[D]]
; SIN-I-LABEL: {{^}}}

; SIN-F-LABEL: define internal float @sin_f.tapestry.rev_a_ra(float %x, float %seed)
; SIN-F-DAG:   [[SZ:%.*]] = fcmp oeq float %seed, 0.000000e+00
; SIN-F-DAG:   [[P:%.*]] = call float @llvm.cos.f32(float %x)
; SIN-F-DAG:   [[T:%.*]] = fmul float [[P]], %seed
; SIN-F:       [[NAN_D:%.*]] = fcmp uno float [[T]], {{.*}}
; SIN-F:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; SIN-F:       [[D:%.*]] = select i1 [[DROP_D]], float 0.000000e+00, float [[T]]
; SIN-F-NEXT:  ret float [[D]]
; SIN-F-LABEL: {{^}}}

; sinl is matched by the same rule, in the long double type.
; SIN-L-LABEL: define internal x86_fp80 @sin_l.tapestry.rev_a_ra(x86_fp80 %x, x86_fp80 %seed)
; SIN-L-DAG:   [[SZ:%.*]] = fcmp oeq x86_fp80 %seed, 0xK00000000000000000000
; SIN-L-DAG:   [[P:%.*]] = call x86_fp80 @llvm.cos.f80(x86_fp80 %x)
; SIN-L-DAG:   [[T:%.*]] = fmul x86_fp80 [[P]], %seed
; SIN-L:       [[NAN_D:%.*]] = fcmp uno x86_fp80 [[T]], {{.*}}
; SIN-L:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; SIN-L:       [[D:%.*]] = select i1 [[DROP_D]], x86_fp80 0xK00000000000000000000, x86_fp80 [[T]]
; SIN-L-NEXT:  ret x86_fp80 [[D]]
; SIN-L-LABEL: {{^}}}

; cos'(x) = -sin(x).
; COS-I-LABEL: define internal double @cos_i.tapestry.rev_a_ra(double %x, double %seed)
; COS-I-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; COS-I-DAG:   [[P:%.*]] = call double @llvm.sin.f64(double %x)
; COS-I-DAG:   [[N:%.*]] = {{fneg double|fsub double -?0.000000e\+00,}} [[P]]
; COS-I-DAG:   [[T:%.*]] = fmul double [[N]], %seed
; COS-I:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; COS-I:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; COS-I:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; COS-I-NEXT:  ret double [[D]]
; COS-I-LABEL: {{^}}}

; COS-F-LABEL: define internal float @cos_f.tapestry.rev_a_ra(float %x, float %seed)
; COS-F-DAG:   [[SZ:%.*]] = fcmp oeq float %seed, 0.000000e+00
; COS-F-DAG:   [[P:%.*]] = call float @llvm.sin.f32(float %x)
; COS-F-DAG:   [[N:%.*]] = {{fneg float|fsub float -?0.000000e\+00,}} [[P]]
; COS-F-DAG:   [[T:%.*]] = fmul float [[N]], %seed
; COS-F:       [[NAN_D:%.*]] = fcmp uno float [[T]], {{.*}}
; COS-F:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; COS-F:       [[D:%.*]] = select i1 [[DROP_D]], float 0.000000e+00, float [[T]]
; COS-F-NEXT:  ret float [[D]]
; COS-F-LABEL: {{^}}}

; tan'(x) = 1 + tan(x)^2, from the primal result.
; TAN-I-LABEL: define internal double @tan_i.tapestry.rev_a_ra(double %x, double %seed)
; TAN-I-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; TAN-I-DAG:   [[Y:%.*]] = call double @llvm.tan.f64(double %x)
; TAN-I-DAG:   [[Y2:%.*]] = fmul double [[Y]], [[Y]]
; TAN-I-DAG:   [[P:%.*]] = fadd double [[Y2]], 1.000000e+00
; TAN-I-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; TAN-I:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; TAN-I:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; TAN-I:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; TAN-I-NEXT:  ret double [[D]]
; TAN-I-LABEL: {{^}}}

; TAN-F-LABEL: define internal float @tan_f.tapestry.rev_a_ra(float %x, float %seed)
; TAN-F-DAG:   [[SZ:%.*]] = fcmp oeq float %seed, 0.000000e+00
; TAN-F-DAG:   [[Y:%.*]] = call float @tanf(float %x)
; TAN-F-DAG:   [[Y2:%.*]] = fmul float [[Y]], [[Y]]
; TAN-F-DAG:   [[P:%.*]] = fadd float [[Y2]], 1.000000e+00
; TAN-F-DAG:   [[T:%.*]] = fmul float [[P]], %seed
; TAN-F:       [[NAN_D:%.*]] = fcmp uno float [[T]], {{.*}}
; TAN-F:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; TAN-F:       [[D:%.*]] = select i1 [[DROP_D]], float 0.000000e+00, float [[T]]
; TAN-F-NEXT:  ret float [[D]]
; TAN-F-LABEL: {{^}}}

; asin'(x) = 1 / sqrt(1 - x^2).
; ASIN-I-LABEL: define internal double @asin_i.tapestry.rev_a_ra(double %x, double %seed)
; ASIN-I-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; ASIN-I-DAG:   [[X2:%.*]] = fmul double %x, %x
; ASIN-I-DAG:   [[S:%.*]] = fsub double 1.000000e+00, [[X2]]
; ASIN-I-DAG:   [[R:%.*]] = call double @llvm.sqrt.f64(double [[S]])
; ASIN-I-DAG:   [[P:%.*]] = fdiv double 1.000000e+00, [[R]]
; ASIN-I-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; ASIN-I:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; ASIN-I:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; ASIN-I:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; ASIN-I-NEXT:  ret double [[D]]
; ASIN-I-LABEL: {{^}}}

; ASIN-F-LABEL: define internal float @asin_f.tapestry.rev_a_ra(float %x, float %seed)
; ASIN-F-DAG:   [[SZ:%.*]] = fcmp oeq float %seed, 0.000000e+00
; ASIN-F-DAG:   [[X2:%.*]] = fmul float %x, %x
; ASIN-F-DAG:   [[S:%.*]] = fsub float 1.000000e+00, [[X2]]
; ASIN-F-DAG:   [[R:%.*]] = call float @llvm.sqrt.f32(float [[S]])
; ASIN-F-DAG:   [[P:%.*]] = fdiv float 1.000000e+00, [[R]]
; ASIN-F-DAG:   [[T:%.*]] = fmul float [[P]], %seed
; ASIN-F:       [[NAN_D:%.*]] = fcmp uno float [[T]], {{.*}}
; ASIN-F:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; ASIN-F:       [[D:%.*]] = select i1 [[DROP_D]], float 0.000000e+00, float [[T]]
; ASIN-F-NEXT:  ret float [[D]]
; ASIN-F-LABEL: {{^}}}

; acos'(x) = -1 / sqrt(1 - x^2).
; ACOS-I-LABEL: define internal double @acos_i.tapestry.rev_a_ra(double %x, double %seed)
; ACOS-I-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; ACOS-I-DAG:   [[X2:%.*]] = fmul double %x, %x
; ACOS-I-DAG:   [[S:%.*]] = fsub double 1.000000e+00, [[X2]]
; ACOS-I-DAG:   [[R:%.*]] = call double @llvm.sqrt.f64(double [[S]])
; ACOS-I-DAG:   [[P:%.*]] = fdiv double -1.000000e+00, [[R]]
; ACOS-I-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; ACOS-I:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; ACOS-I:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; ACOS-I:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; ACOS-I-NEXT:  ret double [[D]]
; ACOS-I-LABEL: {{^}}}

; ACOS-F-LABEL: define internal float @acos_f.tapestry.rev_a_ra(float %x, float %seed)
; ACOS-F-DAG:   [[SZ:%.*]] = fcmp oeq float %seed, 0.000000e+00
; ACOS-F-DAG:   [[X2:%.*]] = fmul float %x, %x
; ACOS-F-DAG:   [[S:%.*]] = fsub float 1.000000e+00, [[X2]]
; ACOS-F-DAG:   [[R:%.*]] = call float @llvm.sqrt.f32(float [[S]])
; ACOS-F-DAG:   [[P:%.*]] = fdiv float -1.000000e+00, [[R]]
; ACOS-F-DAG:   [[T:%.*]] = fmul float [[P]], %seed
; ACOS-F:       [[NAN_D:%.*]] = fcmp uno float [[T]], {{.*}}
; ACOS-F:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; ACOS-F:       [[D:%.*]] = select i1 [[DROP_D]], float 0.000000e+00, float [[T]]
; ACOS-F-NEXT:  ret float [[D]]
; ACOS-F-LABEL: {{^}}}

; atan'(x) = 1 / (1 + x^2).
; ATAN-I-LABEL: define internal double @atan_i.tapestry.rev_a_ra(double %x, double %seed)
; ATAN-I-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; ATAN-I-DAG:   [[X2:%.*]] = fmul double %x, %x
; ATAN-I-DAG:   [[S:%.*]] = fadd double [[X2]], 1.000000e+00
; ATAN-I-DAG:   [[P:%.*]] = fdiv double 1.000000e+00, [[S]]
; ATAN-I-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; ATAN-I:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; ATAN-I:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; ATAN-I:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; ATAN-I-NEXT:  ret double [[D]]
; ATAN-I-LABEL: {{^}}}

; ATAN-F-LABEL: define internal float @atan_f.tapestry.rev_a_ra(float %x, float %seed)
; ATAN-F-DAG:   [[SZ:%.*]] = fcmp oeq float %seed, 0.000000e+00
; ATAN-F-DAG:   [[X2:%.*]] = fmul float %x, %x
; ATAN-F-DAG:   [[S:%.*]] = fadd float [[X2]], 1.000000e+00
; ATAN-F-DAG:   [[P:%.*]] = fdiv float 1.000000e+00, [[S]]
; ATAN-F-DAG:   [[T:%.*]] = fmul float [[P]], %seed
; ATAN-F:       [[NAN_D:%.*]] = fcmp uno float [[T]], {{.*}}
; ATAN-F:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; ATAN-F:       [[D:%.*]] = select i1 [[DROP_D]], float 0.000000e+00, float [[T]]
; ATAN-F-NEXT:  ret float [[D]]
; ATAN-F-LABEL: {{^}}}

; atan2(x, y): d/dx = y / (x^2 + y^2), d/dy = -x / (x^2 + y^2). With one
; operand constant only that operand's partial is computed, so each partial
; is checked where it is the only one; with both active, the two adjoints
; come back in argument order.
; ATAN2-DX-LABEL: define internal double @atan2_d.tapestry.rev_ac_ra(double %x, double %y, double %seed)
; ATAN2-DX-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; ATAN2-DX-DAG:   [[X2:%.*]] = fmul double %x, %x
; ATAN2-DX-DAG:   [[Y2:%.*]] = fmul double %y, %y
; ATAN2-DX-DAG:   [[S:%.*]] = fadd double [[X2]], [[Y2]]
; ATAN2-DX-DAG:   [[P:%.*]] = fdiv double %y, [[S]]
; ATAN2-DX-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; ATAN2-DX:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; ATAN2-DX:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; ATAN2-DX:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; ATAN2-DX-NEXT:  ret double [[D]]
; ATAN2-DX-LABEL: {{^}}}

; ATAN2-DY-LABEL: define internal double @atan2_d.tapestry.rev_ca_ra(double %x, double %y, double %seed)
; ATAN2-DY-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; ATAN2-DY-DAG:   [[X2:%.*]] = fmul double %x, %x
; ATAN2-DY-DAG:   [[Y2:%.*]] = fmul double %y, %y
; ATAN2-DY-DAG:   [[S:%.*]] = fadd double [[X2]], [[Y2]]
; ATAN2-DY-DAG:   [[N:%.*]] = fneg double %x
; ATAN2-DY-DAG:   [[P:%.*]] = fdiv double [[N]], [[S]]
; ATAN2-DY-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; ATAN2-DY:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; ATAN2-DY:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; ATAN2-DY:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; ATAN2-DY-NEXT:  ret double [[D]]
; ATAN2-DY-LABEL: {{^}}}

; ATAN2-F-LABEL: define internal { float, float } @atan2_f.tapestry.rev_aa_ra(float %x, float %y, float %seed)
; ATAN2-F-DAG:   [[X2:%.*]] = fmul float %x, %x
; ATAN2-F-DAG:   [[Y2:%.*]] = fmul float %y, %y
; ATAN2-F-DAG:   [[S:%.*]] = fadd float [[X2]], [[Y2]]
; ATAN2-F-DAG:   [[PX:%.*]] = fdiv float %y, [[S]]
; ATAN2-F-DAG:   [[NX:%.*]] = fneg float %x
; ATAN2-F-DAG:   [[PY:%.*]] = fdiv float [[NX]], [[S]]
; ATAN2-F-DAG:   [[TX:%.*]] = fmul float [[PX]], %seed
; ATAN2-F-DAG:   [[TY:%.*]] = fmul float [[PY]], %seed
; ATAN2-F-DAG:   [[SZ:%.*]] = fcmp oeq float %seed, 0.000000e+00
; ATAN2-F-DAG:   [[NAN_DX:%.*]] = fcmp uno float [[TX]], {{.*}}
; ATAN2-F-DAG:   [[DROP_DX:%.*]] = and i1 [[SZ]], [[NAN_DX]]
; ATAN2-F-DAG:   [[DX:%.*]] = select i1 [[DROP_DX]], float 0.000000e+00, float [[TX]]
; ATAN2-F-DAG:   [[NAN_DY:%.*]] = fcmp uno float [[TY]], {{.*}}
; ATAN2-F-DAG:   [[DROP_DY:%.*]] = and i1 [[SZ]], [[NAN_DY]]
; ATAN2-F-DAG:   [[DY:%.*]] = select i1 [[DROP_DY]], float 0.000000e+00, float [[TY]]
; ATAN2-F:       [[V0:%.*]] = insertvalue { float, float } poison, float [[DX]], 0
; ATAN2-F:       [[V1:%.*]] = insertvalue { float, float } [[V0]], float [[DY]], 1
; ATAN2-F:       ret { float, float } [[V1]]
; ATAN2-F-LABEL: {{^}}}
