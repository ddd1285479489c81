; A thunk whose split uses implicit shadows of globals: its augmented
; forward is a wrapper that zeroes them first, as a request's call site
; does (Reverse/global-shadows-zeroed-per-request.ll), so the thunk's
; reverse never reads a forward call's tangents as seeds (28 for 12; end
; to end in Integration/global-shadows-between-requests.c).
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
declare ptr @__tapestry_thunk(...)
@enzyme_out = external global i32
@work = global double 0.0
define double @cube(double %x) {
  %sq = fmul double %x, %x
  store double %sq, ptr @work
  %w = load double, ptr @work
  %r = fmul double %w, %x
  ret double %r
}
define ptr @thunk() {
  %o = load i32, ptr @enzyme_out
  %t = call ptr (...) @__tapestry_thunk(ptr @cube, i32 %o)
  ret ptr %t
}

; CHECK: @cube.tapestry.split_a_ra.thunk = private constant { ptr, ptr, ptr, i64, i32 } { ptr @cube.tapestry.split_a_ra.thunk.augmented, ptr @cube.tapestry.split_a_ra.thunk.reverse,
; CHECK-LABEL: define internal double @cube.tapestry.split_a_ra.thunk.augmented(double %0, ptr %1)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr align 8 @work.tapestry.shadow, i8 0, i64 8, i1 false)
; CHECK-NEXT:    %2 = call double @cube.tapestry.split_a_ra.augmented(double %0, ptr %1)
; CHECK-NEXT:    ret double %2
