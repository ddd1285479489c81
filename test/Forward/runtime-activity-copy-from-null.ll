; Run-time activity: a copy from null copies nothing, so it writes no
; constant-pointer markers into its destination. (What realloc from a null
; pointer becomes when lowered: the first growth of an inner reverse
; derivative's loop records, which forward over reverse then differentiates.)
; Taken for a copy of pointers without shadows, it marked @f's table as
; maybe holding constant pointers, and the pointer read back from it could
; not be passed to @g: "argument 1 of this call is a pointer read from
; memory that also holds pointers to constant data".
; RUN: %opt -passes=tapestry,verify -S %s 2>&1 | FileCheck %s
; CHECK-NOT: error:
; The pointer read back from the table is passed with its shadow, no
; run-time test of shadow == value:
; CHECK-LABEL: define internal double @f.tapestry.fwd_dc_ra(
; CHECK: %p = load ptr, ptr %tbl
; CHECK-NEXT: %"p'" = load ptr, ptr %"tbl'"
; CHECK-NEXT: call { double, double } @g.tapestry.fwd_d_ra_rp(ptr %p, ptr %"p'")
declare double @__enzyme_fwddiff(...)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
@enzyme_dup = external global i32
@enzyme_const = external global i32

define internal double @g(ptr %p) noinline {
  %v = load double, ptr %p
  %m = fmul double %v, %v
  ret double %m
}

define double @f(ptr %tbl, i64 %n) {
  call void @llvm.memcpy.p0.p0.i64(ptr %tbl, ptr null, i64 %n, i1 false)
  %p = load ptr, ptr %tbl
  %r = call double @g(ptr %p)
  ret double %r
}

define double @test(ptr %tbl, ptr %dtbl, i64 %n) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, ptr @enzyme_dup, ptr %tbl, ptr %dtbl, ptr @enzyme_const, i64 %n)
  ret double %r
}
