; A block freed on one path and handed to the caller on the other: the
; free stays in the forward sweep (where it lists the shadow), and the
; reverse frees the shadow only if the forward sweep freed the block.
; Before, the free was deferred to the reverse, which freed the block and
; its shadow where it undid the allocation, on both paths: the caller's
; block and shadow were freed (end to end in
; Integration/block-freed-on-some-paths.c and the std::map node of
; Integration/cxx-map-local-opt-path.cpp).
; @g keeps the address as an integer (uintptr_t): it may be freed
; elsewhere too, so its free stays in the forward sweep as well (found in
; review).
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
declare void @__enzyme_autodiff(...)
declare ptr @malloc(i64)
declare void @free(ptr)
@enzyme_dup = external global i32
@enzyme_const = external global i32

; f = x^2 * 3 through p; p is freed if %drop, else handed back in *out.
define double @f(ptr %x, ptr %out, i1 %drop) {
entry:
  %p = call ptr @malloc(i64 8)
  %x0 = load double, ptr %x
  %sq = fmul double %x0, %x0
  store double %sq, ptr %p
  %v = load double, ptr %p
  %r = fmul double %v, 3.0
  br i1 %drop, label %free, label %keep
free:
  call void @free(ptr %p)
  br label %exit
keep:
  store ptr %p, ptr %out
  br label %exit
exit:
  ret double %r
}

define void @grad(ptr %x, ptr %dx, ptr %out, ptr %dout, i1 %drop) {
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  call void (...) @__enzyme_autodiff(ptr @f, i32 %d, ptr %x, ptr %dx, i32 %d, ptr %out, ptr %dout, i32 %c, i1 %drop)
  ret void
}

; The same, handed back as an integer address.
define double @g(ptr %x, ptr %out, i1 %drop) {
entry:
  %p = call ptr @malloc(i64 8)
  %x0 = load double, ptr %x
  %sq = fmul double %x0, %x0
  store double %sq, ptr %p
  %v = load double, ptr %p
  %r = fmul double %v, 3.0
  br i1 %drop, label %free, label %keep
free:
  call void @free(ptr %p)
  br label %exit
keep:
  %a = ptrtoint ptr %p to i64
  store i64 %a, ptr %out
  br label %exit
exit:
  ret double %r
}

define void @gradg(ptr %x, ptr %dx, ptr %out, ptr %dout, i1 %drop) {
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  call void (...) @__enzyme_autodiff(ptr @g, i32 %d, ptr %x, ptr %dx, i32 %d, ptr %out, ptr %dout, i32 %c, i1 %drop)
  ret void
}

; CHECK-LABEL: define internal void @g.tapestry.rev_ddc_ra(
; CHECK:       free:
; CHECK-NEXT:    call void @tapestry.freed.push(ptr nonnull %"p'", i64 0, i64 0, i64 0)
; CHECK-NEXT:    call void @free(ptr %p)
; CHECK:       rev.entry:
; CHECK-NOT:     call void @free(ptr %p)
; CHECK:         ret void

; CHECK-LABEL: define internal void @f.tapestry.rev_ddc_ra(
; CHECK:       free:
; CHECK-NEXT:    call void @tapestry.freed.push(ptr nonnull %"p'", i64 0, i64 0, i64 0)
; CHECK-NEXT:    call void @free(ptr %p)
; CHECK:       keep:
; CHECK-NEXT:    store ptr %p, ptr %out
; CHECK-NEXT:    store ptr %"p'", ptr %"out'"
; CHECK:       rev.entry:
; CHECK:         %[[LISTED:[0-9]+]] = call i1 @tapestry.freed.take(ptr nonnull %"p'")
; CHECK-NEXT:    %[[S:[0-9]+]] = select i1 %[[LISTED]], ptr %"p'", ptr null
; CHECK-NEXT:    call void @free(ptr %[[S]])
; CHECK-NOT:     call void @free(ptr %p)
; CHECK:         ret void
