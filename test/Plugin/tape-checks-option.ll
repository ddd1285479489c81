; -tapestry-tape-checks (clang: -fplugin=<plugin> -mllvm
; -tapestry-tape-checks=false; default true): split mode's reverse first
; checks that the tape's header word is the one its own forward half writes
; (a tape of another function, activity or a released tape stops the
; program with a message); =false drops that compare and the message.
;
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s --check-prefix=CHECKED
; RUN: %opt -passes=tapestry,verify -tapestry-tape-checks=true -S %s \
; RUN:   | FileCheck %s --check-prefix=CHECKED
; RUN: %opt -passes=tapestry,verify -tapestry-tape-checks=false -S %s \
; RUN:   | FileCheck %s --check-prefix=UNCHECKED
declare ptr @__enzyme_augmentfwd(...)
declare void @__enzyme_reverse(...)
@enzyme_dup = external global i32
@enzyme_const = external global i32

define void @sumsq(i64 %n, ptr %x, ptr %s) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi double [ 0.0, %entry ], [ %acc.next, %loop ]
  %gep = getelementptr inbounds double, ptr %x, i64 %i
  %xi = load double, ptr %gep
  %sq = fmul double %xi, %xi
  %acc.next = fadd double %acc, %sq
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  store double %acc.next, ptr %s
  ret void
}

define void @caller(i64 %n, ptr %x, ptr %dx, ptr %s, ptr %ds) {
  %c = load i32, ptr @enzyme_const
  %d = load i32, ptr @enzyme_dup
  %tape = call ptr (...) @__enzyme_augmentfwd(ptr @sumsq, i32 %c, i64 %n, i32 %d, ptr %x, ptr %dx, i32 %d, ptr %s, ptr %ds)
  call void (...) @__enzyme_reverse(ptr @sumsq, i32 %c, i64 %n, i32 %d, ptr %x, ptr %dx, i32 %d, ptr %s, ptr %ds, ptr %tape)
  ret void
}

; CHECKED-LABEL: define internal void @sumsq.tapestry.split_cdd.augmented(
; CHECKED:         store i64 [[MAGIC:-?[0-9]+]], ptr %tape
; CHECKED-LABEL: define internal void @sumsq.tapestry.split_cdd.reverse(
; CHECKED:         [[NULL:%.*]] = icmp eq ptr %tape, null
; CHECKED-NEXT:    [[HP:%.*]] = select i1 [[NULL]], ptr @tapestry.null.tape.state, ptr %tape
; CHECKED-NEXT:    [[H:%.*]] = load i64, ptr [[HP]]
; CHECKED-NEXT:    [[OK:%.*]] = icmp eq i64 [[H]], [[MAGIC]]
; CHECKED-NEXT:    br i1 [[OK]], label %tape.ok, label %tape.misuse
; CHECKED:       tape.misuse:
; CHECKED:         call i64 @write(i32 2
; CHECKED-NEXT:    call void @abort()
; CHECKED-LABEL: define internal void @sumsq.tapestry.split_cdd.release(

; UNCHECKED-LABEL: define internal void @sumsq.tapestry.split_cdd.reverse(
; UNCHECKED-NOT:   tape.misuse
; UNCHECKED-NOT:   @write
; UNCHECKED-NOT:   @abort
; UNCHECKED-LABEL: define internal void @sumsq.tapestry.split_cdd.release(
