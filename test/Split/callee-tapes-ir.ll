; A call that stays a call (noinline) to a callee whose split is reusable
; keeps the split of its caller reusable (issue 17 item 1): the caller's
; forward half runs the callee's kept augmented forward, which links the
; callee's tape (behind a 16-byte header whose first word is the next tape)
; into a list whose head is a field of the caller's tape, one list per call
; site; the caller's reverse runs the callee's own reverse, which does not
; consume that tape; the caller's release calls the callee's list release
; directly, which releases and frees each tape. One tape per call, also in
; a loop. No function address is stored anywhere (NOFN): a derivative that
; is differentiated again follows the list as any linked list of heap
; blocks (test/Split/nested-kept-callee.c).
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s --check-prefix=KEPT
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s --check-prefix=NOFN
declare ptr @__tapestry_thunk(...)
declare double @llvm.sin.f64(double)
@enzyme_dup = external global i32
@enzyme_const = external global i32

define double @h(double %x) noinline {
  %s = call double @llvm.sin.f64(double %x)
  %p = fmul double %s, %x
  ret double %p
}

; s = sum_i h(a[i])
define double @f(ptr %a, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %ai = getelementptr inbounds double, ptr %a, i64 %i
  %x = load double, ptr %ai
  %y = call double @h(double %x)
  %s.next = fadd double %s, %y
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret double %s.next
}

define ptr @thunk() {
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %t = call ptr (...) @__tapestry_thunk(ptr @f, i32 %d, i32 %c)
  ret ptr %t
}

; CHECK: @f.tapestry.[[S:[a-z_]+]].thunk = private constant { ptr, ptr, ptr, i64, i32 } { ptr @f.tapestry.[[S]].augmented, ptr @{{[^,]+}}, ptr @f.tapestry.[[S]].release, i64 {{[0-9]+}}, i32 1 }

; CHECK-LABEL: define internal double @f.tapestry.{{[a-z_]+}}.augmented(ptr %a, ptr %"a'", i64 %n, ptr %tape)
; CHECK:         store i64 -1, ptr
; CHECK-NEXT:    store ptr null, ptr [[HEAD:%[0-9]+]]
; The loop's record array is set up last in the entry block.
; CHECK:         call void @tapestry.tape.acquire(
; CHECK-NEXT:    call void @tapestry.tape.reserve(
; CHECK-NEXT:    br label %loop
; CHECK:       loop:
; CHECK:         call { ptr, double } @h.tapestry.[[H:[a-z_]+]].call.kept.fwd(double %x, ptr nonnull [[HEAD]])
; The callee's tape is read back from the list head, where the call linked
; it, not taken from the call's result: a derivative of this split (forward
; over reverse) finds the tape's shadow in the list's shadow
; (Integration/nested-recursion-second-derivative.c).
; CHECK-NOT:     extractvalue { ptr, double } %{{[0-9]+}}, 0
; CHECK:         [[BLOCK:%[0-9]+]] = load ptr, ptr [[HEAD]]
; CHECK-NOT:     extractvalue { ptr, double } %{{[0-9]+}}, 0
; CHECK:         store ptr [[BLOCK]], ptr

; CHECK-LABEL: define internal void @f.tapestry.{{[a-z_]+}}.reverse(
; CHECK-NOT:     .call.rev
; CHECK:         call double @h.tapestry.[[H]].reverse(double
; CHECK-NOT:     .call.rev
; CHECK:       }

; CHECK-LABEL: define internal void @f.tapestry.{{[a-z_]+}}.release(ptr %tape)
; CHECK:         [[LIST:%[0-9]+]] = getelementptr inbounds %f.tape, ptr %tape, i32 0, i32 3
; CHECK-NEXT:    %callee.tapes = load ptr, ptr [[LIST]]
; CHECK-NEXT:    call void @h.tapestry.[[H]].call.kept.release(ptr %callee.tapes)
; CHECK-NEXT:    store ptr null, ptr [[LIST]]

; The kept augmented forward: a block of 16 + the callee's tape bytes at the
; head of the list; the list's release, a direct call of the callee's
; release for each tape.
; KEPT:       define internal { ptr, double } @h.tapestry.[[H:[a-z_]+]].call.kept.fwd(double %0, ptr nocapture %1)
; KEPT-NEXT:   entry:
; KEPT-NEXT:     %block = call ptr @malloc(i64 {{[0-9]+}})
; KEPT-NEXT:     [[OLD:%.*]] = load ptr, ptr %1
; KEPT-NEXT:     store ptr [[OLD]], ptr %block
; KEPT-NEXT:     store ptr %block, ptr %1
; KEPT-NEXT:     %tape = getelementptr i8, ptr %block, i64 16
; KEPT-NEXT:     call double @h.tapestry.[[H]].augmented(double %0, ptr %tape)
; KEPT:       define internal void @h.tapestry.[[H]].call.kept.release(ptr %0)
; KEPT-NEXT:   entry:
; KEPT-NEXT:     [[NONE:%.*]] = icmp eq ptr %0, null
; KEPT-NEXT:     br i1 [[NONE]], label %done, label %tape
; KEPT:        tape:
; KEPT-NEXT:     %node = phi ptr [ %0, %entry ], [ %next, %tape ]
; KEPT-NEXT:     %next = load ptr, ptr %node
; KEPT-NEXT:     [[T:%.*]] = getelementptr i8, ptr %node, i64 16
; KEPT-NEXT:     call void @h.tapestry.[[H]].release(ptr [[T]])
; KEPT-NEXT:     call void @free(ptr %node)
; KEPT-NEXT:     [[LAST:%.*]] = icmp eq ptr %next, null
; KEPT-NEXT:     br i1 [[LAST]], label %done, label %tape

; NOFN-NOT: store ptr @
