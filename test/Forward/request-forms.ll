; Forward-mode requests in the forms Enzyme's C API allows (see
; shared/API.md): a typed prototype (float value and tangent, not promoted,
; no markers), enzyme_primal_return ({primal, tangent}), the function named
; through a constant global holding its address and through a GlobalAlias,
; and a { float, float } result that the C ABI returns as <2 x float>. Every
; request call is replaced and no entry point or marker is left.
;
; DEFINE: %{fc} = FileCheck %s --input-file=%t
; RUN: %opt -passes=tapestry -S %s -o %t
; RUN: %{fc} --check-prefix=CALL \
; RUN:   --implicit-check-not=__enzyme_ --implicit-check-not=@enzyme_ \
; RUN:   --implicit-check-not=g_alias.tapestry
; RUN: %{fc} --check-prefix=TYPED
; RUN: %{fc} --check-prefix=PRIMAL
; RUN: %{fc} --check-prefix=GLOBAL
; RUN: %{fc} --check-prefix=ALIAS
; RUN: %{fc} --check-prefix=PAIR-F

@enzyme_dup = external global i32
@enzyme_const = external global i32
@enzyme_primal_return = external global i32

@g_ptr = private unnamed_addr constant ptr @g
@g_alias = alias double (double, double), ptr @g

declare float @__enzyme_fwddiff_typed(ptr, float, float)
declare double @__enzyme_fwddiff(ptr, ...)
declare { double, double } @__enzyme_fwddiff_pair(ptr, ...)
declare <2 x float> @__enzyme_fwddiff_v2f(ptr, ...)

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

define void @test(double %x, double %dx, double %y, double %dy, float %xf, float %dxf, ptr %out) {
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %p = load i32, ptr @enzyme_primal_return
  %r1 = call float @__enzyme_fwddiff_typed(ptr @sq, float %xf, float %dxf)
  store float %r1, ptr %out
  %r2 = call { double, double } (ptr, ...) @__enzyme_fwddiff_pair(ptr @g, i32 %p, i32 %d, double %x, double %dx, i32 %c, double %y)
  store { double, double } %r2, ptr %out
  %fp = load ptr, ptr @g_ptr
  %r3 = call double (ptr, ...) @__enzyme_fwddiff(ptr %fp, i32 %d, double %x, double %dx, i32 %d, double %y, double %dy)
  store double %r3, ptr %out
  %r4 = call double (ptr, ...) @__enzyme_fwddiff(ptr @g_alias, i32 %c, double %x, i32 %d, double %y, double %dy)
  store double %r4, ptr %out
  %r5 = call <2 x float> (ptr, ...) @__enzyme_fwddiff_v2f(ptr @sq, i32 %p, float %xf, float %dxf)
  store <2 x float> %r5, ptr %out
  ret void
}

; CALL-LABEL: define void @test(
; CALL-NOT:  fpext
; CALL:      [[R1:%.*]] = call float @sq.tapestry.fwd_d_ra(float %xf, float %dxf)
; CALL-NEXT: store float [[R1]], ptr %out
; CALL:      [[R2:%.*]] = call { double, double } @g.tapestry.fwd_dc_ra_rp(double %x, double %dx, double %y)
; CALL-NEXT: store { double, double } [[R2]], ptr %out
; CALL:      [[R3:%.*]] = call double @g.tapestry.fwd_dd_ra(double %x, double %dx, double %y, double %dy)
; CALL-NEXT: store double [[R3]], ptr %out
; CALL:      [[R4:%.*]] = call double @g.tapestry.fwd_cd_ra(double %x, double %y, double %dy)
; CALL-NEXT: store double [[R4]], ptr %out
; The primal and the tangent reach the caller as the <2 x float> it declared.
; CALL:      [[R5:%.*]] = call { float, float } @sq.tapestry.fwd_d_ra_rp(float %xf, float %dxf)
; CALL-NEXT: store { float, float } [[R5]], ptr [[TMP:%.*]],
; CALL-NEXT: [[V5:%.*]] = load <2 x float>, ptr [[TMP]],
; CALL-NEXT: store <2 x float> [[V5]], ptr %out
; CALL:      ret void

; d(x^2) = 2 x x', in float.
; TYPED-LABEL: define internal float @sq.tapestry.fwd_d_ra(float %x, float %"x'")
; TYPED:       [[M:%.*]] = fmul float %x, %"x'"
; TYPED-NEXT:  [[T:%.*]] = fadd float [[M]], [[M]]
; TYPED-NEXT:  ret float [[T]]
; TYPED-LABEL: {{^}}}

; { g(x, y), cos(x) x' + y x' }.
; PRIMAL-LABEL: define internal { double, double } @g.tapestry.fwd_dc_ra_rp(double %x, double %"x'", double %y)
; PRIMAL-DAG:   [[S:%.*]] = call double @llvm.sin.f64(double %x)
; PRIMAL-DAG:   [[COS:%.*]] = call double @llvm.cos.f64(double %x)
; PRIMAL-DAG:   [[TS:%.*]] = fmul double [[COS]], %"x'"
; PRIMAL-DAG:   [[M:%.*]] = fmul double %x, %y
; PRIMAL-DAG:   [[TM:%.*]] = fmul double %y, %"x'"
; PRIMAL-DAG:   [[R:%.*]] = fadd double [[S]], [[M]]
; PRIMAL-DAG:   [[TR:%.*]] = fadd double [[TS]], [[TM]]
; PRIMAL:       [[V0:%.*]] = insertvalue { double, double } poison, double [[R]], 0
; PRIMAL-NEXT:  [[V1:%.*]] = insertvalue { double, double } [[V0]], double [[TR]], 1
; PRIMAL-NEXT:  ret { double, double } [[V1]]
; PRIMAL-LABEL: {{^}}}

; Through the constant global: the derivative of @g itself.
; GLOBAL-LABEL: define internal double @g.tapestry.fwd_dd_ra(double %x, double %"x'", double %y, double %"y'")
; GLOBAL-DAG:   [[COS:%.*]] = call double @llvm.cos.f64(double %x)
; GLOBAL-DAG:   [[TS:%.*]] = fmul double [[COS]], %"x'"
; GLOBAL-DAG:   [[TX:%.*]] = fmul double %y, %"x'"
; GLOBAL-DAG:   [[TY:%.*]] = fmul double %x, %"y'"
; GLOBAL-DAG:   [[TM:%.*]] = fadd double [[TX]], [[TY]]
; GLOBAL:       [[T:%.*]] = fadd double [[TS]], [[TM]]
; GLOBAL-NEXT:  ret double [[T]]
; GLOBAL-LABEL: {{^}}}

; Through the alias: the derivative is named after, and built from, the
; aliasee; with x constant only x y' is left.
; ALIAS-LABEL: define internal double @g.tapestry.fwd_cd_ra(double %x, double %y, double %"y'")
; ALIAS-NEXT:  [[T:%.*]] = fmul double %x, %"y'"
; ALIAS-NEXT:  ret double [[T]]
; ALIAS-LABEL: {{^}}}

; PAIR-F-LABEL: define internal { float, float } @sq.tapestry.fwd_d_ra_rp(float %x, float %"x'")
; PAIR-F-DAG:   [[R:%.*]] = fmul float %x, %x
; PAIR-F-DAG:   [[M:%.*]] = fmul float %x, %"x'"
; PAIR-F-DAG:   [[T:%.*]] = fadd float [[M]], [[M]]
; PAIR-F:       [[V0:%.*]] = insertvalue { float, float } poison, float [[R]], 0
; PAIR-F-NEXT:  [[V1:%.*]] = insertvalue { float, float } [[V0]], float [[T]], 1
; PAIR-F-NEXT:  ret { float, float } [[V1]]
; PAIR-F-LABEL: {{^}}}
