; Memory of the function's own that is written but never read is deleted
; from the prepared primal with its writes (removeWriteOnlyLocals), but a
; block that keeps its own address (an empty circular list's sentinel,
; `head->next = head`) is left alone: its store was collected twice, as the
; address and as the value stored, and erased twice, which crashed the
; compiler (the stack form before December 2026 too, the heap form in
; 0ea08f9). The plain scratch block still goes.
;
; RUN: %opt -passes=tapestry,verify -tapestry-print-prepared -disable-output %s 2>&1 | FileCheck %s
@enzyme_dup = external global i32
declare void @__enzyme_autodiff(ptr, ...)
declare noalias ptr @malloc(i64)
declare void @free(ptr)

define double @f(ptr %x) {
entry:
  %slot = alloca [2 x ptr]
  store ptr %slot, ptr %slot
  %head = call ptr @malloc(i64 16)
  store ptr %head, ptr %head
  call void @free(ptr %head)
  %scratch = call ptr @malloc(i64 8)
  store double 1.0, ptr %scratch
  call void @free(ptr %scratch)
  %v = load double, ptr %x
  %sq = fmul double %v, %v
  ret double %sq
}

define void @grad(ptr %x, ptr %dx) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @enzyme_dup, ptr %x, ptr %dx)
  ret void
}

; CHECK-LABEL: define internal double @f.tapestry.primal(
; CHECK: store ptr %slot, ptr %slot
; CHECK: %head = call ptr @malloc(i64 16)
; CHECK-NEXT: store ptr %head, ptr %head
; CHECK-NEXT: call void @free(ptr %head)
; CHECK-NOT: @malloc(i64 8)
; CHECK: ret double
