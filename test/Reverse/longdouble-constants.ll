; The constants of the rules (ln 2, ln 10, 2/sqrt(pi)) are correctly rounded
; in the derivative's own type: in x86_fp80 they are not double constants
; widened to long double (which would put these partials 300-900 ulp off).
;
; DEFINE: %{fc} = FileCheck %s --input-file=%t
; RUN: %opt -passes=tapestry -S %s -o %t
; RUN: %{fc} --check-prefix=EXP2
; RUN: %{fc} --check-prefix=EXP10
; RUN: %{fc} --check-prefix=LOG2
; RUN: %{fc} --check-prefix=LOG10
; RUN: %{fc} --check-prefix=ERF
; RUN: %{fc} --check-prefix=ERFC

@enzyme_out = external global i32

declare x86_fp80 @__enzyme_autodiff(ptr, ...)

declare x86_fp80 @exp2l(x86_fp80)
declare x86_fp80 @exp10l(x86_fp80)
declare x86_fp80 @log2l(x86_fp80)
declare x86_fp80 @log10l(x86_fp80)
declare x86_fp80 @erfl(x86_fp80)
declare x86_fp80 @erfcl(x86_fp80)

define x86_fp80 @exp2_l(x86_fp80 %x) {
  %y = call x86_fp80 @exp2l(x86_fp80 %x)
  ret x86_fp80 %y
}

define x86_fp80 @exp10_l(x86_fp80 %x) {
  %y = call x86_fp80 @exp10l(x86_fp80 %x)
  ret x86_fp80 %y
}

define x86_fp80 @log2_l(x86_fp80 %x) {
  %y = call x86_fp80 @log2l(x86_fp80 %x)
  ret x86_fp80 %y
}

define x86_fp80 @log10_l(x86_fp80 %x) {
  %y = call x86_fp80 @log10l(x86_fp80 %x)
  ret x86_fp80 %y
}

define x86_fp80 @erf_l(x86_fp80 %x) {
  %y = call x86_fp80 @erfl(x86_fp80 %x)
  ret x86_fp80 %y
}

define x86_fp80 @erfc_l(x86_fp80 %x) {
  %y = call x86_fp80 @erfcl(x86_fp80 %x)
  ret x86_fp80 %y
}

define void @test(x86_fp80 %x, ptr %out) {
  %m = load i32, ptr @enzyme_out
  %r1 = call x86_fp80 (ptr, ...) @__enzyme_autodiff(ptr @exp2_l, i32 %m, x86_fp80 %x)
  store x86_fp80 %r1, ptr %out
  %r2 = call x86_fp80 (ptr, ...) @__enzyme_autodiff(ptr @exp10_l, i32 %m, x86_fp80 %x)
  store x86_fp80 %r2, ptr %out
  %r3 = call x86_fp80 (ptr, ...) @__enzyme_autodiff(ptr @log2_l, i32 %m, x86_fp80 %x)
  store x86_fp80 %r3, ptr %out
  %r4 = call x86_fp80 (ptr, ...) @__enzyme_autodiff(ptr @log10_l, i32 %m, x86_fp80 %x)
  store x86_fp80 %r4, ptr %out
  %r5 = call x86_fp80 (ptr, ...) @__enzyme_autodiff(ptr @erf_l, i32 %m, x86_fp80 %x)
  store x86_fp80 %r5, ptr %out
  %r6 = call x86_fp80 (ptr, ...) @__enzyme_autodiff(ptr @erfc_l, i32 %m, x86_fp80 %x)
  store x86_fp80 %r6, ptr %out
  ret void
}

; ln 2 = 0xK3FFEB17217F7D1CF79AC, ln 10 = 0xK4000935D8DDDAAA8AC17 and
; 2/sqrt(pi) = 0xK3FFF906EBA8214DB688D, correctly rounded to x86_fp80.

; EXP2-LABEL: define internal x86_fp80 @exp2_l.tapestry.rev_a_ra(
; EXP2:       [[Y:%.*]] = call x86_fp80 @exp2l(x86_fp80 %x)
; EXP2:       fmul x86_fp80 [[Y]], 0xK3FFEB17217F7D1CF79AC
; EXP2-LABEL: {{^}}}

; EXP10-LABEL: define internal x86_fp80 @exp10_l.tapestry.rev_a_ra(
; EXP10:       [[Y:%.*]] = call x86_fp80 @exp10l(x86_fp80 %x)
; EXP10:       fmul x86_fp80 [[Y]], 0xK4000935D8DDDAAA8AC17
; EXP10-LABEL: {{^}}}

; LOG2-LABEL: define internal x86_fp80 @log2_l.tapestry.rev_a_ra(
; LOG2:       fmul x86_fp80 %x, 0xK3FFEB17217F7D1CF79AC
; LOG2-LABEL: {{^}}}

; LOG10-LABEL: define internal x86_fp80 @log10_l.tapestry.rev_a_ra(
; LOG10:       fmul x86_fp80 %x, 0xK4000935D8DDDAAA8AC17
; LOG10-LABEL: {{^}}}

; ERF-LABEL: define internal x86_fp80 @erf_l.tapestry.rev_a_ra(
; ERF:       [[E:%.*]] = call x86_fp80 @llvm.exp.f80(
; ERF:       fmul x86_fp80 [[E]], 0xK3FFF906EBA8214DB688D
; ERF-LABEL: {{^}}}

; ERFC-LABEL: define internal x86_fp80 @erfc_l.tapestry.rev_a_ra(
; ERFC:       [[E:%.*]] = call x86_fp80 @llvm.exp.f80(
; ERFC:       fmul x86_fp80 [[E]], 0xKBFFF906EBA8214DB688D
; ERFC-LABEL: {{^}}}
