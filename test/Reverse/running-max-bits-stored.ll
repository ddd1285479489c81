; A running maximum of doubles carried as i64 (the bits, each element read
; as an integer and compared as a double), stored as an integer after the
; loop: the stored value is the loop-closing phi of the header's integer
; phi, which only the header phi's bitcast to double says holds a double.
; The store stores the doubles' choice (a phi of the double loads and
; selects); was "this store copies memory that may hold floating-point
; data as an integer ... chosen among values read on different paths"
; (review34). Then a run against analytic values:
;   acc = sum_{i=1..n} m_i^2 with m_i the maximum of a[0..i), out = m_n.
; RUN: %opt -passes=tapestry -S %s -o %t.ll
; RUN: FileCheck %s --input-file=%t.ll
; RUN: %plain_cc -O1 -Wno-override-module %t.ll %S/Inputs/running-max-bits-main.c -o %t && %t | FileCheck %s --check-prefix=EXEC
; EXEC-NOT: FAIL
; EXEC: ALL PASSED
; CHECK-LABEL: define internal {{.*}} @f.tapestry.rev
; CHECK-NOT: store i64 {{.*}}, ptr %out
; CHECK: store double {{.*}}, ptr %out
; CHECK: ret void

@enzyme_dup = external global i32
@enzyme_const = external global i32
declare void @__enzyme_autodiff(ptr, ...)

define double @f(ptr %a, ptr %out, i64 %n) {
entry:
  %l0 = load i64, ptr %a, align 8
  br label %loop
loop:
  %i = phi i64 [ 1, %entry ], [ %i1, %latch ]
  %m = phi i64 [ %l0, %entry ], [ %m1, %latch ]
  %acc = phi double [ 0.0, %entry ], [ %acc1, %latch ]
  %md = bitcast i64 %m to double
  %sq = fmul double %md, %md
  %acc1 = fadd double %acc, %sq
  %done = icmp uge i64 %i, %n
  br i1 %done, label %exit, label %body
body:
  %p = getelementptr inbounds double, ptr %a, i64 %i
  %li = load i64, ptr %p, align 8
  %ld = bitcast i64 %li to double
  %gt = fcmp ogt double %ld, %md
  %m1 = select i1 %gt, i64 %li, i64 %m
  br label %latch
latch:
  %i1 = add i64 %i, 1
  br label %loop
exit:
  store i64 %m, ptr %out, align 8
  ret double %acc1
}

define void @grad_f(ptr %a, ptr %da, ptr %out, ptr %dout, i64 %n) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @enzyme_dup, ptr %a, ptr %da, ptr @enzyme_dup, ptr %out, ptr %dout, ptr @enzyme_const, i64 %n)
  ret void
}
