; A vector load over a struct whose lanes are picked out by shuffles and
; extracts, one of them through a bitcast of the float vector to integers
; (as the vectoriser reads {float f; double d; int k; float g}). The
; integer lane is an integer member of the struct type the load's address
; names: no derivative flows through it, and the request is accepted
; (@ints). The same shape over a float member read through the bitcast
; (the fast inverse square root's bit trick, @trick) is bit manipulation
; of an active float: refused. End to end:
; test/Vector/struct-int-lanes-opt-flow.cpp.
; RUN: not %opt -passes=tapestry -disable-output %s 2>&1 | FileCheck %s
; CHECK-NOT: cannot differentiate 'ints'
; CHECK: cannot differentiate 'trick': a vector of 6 float is reinterpreted as a vector of 6 int here
; CHECK-NOT: cannot differentiate 'ints'
%S = type { float, double, i32, float }
%T = type { float, double, float, float }
declare void @__enzyme_autodiff(...)
@enzyme_dup = external global i32

define double @ints(ptr %a) {
  %p = getelementptr inbounds [1 x %S], ptr %a, i64 0, i64 0
  %v = load <6 x float>, ptr %p, align 8
  %f = extractelement <6 x float> %v, i64 0
  %g = extractelement <6 x float> %v, i64 5
  %bits = bitcast <6 x float> %v to <6 x i32>
  %k = extractelement <6 x i32> %bits, i64 4
  %kf = sitofp i32 %k to float
  %gk = fmul float %g, %kf
  %s = fadd float %f, %gk
  %r = fpext float %s to double
  ret double %r
}

define double @trick(ptr %a) {
  %p = getelementptr inbounds [1 x %T], ptr %a, i64 0, i64 0
  %v = load <6 x float>, ptr %p, align 8
  %f = extractelement <6 x float> %v, i64 0
  %g = extractelement <6 x float> %v, i64 5
  %bits = bitcast <6 x float> %v to <6 x i32>
  %k = extractelement <6 x i32> %bits, i64 4
  %h = lshr i32 %k, 1
  %y = sub i32 1597463007, %h
  %kf = bitcast i32 %y to float
  %gk = fmul float %g, %kf
  %s = fadd float %f, %gk
  %r = fpext float %s to double
  ret double %r
}

define void @caller(ptr %a, ptr %da) {
  %dup = load i32, ptr @enzyme_dup
  call void (...) @__enzyme_autodiff(ptr @ints, i32 %dup, ptr %a, ptr %da)
  call void (...) @__enzyme_autodiff(ptr @trick, i32 %dup, ptr %a, ptr %da)
  ret void
}
