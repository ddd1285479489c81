; An active value stored through a pointer read from a table that holds an
; active pointer (%w) and an enzyme_const one (%seq), then read back: the
; derivative tests at the store, in reverse and forward mode, whether the
; pointer's shadow is the pointer itself (it points to the constant data),
; and stops there with the reason (tapestry.fail.if) instead of dropping the
; stored value's derivative; it is not a compile error.
; End to end: test/Integration/runtime-activity-constant-store.c.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
@enzyme_dup = external global i32
@enzyme_const = external global i32

declare ptr @malloc(i64)
declare void @free(ptr)
declare void @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)

define double @stored(ptr %w, ptr %seq, i32 %k) {
entry:
  %rows = call noalias ptr @malloc(i64 16)
  store ptr %w, ptr %rows, align 8
  %slot1 = getelementptr inbounds i8, ptr %rows, i64 8
  store ptr %seq, ptr %slot1, align 8
  %pw1 = getelementptr inbounds i8, ptr %w, i64 8
  %w1 = load double, ptr %pw1, align 8
  %sq = fmul double %w1, %w1
  %idx = sext i32 %k to i64
  %prow = getelementptr inbounds ptr, ptr %rows, i64 %idx
  %row = load ptr, ptr %prow, align 8
  store double %sq, ptr %row, align 8
  %back = load double, ptr %row, align 8
  %w0 = load double, ptr %w, align 8
  %s = fmul double %back, %w0
  call void @free(ptr %rows)
  ret double %s
}

define void @grad(ptr %w, ptr %dw, ptr %seq, i32 %k) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @stored, ptr @enzyme_dup, ptr %w, ptr %dw, ptr @enzyme_const, ptr %seq, ptr @enzyme_const, i32 %k)
  ret void
}

define double @tangent(ptr %w, ptr %dw, ptr %seq, i32 %k) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @stored, ptr @enzyme_dup, ptr %w, ptr %dw, ptr @enzyme_const, ptr %seq, ptr @enzyme_const, i32 %k)
  ret double %d
}

; CHECK: @tapestry.constant.store = private unnamed_addr constant {{.*}} c"tapestry: in the derivative of 'stored', an active value is stored through a pointer to constant data

; CHECK-LABEL: define internal void @stored.tapestry.rev_dcc_ra(
; CHECK: %row = load ptr, ptr %prow
; CHECK-NEXT: %"row'" = load ptr, ptr %"prow'"
; CHECK-NEXT: %shadow.is.primal = icmp eq ptr %"row'", %row
; CHECK-NEXT: call void @tapestry.fail.if(i1 %shadow.is.primal, ptr nonnull @tapestry.constant.store, i64 301)
; CHECK-NEXT: store double %sq, ptr %row

; CHECK-LABEL: define internal void @tapestry.fail.if(i1 %0, ptr %1, i64 %2)
; CHECK-NEXT: entry:
; CHECK-NEXT: br i1 %0, label %fail, label %done
; CHECK: call i64 @write(i32 2, ptr %1, i64 %2)
; CHECK-NEXT: call void @abort()

; CHECK-LABEL: define internal double @stored.tapestry.fwd_dcc_ra(
; CHECK: %shadow.is.primal = icmp eq ptr %"row'", %row
; CHECK-NEXT: call void @tapestry.fail.if(i1 %shadow.is.primal, ptr nonnull @tapestry.constant.store.{{[0-9]+}}, i64 301)
; CHECK-NEXT: store double %sq, ptr %row
