; Forward mode with enzyme_dupnoneed on memory the function reads only to
; update itself with sums (a gradient accumulated in place): no derivative
; needs its primal values, so the derivative neither loads nor stores
; through the primal pointer (Enzyme's sparse Hessians pass (double *)0x1
; there), in the callee it is passed to as well; the tangent's updates stay.
; A product (%sq) uses the value and keeps the primal accesses.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s

@enzyme_dupnoneed = external global i32
@enzyme_dup = external global i32

define void @acc(ptr %g, double %x) noinline {
  %sq = fmul double %x, %x
  %old = load double, ptr %g
  %new = fadd double %old, %sq
  store double %new, ptr %g
  ret void
}

define void @outer(ptr %g, double %x) {
  call void @acc(ptr %g, double %x)
  %p1 = getelementptr inbounds double, ptr %g, i64 1
  %o1 = load double, ptr %p1
  %n1 = fsub double %o1, %x
  store double %n1, ptr %p1
  ret void
}

define void @squares(ptr %g, double %x) {
  %old = load double, ptr %g
  %sq = fmul double %old, %x
  store double %sq, ptr %g
  ret void
}

define void @run(ptr %g, ptr %dg, double %x) {
  %n = load i32, ptr @enzyme_dupnoneed
  call void (ptr, ...) @__enzyme_fwddiff(ptr @outer, i32 %n, ptr inttoptr (i64 1 to ptr), ptr %dg, double %x, double 1.0)
  call void (ptr, ...) @__enzyme_fwddiff(ptr @squares, i32 %n, ptr %g, ptr %dg, double %x, double 1.0)
  ret void
}

declare void @__enzyme_fwddiff(ptr, ...)

; CHECK-LABEL: define internal void @outer.tapestry.fwd_nd(ptr %g, ptr %"g'", double %x, double %"x'")
; CHECK-NEXT:    call void @acc.tapestry.fwd_nd(ptr %g, ptr %"g'", double %x, double %"x'")
; CHECK-NEXT:    [[P1:%.*]] = getelementptr inbounds i8, ptr %"g'", i64 8
; CHECK-NEXT:    [[O1:%.*]] = load double, ptr [[P1]]
; CHECK-NEXT:    [[N1:%.*]] = fsub double [[O1]], %"x'"
; CHECK-NEXT:    store double [[N1]], ptr [[P1]]
; CHECK-NEXT:    ret void

; CHECK-LABEL: define internal void @acc.tapestry.fwd_nd(ptr %g, ptr %"g'", double %x, double %"x'")
; CHECK-NOT:     ptr %g{{[,]}}
; CHECK:         [[OLD:%.*]] = load double, ptr %"g'"
; CHECK-NEXT:    [[NEW:%.*]] = fadd double [[OLD]], %"sq'"
; CHECK-NEXT:    store double [[NEW]], ptr %"g'"
; CHECK-NEXT:    ret void

; CHECK-LABEL: define internal void @squares.tapestry.fwd_nd(
; CHECK:         load double, ptr %g,
; CHECK:         store double %sq, ptr %g,
