; A heap block allocated and freed in each iteration of a loop, in split
; mode (Synthesis/LoopBlockLists.h): the augmented forward links each block
; and its shadow into the list whose head is a tape field (offset 32 here),
; the reverse zeroes the listed shadows before its loop and frees no block
; (the free and the freed-shadow take are gone from it), and the release
; frees the list with the blocks. The tape is reusable, so the reverse
; writes no "consumed" mark. End-to-end programs:
; test/Split/reusable-loop-blocks.c, test/Leaks/split-loop-blocks.c.
;
; RUN: %opt -passes=tapestry -S %s -o %t
; RUN: FileCheck %s --input-file=%t --check-prefix=AUG
; RUN: FileCheck %s --input-file=%t --check-prefix=REV
; RUN: FileCheck %s --input-file=%t --check-prefix=REL

@enzyme_dup = external global i32
@enzyme_const = external global i32
declare ptr @__enzyme_augmentfwd(ptr, ...)
declare void @__enzyme_reverse(ptr, ...)
declare ptr @malloc(i64)
declare void @free(ptr)

; The block holds x_i^2 twice and is read at index k (0 or 1), so that the
; read is not folded into the stored value (a block written and freed
; unread is deleted before differentiation).
define void @rows(ptr %x, ptr %y, i64 %n, i64 %k) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %t = call ptr @malloc(i64 16)
  %px = getelementptr double, ptr %x, i64 %i
  %xi = load double, ptr %px
  %sq = fmul double %xi, %xi
  store double %sq, ptr %t
  %t1 = getelementptr double, ptr %t, i64 1
  store double %sq, ptr %t1
  %tk = getelementptr double, ptr %t, i64 %k
  %v = load double, ptr %tk
  %yv = fmul double %v, %xi
  %py = getelementptr double, ptr %y, i64 %i
  store double %yv, ptr %py
  call void @free(ptr %t)
  %i1 = add i64 %i, 1
  %c = icmp ult i64 %i1, %n
  br i1 %c, label %loop, label %done
done:
  ret void
}

define void @split(ptr %x, ptr %dx, ptr %y, ptr %dy, i64 %n, i64 %k) {
  %tape = call ptr (ptr, ...) @__enzyme_augmentfwd(ptr @rows, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dup, ptr %y, ptr %dy, ptr @enzyme_const, i64 %n, ptr @enzyme_const, i64 %k)
  call void (ptr, ...) @__enzyme_reverse(ptr @rows, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dup, ptr %y, ptr %dy, ptr @enzyme_const, i64 %n, ptr @enzyme_const, i64 %k, ptr %tape)
  ret void
}

; AUG-LABEL: define internal void @rows.tapestry.split_ddcc.augmented(
; AUG:       %[[HEAD:.*]] = getelementptr inbounds i8, ptr %tape, i64 32
; AUG:       %t = call {{.*}}ptr @malloc(i64 16)
; AUG:       %"t'" = call {{.*}}ptr @malloc(i64 16)
; AUG:       call void @tapestry.loopblocks.link(ptr nonnull %[[HEAD]], ptr %t, ptr %"t'", i64 16)
; AUG-NOT:   call void @free(
; AUG-LABEL: {{^}}}

; REV-LABEL: define internal void @rows.tapestry.split_ddcc.reverse(
; REV-NOT:   call void @free(
; REV-NOT:   @tapestry.freed.take
; REV:       tape.ok:
; REV:       call void @tapestry.loopblocks.zero(ptr %{{.*}})
; The loop's reverse starts from its exit count (no counter on the tape).
; REV-NEXT:  call i64 @llvm.umax.i64(i64 %n, i64 1)
; REV-NOT:   call void @free(
; REV-NOT:   @tapestry.freed.take
; REV-LABEL: {{^}}}

; REL-LABEL: define internal void @rows.tapestry.split_ddcc.release(
; REL:       %[[FIELD:.*]] = getelementptr inbounds %rows.tape, ptr %tape, i32 0, i32 2
; REL-NEXT:  %[[LIST:.*]] = load ptr, ptr %[[FIELD]]
; REL-NEXT:  call void @tapestry.loopblocks.release.free(ptr %[[LIST]])
; REL-NEXT:  store ptr null, ptr %[[FIELD]]
; REL-LABEL: define internal void @tapestry.loopblocks.release.free(
; REL:       %next = load ptr
; REL:       call void @free(ptr %block)
; REL:       call void @free(ptr %shadow)
; REL-NEXT:  call void @free(ptr %n)
; REL-NEXT:  icmp eq ptr %next, null
