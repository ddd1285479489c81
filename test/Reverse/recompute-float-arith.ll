; The reverse sweep recomputes floating-point arithmetic whose operands cost
; no tape (issue 16 item 4): here p[i] - c[i] is rebuilt from two reloads of
; memory nothing writes, instead of taping 8 bytes per iteration (the k-means
; Hessian's tape, tools/bench/standard/kmeans.cpp). The loop then keeps no
; records at all.
;
; RUN: %opt -passes=tapestry -S %s -o %t -pass-remarks=tapestry 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: FileCheck %s --input-file=%t
@enzyme_dup = external global i32
@enzyme_const = external global i32
declare double @__enzyme_autodiff(ptr, ...)

define double @f(ptr noalias %x, ptr noalias %c, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s1, %loop ]
  %px = getelementptr inbounds double, ptr %x, i64 %i
  %pc = getelementptr inbounds double, ptr %c, i64 %i
  %vx = load double, ptr %px
  %vc = load double, ptr %pc
  %d = fsub double %vx, %vc
  %sq = fmul double %d, %d
  %s1 = fadd double %s, %sq
  %i1 = add i64 %i, 1
  %cnd = icmp slt i64 %i1, %n
  br i1 %cnd, label %loop, label %exit
exit:
  ret double %s1
}

define void @grad(ptr %x, ptr %c, ptr %dc, i64 %n) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @enzyme_const, ptr %x, ptr @enzyme_dup, ptr %c, ptr %dc, ptr @enzyme_const, i64 %n)
  ret void
}

; REMARK-NOT: per iteration of this loop
; The reverse loop starts from the loop's exit count, (1 smax %n) - 1,
; rather than from the counter's last value cached once.
; REMARK: reverse sweep of 'f' caches 0 value(s) computed once and nothing per loop iteration

; CHECK-LABEL: define internal void @f.tapestry.rev
; CHECK-NOT: tapestry.tape.reserve
; CHECK: rev.loop:
; CHECK: %vx.re = load double
; CHECK: %vc.re = load double
; CHECK: %d.re = fsub double %vx.re, %vc.re
; CHECK-NOT: tapestry.tape
; CHECK: ret void
