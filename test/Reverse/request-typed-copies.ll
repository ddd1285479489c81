; A function that only copies a struct's int and the padding after it (one
; i64, no TBAA) from one parameter to another: nothing in it says what
; those bytes are. The request passes the caller's variables, allocated
; as %struct.S {i32, ptr, double}: each request records which operand
; passes each parameter (tapestry.request.primals) and the type analysis
; reads the caller's variable's type, so the i64 is an int and its
; padding, and the derivative is built (it was "cannot tell what the memory
; this instruction copies holds").
; RUN: %opt -passes=tapestry -S %s -o - | FileCheck %s
; RUN: %opt -passes=tapestry -S %s -o - | FileCheck %s --check-prefix=NOCOPY
%struct.S = type { i32, ptr, double }

@enzyme_dup = external global i32
declare void @__enzyme_autodiff(ptr, ...)

define void @step(ptr %in, ptr %out) {
  %n = load i64, ptr %in, align 8
  %pc = getelementptr inbounds i8, ptr %in, i64 8
  %c = load ptr, ptr %pc, align 8, !tbaa !0
  %px = getelementptr inbounds i8, ptr %in, i64 16
  %x = load double, ptr %px, align 8, !tbaa !3
  %c0 = load double, ptr %c, align 8, !tbaa !3
  %y = fmul double %x, %c0
  store i64 %n, ptr %out, align 8
  %qc = getelementptr inbounds i8, ptr %out, i64 8
  store ptr %c, ptr %qc, align 8, !tbaa !0
  %qx = getelementptr inbounds i8, ptr %out, i64 16
  store double %y, ptr %qx, align 8, !tbaa !3
  ret void
}

define void @caller() {
  %in = alloca %struct.S, align 8
  %din = alloca %struct.S, align 8
  %out = alloca %struct.S, align 8
  %dout = alloca %struct.S, align 8
  call void (ptr, ...) @__enzyme_autodiff(ptr @step, ptr @enzyme_dup, ptr %in, ptr %din, ptr @enzyme_dup, ptr %out, ptr %dout)
  ret void
}

; CHECK-LABEL: define void @caller(
; CHECK: call void @step.tapestry.rev_dd(ptr %in, ptr %din, ptr %out, ptr %dout)
; CHECK-LABEL: define internal void @step.tapestry.rev_dd(
; CHECK: ret void
; The int and its padding carry no derivative: no i64 moves between the
; shadows.
; NOCOPY-LABEL: define internal void @step.tapestry.rev_dd(
; NOCOPY-NOT: load i64, ptr %"in'"
; NOCOPY: ret void

!0 = !{!1, !1, i64 0}
!1 = !{!"any pointer", !2, i64 0}
!2 = !{!"omnipotent char", !4, i64 0}
!3 = !{!5, !5, i64 0}
!4 = !{!"Simple C/C++ TBAA"}
!5 = !{!"double", !2, i64 0}
