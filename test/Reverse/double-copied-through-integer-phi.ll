; A double copied through an integer phi: on one path the value is a
; loaded double's bits, on the other an i64 load of another double, and
; the phi is stored as i64 (the -O3 pipeline's shape of `a[2] = c ? a[1] :
; a[0]` next to arithmetic on a[0]). Was "a double is reinterpreted as a
; long here" (fuzz seed 14198, staged -O3 -march=native); the phi is one of
; doubles now, and the copy carries its derivative. Shapes, then a run:
; r = y * x0 with y = c ? x1 : x0 (stored to x2 and read back).
; RUN: %opt -passes=tapestry -S %s -o %t.ll
; RUN: FileCheck %s --input-file=%t.ll
; RUN: %plain_cc -O1 -Wno-override-module %t.ll %S/Inputs/integer-phi-main.c -lm -o %t && %t | FileCheck %s --check-prefix=EXEC
; EXEC-NOT: FAIL
; EXEC: ALL PASSED
; CHECK-LABEL: define internal void @copy.tapestry.rev_dc_ra(
; CHECK-NOT: bitcast double
; CHECK: ret void

@enzyme_dup = external global i32
@enzyme_const = external global i32
declare void @__enzyme_autodiff(ptr, ...)

define double @copy(ptr %x, i32 %c) {
entry:
  %a = load double, ptr %x, align 8
  %ai = bitcast double %a to i64
  %x1 = getelementptr inbounds i8, ptr %x, i64 8
  %x2 = getelementptr inbounds i8, ptr %x, i64 16
  %t = icmp ne i32 %c, 0
  br i1 %t, label %other, label %join
other:
  %b = load i64, ptr %x1, align 8
  br label %join
join:
  %p = phi i64 [ %ai, %entry ], [ %b, %other ]
  store i64 %p, ptr %x2, align 8
  %y = load double, ptr %x2, align 8
  %r = fmul double %y, %a
  ret double %r
}

define void @grad_copy(ptr %x, ptr %dx, i32 %c) {
  %dup = load i32, ptr @enzyme_dup
  %const = load i32, ptr @enzyme_const
  call void (ptr, ...) @__enzyme_autodiff(ptr @copy, i32 %dup, ptr %x, ptr %dx, i32 %const, i32 %c)
  ret void
}
