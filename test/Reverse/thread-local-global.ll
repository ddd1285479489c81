; A thread_local workspace read through llvm.threadlocal.address (how clang
; reads thread_local variables) holding an active value: the differentiated
; code names the global directly, and its shadow is a thread_local global
; like it (zeroed at the request). Was "no derivative is known for
; external function 'llvm.threadlocal.address.p0'". End to end, with four
; threads: test/Integration/thread-local-workspace.cpp.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
@enzyme_dup = external global i32
@scratch = internal thread_local global [4 x double] zeroinitializer
declare double @__enzyme_autodiff(ptr, ...)
declare ptr @llvm.threadlocal.address.p0(ptr)

define double @f(ptr %x) {
  %s = call ptr @llvm.threadlocal.address.p0(ptr @scratch)
  %v = load double, ptr %x
  %sq = fmul double %v, %v
  store double %sq, ptr %s
  %r = load double, ptr %s
  ret double %r
}

define void @grad(ptr %x, ptr %dx) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @enzyme_dup, ptr %x, ptr %dx)
  ret void
}

; CHECK: @scratch.tapestry.shadow = internal thread_local global [4 x double] zeroinitializer
; CHECK-LABEL: define void @grad(
; CHECK: call void @llvm.memset.p0.i64(ptr align 8 @scratch.tapestry.shadow, i8 0, i64 32, i1 false)
; CHECK-LABEL: define internal void @f.tapestry.rev
; CHECK-NOT: threadlocal.address
; CHECK: store double %sq, ptr @scratch
; CHECK: load double, ptr @scratch.tapestry.shadow
; CHECK: store double 0.000000e+00, ptr @scratch.tapestry.shadow
