; A choice between two pointers made through their addresses as integers
; (a select of two ptrtoint, then inttoptr: std::minmax_element's pair of
; iterators after the simplifier, or code keeping uintptr_t addresses with
; 0 for "none"). Primal preparation makes the choice between the pointers
; themselves, so the load has the chosen pointer's shadow; an integer 0 is
; null. End to end: test/Integration/integer-address-choice.c.
; RUN: %opt -passes=tapestry -tapestry-print-prepared -disable-output %s 2>&1 | FileCheck %s
declare void @__enzyme_autodiff(...)
@enzyme_dup = external global i32

define double @pick(ptr %x, i1 %c, i1 %none) {
  %p = getelementptr inbounds double, ptr %x, i64 1
  %a = ptrtoint ptr %x to i64
  %b = ptrtoint ptr %p to i64
  %s = select i1 %c, i64 %a, i64 %b
  %t = select i1 %none, i64 0, i64 %s
  %q = inttoptr i64 %t to ptr
  %v = load double, ptr %q
  %m = fmul double %v, %v
  ret double %m
}

define void @caller(ptr %x, ptr %dx, i1 %c, i1 %none) {
  %dup = load i32, ptr @enzyme_dup
  call void (...) @__enzyme_autodiff(ptr @pick, i32 %dup, ptr %x, ptr %dx, i1 %c, i1 %none)
  ret void
}

; CHECK-LABEL: define internal double @pick.tapestry.primal(
; CHECK-NOT: inttoptr
; CHECK: %[[S:[^ ]*]] = select i1 %c, ptr %x, ptr %p
; CHECK: %[[T:[^ ]*]] = select i1 %none, ptr null, ptr %[[S]]
; CHECK-NOT: inttoptr
; CHECK: load double, ptr %[[T]]
