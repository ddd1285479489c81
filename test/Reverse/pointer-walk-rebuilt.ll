; A loop walking memory with a pointer (for (p = x; p != x + n; ++p), a
; range-for over a vector): the reverse sweep rebuilds the pointer as x
; plus 8 bytes per iteration and its shadow as the shadow x' plus the same
; offset, from the reverse counter, instead of taping both per iteration
; (16 bytes each; and the taped shadow addresses made a split's tape
; single-use). The loop keeps no records at all: its loads are reloaded.
;
; RUN: %opt -passes=tapestry -S %s -o %t -pass-remarks=tapestry 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: FileCheck %s --input-file=%t
@enzyme_dup = external global i32
@enzyme_const = external global i32
declare double @__enzyme_autodiff(ptr, ...)

define double @f(ptr noalias %x, i64 %n) {
entry:
  %end = getelementptr inbounds double, ptr %x, i64 %n
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %exit, label %loop
loop:
  %p = phi ptr [ %x, %entry ], [ %p1, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s1, %loop ]
  %v = load double, ptr %p
  %sq = fmul double %v, %v
  %s1 = fadd double %s, %sq
  %p1 = getelementptr inbounds double, ptr %p, i64 1
  %more = icmp ne ptr %p1, %end
  br i1 %more, label %loop, label %exit
exit:
  %r = phi double [ 0.0, %entry ], [ %s1, %loop ]
  ret double %r
}

define void @grad(ptr %x, ptr %dx, i64 %n) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_const, i64 %n)
  ret void
}

; REMARK-NOT: per iteration of this loop
; REMARK: reverse sweep of 'f' caches {{[0-9]+}} value(s) computed once and nothing per loop iteration

; CHECK-LABEL: define internal {{.*}} @f.tapestry.rev
; CHECK-NOT: tapestry.tape.reserve
; CHECK: rev.loop:
; CHECK: %[[OFF:.*]] = shl i64 %{{.*}}, 3
; CHECK-NEXT: %p.re = getelementptr i8, ptr %x, i64 %[[OFF]]
; CHECK-NEXT: load double, ptr %p.re
; CHECK: %"p'.re" = getelementptr i8, ptr %"x'", i64 %[[OFF]]
; CHECK-NOT: tapestry.tape
; CHECK: ret
