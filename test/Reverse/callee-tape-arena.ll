; Under a one-shot request, a recursive callee's tapes come from the
; thread's tape arena, not from malloc (issue 16 item 3): the caller's
; forward sweep takes the callee's fixed tape from the arena
; (tapestry.arena.alloc), its reverse sweep gives it back with everything
; taken after it (tapestry.arena.reset). Inside the
; callee's split, the recursive call's kept tape is taken from the arena
; too, and its list release leaves it to that reset (tapestry.arena.forget,
; which does nothing); the callee's loop record array starts empty (no
; tape cache block) and grows into arena blocks
; (tapestry.tape.reserve.arena), which the release forgets. The release so
; frees nothing the reset does not give back, and runs only where the arena
; calls become malloc and free again (in a derivative that is itself
; differentiated: tapestry.arena.nested, false here). No malloc or
; free of a tape is left in these functions (NOMALLOC). A split request the
; user holds keeps malloc (test/Split/callee-tapes-ir.ll, KEPT).
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s --check-prefix=NOMALLOC
declare double @__enzyme_autodiff(...)
declare double @llvm.sin.f64(double)
@enzyme_const = external global i32

; p(x, n) = p(sin(x), n - 1) * x^n, p(x, 0) = x; x^n by a loop.
define double @p(double %x, i32 %n) {
entry:
  %z = icmp eq i32 %n, 0
  br i1 %z, label %leaf, label %loop
leaf:
  ret double %x
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi double [ 1.0, %entry ], [ %acc.next, %loop ]
  %acc.next = fmul double %acc, %x
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %rec, label %loop
rec:
  %s = call double @llvm.sin.f64(double %x)
  %m = sub i32 %n, 1
  %r = call double @p(double %s, i32 %m)
  %q = fmul double %r, %acc.next
  ret double %q
}

define double @grad(double %x, i32 %n) {
  %c = load i32, ptr @enzyme_const
  %d = call double (...) @__enzyme_autodiff(ptr @p, double %x, i32 %c, i32 %n)
  ret double %d
}

; The one-shot derivative calls the wrappers.
; CHECK-LABEL: define internal double @p.tapestry.rev_ac_ra(
; CHECK:         call { ptr, double } @p.tapestry.[[S:split_ac_ra]].call.fwd(
; CHECK:         call double @p.tapestry.[[S]].call.rev(

; CHECK-LABEL: define internal { ptr, double } @p.tapestry.split_ac_ra.call.fwd(double %0, i32 %1)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %tape = call ptr @tapestry.arena.alloc(i64 [[BYTES:[0-9]+]])
; CHECK-NEXT:    call double @p.tapestry.[[S]].augmented(double %0, i32 %1, ptr %tape)

; CHECK-LABEL: define internal double @p.tapestry.split_ac_ra.call.rev(
; CHECK:         call double @p.tapestry.[[S]].reverse(
; CHECK-NEXT:    [[N:%.*]] = call i1 @tapestry.arena.nested()
; CHECK-NEXT:    br i1 [[N]], label %release, label %reset
; CHECK:       release:
; CHECK-NEXT:    call void @p.tapestry.[[S]].release(ptr %3)
; CHECK:       reset:
; CHECK-NEXT:    call void @tapestry.arena.reset(ptr %3)

; The recursive call's tape: 16 bytes of list header more.
; CHECK-LABEL: define internal { ptr, double } @p.tapestry.split_ac_ra.call.kept.fwd(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %block = call ptr @tapestry.arena.alloc(i64 {{[0-9]+}})

; CHECK-LABEL: define internal void @p.tapestry.split_ac_ra.call.kept.release(
; CHECK:         call void @p.tapestry.[[S]].release(
; CHECK-NEXT:    call void @tapestry.arena.forget(ptr %node)

; CHECK-LABEL: define internal double @p.tapestry.split_ac_ra.augmented(
; CHECK-NOT:     @tapestry.tape.acquire
; CHECK:         call void @tapestry.tape.reserve.arena(
; CHECK:         call { ptr, double } @p.tapestry.[[S]].call.kept.fwd(
; CHECK:       }

; A record array that grows moves to a larger arena block.
; CHECK-LABEL: define internal void @tapestry.tape.reserve.arena(
; CHECK:         call ptr @tapestry.arena.alloc(
; CHECK:         call void @llvm.memcpy
; CHECK:         call void @tapestry.arena.forget(

; The bump allocation, and its slow path (a new chunk or the next one).
; CHECK-LABEL: define internal {{.*}}ptr @tapestry.arena.alloc(i64 %0)
; CHECK:         %top = load ptr
; CHECK:         %end = load ptr
; CHECK:       bump:
; CHECK:       grow:
; CHECK-NEXT:    call ptr @tapestry.arena.grow(i64 %0)

; The release forgets the record array and the recursive call's tapes.
; CHECK-LABEL: define internal void @p.tapestry.split_ac_ra.release(
; CHECK:         call void @tapestry.arena.forget(
; CHECK:         call void @p.tapestry.[[S]].call.kept.release(

; CHECK-LABEL: define internal i1 @tapestry.arena.nested()
; CHECK-NEXT:  entry:
; CHECK-NEXT:    ret i1 false

; NOMALLOC-LABEL: define internal { ptr, double } @p.tapestry.split_ac_ra.call.fwd(
; NOMALLOC-NOT:   @malloc
; NOMALLOC-NOT:   @free(
; NOMALLOC:       define internal void @tapestry.tape.reserve(
; NOMALLOC-LABEL: define internal double @p.tapestry.split_ac_ra.augmented(
; NOMALLOC-NOT:   @malloc
; NOMALLOC-NOT:   @realloc
; NOMALLOC-NOT:   @free(
; NOMALLOC:       define internal void @tapestry.tape.reserve.arena(
