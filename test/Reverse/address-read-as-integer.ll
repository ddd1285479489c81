; An address read back as an integer from memory with a shadow and cast to
; a pointer (a uintptr_t kept in a record): its shadow is the same integer
; read from the shadow memory, where the store of ptrtoint put the
; shadow's address (Reverse/address-stored-as-integer.ll). Before, the cast
; had no shadow and the derivative through it was lost without an error
; (found in review; end to end in Integration/address-kept-as-integer.c).
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
declare void @__enzyme_autodiff(...)
@enzyme_dup = external global i32

; The record holds the address of x as an integer; @square reads it back
; as an integer and casts it.
define internal double @square(ptr %closure) noinline {
  %i = load i64, ptr %closure
  %p = inttoptr i64 %i to ptr
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

; CHECK-LABEL: define internal double @square.tapestry.split_d_ra.augmented(
; CHECK:         %i = load i64, ptr %closure
; CHECK-NEXT:    %"i'" = load i64, ptr %"closure'"
; CHECK-NEXT:    %"p'" = inttoptr i64 %"i'" to ptr
; CHECK-LABEL: define internal void @square.tapestry.split_d_ra.reverse(
; CHECK:         %[[A:[0-9]+]] = load double, ptr %"p'.tape"
; CHECK:         store double %{{[0-9]+}}, ptr %"p'.tape"
