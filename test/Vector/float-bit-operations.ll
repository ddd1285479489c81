; Floating-point operations written on the bits, as preparation sees them
; before InstCombine (Synthesis/FloatBitOperations.h): the sign bit
; cleared (fabs), flipped with the constant first (fneg), copied from
; another double (copysign), and a lane choice by a compare's sign-extended
; mask (select), and copysign once InstCombine has made the magnitude's
; mask a fabs (@copysign_of_fabs: `or (and s, SIGN), (bitcast (fabs m))`,
; probe42 F3). Each derivative keeps no integer and/xor/or of the values;
; a sign mask of another lane width (@other_width: a 64-bit xor over two
; floats) is no fneg and stays an error. End to end:
; test/Integration/sign-bits-as-math.c, test/Vector/sse2-sign-masks.c,
; test/Vector/sse2-mask-select.c.
; RUN: %opt -passes=tapestry,verify -S %s -o %t.ll
; RUN: FileCheck %s --input-file=%t.ll
; RUN: not %opt -passes=tapestry -S %S/Inputs/float-bits-other-width.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=WIDTH
; WIDTH: cannot differentiate 'other_width': a vector of 2 float is reinterpreted as a long here

; CHECK-LABEL: define internal double @copysign_of_fabs.tapestry.rev_
; CHECK-NOT: {{(and|xor|or|or disjoint) i64}}
; CHECK: %m = fmul double %r, %r
; CHECK-NEXT: call double @llvm.copysign.f64(double 1.000000e+00, double %m)
; CHECK: ret double
; CHECK-LABEL: define internal void @lane_choice.tapestry.rev_d_ra(
; CHECK-NOT: {{(and|or) <2 x i64>}}
; CHECK: select <2 x i1>
; CHECK: ret void
; CHECK-LABEL: define internal void @sign_ops.tapestry.rev_d_ra(
; CHECK-NOT: {{(and|xor|or) i64}}
; CHECK: ret void

@enzyme_dup = external global i32
@enzyme_out = external global i32
declare void @__enzyme_autodiff(ptr, ...)

; |x0| + (-x1) + copysign(x2, x3)
define double @sign_ops(ptr %x) {
  %p1 = getelementptr inbounds double, ptr %x, i64 1
  %p2 = getelementptr inbounds double, ptr %x, i64 2
  %p3 = getelementptr inbounds double, ptr %x, i64 3
  %a = load i64, ptr %x, align 8
  %abs = and i64 %a, 9223372036854775807
  %absd = bitcast i64 %abs to double
  %b = load double, ptr %p1, align 8
  %bi = bitcast double %b to i64
  %neg = xor i64 -9223372036854775808, %bi
  %negd = bitcast i64 %neg to double
  %c = load i64, ptr %p2, align 8
  %d = load i64, ptr %p3, align 8
  %cm = and i64 %c, 9223372036854775807
  %ds = and i64 -9223372036854775808, %d
  %cs = or i64 %cm, %ds
  %csd = bitcast i64 %cs to double
  %s1 = fadd double %absd, %negd
  %s2 = fadd double %s1, %csd
  ret double %s2
}

; select(v < w, v * v, w) summed: (m & a) | (~m & b)
define double @lane_choice(ptr %x) {
  %pw = getelementptr inbounds double, ptr %x, i64 2
  %v = load <2 x double>, ptr %x, align 8
  %w = load <2 x double>, ptr %pw, align 8
  %lt = fcmp olt <2 x double> %v, %w
  %m = sext <2 x i1> %lt to <2 x i64>
  %sq = fmul <2 x double> %v, %v
  %a = bitcast <2 x double> %sq to <2 x i64>
  %b = bitcast <2 x double> %w to <2 x i64>
  %ka = and <2 x i64> %m, %a
  %nm = xor <2 x i64> %m, <i64 -1, i64 -1>
  %kb = and <2 x i64> %nm, %b
  %o = or <2 x i64> %ka, %kb
  %r = bitcast <2 x i64> %o to <2 x double>
  %s = call double @llvm.vector.reduce.fadd.v2f64(double -0.0, <2 x double> %r)
  ret double %s
}
declare double @llvm.vector.reduce.fadd.v2f64(double, <2 x double>)

; copysign(r * r, -r), as InstCombine leaves musl's copysign of a negated
; sign
define double @copysign_of_fabs(double %r) {
  %m = fmul double %r, %r
  %n = fneg double %r
  %a = call double @llvm.fabs.f64(double %m)
  %ai = bitcast double %a to i64
  %ni = bitcast double %n to i64
  %s = and i64 %ni, -9223372036854775808
  %o = or disjoint i64 %s, %ai
  %d = bitcast i64 %o to double
  ret double %d
}
declare double @llvm.fabs.f64(double)

define void @grad(ptr %x, ptr %dx) {
  %dup = load i32, ptr @enzyme_dup
  call void (ptr, ...) @__enzyme_autodiff(ptr @sign_ops, i32 %dup, ptr %x, ptr %dx)
  call void (ptr, ...) @__enzyme_autodiff(ptr @lane_choice, i32 %dup, ptr %x, ptr %dx)
  %out = load i32, ptr @enzyme_out
  call double (ptr, ...) @__enzyme_autodiff(ptr @copysign_of_fabs, i32 %out, double 1.5)
  ret void
}
