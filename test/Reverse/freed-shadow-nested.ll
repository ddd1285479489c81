; Freed shadows of nested reverse derivatives (Synthesis/FreedShadows.h):
; @grow frees a block, so its derivative lists the block's shadow and
; @inner's request site releases the list after the derivative returns.
; @outer differentiates @inner: its forward sweep runs that release, and
; lists the shadows of the blocks @inner's code frees (the old block, and
; the shadow the inner derivative frees) for its own reverse sweep. Those go
; to the list one deeper (tapestry.freed.*.1), which @inner's release
; (depth 0) leaves alone; the outer request's site releases depth 1.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
declare double @__enzyme_autodiff(...)
declare ptr @malloc(i64)
declare void @free(ptr)
@enzyme_dup = external global i32

define double @grow(ptr %slot, double %x) {
  %old = load ptr, ptr %slot
  %v = load double, ptr %old
  %new = call ptr @malloc(i64 16)
  %m = fmul double %v, %x
  store double %m, ptr %new
  store ptr %new, ptr %slot
  call void @free(ptr %old)
  %r = load double, ptr %new
  ret double %r
}

define double @inner(ptr %s, ptr %ds, double %x) {
  %dup = load i32, ptr @enzyme_dup
  %d = call double (...) @__enzyme_autodiff(ptr @grow, i32 %dup, ptr %s, ptr %ds, double %x)
  ret double %d
}

define double @outer(ptr %s, ptr %s2, ptr %ds, ptr %ds2, double %x) {
  %dup = load i32, ptr @enzyme_dup
  %d = call double (...) @__enzyme_autodiff(ptr @inner, i32 %dup, ptr %s, ptr %s2, i32 %dup, ptr %ds, ptr %ds2, double %x)
  ret double %d
}

; CHECK-LABEL: define double @inner(
; CHECK: %[[MARK:.*]] = call i64 @tapestry.freed.mark()
; CHECK-NEXT: call {{.*}} @grow.tapestry.rev_
; CHECK-NEXT: call void @tapestry.freed.release(i64 %[[MARK]], ptr @{{[0-9]+}}, i64 {{[0-9]+}})

; CHECK-LABEL: define double @outer(
; CHECK: %[[MARK1:.*]] = call i64 @tapestry.freed.mark.1()
; CHECK-NEXT: call {{.*}} @inner.tapestry.rev_
; CHECK-NEXT: call void @tapestry.freed.release.1(i64 %[[MARK1]], ptr @{{[0-9]+}}, i64 {{[0-9]+}})

; The outer derivative runs the inner bookkeeping as it is and keeps its
; own a level deeper.
; CHECK-LABEL: define internal {{.*}} @inner.tapestry.rev_
; CHECK-NOT: define
; CHECK: call void @tapestry.freed.push.1(
; CHECK-NOT: define
; CHECK: call void @tapestry.freed.release(
; CHECK-NOT: define
; CHECK: call i1 @tapestry.freed.take.1(

; CHECK-LABEL: define internal void @tapestry.freed.push.1(
; CHECK: @tapestry.freed.shadows.1
