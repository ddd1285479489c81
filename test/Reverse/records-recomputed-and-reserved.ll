; Three ways the reverse of a loop's records got cheaper (issue 16 item 4,
; the heat stencil, tools/bench/heat.c):
;  - a value computed by cheap arithmetic from another value of the same
;    records is recomputed from it where the reverse reads it, not stored
;    beside it: m = 0.01 * h + 1, the partial of m * h along h, is rebuilt
;    from h's field, and the record holds h alone (8 bytes, not 16);
;  - an int index widened to 64 bits (sext i32 %i) is rebuilt at 64 bits
;    from the reverse counter, not rebuilt as an int and widened again
;    (which instcombine turns into a shift pair that hides the affine
;    address from the vectoriser);
;  - when the iterations of the loop nest are known exactly at entry (the
;    inner loop runs in every iteration of the outer one), the records are
;    reserved in full up front and the forward sweep checks nothing per
;    iteration; an inner loop under a condition keeps the per-iteration
;    check (its count only bounds the records from above).
;
; RUN: %opt -passes=tapestry -S %s -o %t -pass-remarks=tapestry 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: FileCheck %s --input-file=%t
; RUN: FileCheck %s --input-file=%t --check-prefix=GUARDED
@enzyme_dup = external global i32
@enzyme_const = external global i32
declare double @__enzyme_autodiff(ptr, ...)

; for (t = 0; t < steps; t++) for (i = 0; i < n; i++) {
;   h = u[i]; u[i] = h + (0.01 * h + 1) * h; }   return u[0];
define double @stencil(ptr noalias %u, i32 %n, i32 %steps) {
entry:
  br label %outer
outer:
  %t = phi i32 [ 0, %entry ], [ %t1, %outer.latch ]
  br label %inner
inner:
  %i = phi i32 [ 0, %outer ], [ %i1, %inner ]
  %idx = sext i32 %i to i64
  %p = getelementptr inbounds double, ptr %u, i64 %idx
  %h = load double, ptr %p
  %c = fmul double %h, 1.000000e-02
  %m = fadd double %c, 1.000000e+00
  %mh = fmul double %m, %h
  %v = fadd double %h, %mh
  store double %v, ptr %p
  %i1 = add nsw i32 %i, 1
  %ci = icmp slt i32 %i1, %n
  br i1 %ci, label %inner, label %outer.latch
outer.latch:
  %t1 = add nsw i32 %t, 1
  %ct = icmp slt i32 %t1, %steps
  br i1 %ct, label %outer, label %exit
exit:
  %r = load double, ptr %u
  ret double %r
}

; The same, with the inner loop run only when the outer index is even.
define double @guarded(ptr noalias %u, i32 %n, i32 %steps) {
entry:
  br label %outer
outer:
  %t = phi i32 [ 0, %entry ], [ %t1, %outer.latch ]
  %odd = and i32 %t, 1
  %skip = icmp ne i32 %odd, 0
  br i1 %skip, label %outer.latch, label %inner
inner:
  %i = phi i32 [ 0, %outer ], [ %i1, %inner ]
  %idx = sext i32 %i to i64
  %p = getelementptr inbounds double, ptr %u, i64 %idx
  %h = load double, ptr %p
  %hh = fmul double %h, %h
  store double %hh, ptr %p
  %i1 = add nsw i32 %i, 1
  %ci = icmp slt i32 %i1, %n
  br i1 %ci, label %inner, label %outer.latch
outer.latch:
  %t1 = add nsw i32 %t, 1
  %ct = icmp slt i32 %t1, %steps
  br i1 %ct, label %outer, label %exit
exit:
  %r = load double, ptr %u
  ret double %r
}

define void @grad(ptr %u, ptr %du, i32 %n, i32 %steps) {
  %r1 = call double (ptr, ...) @__enzyme_autodiff(ptr @stencil, ptr @enzyme_dup, ptr %u, ptr %du, ptr @enzyme_const, i32 %n, ptr @enzyme_const, i32 %steps)
  %r2 = call double (ptr, ...) @__enzyme_autodiff(ptr @guarded, ptr @enzyme_dup, ptr %u, ptr %du, ptr @enzyme_const, i32 %n, ptr @enzyme_const, i32 %steps)
  ret void
}

; REMARK: reverse sweep of 'stencil' caches 1 value(s), 8 bytes per iteration of this loop: an element of 'u';{{$}}
; REMARK-NOT: reverse sweep of 'stencil' caches {{.*}} per iteration

; CHECK-LABEL: define internal void @stencil.tapestry.rev
; One reservation, of the whole nest's records, before the loops.
; CHECK: call void @tapestry.tape.reserve(ptr {{.*}}%tape, i64 %{{.*}}, i64 0)
; CHECK-NOT: call void @tapestry.tape.reserve
; CHECK: store double %h, ptr
; CHECK-NOT: store double %m, ptr
; CHECK-NOT: call void @tapestry.tape.reserve
; The inner loop's reverse starts from its exit count, (1 smax %n) - 1,
; not from a counter cached per outer iteration; its addresses are the
; 64-bit counter itself (before, a shl/ashr pair of it).
; CHECK: rev.inner:
; CHECK-NEXT: phi i64
; CHECK-NEXT: %[[K:.*]] = phi i64
; CHECK-NEXT: %"p'.re" = getelementptr inbounds double, ptr %"u'", i64 %[[K]]
; CHECK: %h.tape = load double
; CHECK: %c.re = fmul double %h.tape, 1.000000e-02
; CHECK-NEXT: %m.re = fadd double %c.re, 1.000000e+00
; CHECK: rev.outer.latch:
; CHECK-NOT: load i64
; CHECK: br label %rev.inner
; CHECK: ret void

; The inner loop runs only in even outer iterations: the count from entry
; bounds its records from above (capped reservation), and its trip count,
; known where it starts, makes room for all of its records in its
; preheader, so its body checks nothing.
; GUARDED-LABEL: define internal void @guarded.tapestry.rev
; GUARDED: call void @tapestry.tape.reserve(ptr {{.*}}%tape, i64 %{{.*}}, i64 0)
; GUARDED: inner.preheader:
; GUARDED: call void @tapestry.tape.reserve(ptr {{.*}}%tape, i64 %{{.*}}, i64 {{[1-9][0-9]*}})
; GUARDED: inner:
; GUARDED-NOT: call void @tapestry.tape.reserve
; GUARDED: outer.latch:
; GUARDED: ret void
