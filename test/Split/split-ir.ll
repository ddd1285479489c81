; Split mode in IR: the augmented forward writes the tape (header, record
; array of the loop's loads, iteration count) and returns; the reverse
; checks the header, reads the tape without changing it (the iteration count
; is copied) and recomputes shadow addresses from its own arguments; the
; release frees the record array; __enzyme_augmentsize folds to the size.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
declare ptr @__enzyme_augmentfwd(...)
declare void @__enzyme_reverse(...)
declare i64 @__enzyme_augmentsize(...)
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

define i64 @caller(i64 %n, ptr %x, ptr %dx, ptr %s, ptr %ds) {
  %c = load i32, ptr @enzyme_const
  %d = load i32, ptr @enzyme_dup
  %tape = call ptr (...) @__enzyme_augmentfwd(ptr @sumsq, i32 %c, i64 %n, i32 %d, ptr %x, ptr %dx, i32 %d, ptr %s, ptr %ds)
  call void (...) @__enzyme_reverse(ptr @sumsq, i32 %c, i64 %n, i32 %d, ptr %x, ptr %dx, i32 %d, ptr %s, ptr %ds, ptr %tape)
  %size = call i64 (...) @__enzyme_augmentsize(ptr @sumsq, i32 %c, i32 %d, i32 %d)
  ret i64 %size
}

; CHECK-LABEL: define i64 @caller(
; CHECK-NEXT:    [[T:%.*]] = call ptr @malloc(i64 [[SIZE:[0-9]+]])
; CHECK-NEXT:    call void @sumsq.tapestry.split_cdd.augmented(i64 %n, ptr %x, ptr %dx, ptr %s, ptr %ds, ptr [[T]])
; CHECK-NEXT:    call void @sumsq.tapestry.split_cdd.reverse(i64 %n, ptr %x, ptr %dx, ptr %s, ptr %ds, ptr [[T]])
; CHECK-NEXT:    call void @sumsq.tapestry.split_cdd.release(ptr [[T]])
; CHECK-NEXT:    call void @free(ptr [[T]])
; CHECK-NEXT:    ret i64 [[SIZE]]

; CHECK-LABEL: define internal void @sumsq.tapestry.split_cdd.augmented(i64 %n, ptr %x, ptr %"x'", ptr %s, ptr %"s'", ptr %tape)
; CHECK:         store i64 [[MAGIC:-?[0-9]+]], ptr %tape
; CHECK:       loop:
; CHECK:         %xi = load double, ptr %gep
; CHECK:         store double %xi, ptr
; CHECK:       exit:
; CHECK-NEXT:    store double %acc.next, ptr %s
; CHECK-NEXT:    ret void

; CHECK-LABEL: define internal void @sumsq.tapestry.split_cdd.reverse(i64 %n, ptr %x, ptr %"x'", ptr %s, ptr %"s'", ptr noalias dereferenceable_or_null(8) %tape)
; A null tape reads a constant zero as its state, and gets its own message.
; CHECK:         [[NULL:%.*]] = icmp eq ptr %tape, null
; CHECK-NEXT:    [[HP:%.*]] = select i1 [[NULL]], ptr @tapestry.null.tape.state, ptr %tape
; CHECK-NEXT:    [[H:%.*]] = load i64, ptr [[HP]]
; CHECK-NEXT:    icmp eq i64 [[H]], [[MAGIC]]
; CHECK-NOT:     store {{.*}}, ptr %tape
; CHECK:         %xi.tape = load double
; CHECK:         getelementptr inbounds double, ptr %"x'"
; CHECK-NOT:     load double, ptr %x
; CHECK:         call i64 @write(i32 2
; CHECK-NEXT:    call void @abort()

; CHECK-LABEL: define internal void @sumsq.tapestry.split_cdd.release(ptr %tape)
; CHECK:         call void @free(ptr
; The header then says "TAPEFREE" (a reverse run again says it was released).
; CHECK:         store i64 4991486223774138708, ptr
; CHECK-NEXT:    ret void
