; A double carried as an integer through what preparation cannot turn back
; into a load of the double (here an i64 loaded from active memory, put in
; a vector by a shuffle with another integer vector, bitcast to doubles):
; derivatives do not flow through integers, so the vector would be a
; constant and the gradient silently lose its terms (it did: d/dc[0] was 0
; instead of 2 c[0]). An error that says so, in both modes (h is g, asked
; for in forward mode), even where nothing else says the memory holds
; doubles.
; The first error stops the pass: the forward request is checked with the
; reverse one removed.
; RUN: not %opt -passes=tapestry -disable-output %s 2>&1 | FileCheck %s
; RUN: sed -e '/@__enzyme_autodiff(ptr @g/d' %s \
; RUN:   | not %opt -passes=tapestry -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=FWD
; CHECK: tapestry: cannot differentiate 'g': a floating-point value is rebuilt here from an integer ('vector of 2 long') read from memory that has derivatives, and derivatives cannot flow through integers; load the value as double or float
; FWD: tapestry: cannot differentiate 'h': a floating-point value is rebuilt here from an integer ('vector of 2 long') read from memory that has derivatives, and derivatives cannot flow through integers; load the value as double or float
; CHECK-NOT: Stack dump
; FWD-NOT: Stack dump
@enzyme_dup = external global i32
@enzyme_const = external global i32
declare void @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)
declare double @llvm.vector.reduce.fadd.v2f64(double, <2 x double>)

define double @g(ptr %a, ptr %c, <2 x i64> %other) {
  %w = load i64, ptr %c
  %d = getelementptr i8, ptr %a, i64 8
  store i64 %w, ptr %d
  %v0 = insertelement <2 x i64> poison, i64 %w, i64 0
  %s = shufflevector <2 x i64> %v0, <2 x i64> %other, <2 x i32> <i32 0, i32 3>
  %v = bitcast <2 x i64> %s to <2 x double>
  %m = fmul <2 x double> %v, %v
  %r = call double @llvm.vector.reduce.fadd.v2f64(double -0.0, <2 x double> %m)
  ret double %r
}

define double @h(ptr %a, ptr %c, <2 x i64> %other) {
  %w = load i64, ptr %c
  %d = getelementptr i8, ptr %a, i64 8
  store i64 %w, ptr %d
  %v0 = insertelement <2 x i64> poison, i64 %w, i64 0
  %s = shufflevector <2 x i64> %v0, <2 x i64> %other, <2 x i32> <i32 0, i32 3>
  %v = bitcast <2 x i64> %s to <2 x double>
  %m = fmul <2 x double> %v, %v
  %r = call double @llvm.vector.reduce.fadd.v2f64(double -0.0, <2 x double> %m)
  ret double %r
}

define void @rev(ptr %a, ptr %da, ptr %c, ptr %dc, <2 x i64> %o) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @g, ptr @enzyme_dup, ptr %a, ptr %da, ptr @enzyme_dup, ptr %c, ptr %dc, ptr @enzyme_const, <2 x i64> %o)
  ret void
}

define double @fwd(ptr %a, ptr %da, ptr %c, ptr %dc, <2 x i64> %o) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @h, ptr @enzyme_dup, ptr %a, ptr %da, ptr @enzyme_dup, ptr %c, ptr %dc, ptr @enzyme_const, <2 x i64> %o)
  ret double %r
}
