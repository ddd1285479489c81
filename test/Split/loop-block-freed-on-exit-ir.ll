; A block allocated in each iteration and freed both at the end of the
; iteration and on the path leaving the loop (`if (s > thr) { free(b);
; break; }`): neither free waits for the reverse (isDeferredFree), so the
; forward half frees the block on both paths and the reverse frees only
; the shadows it takes back. Before, the latch's free was deferred to the
; reverse, which then also freed the block the break path had freed (a
; double free, split21 probe F1; end to end in
; Integration/loop-block-freed-on-break.c).
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
declare ptr @__tapestry_thunk(...)
declare ptr @malloc(i64)
declare void @free(ptr)
declare double @llvm.sin.f64(double)
@enzyme_dup = external global i32
@enzyme_const = external global i32

; s = sum_i b[i & 1] * sin(x_i) with b = {x_i^2, sin(x_i)}, until s > thr.
define double @e1(ptr %x, i64 %n, double %thr) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %latch ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %latch ]
  %b = call ptr @malloc(i64 16)
  %xi = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %xi
  %sq = fmul double %v, %v
  store double %sq, ptr %b
  %sn = call double @llvm.sin.f64(double %v)
  %b1 = getelementptr inbounds double, ptr %b, i64 1
  store double %sn, ptr %b1
  %k = and i64 %i, 1
  %bk = getelementptr inbounds double, ptr %b, i64 %k
  %l0 = load double, ptr %bk
  %l1 = load double, ptr %b1
  %p = fmul double %l0, %l1
  %s.next = fadd double %s, %p
  %over = fcmp ogt double %s.next, %thr
  br i1 %over, label %leave, label %latch
leave:
  call void @free(ptr %b)
  br label %exit
latch:
  call void @free(ptr %b)
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  %r = phi double [ %s.next, %leave ], [ %s.next, %latch ]
  ret double %r
}

define ptr @thunk() {
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %t = call ptr (...) @__tapestry_thunk(ptr @e1, i32 %d, i32 %c, i32 %c)
  ret ptr %t
}

; CHECK-LABEL: define internal double @e1.tapestry.split_dcc_ra.augmented(
; CHECK:       leave:
; CHECK-NEXT:    call void @tapestry.freed.push(ptr %"b'", i64 0, i64 0, i64 0)
; CHECK-NEXT:    call void @free(ptr %b)
; CHECK:       latch:
; CHECK-NEXT:    call void @tapestry.freed.push(ptr %"b'", i64 0, i64 0, i64 0)
; CHECK-NEXT:    call void @free(ptr %b)
; CHECK-LABEL: define internal void @e1.tapestry.split_dcc_ra.reverse(
; CHECK-NOT:     call void @free(ptr %b.tape
; CHECK:         call void @free(ptr %"b'.tape
; CHECK-NOT:     call void @free(ptr %b.tape
; CHECK-LABEL: define internal void @e1.tapestry.split_dcc_ra.release(
