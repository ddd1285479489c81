; Runtime activity (plugin/Analysis/RuntimeActivity.h): a constant pointer
; (%seq, enzyme_const) stored into shadowed memory beside an active one gets
; itself as its shadow, and a pointer read back from that memory is tested
; at run time (shadow == primal: constant). In reverse mode the adjoint of a
; load through it is not accumulated and the store's adjoint is neither read
; nor cleared in constant memory; in forward mode the tangent of a load is
; zero and the tangent store is skipped. A function that stores only active
; pointers pays nothing: no test.
;
; DEFINE: %{fc} = FileCheck %s --input-file=%t
; RUN: %opt -passes=tapestry -S %s -o %t
; RUN: %{fc} --check-prefix=REV
; RUN: %{fc} --check-prefix=FWD
; RUN: %{fc} --check-prefix=ACTIVE
@enzyme_dup = external global i32
@enzyme_const = external global i32

declare void @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)

; A constant pointer (%seq, enzyme_const) stored into shadowed memory beside
; an active one, read back at a run-time index and used in active arithmetic.
define double @table(ptr %w, ptr %seq, ptr %rows, i64 %i) {
  store ptr %seq, ptr %rows
  %slot1 = getelementptr ptr, ptr %rows, i64 1
  store ptr %w, ptr %slot1
  %slot = getelementptr ptr, ptr %rows, i64 %i
  %p = load ptr, ptr %slot
  %x = load double, ptr %p
  %wv = load double, ptr %w
  %r = fmul double %x, %wv
  store double 1.0, ptr %p
  ret double %r
}

; Only active pointers stored: no run-time test.
define double @active_only(ptr %w, ptr %rows, i64 %i) {
  store ptr %w, ptr %rows
  %slot = getelementptr ptr, ptr %rows, i64 %i
  %p = load ptr, ptr %slot
  %x = load double, ptr %p
  %r = fmul double %x, %x
  ret double %r
}

define void @rev(ptr %w, ptr %dw, ptr %seq, ptr %rows, ptr %drows, i64 %i) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @table, ptr @enzyme_dup, ptr %w, ptr %dw, ptr @enzyme_const, ptr %seq, ptr @enzyme_dup, ptr %rows, ptr %drows, ptr @enzyme_const, i64 %i)
  call void (ptr, ...) @__enzyme_autodiff(ptr @active_only, ptr @enzyme_dup, ptr %w, ptr %dw, ptr @enzyme_dup, ptr %rows, ptr %drows, ptr @enzyme_const, i64 %i)
  ret void
}

define double @fwd(ptr %w, ptr %dw, ptr %seq, ptr %rows, ptr %drows, i64 %i) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @table, ptr @enzyme_dup, ptr %w, ptr %dw, ptr @enzyme_const, ptr %seq, ptr @enzyme_dup, ptr %rows, ptr %drows, ptr @enzyme_const, i64 %i)
  ret double %t
}

; REV-LABEL: define internal void @table.tapestry.rev_dcdc_ra(
; The constant pointer's shadow is itself; the active one's is its shadow.
; REV:         store ptr %seq, ptr %rows,
; REV-NEXT:    store ptr %seq, ptr %"rows'",
; REV:         store ptr %"w'", ptr %"slot1'",
; REV:         %p = load ptr, ptr %slot,
; REV-NEXT:    %"p'" = load ptr, ptr %"slot'",
; REV:         %[[CONST:.*]] = icmp eq ptr %"p'", %p
; The store's adjoint is cleared only in shadow memory.
; REV-NEXT:    br i1 %[[CONST]], label %[[SKIP1:.*]], label %[[CLEAR:.*]]
; REV:       [[CLEAR]]:
; REV-NEXT:    store double 0.000000e+00, ptr %"p'",
; The load's adjoint is accumulated only into shadow memory.
; REV:         br i1 %[[CONST]], label %{{.*}}, label %[[READ:.*]]
; REV:       [[READ]]:
; REV-NEXT:    load double, ptr %"p'",
; REV:         br i1 %[[CONST]], label %rev.return, label %[[ACC:.*]]
; REV:       [[ACC]]:
; REV-NEXT:    fadd double
; REV-NEXT:    store double %{{.*}}, ptr %"p'",
; REV-NOT:     store double {{.*}}, ptr %p,
; REV:         ret void

; FWD-LABEL: define internal double @table.tapestry.fwd_dcdc_ra(
; FWD:         store ptr %seq, ptr %"rows'",
; FWD:         %[[T:.*]] = load double, ptr %"p'",
; FWD-NEXT:    %[[CONST:.*]] = icmp eq ptr %"p'", %p
; FWD:         store double 1.000000e+00, ptr %p,
; FWD-NEXT:    br i1 %[[CONST]], label %[[CONT:.*]], label %[[ELSE:.*]]
; FWD:       [[ELSE]]:
; FWD-NEXT:    store double 0.000000e+00, ptr %"p'",
; FWD:       [[CONT]]:
; FWD-NEXT:    %"x'" = phi double [ %[[T]], %[[ELSE]] ], [ 0.000000e+00, %{{.*}} ]

; ACTIVE-LABEL: define internal void @active_only.tapestry.rev_ddc_ra(
; ACTIVE-NOT:     icmp eq ptr
; ACTIVE:         ret void
