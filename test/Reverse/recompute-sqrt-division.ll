; The reverse sweep recomputes a square root and a division whose operands
; cost no tape (issue 16 item 4): the potential sum 1 / |x - c_k| over
; charges c keeps no records, where it taped 1 / r, r, r^2 and both
; differences (40 bytes) per charge. That holds here only because the
; output is enzyme_dupnoneed: the primal's store into it, which alias
; analysis cannot keep apart from the charges (no restrict), is left out of
; the derivative, so it no longer counts as a write after the loads of c.
; @grad_dup passes the same output as enzyme_dup: the store stays, the
; charges are no longer reloadable, and the differences are taped again.
; End to end, nested: test/Integration/nested-gradient-of-potential.cpp.
;
; RUN: %opt -passes=tapestry -S %s -o %t -pass-remarks=tapestry -pass-remarks-missed=tapestry 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: FileCheck %s --input-file=%t
@enzyme_dup = external global i32
@enzyme_const = external global i32
@enzyme_dupnoneed = external global i32
declare void @__enzyme_autodiff(ptr, ...)
declare double @sqrt(double)

define void @potential(ptr %c, i64 %n, ptr %x, ptr %out) {
entry:
  %x0 = load double, ptr %x
  %px1 = getelementptr inbounds double, ptr %x, i64 1
  %x1 = load double, ptr %px1
  br label %loop
loop:
  %k = phi i64 [ 0, %entry ], [ %k1, %loop ]
  %a = phi double [ 0.0, %entry ], [ %a1, %loop ]
  %pc0 = getelementptr inbounds [2 x double], ptr %c, i64 %k, i64 0
  %pc1 = getelementptr inbounds [2 x double], ptr %c, i64 %k, i64 1
  %c0 = load double, ptr %pc0
  %c1 = load double, ptr %pc1
  %d0 = fsub double %x0, %c0
  %d1 = fsub double %x1, %c1
  %s1 = fmul double %d1, %d1
  %r2 = call double @llvm.fmuladd.f64(double %d0, double %d0, double %s1)
  %r = call double @sqrt(double %r2)
  %inv = fdiv double 1.0, %r
  %a1 = fadd double %a, %inv
  %k1 = add nuw nsw i64 %k, 1
  %more = icmp ult i64 %k1, %n
  br i1 %more, label %loop, label %exit
exit:
  store double %a1, ptr %out
  ret void
}

define void @grad(ptr %c, i64 %n, ptr %x, ptr %dx, ptr %out, ptr %dout) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @potential, ptr @enzyme_const, ptr %c, ptr @enzyme_const, i64 %n, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dupnoneed, ptr %out, ptr %dout)
  ret void
}

define void @grad_dup(ptr %c, i64 %n, ptr %x, ptr %dx, ptr %out, ptr %dout) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @potential, ptr @enzyme_const, ptr %c, ptr @enzyme_const, i64 %n, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dup, ptr %out, ptr %dout)
  ret void
}

declare double @llvm.fmuladd.f64(double, double, double)

; With enzyme_dup the two differences are taped, because of the store to
; out, and so are the square root and the division: where a loop keeps
; records anyway, one more field costs less than a division (only + - *
; and the like are recomputed from the records).
; REMARK-DAG: reverse sweep of 'potential' caches 4 value(s), 32 bytes per iteration of this loop: the result of 'sqrt'
; REMARK-DAG: reverse sweep of 'potential' caches a double computed, 8 bytes per iteration of the loop, instead of recomputing it: recomputing it would need an element of 'c'
; With enzyme_dupnoneed, nothing per iteration.
; REMARK-DAG: reverse sweep of 'potential' caches {{[0-9]+}} value(s) computed once and nothing per loop iteration

; The dup derivative (rev_ccdd) stores the primal result and keeps
; records.
; CHECK-LABEL: define internal void @potential.tapestry.rev_ccdd(
; CHECK: tapestry.tape.reserve
; CHECK: store double %a1
; CHECK-LABEL: define internal void @potential.tapestry.rev_ccdn(
; CHECK-NOT: store double %a1
; CHECK-NOT: tapestry.tape.reserve
; CHECK: rev.loop:
; CHECK-DAG: %c0.re = load double
; CHECK-DAG: %c1.re = load double
; CHECK-DAG: %r.re = call double @sqrt(double %r2.re)
; CHECK-DAG: fdiv double -1.000000e+00, %r.re
; CHECK-NOT: tapestry.tape
; CHECK: ret void
