; __enzyme_error_estimate has no model of a vector reduction's rounding
; (the vectorisers' llvm.vector.reduce.fadd/fmul): an error that names it
; and says how to avoid it, not a silently wrong estimate.
; RUN: not %opt -passes=tapestry -disable-output %s 2>&1 | FileCheck %s
; CHECK: tapestry: cannot differentiate 'sum': __enzyme_error_estimate has no model of the round-off error of the vector reduction 'llvm.vector.reduce.fadd.v4f64'; compile the function without vectorisation
; CHECK-NOT: Stack dump
declare double @__enzyme_error_estimate(...)
declare double @llvm.vector.reduce.fadd.v4f64(double, <4 x double>)

define double @sum(<4 x double> %v) {
  %r = call double @llvm.vector.reduce.fadd.v4f64(double 0.0, <4 x double> %v)
  ret double %r
}

define double @test(<4 x double> %v, <4 x double> %e) {
  %err = call double (...) @__enzyme_error_estimate(ptr @sum, <4 x double> %v, <4 x double> %e)
  ret double %err
}
