; Fortran-style ddot_ whose input x is overwritten after the call: the
; forward sweep copies x and y (the store to x may alias y: both are
; arguments) over their span, n elements, before the call; the reverse sweep
; adds seed * y to dx and seed * x to dy with daxpy_ on the copies, passing
; every scalar by reference, then frees the copies.
; RUN: %opt -passes=tapestry -S %s | FileCheck %s

; CHECK-LABEL: define internal void @dot_then_overwrite.tapestry.rev_ddc_ra(
; CHECK: %n.blas = load i32, ptr %n
; CHECK: %[[XC:blas.cache[0-9]*]] = call ptr @malloc(i64 %[[BYTES:[0-9]+]])
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 1 %[[XC]], ptr align 1 %x, i64 %[[BYTES]], i1 false)
; CHECK-NEXT: %[[YC:blas.cache[0-9]*]] = call ptr @malloc(i64 %[[BYTES]])
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 1 %[[YC]], ptr align 1 %y, i64 %[[BYTES]], i1 false)
; CHECK-NEXT: %r = call double @ddot_(
; CHECK-NEXT: store double 0.000000e+00, ptr %x
; CHECK: store double %seed, ptr %[[A1:blas.arg[0-9]*]]
; CHECK: call void @daxpy_(ptr nonnull %{{blas.arg[0-9]*}}, ptr nonnull %[[A1]], ptr %[[YC]], ptr nonnull %{{blas.arg[0-9]*}}, ptr nonnull %"x'", ptr nonnull %{{blas.arg[0-9]*}})
; CHECK: store double %seed, ptr %[[A2:blas.arg[0-9]*]]
; CHECK: call void @daxpy_(ptr nonnull %{{blas.arg[0-9]*}}, ptr nonnull %[[A2]], ptr %[[XC]], ptr nonnull %{{blas.arg[0-9]*}}, ptr %"y'", ptr nonnull %{{blas.arg[0-9]*}})
; CHECK-NEXT: call void @free(ptr %[[XC]])
; CHECK-NEXT: call void @free(ptr %[[YC]])
; CHECK-NEXT: ret void

@enzyme_dup = external global i32
@enzyme_const = external global i32

define double @dot_then_overwrite(ptr %x, ptr %y, ptr %n) {
entry:
  %one = alloca i32
  store i32 1, ptr %one
  %r = call double @ddot_(ptr %n, ptr %x, ptr %one, ptr %y, ptr %one)
  store double 0.0, ptr %x
  ret double %r
}

declare double @ddot_(ptr, ptr, ptr, ptr, ptr)

define void @grad(ptr %x, ptr %dx, ptr %y, ptr %dy, ptr %n) {
entry:
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @dot_then_overwrite, i32 %d, ptr %x, ptr %dx, i32 %d, ptr %y, ptr %dy, i32 %c, ptr %n)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)
