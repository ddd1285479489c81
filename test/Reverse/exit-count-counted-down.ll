; A loop that counts down from where an earlier loop stopped (the shape an
; inner gradient's reverse sweep has once it is inlined into a function
; that is differentiated again: its forward loop counts the iterations, its
; reverse loop walks them back) needs no tape for its index: the earlier
; loop's final count is its exit value, which ScalarEvolution computes from
; the trip count, so the later loop's index and the addresses it reads are
; rebuilt from the reverse counter. Before, the index was taped, 8 bytes
; per iteration, and the element read through it with it.
;
; RUN: %opt -passes=tapestry -S %s -o %t -pass-remarks=tapestry 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: FileCheck %s --input-file=%t
@enzyme_dup = external global i32
@enzyme_const = external global i32
declare void @__enzyme_autodiff(ptr, ...)

define double @f(ptr noalias %x, i64 %n) {
entry:
  br label %count
count:
  %k = phi i64 [ 0, %entry ], [ %k1, %count ]
  %k1 = add nuw nsw i64 %k, 1
  %more = icmp slt i64 %k1, %n
  br i1 %more, label %count, label %mid
mid:
  br label %down
down:
  %j = phi i64 [ %k, %mid ], [ %j1, %down ]
  %s = phi double [ 0.0, %mid ], [ %s1, %down ]
  %p = getelementptr inbounds double, ptr %x, i64 %j
  %v = load double, ptr %p
  %sq = fmul double %v, %v
  %s1 = fadd double %s, %sq
  %j1 = add nsw i64 %j, -1
  %again = icmp sgt i64 %j, 0
  br i1 %again, label %down, label %exit
exit:
  ret double %s1
}

define void @grad(ptr %x, ptr %dx, i64 %n) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_const, i64 %n)
  ret void
}

; REMARK-NOT: bytes per iteration of this loop
; REMARK: reverse sweep of 'f' caches {{[0-9]+}} value(s) computed once and nothing per loop iteration

; CHECK-LABEL: define internal void @f.tapestry.rev
; CHECK-NOT: tapestry.tape.reserve
; CHECK: %v.re = load double
; CHECK-NOT: tapestry.tape
; CHECK: ret void
