; Reverse mode, arithmetic rules of plugin/Core/DerivativeRules.def: the
; instructions fadd fsub fmul fdiv frem fneg, and the math functions fmod
; (library; frem is its instruction form), fma (intrinsic and library) and
; fmuladd (intrinsic). Each partial of a several-operand rule is checked in a
; request where only that operand is active (enzyme_const on the others), so
; the derivative returns exactly that operand's adjoint; fadd, fmaf and
; fmuladd are also requested with every operand active, adjoints in argument
; order.
;
; DEFINE: %{fc} = FileCheck %s --input-file=%t
; RUN: %opt -passes=tapestry -S %s -o %t
; RUN: %{fc} --check-prefix=CALL \
; RUN:   --implicit-check-not=__enzyme_ --implicit-check-not=@enzyme_
; RUN: %{fc} --check-prefix=FADD
; RUN: %{fc} --check-prefix=FSUB-X
; RUN: %{fc} --check-prefix=FSUB-Y
; RUN: %{fc} --check-prefix=FMUL-X
; RUN: %{fc} --check-prefix=FMUL-Y
; RUN: %{fc} --check-prefix=FDIV-X
; RUN: %{fc} --check-prefix=FDIV-Y
; RUN: %{fc} --check-prefix=FREM-X
; RUN: %{fc} --check-prefix=FREM-Y
; RUN: %{fc} --check-prefix=FNEG
; RUN: %{fc} --check-prefix=FMOD-X
; RUN: %{fc} --check-prefix=FMOD-Y
; RUN: %{fc} --check-prefix=FMA-X
; RUN: %{fc} --check-prefix=FMA-Y
; RUN: %{fc} --check-prefix=FMA-Z
; RUN: %{fc} --check-prefix=FMAF
; RUN: %{fc} --check-prefix=FMULADD

@enzyme_out = external global i32
@enzyme_const = external global i32

declare double @__enzyme_autodiff(ptr, ...)
declare { double, double } @__enzyme_autodiff_dd(ptr, ...)
declare { double, double, double } @__enzyme_autodiff_ddd(ptr, ...)
declare { float, float, float } @__enzyme_autodiff_fff(ptr, ...)

declare double @fmod(double, double)
declare double @llvm.fma.f64(double, double, double)
declare float @fmaf(float, float, float)
declare double @llvm.fmuladd.f64(double, double, double)

define double @fadd_(double %x, double %y) {
  %r = fadd double %x, %y
  ret double %r
}

define double @fsub_(double %x, double %y) {
  %r = fsub double %x, %y
  ret double %r
}

define double @fmul_(double %x, double %y) {
  %r = fmul double %x, %y
  ret double %r
}

define double @fdiv_(double %x, double %y) {
  %r = fdiv double %x, %y
  ret double %r
}

define double @frem_(double %x, double %y) {
  %r = frem double %x, %y
  ret double %r
}

define double @fneg_(double %x) {
  %r = fneg double %x
  ret double %r
}

define double @fmod_d(double %x, double %y) {
  %r = call double @fmod(double %x, double %y)
  ret double %r
}

define double @fma_i(double %x, double %y, double %z) {
  %r = call double @llvm.fma.f64(double %x, double %y, double %z)
  ret double %r
}

define float @fma_f(float %x, float %y, float %z) {
  %r = call float @fmaf(float %x, float %y, float %z)
  ret float %r
}

define double @fmuladd_i(double %x, double %y, double %z) {
  %r = call double @llvm.fmuladd.f64(double %x, double %y, double %z)
  ret double %r
}

define void @test(double %x, double %y, double %z, float %xf, float %yf, float %zf, ptr %out) {
  %m = load i32, ptr @enzyme_out
  %c = load i32, ptr @enzyme_const
  %r1 = call { double, double } (ptr, ...) @__enzyme_autodiff_dd(ptr @fadd_, i32 %m, double %x, i32 %m, double %y)
  store { double, double } %r1, ptr %out
  %r2 = call double (ptr, ...) @__enzyme_autodiff(ptr @fsub_, i32 %m, double %x, i32 %c, double %y)
  store double %r2, ptr %out
  %r3 = call double (ptr, ...) @__enzyme_autodiff(ptr @fsub_, i32 %c, double %x, i32 %m, double %y)
  store double %r3, ptr %out
  %r4 = call double (ptr, ...) @__enzyme_autodiff(ptr @fmul_, i32 %m, double %x, i32 %c, double %y)
  store double %r4, ptr %out
  %r5 = call double (ptr, ...) @__enzyme_autodiff(ptr @fmul_, i32 %c, double %x, i32 %m, double %y)
  store double %r5, ptr %out
  %r6 = call double (ptr, ...) @__enzyme_autodiff(ptr @fdiv_, i32 %m, double %x, i32 %c, double %y)
  store double %r6, ptr %out
  %r7 = call double (ptr, ...) @__enzyme_autodiff(ptr @fdiv_, i32 %c, double %x, i32 %m, double %y)
  store double %r7, ptr %out
  %r8 = call double (ptr, ...) @__enzyme_autodiff(ptr @frem_, i32 %m, double %x, i32 %c, double %y)
  store double %r8, ptr %out
  %r9 = call double (ptr, ...) @__enzyme_autodiff(ptr @frem_, i32 %c, double %x, i32 %m, double %y)
  store double %r9, ptr %out
  %r10 = call double (ptr, ...) @__enzyme_autodiff(ptr @fneg_, i32 %m, double %x)
  store double %r10, ptr %out
  %r11 = call double (ptr, ...) @__enzyme_autodiff(ptr @fmod_d, i32 %m, double %x, i32 %c, double %y)
  store double %r11, ptr %out
  %r12 = call double (ptr, ...) @__enzyme_autodiff(ptr @fmod_d, i32 %c, double %x, i32 %m, double %y)
  store double %r12, ptr %out
  %r13 = call double (ptr, ...) @__enzyme_autodiff(ptr @fma_i, i32 %m, double %x, i32 %c, double %y, i32 %c, double %z)
  store double %r13, ptr %out
  %r14 = call double (ptr, ...) @__enzyme_autodiff(ptr @fma_i, i32 %c, double %x, i32 %m, double %y, i32 %c, double %z)
  store double %r14, ptr %out
  %r15 = call double (ptr, ...) @__enzyme_autodiff(ptr @fma_i, i32 %c, double %x, i32 %c, double %y, i32 %m, double %z)
  store double %r15, ptr %out
  %r16 = call { float, float, float } (ptr, ...) @__enzyme_autodiff_fff(ptr @fma_f, i32 %m, float %xf, i32 %m, float %yf, i32 %m, float %zf)
  store { float, float, float } %r16, ptr %out
  %r17 = call { double, double, double } (ptr, ...) @__enzyme_autodiff_ddd(ptr @fmuladd_i, i32 %m, double %x, i32 %m, double %y, i32 %m, double %z)
  store { double, double, double } %r17, ptr %out
  ret void
}

; CALL-LABEL: define void @test(
; CALL:      [[R1:%.*]] = call { double, double } @fadd_.tapestry.rev_aa_ra(double %x, double %y, double 1.000000e+00)
; CALL-NEXT: store { double, double } [[R1]], ptr %out
; CALL:      call double @fsub_.tapestry.rev_ac_ra(double %x, double %y, double 1.000000e+00)
; CALL:      call double @fsub_.tapestry.rev_ca_ra(double %x, double %y, double 1.000000e+00)
; CALL:      call double @fmul_.tapestry.rev_ac_ra(double %x, double %y, double 1.000000e+00)
; CALL:      call double @fmul_.tapestry.rev_ca_ra(double %x, double %y, double 1.000000e+00)
; CALL:      call double @fdiv_.tapestry.rev_ac_ra(double %x, double %y, double 1.000000e+00)
; CALL:      call double @fdiv_.tapestry.rev_ca_ra(double %x, double %y, double 1.000000e+00)
; CALL:      call double @frem_.tapestry.rev_ac_ra(double %x, double %y, double 1.000000e+00)
; CALL:      call double @frem_.tapestry.rev_ca_ra(double %x, double %y, double 1.000000e+00)
; CALL:      call double @fneg_.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CALL:      call double @fmod_d.tapestry.rev_ac_ra(double %x, double %y, double 1.000000e+00)
; CALL:      call double @fmod_d.tapestry.rev_ca_ra(double %x, double %y, double 1.000000e+00)
; CALL:      call double @fma_i.tapestry.rev_acc_ra(double %x, double %y, double %z, double 1.000000e+00)
; CALL:      call double @fma_i.tapestry.rev_cac_ra(double %x, double %y, double %z, double 1.000000e+00)
; CALL:      call double @fma_i.tapestry.rev_cca_ra(double %x, double %y, double %z, double 1.000000e+00)
; CALL:      [[R16:%.*]] = call { float, float, float } @fma_f.tapestry.rev_aaa_ra(float %xf, float %yf, float %zf, float 1.000000e+00)
; CALL-NEXT: store { float, float, float } [[R16]], ptr %out
; CALL:      call { double, double, double } @fmuladd_i.tapestry.rev_aaa_ra(double %x, double %y, double %z, double 1.000000e+00)
; CALL:      ret void

; d(x + y) = (1, 1): both adjoints are the seed.
; FADD-LABEL: define internal { double, double } @fadd_.tapestry.rev_aa_ra(double %x, double %y, double %seed)
; FADD:       [[V0:%.*]] = insertvalue { double, double } poison, double %seed, 0
; FADD:       [[V1:%.*]] = insertvalue { double, double } [[V0]], double %seed, 1
; FADD:       ret { double, double } [[V1]]
; FADD-LABEL: {{^}}}

; d(x - y) = (1, -1).
; FSUB-X-LABEL: define internal double @fsub_.tapestry.rev_ac_ra(double %x, double %y, double %seed)
; FSUB-X:       ret double %seed
; FSUB-X-LABEL: {{^}}}

; FSUB-Y-LABEL: define internal double @fsub_.tapestry.rev_ca_ra(double %x, double %y, double %seed)
; FSUB-Y:       [[D:%.*]] = {{fneg double|fsub double 0.000000e\+00,}} %seed
; FSUB-Y:       ret double [[D]]
; FSUB-Y-LABEL: {{^}}}

; d(x y) = (y, x). A product's partial may be infinite, so a zero adjoint
; must contribute exactly zero (strong zero): the contribution is
; select(adjoint == 0, 0, partial * adjoint).
; FMUL-X-LABEL: define internal double @fmul_.tapestry.rev_ac_ra(double %x, double %y, double %seed)
; FMUL-X-DAG:   [[Z:%.*]] = fcmp oeq double %seed, 0.000000e+00
; FMUL-X-DAG:   [[T:%.*]] = fmul double %y, %seed
; FMUL-X:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; FMUL-X:       [[DROP_D:%.*]] = and i1 [[Z]], [[NAN_D]]
; FMUL-X:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; FMUL-X-NEXT:  ret double [[D]]
; FMUL-X-LABEL: {{^}}}

; FMUL-Y-LABEL: define internal double @fmul_.tapestry.rev_ca_ra(double %x, double %y, double %seed)
; FMUL-Y-DAG:   [[Z:%.*]] = fcmp oeq double %seed, 0.000000e+00
; FMUL-Y-DAG:   [[T:%.*]] = fmul double %x, %seed
; FMUL-Y:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; FMUL-Y:       [[DROP_D:%.*]] = and i1 [[Z]], [[NAN_D]]
; FMUL-Y:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; FMUL-Y-NEXT:  ret double [[D]]
; FMUL-Y-LABEL: {{^}}}

; d(x / y) = (1 / y, -(x / y) / y).
; FDIV-X-LABEL: define internal double @fdiv_.tapestry.rev_ac_ra(double %x, double %y, double %seed)
; FDIV-X-DAG:   [[Z:%.*]] = fcmp oeq double %seed, 0.000000e+00
; FDIV-X-DAG:   [[P:%.*]] = fdiv double 1.000000e+00, %y
; FDIV-X-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; FDIV-X:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; FDIV-X:       [[DROP_D:%.*]] = and i1 [[Z]], [[NAN_D]]
; FDIV-X:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; FDIV-X-NEXT:  ret double [[D]]
; FDIV-X-LABEL: {{^}}}

; FDIV-Y-LABEL: define internal double @fdiv_.tapestry.rev_ca_ra(double %x, double %y, double %seed)
; FDIV-Y-DAG:   [[Z:%.*]] = fcmp oeq double %seed, 0.000000e+00
; FDIV-Y-DAG:   [[N:%.*]] = fneg double %x
; FDIV-Y-DAG:   [[Q:%.*]] = fdiv double [[N]], %y
; FDIV-Y-DAG:   [[P:%.*]] = fdiv double [[Q]], %y
; FDIV-Y-DAG:   [[T:%.*]] = fmul double [[P]], %seed
; FDIV-Y:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; FDIV-Y:       [[DROP_D:%.*]] = and i1 [[Z]], [[NAN_D]]
; FDIV-Y:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; FDIV-Y-NEXT:  ret double [[D]]
; FDIV-Y-LABEL: {{^}}}

; d(x frem y) = (1, -trunc(x / y)).
; FREM-X-LABEL: define internal double @frem_.tapestry.rev_ac_ra(double %x, double %y, double %seed)
; FREM-X:       ret double %seed
; FREM-X-LABEL: {{^}}}

; FREM-Y-LABEL: define internal double @frem_.tapestry.rev_ca_ra(double %x, double %y, double %seed)
; FREM-Y-DAG:   [[Z:%.*]] = fcmp oeq double %seed, 0.000000e+00
; FREM-Y-DAG:   [[Q:%.*]] = fdiv double %x, %y
; FREM-Y-DAG:   [[T:%.*]] = call double @llvm.trunc.f64(double [[Q]])
; FREM-Y-DAG:   [[P:%.*]] = {{fneg double|fsub double 0.000000e\+00,}} [[T]]
; FREM-Y-DAG:   [[M:%.*]] = fmul double [[P]], %seed
; FREM-Y:       [[NAN_D:%.*]] = fcmp uno double [[M]], {{.*}}
; FREM-Y:       [[DROP_D:%.*]] = and i1 [[Z]], [[NAN_D]]
; FREM-Y:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[M]]
; FREM-Y-NEXT:  ret double [[D]]
; FREM-Y-LABEL: {{^}}}

; d(-x) = -1.
; FNEG-LABEL: define internal double @fneg_.tapestry.rev_a_ra(double %x, double %seed)
; FNEG:       [[D:%.*]] = {{fneg double|fsub double 0.000000e\+00,}} %seed
; FNEG:       ret double [[D]]
; FNEG-LABEL: {{^}}}

; fmod has frem's partials.
; FMOD-X-LABEL: define internal double @fmod_d.tapestry.rev_ac_ra(double %x, double %y, double %seed)
; FMOD-X:       ret double %seed
; FMOD-X-LABEL: {{^}}}

; FMOD-Y-LABEL: define internal double @fmod_d.tapestry.rev_ca_ra(double %x, double %y, double %seed)
; FMOD-Y-DAG:   [[Z:%.*]] = fcmp oeq double %seed, 0.000000e+00
; FMOD-Y-DAG:   [[Q:%.*]] = fdiv double %x, %y
; FMOD-Y-DAG:   [[T:%.*]] = call double @llvm.trunc.f64(double [[Q]])
; FMOD-Y-DAG:   [[P:%.*]] = {{fneg double|fsub double 0.000000e\+00,}} [[T]]
; FMOD-Y-DAG:   [[M:%.*]] = fmul double [[P]], %seed
; FMOD-Y:       [[NAN_D:%.*]] = fcmp uno double [[M]], {{.*}}
; FMOD-Y:       [[DROP_D:%.*]] = and i1 [[Z]], [[NAN_D]]
; FMOD-Y:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[M]]
; FMOD-Y-NEXT:  ret double [[D]]
; FMOD-Y-LABEL: {{^}}}

; fma(x, y, z) = x y + z: partials (y, x, 1).
; FMA-X-LABEL: define internal double @fma_i.tapestry.rev_acc_ra(double %x, double %y, double %z, double %seed)
; FMA-X-DAG:   [[Z:%.*]] = fcmp oeq double %seed, 0.000000e+00
; FMA-X-DAG:   [[T:%.*]] = fmul double %y, %seed
; FMA-X:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; FMA-X:       [[DROP_D:%.*]] = and i1 [[Z]], [[NAN_D]]
; FMA-X:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; FMA-X-NEXT:  ret double [[D]]
; FMA-X-LABEL: {{^}}}

; FMA-Y-LABEL: define internal double @fma_i.tapestry.rev_cac_ra(double %x, double %y, double %z, double %seed)
; FMA-Y-DAG:   [[Z:%.*]] = fcmp oeq double %seed, 0.000000e+00
; FMA-Y-DAG:   [[T:%.*]] = fmul double %x, %seed
; FMA-Y:       [[NAN_D:%.*]] = fcmp uno double [[T]], {{.*}}
; FMA-Y:       [[DROP_D:%.*]] = and i1 [[Z]], [[NAN_D]]
; FMA-Y:       [[D:%.*]] = select i1 [[DROP_D]], double 0.000000e+00, double [[T]]
; FMA-Y-NEXT:  ret double [[D]]
; FMA-Y-LABEL: {{^}}}

; The constant partial 1 needs no select: the z adjoint is the seed itself.
; FMA-Z-LABEL: define internal double @fma_i.tapestry.rev_cca_ra(double %x, double %y, double %z, double %seed)
; FMA-Z-NOT:   fmul
; FMA-Z-NOT:   select
; FMA-Z:       ret double %seed
; FMA-Z-LABEL: {{^}}}

; FMAF-LABEL: define internal { float, float, float } @fma_f.tapestry.rev_aaa_ra(float %x, float %y, float %z, float %seed)
; FMAF-DAG:   [[Z:%.*]] = fcmp oeq float %seed, 0.000000e+00
; FMAF-DAG:   [[TX:%.*]] = fmul float %y, %seed
; FMAF-DAG:   [[TY:%.*]] = fmul float %x, %seed
; FMAF-DAG:   [[NAN_DX:%.*]] = fcmp uno float [[TX]], {{.*}}
; FMAF-DAG:   [[DROP_DX:%.*]] = and i1 [[Z]], [[NAN_DX]]
; FMAF-DAG:   [[DX:%.*]] = select i1 [[DROP_DX]], float 0.000000e+00, float [[TX]]
; FMAF-DAG:   [[NAN_DY:%.*]] = fcmp uno float [[TY]], {{.*}}
; FMAF-DAG:   [[DROP_DY:%.*]] = and i1 [[Z]], [[NAN_DY]]
; FMAF-DAG:   [[DY:%.*]] = select i1 [[DROP_DY]], float 0.000000e+00, float [[TY]]
; FMAF:       [[V0:%.*]] = insertvalue { float, float, float } poison, float [[DX]], 0
; FMAF:       [[V1:%.*]] = insertvalue { float, float, float } [[V0]], float [[DY]], 1
; FMAF:       [[V2:%.*]] = insertvalue { float, float, float } [[V1]], float %seed, 2
; FMAF:       ret { float, float, float } [[V2]]
; FMAF-LABEL: {{^}}}

; FMULADD-LABEL: define internal { double, double, double } @fmuladd_i.tapestry.rev_aaa_ra(double %x, double %y, double %z, double %seed)
; FMULADD-DAG:   [[Z:%.*]] = fcmp oeq double %seed, 0.000000e+00
; FMULADD-DAG:   [[TX:%.*]] = fmul double %y, %seed
; FMULADD-DAG:   [[TY:%.*]] = fmul double %x, %seed
; FMULADD-DAG:   [[NAN_DX:%.*]] = fcmp uno double [[TX]], {{.*}}
; FMULADD-DAG:   [[DROP_DX:%.*]] = and i1 [[Z]], [[NAN_DX]]
; FMULADD-DAG:   [[DX:%.*]] = select i1 [[DROP_DX]], double 0.000000e+00, double [[TX]]
; FMULADD-DAG:   [[NAN_DY:%.*]] = fcmp uno double [[TY]], {{.*}}
; FMULADD-DAG:   [[DROP_DY:%.*]] = and i1 [[Z]], [[NAN_DY]]
; FMULADD-DAG:   [[DY:%.*]] = select i1 [[DROP_DY]], double 0.000000e+00, double [[TY]]
; FMULADD:       [[V0:%.*]] = insertvalue { double, double, double } poison, double [[DX]], 0
; FMULADD:       [[V1:%.*]] = insertvalue { double, double, double } [[V0]], double [[DY]], 1
; FMULADD:       [[V2:%.*]] = insertvalue { double, double, double } [[V1]], double %seed, 2
; FMULADD:       ret { double, double, double } [[V2]]
; FMULADD-LABEL: {{^}}}
