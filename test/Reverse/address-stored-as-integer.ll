; An address stored into shadowed memory as an integer (store i64
; ptrtoint(P)): optimised code stores a lambda's captured reference so in
; std::function's storage. The shadow memory gets P's shadow as the same
; integer, in reverse and forward mode; before, it kept its zero and the
; callee reading the address back used a null shadow (a segfault in
; probe21a C2, end to end in Integration/cxx-vector-of-functions-opt-path.cpp).
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
declare void @__enzyme_autodiff(...)
declare double @__enzyme_fwddiff(...)
@enzyme_dup = external global i32

; The closure holds the address of x as an integer; @square reads it back.
define internal double @square(ptr %closure) noinline {
  %p = load ptr, ptr %closure
  %v = load double, ptr %p
  %r = fmul double %v, %v
  ret double %r
}

define double @f(ptr %x) {
  %closure = alloca i64
  %i = ptrtoint ptr %x to i64
  store i64 %i, ptr %closure
  %r = call double @square(ptr %closure)
  ret double %r
}

define void @grad(ptr %x, ptr %dx) {
  %d = load i32, ptr @enzyme_dup
  call void (...) @__enzyme_autodiff(ptr @f, i32 %d, ptr %x, ptr %dx)
  ret void
}

define double @tangent(ptr %x, ptr %tx) {
  %d = load i32, ptr @enzyme_dup
  %t = call double (...) @__enzyme_fwddiff(ptr @f, i32 %d, ptr %x, ptr %tx)
  ret double %t
}

; CHECK-LABEL: define internal void @f.tapestry.rev_d_ra(
; CHECK:         store i64 %i, ptr %closure
; CHECK-NEXT:    %"i'" = ptrtoint ptr %"x'" to i64
; CHECK-NEXT:    store i64 %"i'", ptr %"closure'"
; CHECK-NEXT:    call { ptr, double } @square.tapestry.split_d_ra.call.fwd(ptr nonnull %closure, ptr nonnull %"closure'")

; CHECK-LABEL: define internal double @f.tapestry.fwd_d_ra(
; CHECK:         store i64 %i, ptr %closure
; CHECK-NEXT:    %"i'" = ptrtoint ptr %"x'" to i64
; CHECK-NEXT:    store i64 %"i'", ptr %"closure'"
; CHECK-NEXT:    call { double, double } @square.tapestry.fwd_d_ra_rp(ptr nonnull %closure, ptr nonnull %"closure'")
