; BLAS derivatives call BLAS again, in the spelling the user called.
; CBLAS y = A x (row-major, no transpose): forward mode is two gemv calls on
; the shadows, made before the primal call overwrites y; reverse mode is a
; rank-1 update dA += dy x^T (dger), dx += A^T dy (dgemv with the transpose
; flag flipped, 111 -> 112) and dy *= beta (dscal). Nothing overwrites A or
; x after the call, so nothing is cached.
; RUN: %opt -passes=tapestry -S %s -o %t
; RUN: FileCheck %s --check-prefix=REV --input-file=%t
; RUN: FileCheck %s --check-prefix=FWD --input-file=%t

; REV-LABEL: define internal void @matvec.tapestry.rev_dddcc(
; REV-NOT: @malloc
; REV: call void @cblas_dgemv(i32 101, i32 111, i32 %m, i32 %n, double 1.000000e+00, ptr %A, i32 %n, ptr %x, i32 1, double 0.000000e+00, ptr %y, i32 1)
; REV-NEXT: call void @cblas_dger(i32 101, i32 %m, i32 %n, double 1.000000e+00, ptr %"y'", i32 1, ptr %x, i32 1, ptr %"A'", i32 %n)
; REV-NEXT: call void @cblas_dgemv(i32 101, i32 112, i32 %m, i32 %n, double 1.000000e+00, ptr %A, i32 %n, ptr %"y'", i32 1, double 1.000000e+00, ptr %"x'", i32 1)
; REV-NEXT: call void @cblas_dscal(i32 %m, double 0.000000e+00, ptr %"y'", i32 1)
; REV-NEXT: ret void

; FWD-LABEL: define internal void @matvec.tapestry.fwd_dddcc(
; FWD-NEXT: entry:
; FWD-NEXT: call void @cblas_dgemv(i32 101, i32 111, i32 %m, i32 %n, double 1.000000e+00, ptr %"A'", i32 %n, ptr %x, i32 1, double 0.000000e+00, ptr %"y'", i32 1)
; FWD-NEXT: call void @cblas_dgemv(i32 101, i32 111, i32 %m, i32 %n, double 1.000000e+00, ptr %A, i32 %n, ptr %"x'", i32 1, double 1.000000e+00, ptr %"y'", i32 1)
; FWD-NEXT: call void @cblas_dgemv(i32 101, i32 111, i32 %m, i32 %n, double 1.000000e+00, ptr %A, i32 %n, ptr %x, i32 1, double 0.000000e+00, ptr %y, i32 1)
; FWD-NEXT: ret void

@enzyme_dup = external global i32
@enzyme_const = external global i32

define void @matvec(ptr %A, ptr %x, ptr %y, i32 %m, i32 %n) {
entry:
  call void @cblas_dgemv(i32 101, i32 111, i32 %m, i32 %n, double 1.000000e+00, ptr %A, i32 %n, ptr %x, i32 1, double 0.000000e+00, ptr %y, i32 1)
  ret void
}

declare void @cblas_dgemv(i32, i32, i32, i32, double, ptr, i32, ptr, i32, double, ptr, i32)

define void @grad(ptr %A, ptr %dA, ptr %x, ptr %dx, ptr %y, ptr %dy, i32 %m, i32 %n) {
entry:
  %0 = load i32, ptr @enzyme_dup
  %1 = load i32, ptr @enzyme_const
  call void (ptr, ...) @__enzyme_autodiff(ptr @matvec, i32 %0, ptr %A, ptr %dA, i32 %0, ptr %x, ptr %dx, i32 %0, ptr %y, ptr %dy, i32 %1, i32 %m, i32 %1, i32 %n)
  ret void
}

define void @tangent(ptr %A, ptr %dA, ptr %x, ptr %dx, ptr %y, ptr %dy, i32 %m, i32 %n) {
entry:
  %0 = load i32, ptr @enzyme_dup
  %1 = load i32, ptr @enzyme_const
  call void (ptr, ...) @__enzyme_fwddiff(ptr @matvec, i32 %0, ptr %A, ptr %dA, i32 %0, ptr %x, ptr %dx, i32 %0, ptr %y, ptr %dy, i32 %1, i32 %m, i32 %1, i32 %n)
  ret void
}

declare void @__enzyme_autodiff(ptr, ...)
declare void @__enzyme_fwddiff(ptr, ...)
