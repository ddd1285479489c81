; A copy whose bytes nothing reads carries no derivative, whatever it
; holds: here an input array is copied into a heap buffer that is freed
; without a read (a stranger's scratch copy; fuzz seed 40846 at -O1, whose
; second copy, into a local no one reads, SROA had already removed). Nothing
; reads those bytes with a type, so the type analysis cannot tell doubles
; from integers or pointers, and the copy was refused ("cannot tell what
; the memory this instruction copies holds"). Dead-store elimination in the
; primal's preparation now removes it first.
;
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
@enzyme_dup = external global i32
@enzyme_const = external global i32
declare void @__enzyme_autodiff(ptr, ...)
declare noalias ptr @malloc(i64)
declare void @free(ptr)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define double @f(ptr %x, ptr %old, i64 %n) {
entry:
  %bytes = call ptr @malloc(i64 48)
  call void @llvm.memcpy.p0.p0.i64(ptr align 1 %bytes, ptr align 8 %old, i64 48, i1 false)
  call void @free(ptr %bytes)
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s1, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p
  %sq = fmul double %v, %v
  %s1 = fadd double %s, %sq
  %i1 = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %i1, %n
  br i1 %more, label %loop, label %exit
exit:
  ret double %s1
}

define void @grad(ptr %x, ptr %dx, ptr %old, ptr %dold, i64 %n) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dup, ptr %old, ptr %dold, ptr @enzyme_const, i64 %n)
  ret void
}

; The derivative neither copies the bytes nor their shadow.
; CHECK-LABEL: define internal void @f.tapestry.rev
; CHECK-NOT: llvm.memcpy
; CHECK: fmul double
; CHECK: ret void
