; __enzyme_iter(N, K): N in the primal, N + K in code differentiated once
; (an inlined callee's counter included), N + 2K in the derivative of a
; derivative; when all requests are resolved every call is its first
; argument and the declaration is gone.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
; CHECK-NOT: __enzyme_iter
declare i64 @__enzyme_iter(i64, i64)
declare double @__enzyme_autodiff(...)
declare double @__enzyme_fwddiff(...)

; x * n with n = __enzyme_iter(12, 1) in a callee that is inlined.
define internal i64 @count() {
  %n = call i64 @__enzyme_iter(i64 12, i64 1)
  ret i64 %n
}

define double @f(double %x) {
  %n = call i64 @count()
  %nf = uitofp i64 %n to double
  %sq = fmul double %x, %x
  %r = fmul double %sq, %nf
  ret double %r
}

define double @df(double %x) {
  %d = call double (...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %d
}

define double @ddf(double %x) {
  %d = call double (...) @__enzyme_fwddiff(ptr @df, double %x, double 1.0)
  ret double %d
}

define i64 @primal() {
  %n = call i64 @count()
  ret i64 %n
}

; CHECK-LABEL: define internal i64 @count()
; CHECK-NEXT: ret i64 12
; CHECK-LABEL: define i64 @primal()
; CHECK-NEXT: %n = call i64 @count()
; CHECK-LABEL: define internal double @f.tapestry.rev_a_ra(
; CHECK: uitofp i64 13 to double
; CHECK-LABEL: define internal double @df.tapestry.fwd_d_ra(
; CHECK: uitofp i64 14 to double
; CHECK-NOT: __enzyme_iter
