; Enzyme's printing options print what Tapestry builds to stderr:
; -enzyme-print each synthesised derivative, -enzyme-print-activity the
; activity of every value of the function differentiated, -enzyme-print-type
; its type analysis, -enzyme-print-perf what the reverse sweep tapes.
;
; RUN: %opt -passes=tapestry -enzyme-print -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=PRINT
; RUN: %opt -passes=tapestry -enzyme-print-activity -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=ACT
; RUN: %opt -passes=tapestry -enzyme-print-type -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=TYPE
; RUN: %opt -passes=tapestry -enzyme-print-perf -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=PERF
; Off by default.
; RUN: %opt -passes=tapestry -disable-output %s 2>&1 | count 0

declare double @__enzyme_autodiff(ptr, ...)
declare double @llvm.sin.f64(double)

@enzyme_dup = external global i32
@enzyme_const = external global i32

; f(a, n) = sum_i sin(a[i]) * a[i]
define double @f(ptr %a, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %p = getelementptr inbounds double, ptr %a, i64 %i
  %v = load double, ptr %p
  %sin = call double @llvm.sin.f64(double %v)
  %t = fmul double %sin, %v
  %s.next = fadd double %s, %t
  store double 0.0, ptr %p
  %i.next = add i64 %i, 1
  %c = icmp slt i64 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret double %s.next
}

define void @grad(ptr %a, ptr %da, i64 %n) {
  %dup = load i32, ptr @enzyme_dup
  %const = load i32, ptr @enzyme_const
  call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %dup, ptr %a, ptr %da, i32 %const, i64 %n)
  ret void
}

; PRINT: define internal void @f.tapestry.rev_{{[a-z_]+}}(ptr %a, ptr %"a'", i64 %n
; PRINT: call double @llvm.cos.f64(

; ACT: activity of 'f.tapestry.primal':
; ACT-DAG: arg %a: shadowed
; ACT-DAG: arg %n: inactive
; ACT-DAG: %v: active
; ACT-DAG: %i: inactive

; TYPE: types of 'f.tapestry.primal':
; TYPE-NEXT: arg %a: [0 + 8i] double

; PERF: tapestry: reverse sweep of 'f' caches 2 value(s), 16 bytes per iteration of this loop: an element of 'a'; the result of 'sin';
