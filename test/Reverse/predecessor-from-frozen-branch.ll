; A block reached from two places whose way in a branch on a freeze
; decides: the reverse does not read the branch's condition, because the
; value cache may recompute a freeze, and two freezes of a poison value can
; differ (the sweep would then leave the block by the other way). The index
; of the way in is taped instead, as for any join. The same shape without
; the freeze: predecessor-from-guard-branch.ll. @rows_not branches on the
; freeze negated (`xor (freeze c), true`), which is recomputed with it.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
; (Derivatives are emitted in reverse order of their requests.)
; CHECK-LABEL: define internal void @rows_not.tapestry.rev_
; CHECK: pred.id = phi
; CHECK: ret void
; CHECK-LABEL: define internal void @rows.tapestry.rev_
; CHECK: pred.id = phi
; CHECK: ret void

@enzyme_dup = external global i32
@enzyme_const = external global i32
declare void @__enzyme_autodiff(ptr, ...)

; sum over the k rows j whose first element is positive of
; (sum_l x[j*d + l])^2
define double @rows(ptr noalias %x, i64 %k, i64 %d) {
entry:
  %any = icmp sgt i64 %d, 0
  br label %row

row:
  %j = phi i64 [ 0, %entry ], [ %j.next, %join ]
  %acc = phi double [ 0.0, %entry ], [ %acc.next, %join ]
  %base = mul i64 %j, %d
  %head = getelementptr inbounds double, ptr %x, i64 %base
  %h = load double, ptr %head, align 8
  %pos = fcmp ogt double %h, 0.0
  %take = and i1 %any, %pos
  %fz = freeze i1 %take
  br i1 %fz, label %sum.pre, label %join

sum.pre:
  br label %sum

sum:
  %l = phi i64 [ 0, %sum.pre ], [ %l.next, %sum ]
  %s = phi double [ 0.0, %sum.pre ], [ %s.next, %sum ]
  %i = add i64 %base, %l
  %a = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %a, align 8
  %s.next = fadd double %s, %v
  %l.next = add nuw i64 %l, 1
  %l.done = icmp eq i64 %l.next, %d
  br i1 %l.done, label %sum.exit, label %sum

sum.exit:
  br label %join

join:
  %r = phi double [ 0.0, %row ], [ %s.next, %sum.exit ]
  %sq = fmul double %r, %r
  %acc.next = fadd double %acc, %sq
  %j.next = add nuw i64 %j, 1
  %j.done = icmp eq i64 %j.next, %k
  br i1 %j.done, label %done, label %row

done:
  ret double %acc.next
}

; sum over the k rows j whose first element is positive of
; (sum_l x[j*d + l])^2
define double @rows_not(ptr noalias %x, i64 %k, i64 %d) {
entry:
  %any = icmp sgt i64 %d, 0
  br label %row

row:
  %j = phi i64 [ 0, %entry ], [ %j.next, %join ]
  %acc = phi double [ 0.0, %entry ], [ %acc.next, %join ]
  %base = mul i64 %j, %d
  %head = getelementptr inbounds double, ptr %x, i64 %base
  %h = load double, ptr %head, align 8
  %pos = fcmp ogt double %h, 0.0
  %take = and i1 %any, %pos
  %fz = freeze i1 %take
  %skip = xor i1 %fz, true
  br i1 %skip, label %join, label %sum.pre

sum.pre:
  br label %sum

sum:
  %l = phi i64 [ 0, %sum.pre ], [ %l.next, %sum ]
  %s = phi double [ 0.0, %sum.pre ], [ %s.next, %sum ]
  %i = add i64 %base, %l
  %a = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %a, align 8
  %s.next = fadd double %s, %v
  %l.next = add nuw i64 %l, 1
  %l.done = icmp eq i64 %l.next, %d
  br i1 %l.done, label %sum.exit, label %sum

sum.exit:
  br label %join

join:
  %r = phi double [ 0.0, %row ], [ %s.next, %sum.exit ]
  %sq = fmul double %r, %r
  %acc.next = fadd double %acc, %sq
  %j.next = add nuw i64 %j, 1
  %j.done = icmp eq i64 %j.next, %k
  br i1 %j.done, label %done, label %row

done:
  ret double %acc.next
}

define void @grad(ptr %x, ptr %dx, i64 %k, i64 %d) {
  %1 = call double (ptr, ...) @__enzyme_autodiff(ptr @rows, ptr @enzyme_dup, ptr %x, ptr %dx, i64 %k, i64 %d)
  %2 = call double (ptr, ...) @__enzyme_autodiff(ptr @rows_not, ptr @enzyme_dup, ptr %x, ptr %dx, i64 %k, i64 %d)
  ret void
}
