; An x86 horizontal add (_mm256_hadd_pd) is rewritten as two lane
; selections and an fadd before differentiation: lane i of the result is
; c[E[i]] + c[O[i]] for c = a followed by b, within each 128-bit half
; (E = 0,4,2,6; O = 1,5,3,7). It was "the LLVM intrinsic
; 'llvm.x86.avx.hadd.pd.256' ... has no derivative". End to end (every
; form, reverse and forward): test/Vector/x86-horizontal-adds.c.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
declare <4 x double> @llvm.x86.avx.hadd.pd.256(<4 x double>, <4 x double>)
declare void @__enzyme_autodiff(...)
@enzyme_dup = external global i32

define double @hsum(ptr %x) {
  %a = load <4 x double>, ptr %x
  %p = getelementptr inbounds double, ptr %x, i64 4
  %b = load <4 x double>, ptr %p
  %h = call <4 x double> @llvm.x86.avx.hadd.pd.256(<4 x double> %a, <4 x double> %b)
  %sq = fmul <4 x double> %h, %h
  %r = call double @llvm.vector.reduce.fadd.v4f64(double 0.0, <4 x double> %sq)
  ret double %r
}
declare double @llvm.vector.reduce.fadd.v4f64(double, <4 x double>)

define void @caller(ptr %x, ptr %dx) {
  %dup = load i32, ptr @enzyme_dup
  call void (...) @__enzyme_autodiff(ptr @hsum, i32 %dup, ptr %x, ptr %dx)
  ret void
}

; CHECK-LABEL: define internal {{.*}} @hsum.tapestry.rev
; CHECK-NOT: llvm.x86.avx.hadd
; CHECK: %hadd.even = shufflevector <4 x double> %a, <4 x double> %b, <4 x i32> <i32 0, i32 4, i32 2, i32 6>
; CHECK: %hadd.odd = shufflevector <4 x double> %a, <4 x double> %b, <4 x i32> <i32 1, i32 5, i32 3, i32 7>
; CHECK: %h = fadd <4 x double> %hadd.even, %hadd.odd
; CHECK-NOT: llvm.x86.avx.hadd
; CHECK: ret
