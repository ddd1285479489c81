; Reverse-mode requests in the forms Enzyme's C API allows (see
; shared/API.md): a typed prototype (a float argument is not promoted), a
; struct of two adjoints, enzyme_primal_return (the primal comes first), the
; function named through a constant global holding its address and through a
; GlobalAlias, a { float, float } result that the C ABI returns as
; <2 x float>, and an sret result. Every request call is replaced and no
; entry point or marker is left.
;
; DEFINE: %{fc} = FileCheck %s --input-file=%t
; RUN: %opt -passes=tapestry -S %s -o %t
; RUN: %{fc} --check-prefix=CALL \
; RUN:   --implicit-check-not=__enzyme_ --implicit-check-not=@enzyme_ \
; RUN:   --implicit-check-not=g_alias.tapestry
; RUN: %{fc} --check-prefix=TYPED
; RUN: %{fc} --check-prefix=PAIR
; RUN: %{fc} --check-prefix=PRIMAL
; RUN: %{fc} --check-prefix=GLOBAL
; RUN: %{fc} --check-prefix=ALIAS
; RUN: %{fc} --check-prefix=SRET

@enzyme_out = external global i32
@enzyme_const = external global i32
@enzyme_primal_return = external global i32

@g_ptr = private unnamed_addr constant ptr @g
@g_alias = alias double (double, double), ptr @g

declare float @__enzyme_autodiff_typed(ptr, float)
declare double @__enzyme_autodiff(ptr, ...)
declare { double, double } @__enzyme_autodiff_pair(ptr, ...)
declare <2 x float> @__enzyme_autodiff_v2f(ptr, ...)
declare void @__enzyme_autodiff_sret(ptr sret({ double, double, double }), ptr, ...)

declare double @llvm.sin.f64(double)

define float @sq(float %x) {
  %r = fmul float %x, %x
  ret float %r
}

; g(x, y) = sin(x) + x y
define double @g(double %x, double %y) {
  %s = call double @llvm.sin.f64(double %x)
  %m = fmul double %x, %y
  %r = fadd double %s, %m
  ret double %r
}

define float @h(float %x, float %y) {
  %m = fmul float %x, %y
  ret float %m
}

define void @test(double %x, double %y, float %xf, ptr %out) {
  %m = load i32, ptr @enzyme_out
  %c = load i32, ptr @enzyme_const
  %p = load i32, ptr @enzyme_primal_return
  %r1 = call float @__enzyme_autodiff_typed(ptr @sq, float %xf)
  store float %r1, ptr %out
  %r2 = call { double, double } (ptr, ...) @__enzyme_autodiff_pair(ptr @g, i32 %m, double %x, i32 %m, double %y)
  store { double, double } %r2, ptr %out
  %r3 = call { double, double } (ptr, ...) @__enzyme_autodiff_pair(ptr @g, i32 %p, i32 %m, double %x, i32 %c, double %y)
  store { double, double } %r3, ptr %out
  %fp = load ptr, ptr @g_ptr
  %r4 = call double (ptr, ...) @__enzyme_autodiff(ptr %fp, i32 %m, double %x, i32 %c, double %y)
  store double %r4, ptr %out
  %r5 = call double (ptr, ...) @__enzyme_autodiff(ptr @g_alias, i32 %c, double %x, i32 %m, double %y)
  store double %r5, ptr %out
  %r6 = call <2 x float> (ptr, ...) @__enzyme_autodiff_v2f(ptr @h, float %xf, float %xf)
  store <2 x float> %r6, ptr %out
  %sr = alloca { double, double, double }
  call void (ptr, ptr, ...) @__enzyme_autodiff_sret(ptr sret({ double, double, double }) %sr, ptr @g, i32 %p, double %x, double %y)
  ret void
}

; CALL-LABEL: define void @test(
; CALL-NOT:  fpext
; CALL:      [[R1:%.*]] = call float @sq.tapestry.rev_a_ra(float %xf, float 1.000000e+00)
; CALL-NEXT: store float [[R1]], ptr %out
; CALL:      [[R2:%.*]] = call { double, double } @g.tapestry.rev_aa_ra(double %x, double %y, double 1.000000e+00)
; CALL-NEXT: store { double, double } [[R2]], ptr %out
; CALL:      [[R3:%.*]] = call { double, double } @g.tapestry.rev_ac_ra_rp(double %x, double %y, double 1.000000e+00)
; CALL-NEXT: store { double, double } [[R3]], ptr %out
; CALL:      [[R4:%.*]] = call double @g.tapestry.rev_ac_ra(double %x, double %y, double 1.000000e+00)
; CALL-NEXT: store double [[R4]], ptr %out
; CALL:      [[R5:%.*]] = call double @g.tapestry.rev_ca_ra(double %x, double %y, double 1.000000e+00)
; CALL-NEXT: store double [[R5]], ptr %out
; The two float adjoints reach the caller as the <2 x float> it declared.
; CALL:      [[R6:%.*]] = call { float, float } @h.tapestry.rev_aa_ra(float %xf, float %xf, float 1.000000e+00)
; CALL-NEXT: store { float, float } [[R6]], ptr [[TMP:%.*]],
; CALL-NEXT: [[V6:%.*]] = load <2 x float>, ptr [[TMP]],
; CALL-NEXT: store <2 x float> [[V6]], ptr %out
; The sret form: the primal and both adjoints land in the caller's memory.
; CALL:      [[R7:%.*]] = call { double, double, double } @g.tapestry.rev_aa_ra_rp(double %x, double %y, double 1.000000e+00)
; CALL-NEXT: store { double, double, double } [[R7]], ptr %sr
; CALL:      ret void

; d(x^2) in float throughout: the seed times x, twice. Each product's
; contribution is select(seed == 0, 0, x * seed) (strong zero).
; TYPED-LABEL: define internal float @sq.tapestry.rev_a_ra(float %x, float %seed)
; TYPED-DAG:   [[Z:%.*]] = fcmp oeq float %seed, 0.000000e+00
; TYPED-DAG:   [[T:%.*]] = fmul float %x, %seed
; TYPED:       [[NAN_S:%.*]] = fcmp uno float [[T]], {{.*}}
; TYPED:       [[DROP_S:%.*]] = and i1 [[Z]], [[NAN_S]]
; TYPED:       [[S:%.*]] = select i1 [[DROP_S]], float 0.000000e+00, float [[T]]
; TYPED-NEXT:  [[D:%.*]] = fadd float [[S]], [[S]]
; TYPED-NEXT:  ret float [[D]]
; TYPED-LABEL: {{^}}}

; dg/dx = cos(x) + y first, dg/dy = x second. Each contribution is
; strong-zero guarded on its own (only a NaN product is dropped).
; PAIR-LABEL: define internal { double, double } @g.tapestry.rev_aa_ra(double %x, double %y, double %seed)
; PAIR-DAG:   [[Z:%.*]] = fcmp oeq double %seed, 0.000000e+00
; PAIR-DAG:   [[TM:%.*]] = fmul double %y, %seed
; PAIR-DAG:   [[NAN_M:%.*]] = fcmp uno double [[TM]], {{.*}}
; PAIR-DAG:   [[DROP_M:%.*]] = and i1 [[Z]], [[NAN_M]]
; PAIR-DAG:   [[SM:%.*]] = select i1 [[DROP_M]], double 0.000000e+00, double [[TM]]
; PAIR-DAG:   [[COS:%.*]] = call double @llvm.cos.f64(double %x)
; PAIR-DAG:   [[TC:%.*]] = fmul double [[COS]], %seed
; PAIR-DAG:   [[NAN_C:%.*]] = fcmp uno double [[TC]], {{.*}}
; PAIR-DAG:   [[DROP_C:%.*]] = and i1 [[Z]], [[NAN_C]]
; PAIR-DAG:   [[SC:%.*]] = select i1 [[DROP_C]], double 0.000000e+00, double [[TC]]
; PAIR-DAG:   [[DX:%.*]] = fadd double [[SM]], [[SC]]
; PAIR-DAG:   [[TY:%.*]] = fmul double %x, %seed
; PAIR-DAG:   [[NAN_DY:%.*]] = fcmp uno double [[TY]], {{.*}}
; PAIR-DAG:   [[DROP_DY:%.*]] = and i1 [[Z]], [[NAN_DY]]
; PAIR-DAG:   [[DY:%.*]] = select i1 [[DROP_DY]], double 0.000000e+00, double [[TY]]
; PAIR:       [[V0:%.*]] = insertvalue { double, double } poison, double [[DX]], 0
; PAIR-NEXT:  [[V1:%.*]] = insertvalue { double, double } [[V0]], double [[DY]], 1
; PAIR-NEXT:  ret { double, double } [[V1]]
; PAIR-LABEL: {{^}}}

; { g(x, y), dg/dx }.
; PRIMAL-LABEL: define internal { double, double } @g.tapestry.rev_ac_ra_rp(double %x, double %y, double %seed)
; PRIMAL-DAG:   [[Z:%.*]] = fcmp oeq double %seed, 0.000000e+00
; PRIMAL-DAG:   [[TM:%.*]] = fmul double %y, %seed
; PRIMAL-DAG:   [[NAN_M:%.*]] = fcmp uno double [[TM]], {{.*}}
; PRIMAL-DAG:   [[DROP_M:%.*]] = and i1 [[Z]], [[NAN_M]]
; PRIMAL-DAG:   [[SM:%.*]] = select i1 [[DROP_M]], double 0.000000e+00, double [[TM]]
; PRIMAL-DAG:   [[COS:%.*]] = call double @llvm.cos.f64(double %x)
; PRIMAL-DAG:   [[TC:%.*]] = fmul double [[COS]], %seed
; PRIMAL-DAG:   [[NAN_C:%.*]] = fcmp uno double [[TC]], {{.*}}
; PRIMAL-DAG:   [[DROP_C:%.*]] = and i1 [[Z]], [[NAN_C]]
; PRIMAL-DAG:   [[SC:%.*]] = select i1 [[DROP_C]], double 0.000000e+00, double [[TC]]
; PRIMAL-DAG:   [[DX:%.*]] = fadd double [[SM]], [[SC]]
; PRIMAL-DAG:   [[S:%.*]] = call double @llvm.sin.f64(double %x)
; PRIMAL-DAG:   [[M:%.*]] = fmul double %x, %y
; PRIMAL-DAG:   [[R:%.*]] = fadd double [[S]], [[M]]
; PRIMAL:       [[V0:%.*]] = insertvalue { double, double } poison, double [[R]], 0
; PRIMAL-NEXT:  [[V1:%.*]] = insertvalue { double, double } [[V0]], double [[DX]], 1
; PRIMAL-NEXT:  ret { double, double } [[V1]]
; PRIMAL-LABEL: {{^}}}

; Through the constant global: the derivative of @g itself.
; GLOBAL-LABEL: define internal double @g.tapestry.rev_ac_ra(double %x, double %y, double %seed)
; GLOBAL-DAG:   [[Z:%.*]] = fcmp oeq double %seed, 0.000000e+00
; GLOBAL-DAG:   [[TM:%.*]] = fmul double %y, %seed
; GLOBAL-DAG:   [[NAN_M:%.*]] = fcmp uno double [[TM]], {{.*}}
; GLOBAL-DAG:   [[DROP_M:%.*]] = and i1 [[Z]], [[NAN_M]]
; GLOBAL-DAG:   [[SM:%.*]] = select i1 [[DROP_M]], double 0.000000e+00, double [[TM]]
; GLOBAL-DAG:   [[COS:%.*]] = call double @llvm.cos.f64(double %x)
; GLOBAL-DAG:   [[TC:%.*]] = fmul double [[COS]], %seed
; GLOBAL-DAG:   [[NAN_C:%.*]] = fcmp uno double [[TC]], {{.*}}
; GLOBAL-DAG:   [[DROP_C:%.*]] = and i1 [[Z]], [[NAN_C]]
; GLOBAL-DAG:   [[SC:%.*]] = select i1 [[DROP_C]], double 0.000000e+00, double [[TC]]
; GLOBAL:       [[DX:%.*]] = fadd double [[SM]], [[SC]]
; GLOBAL-NEXT:  ret double [[DX]]
; GLOBAL-LABEL: {{^}}}

; Through the alias: the derivative is named after, and built from, the
; aliasee.
; ALIAS-LABEL: define internal double @g.tapestry.rev_ca_ra(double %x, double %y, double %seed)
; ALIAS-NOT:   call
; ALIAS-DAG:   [[Z:%.*]] = fcmp oeq double %seed, 0.000000e+00
; ALIAS-DAG:   [[T:%.*]] = fmul double %x, %seed
; ALIAS-NOT:   call
; ALIAS:       [[NAN_DY:%.*]] = fcmp uno double [[T]], {{.*}}
; ALIAS:       [[DROP_DY:%.*]] = and i1 [[Z]], [[NAN_DY]]
; ALIAS:       [[DY:%.*]] = select i1 [[DROP_DY]], double 0.000000e+00, double [[T]]
; ALIAS-NEXT:  ret double [[DY]]
; ALIAS-LABEL: {{^}}}

; { g(x, y), dg/dx, dg/dy } for the sret request.
; SRET-LABEL: define internal { double, double, double } @g.tapestry.rev_aa_ra_rp(double %x, double %y, double %seed)
; SRET-DAG:   [[Z:%.*]] = fcmp oeq double %seed, 0.000000e+00
; SRET-DAG:   [[TM:%.*]] = fmul double %y, %seed
; SRET-DAG:   [[NAN_M:%.*]] = fcmp uno double [[TM]], {{.*}}
; SRET-DAG:   [[DROP_M:%.*]] = and i1 [[Z]], [[NAN_M]]
; SRET-DAG:   [[SM:%.*]] = select i1 [[DROP_M]], double 0.000000e+00, double [[TM]]
; SRET-DAG:   [[COS:%.*]] = call double @llvm.cos.f64(double %x)
; SRET-DAG:   [[TC:%.*]] = fmul double [[COS]], %seed
; SRET-DAG:   [[NAN_C:%.*]] = fcmp uno double [[TC]], {{.*}}
; SRET-DAG:   [[DROP_C:%.*]] = and i1 [[Z]], [[NAN_C]]
; SRET-DAG:   [[SC:%.*]] = select i1 [[DROP_C]], double 0.000000e+00, double [[TC]]
; SRET-DAG:   [[DX:%.*]] = fadd double [[SM]], [[SC]]
; SRET-DAG:   [[TY:%.*]] = fmul double %x, %seed
; SRET-DAG:   [[NAN_DY:%.*]] = fcmp uno double [[TY]], {{.*}}
; SRET-DAG:   [[DROP_DY:%.*]] = and i1 [[Z]], [[NAN_DY]]
; SRET-DAG:   [[DY:%.*]] = select i1 [[DROP_DY]], double 0.000000e+00, double [[TY]]
; SRET-DAG:   [[S:%.*]] = call double @llvm.sin.f64(double %x)
; SRET-DAG:   [[M:%.*]] = fmul double %x, %y
; SRET-DAG:   [[R:%.*]] = fadd double [[S]], [[M]]
; SRET:       [[V0:%.*]] = insertvalue { double, double, double } poison, double [[R]], 0
; SRET-NEXT:  [[V1:%.*]] = insertvalue { double, double, double } [[V0]], double [[DX]], 1
; SRET-NEXT:  [[V2:%.*]] = insertvalue { double, double, double } [[V1]], double [[DY]], 2
; SRET-NEXT:  ret { double, double, double } [[V2]]
; SRET-LABEL: {{^}}}
