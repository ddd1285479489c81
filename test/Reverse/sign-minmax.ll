; Reverse mode, sign, magnitude and selection rules of
; plugin/Core/DerivativeRules.def: fabs copysign fmax fmin in LLVM-intrinsic
; (llvm.fabs, llvm.copysign, llvm.maxnum, llvm.minnum) and C library form,
; and the intrinsic-only llvm.maximum / llvm.minimum. For two-operand rules
; each partial is checked in a request where only that operand is active
; (enzyme_const on the other), so only its partial is computed; the library
; forms are requested with both operands active.
; Conventions (Enzyme's): fabs'(x) = copysign(1, x) (+1 at +0, -1 at -0); fmax/fmin pass the adjoint to the
; operand they chose (the first on ties), decided by comparing the operands;
; copysign's sign operand gets none.
;
; DEFINE: %{fc} = FileCheck %s --input-file=%t
; RUN: %opt -passes=tapestry -S %s -o %t
; RUN: %{fc} --check-prefix=CALL \
; RUN:   --implicit-check-not=__enzyme_ --implicit-check-not=@enzyme_
; RUN: %{fc} --check-prefix=FABS-I
; RUN: %{fc} --check-prefix=FABS-F
; RUN: %{fc} --check-prefix=COPYSIGN-IX
; RUN: %{fc} --check-prefix=COPYSIGN-IY
; RUN: %{fc} --check-prefix=COPYSIGN-F
; RUN: %{fc} --check-prefix=FMAX-IX
; RUN: %{fc} --check-prefix=FMAX-IY
; RUN: %{fc} --check-prefix=FMAX-D
; RUN: %{fc} --check-prefix=FMIN-IX
; RUN: %{fc} --check-prefix=FMIN-IY
; RUN: %{fc} --check-prefix=FMIN-F
; RUN: %{fc} --check-prefix=MAXIMUM-IX
; RUN: %{fc} --check-prefix=MAXIMUM-IY
; RUN: %{fc} --check-prefix=MINIMUM-IX
; RUN: %{fc} --check-prefix=MINIMUM-IY

@enzyme_out = external global i32
@enzyme_const = external global i32

declare double @__enzyme_autodiff(ptr, ...)
declare float @__enzyme_autodiff_f(ptr, ...)
declare { double, double } @__enzyme_autodiff_dd(ptr, ...)
declare { float, float } @__enzyme_autodiff_ff(ptr, ...)

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

define void @test(double %x, double %y, float %xf, float %yf, ptr %out) {
  %m = load i32, ptr @enzyme_out
  %c = load i32, ptr @enzyme_const
  %r1 = call double (ptr, ...) @__enzyme_autodiff(ptr @fabs_i, i32 %m, double %x)
  store double %r1, ptr %out
  %r2 = call float (ptr, ...) @__enzyme_autodiff_f(ptr @fabs_f, i32 %m, float %xf)
  store float %r2, ptr %out
  %r3 = call double (ptr, ...) @__enzyme_autodiff(ptr @copysign_i, i32 %m, double %x, i32 %c, double %y)
  store double %r3, ptr %out
  %r4 = call double (ptr, ...) @__enzyme_autodiff(ptr @copysign_i, i32 %c, double %x, i32 %m, double %y)
  store double %r4, ptr %out
  %r5 = call { float, float } (ptr, ...) @__enzyme_autodiff_ff(ptr @copysign_f, i32 %m, float %xf, i32 %m, float %yf)
  store { float, float } %r5, ptr %out
  %r6 = call double (ptr, ...) @__enzyme_autodiff(ptr @fmax_i, i32 %m, double %x, i32 %c, double %y)
  store double %r6, ptr %out
  %r7 = call double (ptr, ...) @__enzyme_autodiff(ptr @fmax_i, i32 %c, double %x, i32 %m, double %y)
  store double %r7, ptr %out
  %r8 = call { double, double } (ptr, ...) @__enzyme_autodiff_dd(ptr @fmax_d, i32 %m, double %x, i32 %m, double %y)
  store { double, double } %r8, ptr %out
  %r9 = call double (ptr, ...) @__enzyme_autodiff(ptr @fmin_i, i32 %m, double %x, i32 %c, double %y)
  store double %r9, ptr %out
  %r10 = call double (ptr, ...) @__enzyme_autodiff(ptr @fmin_i, i32 %c, double %x, i32 %m, double %y)
  store double %r10, ptr %out
  %r11 = call { float, float } (ptr, ...) @__enzyme_autodiff_ff(ptr @fmin_f, i32 %m, float %xf, i32 %m, float %yf)
  store { float, float } %r11, ptr %out
  %r12 = call double (ptr, ...) @__enzyme_autodiff(ptr @maximum_i, i32 %m, double %x, i32 %c, double %y)
  store double %r12, ptr %out
  %r13 = call double (ptr, ...) @__enzyme_autodiff(ptr @maximum_i, i32 %c, double %x, i32 %m, double %y)
  store double %r13, ptr %out
  %r14 = call double (ptr, ...) @__enzyme_autodiff(ptr @minimum_i, i32 %m, double %x, i32 %c, double %y)
  store double %r14, ptr %out
  %r15 = call double (ptr, ...) @__enzyme_autodiff(ptr @minimum_i, i32 %c, double %x, i32 %m, double %y)
  store double %r15, ptr %out
  ret void
}

; CALL-LABEL: define void @test(
; CALL:      call double @fabs_i.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CALL:      call float @fabs_f.tapestry.rev_a_ra(float %xf, float 1.000000e+00)
; CALL:      call double @copysign_i.tapestry.rev_ac_ra(double %x, double %y, double 1.000000e+00)
; CALL:      call double @copysign_i.tapestry.rev_ca_ra(double %x, double %y, double 1.000000e+00)
; CALL:      [[R5:%.*]] = call { float, float } @copysign_f.tapestry.rev_aa_ra(float %xf, float %yf, float 1.000000e+00)
; CALL-NEXT: store { float, float } [[R5]], ptr %out
; CALL:      call double @fmax_i.tapestry.rev_ac_ra(double %x, double %y, double 1.000000e+00)
; CALL:      call double @fmax_i.tapestry.rev_ca_ra(double %x, double %y, double 1.000000e+00)
; CALL:      call { double, double } @fmax_d.tapestry.rev_aa_ra(double %x, double %y, double 1.000000e+00)
; CALL:      call double @fmin_i.tapestry.rev_ac_ra(double %x, double %y, double 1.000000e+00)
; CALL:      call double @fmin_i.tapestry.rev_ca_ra(double %x, double %y, double 1.000000e+00)
; CALL:      call { float, float } @fmin_f.tapestry.rev_aa_ra(float %xf, float %yf, float 1.000000e+00)
; CALL:      call double @maximum_i.tapestry.rev_ac_ra(double %x, double %y, double 1.000000e+00)
; CALL:      call double @maximum_i.tapestry.rev_ca_ra(double %x, double %y, double 1.000000e+00)
; CALL:      call double @minimum_i.tapestry.rev_ac_ra(double %x, double %y, double 1.000000e+00)
; CALL:      call double @minimum_i.tapestry.rev_ca_ra(double %x, double %y, double 1.000000e+00)
; CALL:      ret void

; fabs'(x) = sign(x): 1 above zero, -1 below, 0 at zero.
; FABS-I-LABEL: define internal double @fabs_i.tapestry.rev_a_ra(double %x, double %seed)
; FABS-I-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; FABS-I-DAG:   [[P:%.*]] = call double @llvm.copysign.f64(double 1.000000e+00, double %x)
; FABS-I-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; FABS-I:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; FABS-I:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; FABS-I:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; FABS-I-NEXT:  ret double [[D]]
; FABS-I-LABEL: {{^}}}

; FABS-F-LABEL: define internal float @fabs_f.tapestry.rev_a_ra(float %x, float %seed)
; FABS-F-DAG:   [[SZ:%.*]] = fcmp oeq float %seed, 0.000000e+00
; FABS-F-DAG:   [[P:%.*]] = call float @llvm.copysign.f32(float 1.000000e+00, float %x)
; FABS-F-DAG:   [[T:%.*]] = fmul float [[P]], %seed
; FABS-F:       [[NAN_D:%.*]] = fcmp uno float [[T]], {{.*}}
; FABS-F:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; FABS-F:       [[D:%.*]] = select i1 [[DROP_D]], float 0.000000e+00, float [[T]]
; FABS-F-NEXT:  ret float [[D]]
; FABS-F-LABEL: {{^}}}

; copysign(x, y): d/dx = copysign(1, x) copysign(1, y), d/dy = 0.
; COPYSIGN-IX-LABEL: define internal double @copysign_i.tapestry.rev_ac_ra(double %x, double %y, double %seed)
; COPYSIGN-IX-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; COPYSIGN-IX-DAG:   [[SX:%.*]] = call double @llvm.copysign.f64(double 1.000000e+00, double %x)
; COPYSIGN-IX-DAG:   [[SY:%.*]] = call double @llvm.copysign.f64(double 1.000000e+00, double %y)
; COPYSIGN-IX-DAG:   [[P:%.*]] = fmul double [[SX]], [[SY]]
; COPYSIGN-IX-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; COPYSIGN-IX:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; COPYSIGN-IX:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; COPYSIGN-IX:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; COPYSIGN-IX-NEXT:  ret double [[D]]
; COPYSIGN-IX-LABEL: {{^}}}

; The sign operand's adjoint is the seed times zero.
; COPYSIGN-IY-LABEL: define internal double @copysign_i.tapestry.rev_ca_ra(double %x, double %y, double %seed)
; COPYSIGN-IY-NOT:   call
; COPYSIGN-IY-NOT:   call
; COPYSIGN-IY:       [[D:%.*]] = fmul double %seed, 0.000000e+00
; COPYSIGN-IY-NOT:   call
; COPYSIGN-IY:       ret double [[D]]
; COPYSIGN-IY-LABEL: {{^}}}

; COPYSIGN-F-LABEL: define internal { float, float } @copysign_f.tapestry.rev_aa_ra(float %x, float %y, float %seed)
; COPYSIGN-F-DAG:   [[SX:%.*]] = call float @llvm.copysign.f32(float 1.000000e+00, float %x)
; COPYSIGN-F-DAG:   [[SY:%.*]] = call float @llvm.copysign.f32(float 1.000000e+00, float %y)
; COPYSIGN-F-DAG:   [[P:%.*]] = fmul float [[SX]], [[SY]]
; COPYSIGN-F-DAG:   [[SZ:%.*]] = fcmp oeq float %seed, 0.000000e+00
; COPYSIGN-F-DAG:   [[TX:%.*]] = fmul float [[P]], %seed
; COPYSIGN-F-DAG:   [[NAN_DX:%.*]] = fcmp uno float [[TX]], {{.*}}
; COPYSIGN-F-DAG:   [[DROP_DX:%.*]] = and i1 [[SZ]], [[NAN_DX]]
; COPYSIGN-F-DAG:   [[DX:%.*]] = select i1 [[DROP_DX]], float 0.000000e+00, float [[TX]]
; COPYSIGN-F-DAG:   [[DY:%.*]] = fmul float %seed, 0.000000e+00
; COPYSIGN-F:       [[V0:%.*]] = insertvalue { float, float } poison, float [[DX]], 0
; COPYSIGN-F-NEXT:  [[V1:%.*]] = insertvalue { float, float } [[V0]], float [[DY]], 1
; COPYSIGN-F-NEXT:  ret { float, float } [[V1]]
; COPYSIGN-F-LABEL: {{^}}}

; fmax(x, y) (llvm.maxnum) chose y iff x < y or x is NaN.
; FMAX-IX-LABEL: define internal double @fmax_i.tapestry.rev_ac_ra(double %x, double %y, double %seed)
; FMAX-IX-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; FMAX-IX-DAG:   [[LT:%.*]] = fcmp olt double %x, %y
; FMAX-IX-DAG:   [[NAN:%.*]] = fcmp uno double %x, 0.000000e+00
; FMAX-IX-DAG:   [[C:%.*]] = or i1 [[LT]], [[NAN]]
; FMAX-IX-DAG:   [[P:%.*]] = select i1 [[C]], double 0.000000e+00, double 1.000000e+00
; FMAX-IX-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; FMAX-IX:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; FMAX-IX:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; FMAX-IX:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; FMAX-IX-NEXT:  ret double [[D]]
; FMAX-IX-LABEL: {{^}}}

; FMAX-IY-LABEL: define internal double @fmax_i.tapestry.rev_ca_ra(double %x, double %y, double %seed)
; FMAX-IY-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; FMAX-IY-DAG:   [[LT:%.*]] = fcmp olt double %x, %y
; FMAX-IY-DAG:   [[NAN:%.*]] = fcmp uno double %x, 0.000000e+00
; FMAX-IY-DAG:   [[C:%.*]] = or i1 [[LT]], [[NAN]]
; FMAX-IY-DAG:   [[P:%.*]] = select i1 [[C]], double 1.000000e+00, double 0.000000e+00
; FMAX-IY-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; FMAX-IY:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; FMAX-IY:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; FMAX-IY:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; FMAX-IY-NEXT:  ret double [[D]]
; FMAX-IY-LABEL: {{^}}}

; FMAX-D-LABEL: define internal { double, double } @fmax_d.tapestry.rev_aa_ra(double %x, double %y, double %seed)
; FMAX-D-DAG:   [[LT:%.*]] = fcmp olt double %x, %y
; FMAX-D-DAG:   [[NAN:%.*]] = fcmp uno double %x, 0.000000e+00
; FMAX-D-DAG:   [[C:%.*]] = or i1 [[LT]], [[NAN]]
; FMAX-D-DAG:   [[PX:%.*]] = select i1 {{%.*}}, double 0.000000e+00, double 1.000000e+00
; FMAX-D-DAG:   [[PY:%.*]] = select i1 {{%.*}}, double 1.000000e+00, double 0.000000e+00
; FMAX-D-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; FMAX-D-DAG:   [[TX:%.*]] = fmul double [[PX]], %seed
; FMAX-D-DAG:   [[TY:%.*]] = fmul double [[PY]], %seed
; FMAX-D-DAG:   [[NAN_DX:%.*]] = fcmp uno double [[TX]], {{.*}}
; FMAX-D-DAG:   [[DROP_DX:%.*]] = and i1 [[SZ]], [[NAN_DX]]
; FMAX-D-DAG:   [[DX:%.*]] = select i1 [[DROP_DX]], double 0.000000e+00, double [[TX]]
; FMAX-D-DAG:   [[NAN_DY:%.*]] = fcmp uno double [[TY]], {{.*}}
; FMAX-D-DAG:   [[DROP_DY:%.*]] = and i1 [[SZ]], [[NAN_DY]]
; FMAX-D-DAG:   [[DY:%.*]] = select i1 [[DROP_DY]], double 0.000000e+00, double [[TY]]
; FMAX-D:       [[V0:%.*]] = insertvalue { double, double } poison, double [[DX]], 0
; FMAX-D-NEXT:  [[V1:%.*]] = insertvalue { double, double } [[V0]], double [[DY]], 1
; FMAX-D-NEXT:  ret { double, double } [[V1]]
; FMAX-D-LABEL: {{^}}}

; fmin(x, y) (llvm.minnum) chose y iff y < x or x is NaN.
; FMIN-IX-LABEL: define internal double @fmin_i.tapestry.rev_ac_ra(double %x, double %y, double %seed)
; FMIN-IX-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; FMIN-IX-DAG:   [[LT:%.*]] = fcmp olt double %y, %x
; FMIN-IX-DAG:   [[NAN:%.*]] = fcmp uno double %x, 0.000000e+00
; FMIN-IX-DAG:   [[C:%.*]] = or i1 [[LT]], [[NAN]]
; FMIN-IX-DAG:   [[P:%.*]] = select i1 [[C]], double 0.000000e+00, double 1.000000e+00
; FMIN-IX-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; FMIN-IX:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; FMIN-IX:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; FMIN-IX:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; FMIN-IX-NEXT:  ret double [[D]]
; FMIN-IX-LABEL: {{^}}}

; FMIN-IY-LABEL: define internal double @fmin_i.tapestry.rev_ca_ra(double %x, double %y, double %seed)
; FMIN-IY-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; FMIN-IY-DAG:   [[LT:%.*]] = fcmp olt double %y, %x
; FMIN-IY-DAG:   [[NAN:%.*]] = fcmp uno double %x, 0.000000e+00
; FMIN-IY-DAG:   [[C:%.*]] = or i1 [[LT]], [[NAN]]
; FMIN-IY-DAG:   [[P:%.*]] = select i1 [[C]], double 1.000000e+00, double 0.000000e+00
; FMIN-IY-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; FMIN-IY:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; FMIN-IY:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; FMIN-IY:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; FMIN-IY-NEXT:  ret double [[D]]
; FMIN-IY-LABEL: {{^}}}

; FMIN-F-LABEL: define internal { float, float } @fmin_f.tapestry.rev_aa_ra(float %x, float %y, float %seed)
; FMIN-F-DAG:   [[LT:%.*]] = fcmp olt float %y, %x
; FMIN-F-DAG:   [[NAN:%.*]] = fcmp uno float %x, 0.000000e+00
; FMIN-F-DAG:   [[C:%.*]] = or i1 [[LT]], [[NAN]]
; FMIN-F-DAG:   [[PX:%.*]] = select i1 {{%.*}}, float 0.000000e+00, float 1.000000e+00
; FMIN-F-DAG:   [[PY:%.*]] = select i1 {{%.*}}, float 1.000000e+00, float 0.000000e+00
; FMIN-F-DAG:   [[SZ:%.*]] = fcmp oeq float %seed, 0.000000e+00
; FMIN-F-DAG:   [[TX:%.*]] = fmul float [[PX]], %seed
; FMIN-F-DAG:   [[TY:%.*]] = fmul float [[PY]], %seed
; FMIN-F-DAG:   [[NAN_DX:%.*]] = fcmp uno float [[TX]], {{.*}}
; FMIN-F-DAG:   [[DROP_DX:%.*]] = and i1 [[SZ]], [[NAN_DX]]
; FMIN-F-DAG:   [[DX:%.*]] = select i1 [[DROP_DX]], float 0.000000e+00, float [[TX]]
; FMIN-F-DAG:   [[NAN_DY:%.*]] = fcmp uno float [[TY]], {{.*}}
; FMIN-F-DAG:   [[DROP_DY:%.*]] = and i1 [[SZ]], [[NAN_DY]]
; FMIN-F-DAG:   [[DY:%.*]] = select i1 [[DROP_DY]], float 0.000000e+00, float [[TY]]
; FMIN-F:       [[V0:%.*]] = insertvalue { float, float } poison, float [[DX]], 0
; FMIN-F-NEXT:  [[V1:%.*]] = insertvalue { float, float } [[V0]], float [[DY]], 1
; FMIN-F-NEXT:  ret { float, float } [[V1]]
; FMIN-F-LABEL: {{^}}}

; llvm.maximum / llvm.minimum choose like maxnum / minnum, but a NaN x is
; the result (and x gets the adjoint).
; MAXIMUM-IX-LABEL: define internal double @maximum_i.tapestry.rev_ac_ra(double %x, double %y, double %seed)
; MAXIMUM-IX-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; MAXIMUM-IX-DAG:   [[LT:%.*]] = fcmp olt double %x, %y
; MAXIMUM-IX-DAG:   [[P:%.*]] = select i1 [[LT]], double 0.000000e+00, double 1.000000e+00
; MAXIMUM-IX-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; MAXIMUM-IX:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; MAXIMUM-IX:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; MAXIMUM-IX:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; MAXIMUM-IX-NEXT:  ret double [[D]]
; MAXIMUM-IX-LABEL: {{^}}}

; MAXIMUM-IY-LABEL: define internal double @maximum_i.tapestry.rev_ca_ra(double %x, double %y, double %seed)
; MAXIMUM-IY-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; MAXIMUM-IY-DAG:   [[LT:%.*]] = fcmp olt double %x, %y
; MAXIMUM-IY-DAG:   [[P:%.*]] = select i1 [[LT]], double 1.000000e+00, double 0.000000e+00
; MAXIMUM-IY-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; MAXIMUM-IY:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; MAXIMUM-IY:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; MAXIMUM-IY:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; MAXIMUM-IY-NEXT:  ret double [[D]]
; MAXIMUM-IY-LABEL: {{^}}}

; MINIMUM-IX-LABEL: define internal double @minimum_i.tapestry.rev_ac_ra(double %x, double %y, double %seed)
; MINIMUM-IX-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; MINIMUM-IX-DAG:   [[LT:%.*]] = fcmp olt double %y, %x
; MINIMUM-IX-DAG:   [[P:%.*]] = select i1 [[LT]], double 0.000000e+00, double 1.000000e+00
; MINIMUM-IX-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; MINIMUM-IX:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; MINIMUM-IX:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; MINIMUM-IX:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; MINIMUM-IX-NEXT:  ret double [[D]]
; MINIMUM-IX-LABEL: {{^}}}

; MINIMUM-IY-LABEL: define internal double @minimum_i.tapestry.rev_ca_ra(double %x, double %y, double %seed)
; MINIMUM-IY-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; MINIMUM-IY-DAG:   [[LT:%.*]] = fcmp olt double %y, %x
; MINIMUM-IY-DAG:   [[P:%.*]] = select i1 [[LT]], double 1.000000e+00, double 0.000000e+00
; MINIMUM-IY-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; MINIMUM-IY:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; MINIMUM-IY:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; MINIMUM-IY:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; MINIMUM-IY-NEXT:  ret double [[D]]
; MINIMUM-IY-LABEL: {{^}}}
