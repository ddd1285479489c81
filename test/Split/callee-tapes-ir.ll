; A call that stays a call (noinline) to a callee whose split is reusable
; keeps the split of its caller reusable (issue 17 item 1): the caller's
; forward half runs the callee's kept augmented forward, which links the
; callee's tape (behind a {next, release} header) into a list whose head is
; a field of the caller's tape; the caller's reverse runs the callee's own
; reverse, which does not consume that tape; the caller's release walks the
; list and runs each tape's release. One tape per call, also in a loop.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s --check-prefix=KEPT
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

; CHECK-LABEL: define internal void @f.tapestry.{{[a-z_]+}}.reverse(
; CHECK-NOT:     .call.rev
; CHECK:         call double @h.tapestry.[[H]].reverse(double
; CHECK-NOT:     .call.rev
; CHECK:       }

; CHECK-LABEL: define internal void @f.tapestry.{{[a-z_]+}}.release(ptr %tape)
; CHECK:         [[LIST:%[0-9]+]] = getelementptr inbounds %f.tape, ptr %tape, i32 0, i32 3
; CHECK-NEXT:    [[FIRST:%.*]] = load ptr, ptr [[LIST]]
; CHECK-NEXT:    [[EMPTY:%.*]] = icmp eq ptr [[FIRST]], null
; CHECK-NEXT:    br i1 [[EMPTY]], label %callee.tapes.done, label %callee.tape
; CHECK:       callee.tape:
; CHECK-NEXT:    %node = phi ptr [ [[FIRST]], %entry ], [ %next, %callee.tape ]
; CHECK-NEXT:    %next = load ptr, ptr %node
; CHECK-NEXT:    [[RA:%.*]] = getelementptr i8, ptr %node, i64 8
; CHECK-NEXT:    %release = load ptr, ptr [[RA]]
; CHECK-NEXT:    call void %release(ptr %node)
; CHECK:       callee.tapes.done:
; CHECK-NEXT:    store ptr null, ptr [[LIST]]

; The kept augmented forward: a block of 16 + the callee's tape bytes.
; KEPT:       define internal void @h.tapestry.[[H:[a-z_]+]].call.kept.release(ptr %0)
; KEPT-NEXT:   entry:
; KEPT-NEXT:     %tape = getelementptr i8, ptr %0, i64 16
; KEPT-NEXT:     call void @h.tapestry.[[H]].release(ptr %tape)
; KEPT-NEXT:     call void @free(ptr %0)
; KEPT:       define internal { ptr, double } @h.tapestry.[[H]].call.kept.fwd(double %0, ptr nocapture %1)
; KEPT-NEXT:   entry:
; KEPT-NEXT:     %block = call ptr @malloc(i64 {{[0-9]+}})
; KEPT-NEXT:     [[OLD:%.*]] = load ptr, ptr %1
; KEPT-NEXT:     store ptr [[OLD]], ptr %block
; KEPT-NEXT:     [[RS:%.*]] = getelementptr i8, ptr %block, i64 8
; KEPT-NEXT:     store ptr @h.tapestry.[[H]].call.kept.release, ptr [[RS]]
; KEPT-NEXT:     store ptr %block, ptr %1
; KEPT-NEXT:     %tape = getelementptr i8, ptr %block, i64 16
; KEPT-NEXT:     call double @h.tapestry.[[H]].augmented(double %0, ptr %tape)
