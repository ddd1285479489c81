; Reverse mode, hyperbolic rules of plugin/Core/DerivativeRules.def:
; sinh cosh tanh in LLVM-intrinsic and C library (float) form; asinh acosh
; atanh, which have no LLVM 19 intrinsic, in their double, float and long
; double library spellings. Each request is replaced by a call to
; <f>.tapestry.rev_a_ra, which multiplies the partial by the seed.
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

@enzyme_out = external global i32

declare double @__enzyme_autodiff(ptr, ...)
declare float @__enzyme_autodiff_f(ptr, ...)
declare x86_fp80 @__enzyme_autodiff_l(ptr, ...)

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

define void @test(double %x, float %xf, x86_fp80 %xl, ptr %out) {
  %m = load i32, ptr @enzyme_out
  %r1 = call double (ptr, ...) @__enzyme_autodiff(ptr @sinh_i, i32 %m, double %x)
  store double %r1, ptr %out
  %r2 = call float (ptr, ...) @__enzyme_autodiff_f(ptr @sinh_f, i32 %m, float %xf)
  store float %r2, ptr %out
  %r3 = call double (ptr, ...) @__enzyme_autodiff(ptr @cosh_i, i32 %m, double %x)
  store double %r3, ptr %out
  %r4 = call float (ptr, ...) @__enzyme_autodiff_f(ptr @cosh_f, i32 %m, float %xf)
  store float %r4, ptr %out
  %r5 = call double (ptr, ...) @__enzyme_autodiff(ptr @tanh_i, i32 %m, double %x)
  store double %r5, ptr %out
  %r6 = call float (ptr, ...) @__enzyme_autodiff_f(ptr @tanh_f, i32 %m, float %xf)
  store float %r6, ptr %out
  %r7 = call double (ptr, ...) @__enzyme_autodiff(ptr @asinh_d, i32 %m, double %x)
  store double %r7, ptr %out
  %r8 = call float (ptr, ...) @__enzyme_autodiff_f(ptr @acosh_f, i32 %m, float %xf)
  store float %r8, ptr %out
  %r9 = call x86_fp80 (ptr, ...) @__enzyme_autodiff_l(ptr @atanh_l, i32 %m, x86_fp80 %xl)
  store x86_fp80 %r9, ptr %out
  ret void
}

; CALL-LABEL: define void @test(
; CALL:      [[R1:%.*]] = call double @sinh_i.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CALL-NEXT: store double [[R1]], ptr %out
; CALL:      call float @sinh_f.tapestry.rev_a_ra(float %xf, float 1.000000e+00)
; CALL:      call double @cosh_i.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CALL:      call float @cosh_f.tapestry.rev_a_ra(float %xf, float 1.000000e+00)
; CALL:      call double @tanh_i.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CALL:      call float @tanh_f.tapestry.rev_a_ra(float %xf, float 1.000000e+00)
; CALL:      call double @asinh_d.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CALL:      call float @acosh_f.tapestry.rev_a_ra(float %xf, float 1.000000e+00)
; CALL:      [[R9:%.*]] = call x86_fp80 @atanh_l.tapestry.rev_a_ra(x86_fp80 %xl, x86_fp80 0xK3FFF8000000000000000)
; CALL-NEXT: store x86_fp80 [[R9]], ptr %out
; CALL:      ret void

; sinh'(x) = cosh(x).
; SINH-I-LABEL: define internal double @sinh_i.tapestry.rev_a_ra(double %x, double %seed)
; SINH-I-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; SINH-I-DAG:   [[P:%.*]] = call double @llvm.cosh.f64(double %x)
; SINH-I-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; SINH-I:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; SINH-I:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; SINH-I:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; SINH-I-NEXT:  ret double [[D]]
; SINH-I-LABEL: {{^}}}

; SINH-F-LABEL: define internal float @sinh_f.tapestry.rev_a_ra(float %x, float %seed)
; SINH-F-DAG:   [[SZ:%.*]] = fcmp oeq float %seed, 0.000000e+00
; SINH-F-DAG:   [[P:%.*]] = call float @llvm.cosh.f32(float %x)
; SINH-F-DAG:   [[T:%.*]] = fmul float [[P]], %seed
; SINH-F:       [[NAN_D:%.*]] = fcmp uno float [[T]], {{.*}}
; SINH-F:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; SINH-F:       [[D:%.*]] = select i1 [[DROP_D]], float 0.000000e+00, float [[T]]
; SINH-F-NEXT:  ret float [[D]]
; SINH-F-LABEL: {{^}}}

; cosh'(x) = sinh(x).
; COSH-I-LABEL: define internal double @cosh_i.tapestry.rev_a_ra(double %x, double %seed)
; COSH-I-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; COSH-I-DAG:   [[P:%.*]] = call double @llvm.sinh.f64(double %x)
; COSH-I-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; COSH-I:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; COSH-I:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; COSH-I:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; COSH-I-NEXT:  ret double [[D]]
; COSH-I-LABEL: {{^}}}

; COSH-F-LABEL: define internal float @cosh_f.tapestry.rev_a_ra(float %x, float %seed)
; COSH-F-DAG:   [[SZ:%.*]] = fcmp oeq float %seed, 0.000000e+00
; COSH-F-DAG:   [[P:%.*]] = call float @llvm.sinh.f32(float %x)
; COSH-F-DAG:   [[T:%.*]] = fmul float [[P]], %seed
; COSH-F:       [[NAN_D:%.*]] = fcmp uno float [[T]], {{.*}}
; COSH-F:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; COSH-F:       [[D:%.*]] = select i1 [[DROP_D]], float 0.000000e+00, float [[T]]
; COSH-F-NEXT:  ret float [[D]]
; COSH-F-LABEL: {{^}}}

; tanh'(x) = 1 - tanh(x)^2, from the primal result.
; TANH-I-LABEL: define internal double @tanh_i.tapestry.rev_a_ra(double %x, double %seed)
; TANH-I-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; TANH-I-DAG:   [[Y:%.*]] = call double @llvm.tanh.f64(double %x)
; TANH-I-DAG:   [[Y2:%.*]] = fmul double [[Y]], [[Y]]
; TANH-I-DAG:   [[P:%.*]] = fsub double 1.000000e+00, [[Y2]]
; TANH-I-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; TANH-I:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; TANH-I:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; TANH-I:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; TANH-I-NEXT:  ret double [[D]]
; TANH-I-LABEL: {{^}}}

; TANH-F-LABEL: define internal float @tanh_f.tapestry.rev_a_ra(float %x, float %seed)
; TANH-F-DAG:   [[SZ:%.*]] = fcmp oeq float %seed, 0.000000e+00
; TANH-F-DAG:   [[Y:%.*]] = call float @tanhf(float %x)
; TANH-F-DAG:   [[Y2:%.*]] = fmul float [[Y]], [[Y]]
; TANH-F-DAG:   [[P:%.*]] = fsub float 1.000000e+00, [[Y2]]
; TANH-F-DAG:   [[T:%.*]] = fmul float [[P]], %seed
; TANH-F:       [[NAN_D:%.*]] = fcmp uno float [[T]], {{.*}}
; TANH-F:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; TANH-F:       [[D:%.*]] = select i1 [[DROP_D]], float 0.000000e+00, float [[T]]
; TANH-F-NEXT:  ret float [[D]]
; TANH-F-LABEL: {{^}}}

; asinh'(x) = 1 / sqrt(x^2 + 1).
; ASINH-D-LABEL: define internal double @asinh_d.tapestry.rev_a_ra(double %x, double %seed)
; ASINH-D-DAG:   [[SZ:%.*]] = fcmp oeq double %seed, 0.000000e+00
; ASINH-D-DAG:   [[X2:%.*]] = fmul double %x, %x
; ASINH-D-DAG:   [[S:%.*]] = fadd double [[X2]], 1.000000e+00
; ASINH-D-DAG:   [[R:%.*]] = call double @llvm.sqrt.f64(double [[S]])
; ASINH-D-DAG:   [[P:%.*]] = fdiv double 1.000000e+00, [[R]]
; ASINH-D-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; ASINH-D:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; ASINH-D:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; ASINH-D:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; ASINH-D-NEXT:  ret double [[D]]
; ASINH-D-LABEL: {{^}}}

; acosh'(x) = 1 / sqrt(x^2 - 1).
; ACOSH-F-LABEL: define internal float @acosh_f.tapestry.rev_a_ra(float %x, float %seed)
; ACOSH-F-DAG:   [[SZ:%.*]] = fcmp oeq float %seed, 0.000000e+00
; ACOSH-F-DAG:   [[X2:%.*]] = fmul float %x, %x
; ACOSH-F-DAG:   [[S:%.*]] = fadd float [[X2]], -1.000000e+00
; ACOSH-F-DAG:   [[R:%.*]] = call float @llvm.sqrt.f32(float [[S]])
; ACOSH-F-DAG:   [[P:%.*]] = fdiv float 1.000000e+00, [[R]]
; ACOSH-F-DAG:   [[T:%.*]] = fmul float [[P]], %seed
; ACOSH-F:       [[NAN_D:%.*]] = fcmp uno float [[T]], {{.*}}
; ACOSH-F:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; ACOSH-F:       [[D:%.*]] = select i1 [[DROP_D]], float 0.000000e+00, float [[T]]
; ACOSH-F-NEXT:  ret float [[D]]
; ACOSH-F-LABEL: {{^}}}

; atanh'(x) = 1 / (1 - x^2), here in long double.
; ATANH-L-LABEL: define internal x86_fp80 @atanh_l.tapestry.rev_a_ra(x86_fp80 %x, x86_fp80 %seed)
; ATANH-L-DAG:   [[SZ:%.*]] = fcmp oeq x86_fp80 %seed, 0xK00000000000000000000
; ATANH-L-DAG:   [[X2:%.*]] = fmul x86_fp80 %x, %x
; ATANH-L-DAG:   [[S:%.*]] = fsub x86_fp80 0xK3FFF8000000000000000, [[X2]]
; ATANH-L-DAG:   [[P:%.*]] = fdiv x86_fp80 0xK3FFF8000000000000000, [[S]]
; ATANH-L-DAG:   [[T:%.*]] = fmul x86_fp80 [[P]], %seed
; ATANH-L:       [[NAN_D:%.*]] = fcmp uno x86_fp80 [[T]], {{.*}}
; ATANH-L:       [[DROP_D:%.*]] = and i1 [[SZ]], [[NAN_D]]
; ATANH-L:       [[D:%.*]] = select i1 [[DROP_D]], x86_fp80 0xK00000000000000000000, x86_fp80 [[T]]
; ATANH-L-NEXT:  ret x86_fp80 [[D]]
; ATANH-L-LABEL: {{^}}}
