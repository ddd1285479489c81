; Reverse mode, piecewise-constant rules of plugin/Core/DerivativeRules.def:
; floor ceil round roundeven trunc rint nearbyint, each in LLVM-intrinsic
; (double) and C library (float) form. Their derivative is zero almost
; everywhere: the derivative multiplies the seed by the partial 0, and no
; rounding call remains in the intrinsic forms' derivatives.
;
; DEFINE: %{fc} = FileCheck %s --input-file=%t
; RUN: %opt -passes=tapestry -S %s -o %t
; RUN: %{fc} --check-prefix=CALL \
; RUN:   --implicit-check-not=__enzyme_ --implicit-check-not=@enzyme_
; RUN: %{fc} --check-prefix=FLOOR-I
; RUN: %{fc} --check-prefix=FLOOR-F
; RUN: %{fc} --check-prefix=CEIL-I
; RUN: %{fc} --check-prefix=CEIL-F
; RUN: %{fc} --check-prefix=ROUND-I
; RUN: %{fc} --check-prefix=ROUND-F
; RUN: %{fc} --check-prefix=ROUNDEVEN-I
; RUN: %{fc} --check-prefix=ROUNDEVEN-F
; RUN: %{fc} --check-prefix=TRUNC-I
; RUN: %{fc} --check-prefix=TRUNC-F
; RUN: %{fc} --check-prefix=RINT-I
; RUN: %{fc} --check-prefix=RINT-F
; RUN: %{fc} --check-prefix=NEARBYINT-I
; RUN: %{fc} --check-prefix=NEARBYINT-F

@enzyme_out = external global i32

declare double @__enzyme_autodiff(ptr, ...)
declare float @__enzyme_autodiff_f(ptr, ...)

declare double @llvm.floor.f64(double)
declare double @llvm.ceil.f64(double)
declare double @llvm.round.f64(double)
declare double @llvm.roundeven.f64(double)
declare double @llvm.trunc.f64(double)
declare double @llvm.rint.f64(double)
declare double @llvm.nearbyint.f64(double)
declare float @floorf(float)
declare float @ceilf(float)
declare float @roundf(float)
declare float @roundevenf(float)
declare float @truncf(float)
declare float @rintf(float)
declare float @nearbyintf(float)

define double @floor_i(double %x) {
  %y = call double @llvm.floor.f64(double %x)
  ret double %y
}

define float @floor_f(float %x) {
  %y = call float @floorf(float %x)
  ret float %y
}

define double @ceil_i(double %x) {
  %y = call double @llvm.ceil.f64(double %x)
  ret double %y
}

define float @ceil_f(float %x) {
  %y = call float @ceilf(float %x)
  ret float %y
}

define double @round_i(double %x) {
  %y = call double @llvm.round.f64(double %x)
  ret double %y
}

define float @round_f(float %x) {
  %y = call float @roundf(float %x)
  ret float %y
}

define double @roundeven_i(double %x) {
  %y = call double @llvm.roundeven.f64(double %x)
  ret double %y
}

define float @roundeven_f(float %x) {
  %y = call float @roundevenf(float %x)
  ret float %y
}

define double @trunc_i(double %x) {
  %y = call double @llvm.trunc.f64(double %x)
  ret double %y
}

define float @trunc_f(float %x) {
  %y = call float @truncf(float %x)
  ret float %y
}

define double @rint_i(double %x) {
  %y = call double @llvm.rint.f64(double %x)
  ret double %y
}

define float @rint_f(float %x) {
  %y = call float @rintf(float %x)
  ret float %y
}

define double @nearbyint_i(double %x) {
  %y = call double @llvm.nearbyint.f64(double %x)
  ret double %y
}

define float @nearbyint_f(float %x) {
  %y = call float @nearbyintf(float %x)
  ret float %y
}

define void @test(double %x, float %xf, ptr %out) {
  %m = load i32, ptr @enzyme_out
  %floor.i = call double (ptr, ...) @__enzyme_autodiff(ptr @floor_i, i32 %m, double %x)
  store double %floor.i, ptr %out
  %floor.f = call float (ptr, ...) @__enzyme_autodiff_f(ptr @floor_f, i32 %m, float %xf)
  store float %floor.f, ptr %out
  %ceil.i = call double (ptr, ...) @__enzyme_autodiff(ptr @ceil_i, i32 %m, double %x)
  store double %ceil.i, ptr %out
  %ceil.f = call float (ptr, ...) @__enzyme_autodiff_f(ptr @ceil_f, i32 %m, float %xf)
  store float %ceil.f, ptr %out
  %round.i = call double (ptr, ...) @__enzyme_autodiff(ptr @round_i, i32 %m, double %x)
  store double %round.i, ptr %out
  %round.f = call float (ptr, ...) @__enzyme_autodiff_f(ptr @round_f, i32 %m, float %xf)
  store float %round.f, ptr %out
  %roundeven.i = call double (ptr, ...) @__enzyme_autodiff(ptr @roundeven_i, i32 %m, double %x)
  store double %roundeven.i, ptr %out
  %roundeven.f = call float (ptr, ...) @__enzyme_autodiff_f(ptr @roundeven_f, i32 %m, float %xf)
  store float %roundeven.f, ptr %out
  %trunc.i = call double (ptr, ...) @__enzyme_autodiff(ptr @trunc_i, i32 %m, double %x)
  store double %trunc.i, ptr %out
  %trunc.f = call float (ptr, ...) @__enzyme_autodiff_f(ptr @trunc_f, i32 %m, float %xf)
  store float %trunc.f, ptr %out
  %rint.i = call double (ptr, ...) @__enzyme_autodiff(ptr @rint_i, i32 %m, double %x)
  store double %rint.i, ptr %out
  %rint.f = call float (ptr, ...) @__enzyme_autodiff_f(ptr @rint_f, i32 %m, float %xf)
  store float %rint.f, ptr %out
  %nearbyint.i = call double (ptr, ...) @__enzyme_autodiff(ptr @nearbyint_i, i32 %m, double %x)
  store double %nearbyint.i, ptr %out
  %nearbyint.f = call float (ptr, ...) @__enzyme_autodiff_f(ptr @nearbyint_f, i32 %m, float %xf)
  store float %nearbyint.f, ptr %out
  ret void
}

; CALL-LABEL: define void @test(
; CALL:      [[R:%.*]] = call double @floor_i.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CALL-NEXT: store double [[R]], ptr %out
; CALL:      [[R:%.*]] = call float @floor_f.tapestry.rev_a_ra(float %xf, float 1.000000e+00)
; CALL-NEXT: store float [[R]], ptr %out
; CALL:      [[R:%.*]] = call double @ceil_i.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CALL-NEXT: store double [[R]], ptr %out
; CALL:      [[R:%.*]] = call float @ceil_f.tapestry.rev_a_ra(float %xf, float 1.000000e+00)
; CALL-NEXT: store float [[R]], ptr %out
; CALL:      [[R:%.*]] = call double @round_i.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CALL-NEXT: store double [[R]], ptr %out
; CALL:      [[R:%.*]] = call float @round_f.tapestry.rev_a_ra(float %xf, float 1.000000e+00)
; CALL-NEXT: store float [[R]], ptr %out
; CALL:      [[R:%.*]] = call double @roundeven_i.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CALL-NEXT: store double [[R]], ptr %out
; CALL:      [[R:%.*]] = call float @roundeven_f.tapestry.rev_a_ra(float %xf, float 1.000000e+00)
; CALL-NEXT: store float [[R]], ptr %out
; CALL:      [[R:%.*]] = call double @trunc_i.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CALL-NEXT: store double [[R]], ptr %out
; CALL:      [[R:%.*]] = call float @trunc_f.tapestry.rev_a_ra(float %xf, float 1.000000e+00)
; CALL-NEXT: store float [[R]], ptr %out
; CALL:      [[R:%.*]] = call double @rint_i.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CALL-NEXT: store double [[R]], ptr %out
; CALL:      [[R:%.*]] = call float @rint_f.tapestry.rev_a_ra(float %xf, float 1.000000e+00)
; CALL-NEXT: store float [[R]], ptr %out
; CALL:      [[R:%.*]] = call double @nearbyint_i.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CALL-NEXT: store double [[R]], ptr %out
; CALL:      [[R:%.*]] = call float @nearbyint_f.tapestry.rev_a_ra(float %xf, float 1.000000e+00)
; CALL-NEXT: store float [[R]], ptr %out
; CALL:      ret void

; FLOOR-I-LABEL: define internal double @floor_i.tapestry.rev_a_ra(double %x, double %seed)
; FLOOR-I-NOT:   call
; FLOOR-I-NOT:   call
; FLOOR-I:       [[D:%.*]] = fmul double %seed, 0.000000e+00
; FLOOR-I-NOT:   call
; FLOOR-I:       ret double [[D]]
; FLOOR-I-LABEL: {{^}}}

; FLOOR-F-LABEL: define internal float @floor_f.tapestry.rev_a_ra(float %x, float %seed)
; FLOOR-F:       [[D:%.*]] = fmul float %seed, 0.000000e+00
; FLOOR-F:       ret float [[D]]
; FLOOR-F-LABEL: {{^}}}

; CEIL-I-LABEL: define internal double @ceil_i.tapestry.rev_a_ra(double %x, double %seed)
; CEIL-I-NOT:   call
; CEIL-I-NOT:   call
; CEIL-I:       [[D:%.*]] = fmul double %seed, 0.000000e+00
; CEIL-I-NOT:   call
; CEIL-I:       ret double [[D]]
; CEIL-I-LABEL: {{^}}}

; CEIL-F-LABEL: define internal float @ceil_f.tapestry.rev_a_ra(float %x, float %seed)
; CEIL-F:       [[D:%.*]] = fmul float %seed, 0.000000e+00
; CEIL-F:       ret float [[D]]
; CEIL-F-LABEL: {{^}}}

; ROUND-I-LABEL: define internal double @round_i.tapestry.rev_a_ra(double %x, double %seed)
; ROUND-I-NOT:   call
; ROUND-I-NOT:   call
; ROUND-I:       [[D:%.*]] = fmul double %seed, 0.000000e+00
; ROUND-I-NOT:   call
; ROUND-I:       ret double [[D]]
; ROUND-I-LABEL: {{^}}}

; ROUND-F-LABEL: define internal float @round_f.tapestry.rev_a_ra(float %x, float %seed)
; ROUND-F:       [[D:%.*]] = fmul float %seed, 0.000000e+00
; ROUND-F:       ret float [[D]]
; ROUND-F-LABEL: {{^}}}

; ROUNDEVEN-I-LABEL: define internal double @roundeven_i.tapestry.rev_a_ra(double %x, double %seed)
; ROUNDEVEN-I-NOT:   call
; ROUNDEVEN-I-NOT:   call
; ROUNDEVEN-I:       [[D:%.*]] = fmul double %seed, 0.000000e+00
; ROUNDEVEN-I-NOT:   call
; ROUNDEVEN-I:       ret double [[D]]
; ROUNDEVEN-I-LABEL: {{^}}}

; ROUNDEVEN-F-LABEL: define internal float @roundeven_f.tapestry.rev_a_ra(float %x, float %seed)
; ROUNDEVEN-F:       [[D:%.*]] = fmul float %seed, 0.000000e+00
; ROUNDEVEN-F:       ret float [[D]]
; ROUNDEVEN-F-LABEL: {{^}}}

; TRUNC-I-LABEL: define internal double @trunc_i.tapestry.rev_a_ra(double %x, double %seed)
; TRUNC-I-NOT:   call
; TRUNC-I-NOT:   call
; TRUNC-I:       [[D:%.*]] = fmul double %seed, 0.000000e+00
; TRUNC-I-NOT:   call
; TRUNC-I:       ret double [[D]]
; TRUNC-I-LABEL: {{^}}}

; TRUNC-F-LABEL: define internal float @trunc_f.tapestry.rev_a_ra(float %x, float %seed)
; TRUNC-F:       [[D:%.*]] = fmul float %seed, 0.000000e+00
; TRUNC-F:       ret float [[D]]
; TRUNC-F-LABEL: {{^}}}

; RINT-I-LABEL: define internal double @rint_i.tapestry.rev_a_ra(double %x, double %seed)
; RINT-I-NOT:   call
; RINT-I-NOT:   call
; RINT-I:       [[D:%.*]] = fmul double %seed, 0.000000e+00
; RINT-I-NOT:   call
; RINT-I:       ret double [[D]]
; RINT-I-LABEL: {{^}}}

; RINT-F-LABEL: define internal float @rint_f.tapestry.rev_a_ra(float %x, float %seed)
; RINT-F:       [[D:%.*]] = fmul float %seed, 0.000000e+00
; RINT-F:       ret float [[D]]
; RINT-F-LABEL: {{^}}}

; NEARBYINT-I-LABEL: define internal double @nearbyint_i.tapestry.rev_a_ra(double %x, double %seed)
; NEARBYINT-I-NOT:   call
; NEARBYINT-I-NOT:   call
; NEARBYINT-I:       [[D:%.*]] = fmul double %seed, 0.000000e+00
; NEARBYINT-I-NOT:   call
; NEARBYINT-I:       ret double [[D]]
; NEARBYINT-I-LABEL: {{^}}}

; NEARBYINT-F-LABEL: define internal float @nearbyint_f.tapestry.rev_a_ra(float %x, float %seed)
; NEARBYINT-F:       [[D:%.*]] = fmul float %seed, 0.000000e+00
; NEARBYINT-F:       ret float [[D]]
; NEARBYINT-F-LABEL: {{^}}}
