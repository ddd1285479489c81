; A local array read in a loop and then out of scope (llvm.lifetime.end, as
; clang emits at -O1 and above) is read again by the reverse sweep: the end
; of its scope is not a write, and the derivative keeps every local alive
; until it returns (the markers are dropped). Before, the three loads of w
; were taped, 24 bytes per iteration (bundle adjustment's Rodrigues
; rotation, tools/bench/standard/ba.cpp).
;
; RUN: %opt -passes=tapestry -S %s -o %t -pass-remarks=tapestry 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: FileCheck %s --input-file=%t
@enzyme_dup = external global i32
@enzyme_const = external global i32
declare double @__enzyme_autodiff(ptr, ...)
declare void @llvm.lifetime.start.p0(i64, ptr)
declare void @llvm.lifetime.end.p0(i64, ptr)

define double @f(ptr noalias %x) {
entry:
  %w = alloca [3 x double]
  call void @llvm.lifetime.start.p0(i64 24, ptr %w)
  %x0 = load double, ptr %x
  %w0 = fmul double %x0, %x0
  store double %w0, ptr %w
  %w1p = getelementptr inbounds double, ptr %w, i64 1
  %w1 = fmul double %x0, 3.0
  store double %w1, ptr %w1p
  %w2p = getelementptr inbounds double, ptr %w, i64 2
  store double %x0, ptr %w2p
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s1, %loop ]
  %pw = getelementptr inbounds double, ptr %w, i64 %i
  %vw = load double, ptr %pw
  %sq = fmul double %vw, %vw
  %s1 = fadd double %s, %sq
  %i1 = add i64 %i, 1
  %cnd = icmp slt i64 %i1, 3
  br i1 %cnd, label %loop, label %exit
exit:
  call void @llvm.lifetime.end.p0(i64 24, ptr %w)
  ret double %s1
}

define void @grad(ptr %x, ptr %dx) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @enzyme_dup, ptr %x, ptr %dx)
  ret void
}

; REMARK-NOT: per iteration of this loop
; REMARK: reloads 1 value(s) from memory nothing overwrites
; REMARK: reverse sweep of 'f' caches {{[0-9]+}} value(s) computed once and nothing per loop iteration

; CHECK-LABEL: define internal {{.*}} @f.tapestry.rev
; CHECK-NOT: llvm.lifetime
; CHECK-NOT: tapestry.tape.reserve
; CHECK: rev.loop:
; CHECK: %vw.re = load double
; CHECK-NOT: tapestry.tape
; CHECK: ret
