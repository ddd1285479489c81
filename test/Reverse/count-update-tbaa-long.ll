; An integer count updated in place where the type analysis also sees a
; double (a std::list's header keeps its element count where a node keeps
; its value, and an iterator may reach either): the count's accesses carry
; TBAA's `long`, and an integer free of a float's bits added to it is a
; count, not a double's bits changed by integer arithmetic
; (SupportedInstructions::isCountUpdate). The same load flipped by xor
; (Inputs/count-flipped-tbaa-long.ll) stays an error. End to end:
; test/Integration/cxx-list-local-counted-iterator.cpp,
; test/Errors/float-bits-flipped-through-long-pointer.c.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
; RUN: not %opt -passes=tapestry -S %S/Inputs/count-flipped-tbaa-long.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=FLIP
; CHECK-LABEL: define internal void @counted.tapestry.rev_
; CHECK: add i64 %{{.*}}, %k
; FLIP: cannot differentiate 'flipped': an active floating-point value is reinterpreted as a long here

@enzyme_dup = external global i32
@enzyme_const = external global i32
declare void @__enzyme_autodiff(ptr, ...)

; An iterator that may be x or x[2] reads a double; x[2]'s 8 bytes are also
; a count, += k.
define double @counted(ptr %x, i64 %k, i1 %c) {
  %at = getelementptr inbounds i8, ptr %x, i64 16
  %it = select i1 %c, ptr %x, ptr %at
  %v = load double, ptr %it, align 8, !tbaa !4
  %n = load i64, ptr %at, align 8, !tbaa !1
  %m = add i64 %n, %k
  store i64 %m, ptr %at, align 8, !tbaa !1
  %a = load double, ptr %x, align 8, !tbaa !4
  %s = fmul double %a, %v
  ret double %s
}

define void @grad(ptr %x, ptr %dx, i64 %k, i1 %c) {
  %dup = load i32, ptr @enzyme_dup
  %const = load i32, ptr @enzyme_const
  call void (ptr, ...) @__enzyme_autodiff(ptr @counted, i32 %dup, ptr %x, ptr %dx, i32 %const, i64 %k, i32 %const, i1 %c)
  ret void
}

!0 = !{!"Simple C++ TBAA"}
!1 = !{!2, !2, i64 0}
!2 = !{!"long", !3, i64 0}
!3 = !{!"omnipotent char", !0, i64 0}
!4 = !{!5, !5, i64 0}
!5 = !{!"double", !3, i64 0}
