; The IR shape of the new entry points and markers.
; - __enzyme_fwdsplit: the forward derivative (run on the values again),
;   after releasing the tape of the augmented forward it came from (its
;   release function, guarded against a null tape, then free).
; - __enzyme_batch: one call of the primal per lane, results gathered.
; - enzyme_interleave: shadows after the values, in the same order.
; - enzyme_runtime_activity: a shadow equal to its value stops the program;
;   pointers reached through the arguments are tested at run time.
; - Enzyme's type hints (__enzyme_double) are dropped.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
; CHECK: c"tapestry: the call to __enzyme_autodiff passes the same pointer as the value and the shadow of parameter 1 of 'axpy' with enzyme_runtime_activity
declare { ptr, double } @__enzyme_augmentfwd(...)
declare double @__enzyme_fwdsplit(...)
declare [4 x double] @__enzyme_batch(...)
declare void @__enzyme_fwddiff(...)
declare void @__enzyme_autodiff(...)
declare void @__enzyme_double(ptr, i64)
@enzyme_dup = external global i32
@enzyme_const = external global i32
@enzyme_width = external global i32
@enzyme_vector = external global i32
@enzyme_scalar = external global i32
@enzyme_interleave = external global i32
@enzyme_runtime_activity = external global i32

define double @sumsq(ptr %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %p = getelementptr double, ptr %x, i64 %i
  %v = load double, ptr %p
  %sq = fmul double %v, %v
  %s.next = fadd double %s, %sq
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret double %s.next
}

; CHECK-LABEL: define double @fwdsplit(
; CHECK: %[[TAPE:.+]] = call ptr @malloc(
; CHECK: call double @sumsq.tapestry.split_dc_ra.augmented(ptr %x, ptr %dx, i64 %n, ptr %[[TAPE]])
; CHECK: %tape = extractvalue
; CHECK-NEXT: %[[LIVE:.+]] = icmp ne ptr %tape, null
; CHECK-NEXT: br i1 %[[LIVE]]
; CHECK: call void @sumsq.tapestry.split_dc_ra.release(ptr %tape)
; CHECK: call void @free(ptr %tape)
; CHECK-NEXT: %[[T:.+]] = call double @sumsq.tapestry.fwd_dc_ra(ptr %x, ptr %dx, i64 %n)
; CHECK-NEXT: ret double %[[T]]
define double @fwdsplit(ptr %x, ptr %dx, i64 %n) {
  %aug = call { ptr, double } (...) @__enzyme_augmentfwd(ptr @sumsq, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_const, i64 %n)
  %tape = extractvalue { ptr, double } %aug, 0
  %t = call double (...) @__enzyme_fwdsplit(ptr @sumsq, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_const, i64 %n, ptr %tape)
  ret double %t
}

define double @square_add(double %x, double %y) {
  %m = fmul double %x, %x
  %a = fadd double %m, %y
  ret double %a
}

; CHECK-LABEL: define [4 x double] @batch(
; CHECK-NEXT: %[[L0:.+]] = call double @square_add(double %a, double %y)
; CHECK-NEXT: %[[R0:.+]] = insertvalue [4 x double] poison, double %[[L0]], 0
; CHECK-NEXT: %[[L1:.+]] = call double @square_add(double %b, double %y)
; CHECK-NEXT: %[[R1:.+]] = insertvalue [4 x double] %[[R0]], double %[[L1]], 1
; CHECK-NEXT: %[[L2:.+]] = call double @square_add(double %c, double %y)
; CHECK-NEXT: %[[R2:.+]] = insertvalue [4 x double] %[[R1]], double %[[L2]], 2
; CHECK-NEXT: %[[L3:.+]] = call double @square_add(double %d, double %y)
; CHECK-NEXT: %[[R3:.+]] = insertvalue [4 x double] %[[R2]], double %[[L3]], 3
; CHECK-NEXT: ret [4 x double] %[[R3]]
define [4 x double] @batch(double %a, double %b, double %c, double %d, double %y) {
  %r = call [4 x double] (...) @__enzyme_batch(ptr @square_add, ptr @enzyme_width, i64 4, ptr @enzyme_vector, double %a, double %b, double %c, double %d, ptr @enzyme_scalar, double %y)
  ret [4 x double] %r
}

define void @axpy(ptr %x, ptr %y) {
  %v = load double, ptr %x
  %w = load double, ptr %y
  %s = fmul double %v, %w
  store double %s, ptr %y
  ret void
}

; CHECK-LABEL: define void @interleaved(
; CHECK-NEXT: call void @axpy.tapestry.fwd_dd(ptr %x, ptr %dx, ptr %y, ptr %dy)
define void @interleaved(ptr %x, ptr %y, ptr %dx, ptr %dy) {
  call void (...) @__enzyme_fwddiff(ptr @axpy, ptr @enzyme_dup, ptr %x, ptr %y, ptr @enzyme_interleave, ptr %dx, ptr %dy)
  ret void
}

; CHECK-LABEL: define void @runtime_activity(
; CHECK: %[[SAME:.+]] = icmp eq ptr %x, %dx
; CHECK-NEXT: br i1 %[[SAME]]
; CHECK: call void @abort()
; CHECK: icmp eq ptr %y, %dy
; Pointers read through the arguments are tested at run time (their memory
; and what it reaches: 2 + 4 per argument).
; CHECK: call void @axpy.tapestry.rev_dd_rt66(ptr %x, ptr %dx, ptr %y, ptr %dy)
define void @runtime_activity(ptr %x, ptr %dx, ptr %y, ptr %dy) {
  call void (...) @__enzyme_autodiff(ptr @axpy, ptr @enzyme_runtime_activity, ptr %x, ptr %dx, ptr %y, ptr %dy)
  ret void
}

; CHECK-LABEL: define void @hint(
; CHECK-NEXT: ret void
define void @hint(ptr %p) {
  call void @__enzyme_double(ptr %p, i64 8)
  ret void
}
