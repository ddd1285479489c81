; Reverse mode, floating-point conversions: the adjoint of fpext is truncated
; back to the operand's type and the adjoint of fptrunc is extended, for
; float/double, double/x86_fp80 and double/half. The seed has the type of the
; function's result, the returned adjoint that of its parameter. @chain mixes
; the conversions with a float math rule and a double product.
;
; DEFINE: %{fc} = FileCheck %s --input-file=%t
; RUN: %opt -passes=tapestry -S %s -o %t
; RUN: %{fc} --check-prefix=CALL \
; RUN:   --implicit-check-not=__enzyme_ --implicit-check-not=@enzyme_
; RUN: %{fc} --check-prefix=FPEXT
; RUN: %{fc} --check-prefix=FPTRUNC
; RUN: %{fc} --check-prefix=FPEXT-L
; RUN: %{fc} --check-prefix=FPTRUNC-H
; RUN: %{fc} --check-prefix=CHAIN

@enzyme_out = external global i32

declare double @__enzyme_autodiff(ptr, ...)
declare float @__enzyme_autodiff_f(ptr, ...)

declare float @llvm.sin.f32(float)

define double @fpext_(float %x) {
  %e = fpext float %x to double
  ret double %e
}

define float @fptrunc_(double %x) {
  %t = fptrunc double %x to float
  ret float %t
}

define x86_fp80 @fpext_l(double %x) {
  %e = fpext double %x to x86_fp80
  ret x86_fp80 %e
}

define half @fptrunc_h(double %x) {
  %t = fptrunc double %x to half
  ret half %t
}

; chain(x) = x * (double) sinf((float) x)
define double @chain(double %x) {
  %t = fptrunc double %x to float
  %s = call float @llvm.sin.f32(float %t)
  %e = fpext float %s to double
  %m = fmul double %e, %x
  ret double %m
}

define void @test(double %x, float %xf, ptr %out) {
  %m = load i32, ptr @enzyme_out
  %r1 = call float (ptr, ...) @__enzyme_autodiff_f(ptr @fpext_, i32 %m, float %xf)
  store float %r1, ptr %out
  %r2 = call double (ptr, ...) @__enzyme_autodiff(ptr @fptrunc_, i32 %m, double %x)
  store double %r2, ptr %out
  %r3 = call double (ptr, ...) @__enzyme_autodiff(ptr @fpext_l, i32 %m, double %x)
  store double %r3, ptr %out
  %r4 = call double (ptr, ...) @__enzyme_autodiff(ptr @fptrunc_h, i32 %m, double %x)
  store double %r4, ptr %out
  %r5 = call double (ptr, ...) @__enzyme_autodiff(ptr @chain, i32 %m, double %x)
  store double %r5, ptr %out
  ret void
}

; The seed has the primal result's type.
; CALL-LABEL: define void @test(
; CALL:      [[R1:%.*]] = call float @fpext_.tapestry.rev_a_ra(float %xf, double 1.000000e+00)
; CALL-NEXT: store float [[R1]], ptr %out
; CALL:      [[R2:%.*]] = call double @fptrunc_.tapestry.rev_a_ra(double %x, float 1.000000e+00)
; CALL-NEXT: store double [[R2]], ptr %out
; CALL:      call double @fpext_l.tapestry.rev_a_ra(double %x, x86_fp80 0xK3FFF8000000000000000)
; CALL:      call double @fptrunc_h.tapestry.rev_a_ra(double %x, half 0xH3C00)
; CALL:      call double @chain.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CALL:      ret void

; FPEXT-LABEL: define internal float @fpext_.tapestry.rev_a_ra(float %x, double %seed)
; FPEXT:       [[D:%.*]] = fptrunc double %seed to float
; FPEXT-NEXT:  ret float [[D]]
; FPEXT-LABEL: {{^}}}

; FPTRUNC-LABEL: define internal double @fptrunc_.tapestry.rev_a_ra(double %x, float %seed)
; FPTRUNC:       [[D:%.*]] = fpext float %seed to double
; FPTRUNC:       ret double [[D]]
; FPTRUNC-LABEL: {{^}}}

; FPEXT-L-LABEL: define internal double @fpext_l.tapestry.rev_a_ra(double %x, x86_fp80 %seed)
; FPEXT-L:       [[D:%.*]] = fptrunc x86_fp80 %seed to double
; FPEXT-L-NEXT:  ret double [[D]]
; FPEXT-L-LABEL: {{^}}}

; FPTRUNC-H-LABEL: define internal double @fptrunc_h.tapestry.rev_a_ra(double %x, half %seed)
; FPTRUNC-H:       [[D:%.*]] = fpext half %seed to double
; FPTRUNC-H:       ret double [[D]]
; FPTRUNC-H-LABEL: {{^}}}

; d chain = sin(t) dm (through %e) + cos(t) (float) (x dm) (through %t),
; the float contribution extended back to double. Each product's
; contribution is strong-zero guarded: select(adjoint == 0 and the product
; is NaN, 0, partial * adjoint), the float one testing the truncated
; adjoint (the conversions move past the selects).
; CHAIN-LABEL: define internal double @chain.tapestry.rev_a_ra(double %x, double %seed)
; CHAIN-DAG:   [[Z:%.*]] = fcmp oeq double %seed, 0.000000e+00
; CHAIN-DAG:   [[T:%.*]] = fptrunc double %x to float
; CHAIN-DAG:   [[S:%.*]] = call float @llvm.sin.f32(float [[T]])
; CHAIN-DAG:   [[E:%.*]] = fpext float [[S]] to double
; CHAIN-DAG:   [[ME:%.*]] = fmul double [[E]], %seed
; CHAIN-DAG:   [[NAN_DX1:%.*]] = fcmp uno double [[ME]], {{.*}}
; CHAIN-DAG:   [[DROP_DX1:%.*]] = and i1 [[Z]], [[NAN_DX1]]
; CHAIN-DAG:   [[DX1:%.*]] = select i1 [[DROP_DX1]], double 0.000000e+00, double [[ME]]
; CHAIN-DAG:   [[MX:%.*]] = fmul double %x, %seed
; CHAIN-DAG:   [[NAN_DE:%.*]] = fcmp uno double [[MX]], {{.*}}
; CHAIN-DAG:   [[DROP_DE:%.*]] = and i1 [[Z]], [[NAN_DE]]
; CHAIN-DAG:   [[MS:%.*]] = fptrunc double [[MX]] to float
; CHAIN-DAG:   [[DS:%.*]] = select i1 [[DROP_DE]], float 0.000000e+00, float [[MS]]
; CHAIN-DAG:   [[ZS:%.*]] = fcmp oeq float [[DS]], 0.000000e+00
; CHAIN-DAG:   [[C:%.*]] = call float @llvm.cos.f32(float [[T]])
; CHAIN-DAG:   [[MC:%.*]] = fmul float [[C]], [[DS]]
; CHAIN-DAG:   [[NAN_DT:%.*]] = fcmp uno float [[MC]], {{.*}}
; CHAIN-DAG:   [[DROP_DT:%.*]] = and i1 [[ZS]], [[NAN_DT]]
; CHAIN-DAG:   [[MD:%.*]] = fpext float [[MC]] to double
; CHAIN-DAG:   [[DX2:%.*]] = select i1 [[DROP_DT]], double 0.000000e+00, double [[MD]]
; CHAIN:       [[DX:%.*]] = fadd double [[DX1]], [[DX2]]
; CHAIN-NEXT:  ret double [[DX]]
; CHAIN-LABEL: {{^}}}
