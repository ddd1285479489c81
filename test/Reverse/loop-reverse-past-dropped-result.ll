; The reverse of a loop whose only result a select keeps or drops (the
; distance loop of a nearest-centroid search) runs only when the select
; kept it: the select's reverse block records its condition and the edge
; into the loop's reverse tests it, going past the loop to its preheader's
; reverse otherwise (Synthesis/ChosenLoopResults.h); once cleaned up, the
; reverse branches on the taped condition. A loop whose result is
; also added up (@summed) keeps the plain edge. End to end, with the
; derivatives checked: test/Integration/select-chosen-loop-results.c.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
; CHECK-LABEL: define internal void @summed.tapestry.rev_
; CHECK-NOT: past
; CHECK: rev.dist.exit:
; CHECK: br label %rev.dist
; CHECK-LABEL: define internal void @nearest.tapestry.rev_
; CHECK: rev.dist.exit:
; CHECK: %closer.tape = load i1
; CHECK: br i1 %closer.tape, label %rev.dist, label %rev.cent

@enzyme_dup = external global i32
@enzyme_const = external global i32
declare void @__enzyme_autodiff(ptr, ...)

; min over k centroids c of sum_l (p[l] - c[j*d + l])^2
define double @nearest(ptr noalias %p, ptr noalias %c, i64 %k, i64 %d) {
entry:
  br label %cent

cent:
  %j = phi i64 [ 0, %entry ], [ %j.next, %chosen ]
  %best = phi double [ 0x7FF0000000000000, %entry ], [ %best.next, %chosen ]
  %row = mul i64 %j, %d
  br label %dist.pre

dist.pre:
  br label %dist

dist:
  %l = phi i64 [ 0, %dist.pre ], [ %l.next, %dist ]
  %s = phi double [ 0.0, %dist.pre ], [ %s.next, %dist ]
  %pa = getelementptr inbounds double, ptr %p, i64 %l
  %pv = load double, ptr %pa, align 8
  %ci = add i64 %row, %l
  %ca = getelementptr inbounds double, ptr %c, i64 %ci
  %cv = load double, ptr %ca, align 8
  %diff = fsub double %pv, %cv
  %sq = fmul double %diff, %diff
  %s.next = fadd double %s, %sq
  %l.next = add nuw i64 %l, 1
  %l.done = icmp eq i64 %l.next, %d
  br i1 %l.done, label %dist.exit, label %dist

dist.exit:
  br label %chosen

chosen:
  %closer = fcmp olt double %s.next, %best
  %best.next = select i1 %closer, double %s.next, double %best
  %j.next = add nuw i64 %j, 1
  %j.done = icmp eq i64 %j.next, %k
  br i1 %j.done, label %done, label %cent

done:
  ret double %best.next
}

; The same, plus the sum of all the distances.
define double @summed(ptr noalias %p, ptr noalias %c, i64 %k, i64 %d) {
entry:
  br label %cent

cent:
  %j = phi i64 [ 0, %entry ], [ %j.next, %chosen ]
  %best = phi double [ 0x7FF0000000000000, %entry ], [ %best.next, %chosen ]
  %all = phi double [ 0.0, %entry ], [ %all.next, %chosen ]
  %row = mul i64 %j, %d
  br label %dist.pre

dist.pre:
  br label %dist

dist:
  %l = phi i64 [ 0, %dist.pre ], [ %l.next, %dist ]
  %s = phi double [ 0.0, %dist.pre ], [ %s.next, %dist ]
  %pa = getelementptr inbounds double, ptr %p, i64 %l
  %pv = load double, ptr %pa, align 8
  %ci = add i64 %row, %l
  %ca = getelementptr inbounds double, ptr %c, i64 %ci
  %cv = load double, ptr %ca, align 8
  %diff = fsub double %pv, %cv
  %sq = fmul double %diff, %diff
  %s.next = fadd double %s, %sq
  %l.next = add nuw i64 %l, 1
  %l.done = icmp eq i64 %l.next, %d
  br i1 %l.done, label %dist.exit, label %dist

dist.exit:
  br label %chosen

chosen:
  %closer = fcmp olt double %s.next, %best
  %best.next = select i1 %closer, double %s.next, double %best
  %all.next = fadd double %all, %s.next
  %j.next = add nuw i64 %j, 1
  %j.done = icmp eq i64 %j.next, %k
  br i1 %j.done, label %done, label %cent

done:
  %r = fadd double %best.next, %all.next
  ret double %r
}

define void @grads(ptr %p, ptr %c, ptr %dc, i64 %k, i64 %d) {
  %1 = call double (ptr, ...) @__enzyme_autodiff(ptr @nearest, ptr @enzyme_const, ptr %p, ptr @enzyme_dup, ptr %c, ptr %dc, i64 %k, i64 %d)
  %2 = call double (ptr, ...) @__enzyme_autodiff(ptr @summed, ptr @enzyme_const, ptr %p, ptr @enzyme_dup, ptr %c, ptr %dc, i64 %k, i64 %d)
  ret void
}
