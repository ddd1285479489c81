; Forward mode, arithmetic rules of plugin/Core/DerivativeRules.def: the
; instructions fadd fsub fmul fdiv frem fneg, and the math functions fmod
; (library; frem is its instruction form), fma (intrinsic and library) and
; fmuladd (intrinsic). Every operand is active, so each check names which
; partial multiplies which tangent.
;
; DEFINE: %{fc} = FileCheck %s --input-file=%t
; RUN: %opt -passes=tapestry -S %s -o %t
; RUN: %{fc} --check-prefix=CALL \
; RUN:   --implicit-check-not=__enzyme_ --implicit-check-not=@enzyme_
; RUN: %{fc} --check-prefix=FADD
; RUN: %{fc} --check-prefix=FSUB
; RUN: %{fc} --check-prefix=FMUL
; RUN: %{fc} --check-prefix=FDIV
; RUN: %{fc} --check-prefix=FREM
; RUN: %{fc} --check-prefix=FNEG
; RUN: %{fc} --check-prefix=FMOD
; RUN: %{fc} --check-prefix=FMA-I
; RUN: %{fc} --check-prefix=FMA-F
; RUN: %{fc} --check-prefix=FMULADD

@enzyme_dup = external global i32
@enzyme_const = external global i32

declare double @__enzyme_fwddiff(ptr, ...)
declare float @__enzyme_fwddiff_f(ptr, ...)

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

define void @test(double %x, double %dx, double %y, double %dy, double %z, double %dz, float %xf, float %dxf, float %yf, float %dyf, float %zf, float %dzf, ptr %out) {
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %r1 = call double (ptr, ...) @__enzyme_fwddiff(ptr @fadd_, i32 %d, double %x, double %dx, i32 %d, double %y, double %dy)
  store double %r1, ptr %out
  %r2 = call double (ptr, ...) @__enzyme_fwddiff(ptr @fsub_, i32 %d, double %x, double %dx, i32 %d, double %y, double %dy)
  store double %r2, ptr %out
  %r3 = call double (ptr, ...) @__enzyme_fwddiff(ptr @fmul_, i32 %d, double %x, double %dx, i32 %d, double %y, double %dy)
  store double %r3, ptr %out
  %r4 = call double (ptr, ...) @__enzyme_fwddiff(ptr @fdiv_, i32 %d, double %x, double %dx, i32 %d, double %y, double %dy)
  store double %r4, ptr %out
  %r5 = call double (ptr, ...) @__enzyme_fwddiff(ptr @frem_, i32 %d, double %x, double %dx, i32 %d, double %y, double %dy)
  store double %r5, ptr %out
  %r6 = call double (ptr, ...) @__enzyme_fwddiff(ptr @fneg_, i32 %d, double %x, double %dx)
  store double %r6, ptr %out
  %r7 = call double (ptr, ...) @__enzyme_fwddiff(ptr @fmod_d, i32 %d, double %x, double %dx, i32 %d, double %y, double %dy)
  store double %r7, ptr %out
  %r8 = call double (ptr, ...) @__enzyme_fwddiff(ptr @fma_i, i32 %d, double %x, double %dx, i32 %d, double %y, double %dy, i32 %d, double %z, double %dz)
  store double %r8, ptr %out
  %r9 = call float (ptr, ...) @__enzyme_fwddiff_f(ptr @fma_f, float %xf, float %dxf, float %yf, float %dyf, float %zf, float %dzf)
  store float %r9, ptr %out
  %r10 = call double (ptr, ...) @__enzyme_fwddiff(ptr @fmuladd_i, i32 %d, double %x, double %dx, i32 %d, double %y, double %dy, i32 %d, double %z, double %dz)
  store double %r10, ptr %out
  ret void
}

; CALL-LABEL: define void @test(
; CALL:      [[R1:%.*]] = call double @fadd_.tapestry.fwd_dd_ra(double %x, double %dx, double %y, double %dy)
; CALL-NEXT: store double [[R1]], ptr %out
; CALL:      call double @fsub_.tapestry.fwd_dd_ra(double %x, double %dx, double %y, double %dy)
; CALL:      call double @fmul_.tapestry.fwd_dd_ra(double %x, double %dx, double %y, double %dy)
; CALL:      call double @fdiv_.tapestry.fwd_dd_ra(double %x, double %dx, double %y, double %dy)
; CALL:      call double @frem_.tapestry.fwd_dd_ra(double %x, double %dx, double %y, double %dy)
; CALL:      call double @fneg_.tapestry.fwd_d_ra(double %x, double %dx)
; CALL:      call double @fmod_d.tapestry.fwd_dd_ra(double %x, double %dx, double %y, double %dy)
; CALL:      call double @fma_i.tapestry.fwd_ddd_ra(double %x, double %dx, double %y, double %dy, double %z, double %dz)
; CALL:      call float @fma_f.tapestry.fwd_ddd_ra(float %xf, float %dxf, float %yf, float %dyf, float %zf, float %dzf)
; CALL:      [[R10:%.*]] = call double @fmuladd_i.tapestry.fwd_ddd_ra(double %x, double %dx, double %y, double %dy, double %z, double %dz)
; CALL-NEXT: store double [[R10]], ptr %out
; CALL:      ret void

; d(x + y) = x' + y'.
; FADD-LABEL: define internal double @fadd_.tapestry.fwd_dd_ra(double %x, double %"x'", double %y, double %"y'")
; FADD:       [[T:%.*]] = fadd double %"x'", %"y'"
; FADD-NEXT:  ret double [[T]]
; FADD-LABEL: {{^}}}

; d(x - y) = x' - y'.
; FSUB-LABEL: define internal double @fsub_.tapestry.fwd_dd_ra(double %x, double %"x'", double %y, double %"y'")
; FSUB:       [[T:%.*]] = fsub double %"x'", %"y'"
; FSUB-NEXT:  ret double [[T]]
; FSUB-LABEL: {{^}}}

; d(x y) = y x' + x y'.
; FMUL-LABEL: define internal double @fmul_.tapestry.fwd_dd_ra(double %x, double %"x'", double %y, double %"y'")
; FMUL-DAG:   [[TX:%.*]] = fmul double %y, %"x'"
; FMUL-DAG:   [[TY:%.*]] = fmul double %x, %"y'"
; FMUL:       [[T:%.*]] = fadd double [[TX]], [[TY]]
; FMUL-NEXT:  ret double [[T]]
; FMUL-LABEL: {{^}}}

; d(x / y) = (x' - (x / y) y') / y: the form that stays finite for a tiny y
; (test/Integration/scalar-division-range.c).
; FDIV-LABEL: define internal double @fdiv_.tapestry.fwd_dd_ra(double %x, double %"x'", double %y, double %"y'")
; FDIV:       [[Q:%.*]] = fdiv double %x, %y
; FDIV-NEXT:  [[QY:%.*]] = fmul double [[Q]], %"y'"
; FDIV-NEXT:  [[N:%.*]] = fsub double %"x'", [[QY]]
; FDIV-NEXT:  [[T:%.*]] = fdiv double [[N]], %y
; FDIV-NEXT:  ret double [[T]]
; FDIV-LABEL: {{^}}}

; d(x frem y) = x' - trunc(x / y) y'.
; FREM-LABEL: define internal double @frem_.tapestry.fwd_dd_ra(double %x, double %"x'", double %y, double %"y'")
; FREM-DAG:   [[Q:%.*]] = fdiv double %x, %y
; FREM-DAG:   [[TR:%.*]] = call double @llvm.trunc.f64(double [[Q]])
; FREM-DAG:   [[TY:%.*]] = fmul double [[TR]], %"y'"
; FREM:       [[T:%.*]] = fsub double %"x'", [[TY]]
; FREM-NEXT:  ret double [[T]]
; FREM-LABEL: {{^}}}

; d(-x) = -x'.
; FNEG-LABEL: define internal double @fneg_.tapestry.fwd_d_ra(double %x, double %"x'")
; FNEG:       [[T:%.*]] = fneg double %"x'"
; FNEG-NEXT:  ret double [[T]]
; FNEG-LABEL: {{^}}}

; fmod has frem's partials.
; FMOD-LABEL: define internal double @fmod_d.tapestry.fwd_dd_ra(double %x, double %"x'", double %y, double %"y'")
; FMOD-DAG:   [[Q:%.*]] = fdiv double %x, %y
; FMOD-DAG:   [[TR:%.*]] = call double @llvm.trunc.f64(double [[Q]])
; FMOD-DAG:   [[TY:%.*]] = fmul double [[TR]], %"y'"
; FMOD:       [[T:%.*]] = fsub double %"x'", [[TY]]
; FMOD-NEXT:  ret double [[T]]
; FMOD-LABEL: {{^}}}

; fma(x, y, z) = x y + z: y x' + x y' + z'.
; FMA-I-LABEL: define internal double @fma_i.tapestry.fwd_ddd_ra(double %x, double %"x'", double %y, double %"y'", double %z, double %"z'")
; FMA-I-DAG:   [[TX:%.*]] = fmul double %y, %"x'"
; FMA-I-DAG:   [[TY:%.*]] = fmul double %x, %"y'"
; FMA-I-DAG:   [[S:%.*]] = fadd double [[TX]], [[TY]]
; FMA-I:       [[T:%.*]] = fadd double [[S]], %"z'"
; FMA-I-NEXT:  ret double [[T]]
; FMA-I-LABEL: {{^}}}

; FMA-F-LABEL: define internal float @fma_f.tapestry.fwd_ddd_ra(float %x, float %"x'", float %y, float %"y'", float %z, float %"z'")
; FMA-F-DAG:   [[TX:%.*]] = fmul float %y, %"x'"
; FMA-F-DAG:   [[TY:%.*]] = fmul float %x, %"y'"
; FMA-F-DAG:   [[S:%.*]] = fadd float [[TX]], [[TY]]
; FMA-F:       [[T:%.*]] = fadd float [[S]], %"z'"
; FMA-F-NEXT:  ret float [[T]]
; FMA-F-LABEL: {{^}}}

; FMULADD-LABEL: define internal double @fmuladd_i.tapestry.fwd_ddd_ra(double %x, double %"x'", double %y, double %"y'", double %z, double %"z'")
; FMULADD-DAG:   [[TX:%.*]] = fmul double %y, %"x'"
; FMULADD-DAG:   [[TY:%.*]] = fmul double %x, %"y'"
; FMULADD-DAG:   [[S:%.*]] = fadd double [[TX]], [[TY]]
; FMULADD:       [[T:%.*]] = fadd double [[S]], %"z'"
; FMULADD-NEXT:  ret double [[T]]
; FMULADD-LABEL: {{^}}}
