; A lane-by-lane select made on <4 x i32> (one mask lane per 32 bits) of
; integer vectors loaded from memory with derivatives, read as
; <2 x double>: the lanes chosen are halves of doubles, so the choice is
; not one among doubles. An error that says so; building the select of
; <2 x double> with the <4 x i1> condition was invalid IR ("internal
; error", review34).
; RUN: not %opt -passes=tapestry -disable-output %s 2>&1 | FileCheck %s
; CHECK: tapestry: cannot differentiate 'f': a floating-point value is rebuilt here from an integer ('vector of 4 int') read from memory that has derivatives
; CHECK-NOT: internal error
; CHECK-NOT: Stack dump
@enzyme_dup = external global i32
@enzyme_const = external global i32
declare void @__enzyme_autodiff(ptr, ...)

define double @f(ptr %a, ptr %b, <4 x i32> %m) {
entry:
  %va = load <4 x i32>, ptr %a, align 16
  %vb = load <4 x i32>, ptr %b, align 16
  %c = icmp slt <4 x i32> %m, zeroinitializer
  %s = select <4 x i1> %c, <4 x i32> %va, <4 x i32> %vb
  %d = bitcast <4 x i32> %s to <2 x double>
  %e0 = extractelement <2 x double> %d, i64 0
  %e1 = extractelement <2 x double> %d, i64 1
  %sq = fmul double %e0, %e1
  ret double %sq
}

define double @grad_f(ptr %a, ptr %da, ptr %b, ptr %db, <4 x i32> %m) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @enzyme_dup, ptr %a, ptr %da, ptr @enzyme_dup, ptr %b, ptr %db, ptr @enzyme_const, <4 x i32> %m)
  ret double %r
}
