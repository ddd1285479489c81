; The pass that runs just before the loop vectoriser on Tapestry's
; derivatives (Passes/ReverseSweepVectorizing.h), on the reverse sweep of an
; in-place stencil u[i] = f(u[i - 1], u[i], u[i + 1]) and on its forward
; sweep:
;  - (FWD) a value stored in a loop record moves to the end of its block,
;    or to the first call that may touch memory (the carried u[i + 1] is
;    then recorded after its next value is read);
;  - (REV) the load of du[i + 2], which the previous iteration zeroed,
;    becomes 0 (or, in the first iteration, the value loaded before the
;    loop), and the adjoint carried to the next iteration is computed before
;    its first use;
;  - (KEEP) a store writing the zeroed slot before the read keeps the load;
;  - (USER) functions that are not derivatives are left alone;
;  - (VEC) the loop vectoriser then vectorises both sweeps.
; RUN: %opt -passes='function(tapestry-reverse-vectorizing)' -S %s -o %t
; RUN: FileCheck %s --check-prefix=FWD --input-file=%t
; RUN: FileCheck %s --check-prefix=REV --input-file=%t
; RUN: FileCheck %s --check-prefix=KEEP --input-file=%t
; RUN: FileCheck %s --check-prefix=USER --input-file=%t
; RUN: %opt -passes='function(tapestry-reverse-vectorizing,loop-vectorize)' -mattr=+avx2 -S %s -o - | FileCheck %s --check-prefix=VEC
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; FWD-LABEL: define void @heat.tapestry.fwd(
; FWD: %next = load double, ptr %pnext
; FWD: store double %new, ptr %pu
; FWD: store double %here, ptr %rec, align 8, !tapestry.record
; FWD-NEXT: br i1 %done
; VEC-LABEL: define void @heat.tapestry.fwd(
; VEC: vector.body:
; VEC: store <4 x double>
define void @heat.tapestry.fwd(ptr noalias %u, ptr noalias %records, i64 %n) {
entry:
  %u0 = load double, ptr %u
  %p1 = getelementptr inbounds double, ptr %u, i64 1
  %u1 = load double, ptr %p1
  br label %loop

loop:
  %i = phi i64 [ 1, %entry ], [ %i.next, %loop ]
  %here = phi double [ %u1, %entry ], [ %next, %loop ]
  %left = phi double [ %u0, %entry ], [ %here, %loop ]
  %rec = getelementptr inbounds double, ptr %records, i64 %i
  store double %here, ptr %rec, align 8, !tapestry.record !0
  %i.next = add nuw nsw i64 %i, 1
  %pnext = getelementptr inbounds double, ptr %u, i64 %i.next
  %next = load double, ptr %pnext
  %sum = fadd double %left, %next
  %new = fadd double %sum, %here
  %pu = getelementptr inbounds double, ptr %u, i64 %i
  store double %new, ptr %pu
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; A call after the record store (the reserve of a loop merged into the
; block, which may move the record array) stops it: the store stays before
; the call.
; FWD-LABEL: define void @grows.tapestry.fwd(
; FWD: store double %here, ptr %rec, align 8, !tapestry.record
; FWD-NEXT: call void @grow(ptr %state)
define void @grows.tapestry.fwd(ptr noalias %u, ptr %records, ptr %state, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %pu = getelementptr inbounds double, ptr %u, i64 %i
  %here = load double, ptr %pu
  %rec = getelementptr inbounds double, ptr %records, i64 %i
  store double %here, ptr %rec, align 8, !tapestry.record !0
  %sq = fmul double %here, %here
  call void @grow(ptr %state)
  store double %sq, ptr %pu
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

declare void @grow(ptr)

; REV-LABEL: define void @heat.tapestry.rev(
; REV: entry:
; REV: %tapestry.slot.first = load double, ptr
; REV: loop:
; REV: %g = load double, ptr %pg
; REV-NEXT: store double 0.000000e+00, ptr %pg
; REV: %carry.next = fmul double %g, %h
; REV-NEXT: %add = fadd double %carry, %scaled
; REV: %tapestry.slot.isfirst = icmp eq i64 %i, %n
; REV-NEXT: %tapestry.slot = select i1 %tapestry.slot.isfirst, double %tapestry.slot.first, double 0.000000e+00
; REV-NOT: load double, ptr %pn
; REV: %acc = fadd double %add, %tapestry.slot
; REV-NEXT: store double %acc, ptr %pn
; REV: exit:
; VEC-LABEL: define void @heat.tapestry.rev(
; VEC: vector.body:
; VEC: store <4 x double>
define void @heat.tapestry.rev(ptr noalias %du, ptr noalias %records, i64 %n, ptr %out) {
entry:
  br label %loop

loop:
  %i = phi i64 [ %n, %entry ], [ %i.next, %loop ]
  %carry = phi double [ 0.0, %entry ], [ %carry.next, %loop ]
  %pg = getelementptr inbounds double, ptr %du, i64 %i
  %g = load double, ptr %pg
  store double 0.0, ptr %pg
  %ph = getelementptr inbounds double, ptr %records, i64 %i
  %h = load double, ptr %ph
  %scaled = fmul double %g, 2.0e-01
  %add = fadd double %carry, %scaled
  %pn = getelementptr inbounds i8, ptr %pg, i64 8
  %old = load double, ptr %pn
  %acc = fadd double %add, %old
  store double %acc, ptr %pn
  %carry.next = fmul double %g, %h
  %i.next = add nsw i64 %i, -1
  %done = icmp eq i64 %i, 1
  br i1 %done, label %exit, label %loop

exit:
  store double %carry.next, ptr %out
  ret void
}

; The slot is written again (1.0) after it was zeroed and before the next
; iteration reads it: the read stays.
; KEEP-LABEL: define void @kept.tapestry.rev(
; KEEP-NOT: tapestry.slot
; KEEP: %old = load double, ptr %pn
; KEEP: ret void
define void @kept.tapestry.rev(ptr noalias %du, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ %n, %entry ], [ %i.next, %loop ]
  %pg = getelementptr inbounds double, ptr %du, i64 %i
  %g = load double, ptr %pg
  store double 0.0, ptr %pg
  %pn = getelementptr inbounds i8, ptr %pg, i64 8
  store double 1.0, ptr %pn
  %old = load double, ptr %pn
  %acc = fadd double %g, %old
  store double %acc, ptr %pn
  %i.next = add nsw i64 %i, -1
  %done = icmp eq i64 %i, 1
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; Written again in the same iteration, after the zero: the read stays.
; KEEP-LABEL: define void @kept.same.tapestry.rev(
; KEEP-NOT: tapestry.slot
; KEEP: %old = load double, ptr %pn
; KEEP: ret void
define void @kept.same.tapestry.rev(ptr noalias %du, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ %n, %entry ], [ %i.next, %loop ]
  %pg = getelementptr inbounds double, ptr %du, i64 %i
  %g = load double, ptr %pg
  store double 0.0, ptr %pg
  %pn = getelementptr inbounds i8, ptr %pg, i64 8
  %old = load double, ptr %pn
  %acc = fadd double %g, %old
  store double %acc, ptr %pn
  store double %g, ptr %pg
  %i.next = add nsw i64 %i, -1
  %done = icmp eq i64 %i, 1
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; A store wider than a slot, starting one slot below the zeroed one, also
; overwrites it (review25): the read stays.
; KEEP-LABEL: define double @wide.tapestry.rev(
; KEEP-NOT: tapestry.slot
; KEEP: %r = load double, ptr %q
; KEEP: ret double
define double @wide.tapestry.rev(ptr %a, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 1, %entry ], [ %i.next, %loop ]
  %acc = phi double [ 0.0, %entry ], [ %acc.next, %loop ]
  %p = getelementptr inbounds double, ptr %a, i64 %i
  %im1 = add i64 %i, -1
  %q = getelementptr inbounds double, ptr %a, i64 %im1
  %r = load double, ptr %q, align 8
  store double 0.0, ptr %p, align 8
  store <2 x double> <double 5.0, double 7.0>, ptr %q, align 8
  %acc.next = fadd double %acc, %r
  %i.next = add nuw nsw i64 %i, 1
  %c = icmp ult i64 %i.next, %n
  br i1 %c, label %loop, label %exit

exit:
  ret double %acc.next
}

; The only induction that could tell the first iteration is an i8 counter,
; which comes back to its start after 256 iterations (review25): the read
; stays.
; KEEP-LABEL: define void @narrow.tapestry.rev(
; KEEP-NOT: tapestry.slot
; KEEP: %old = load double, ptr %pn
; KEEP: ret void
define void @narrow.tapestry.rev(ptr noalias %du, ptr %base, i64 %n) {
entry:
  br label %loop

loop:
  %k = phi i8 [ 0, %entry ], [ %k.next, %loop ]
  %pg = phi ptr [ %base, %entry ], [ %pg.next, %loop ]
  %g = load double, ptr %pg
  store double 0.0, ptr %pg
  %pn = getelementptr inbounds i8, ptr %pg, i64 8
  %old = load double, ptr %pn
  %acc = fadd double %g, %old
  store double %acc, ptr %pn
  %pg.next = getelementptr inbounds i8, ptr %pg, i64 -8
  %k.next = add i8 %k, 1
  %done = icmp eq ptr %pg, %du
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; USER-LABEL: define void @user(
; USER-NOT: tapestry.slot
; USER: ret void
define void @user(ptr noalias %du, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ %n, %entry ], [ %i.next, %loop ]
  %pg = getelementptr inbounds double, ptr %du, i64 %i
  %g = load double, ptr %pg
  store double 0.0, ptr %pg
  %pn = getelementptr inbounds i8, ptr %pg, i64 8
  %old = load double, ptr %pn
  %acc = fadd double %g, %old
  store double %acc, ptr %pn
  %i.next = add nsw i64 %i, -1
  %done = icmp eq i64 %i, 1
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

!0 = !{}
