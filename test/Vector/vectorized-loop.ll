; A loop as the loop vectoriser leaves it: a minimum trip count check, a
; run-time alias check comparing the two pointers (ptrtoint, sub, icmp:
; inactive), a <4 x double> body with llvm.loop metadata, and a scalar
; remainder resuming where the body stopped. The reverse sweep runs the
; remainder's iterations back, then the body's, each loop's values on its
; own tape, and the broadcast of the active scalar a sums its lanes'
; adjoints back into a. Shapes, then a run against analytic values and, for
; overlapping arrays that fail the alias check, finite differences
; (Inputs/vectorized-loop-main.c).
;
; RUN: %opt -passes=tapestry -S %s -o %t.ll
; RUN: FileCheck %s --input-file=%t.ll
; RUN: %plain_cc -O1 -Wno-override-module %t.ll \
; RUN:   %S/Inputs/vectorized-loop-main.c -lm -o %t && %t | FileCheck %s \
; RUN:   --check-prefix=EXEC
; EXEC-NOT: FAIL
; EXEC: ALL PASSED

; CHECK-LABEL: define internal double @saxpy.tapestry.rev_addc(
; CHECK: vector.memcheck:
; CHECK: %diff.check = icmp ult i64 %diff, 32
; CHECK: vector.body:
; CHECK: store <4 x double> %wide.load, ptr
; CHECK: br i1 %done, label %middle.block, label %vector.body, !llvm.loop
; CHECK: rev.vector.body:
; CHECK: %[[D:.*]] = load <4 x double>, ptr %"py'.re"
; CHECK: store <4 x double> zeroinitializer, ptr %"py'.re"
; CHECK: %wide.load.tape = load <4 x double>
; CHECK: rev.loop:
; CHECK: rev.vector.body.first:
; CHECK: call reassoc double @llvm.vector.reduce.fadd.v4f64(double -0.000000e+00, <4 x double>

@enzyme_dup = external global i32
@enzyme_const = external global i32
@enzyme_out = external global i32

declare double @__enzyme_autodiff(ptr, ...)
declare void @__enzyme_fwddiff(ptr, ...)
declare <4 x double> @llvm.fmuladd.v4f64(<4 x double>, <4 x double>, <4 x double>)
declare double @llvm.fmuladd.f64(double, double, double)

; y[i] = a * x[i] + y[i], as the loop vectoriser leaves it: a minimum
; trip count check, a run-time alias check comparing the pointers, a
; <4 x double> body over the first n & -4 elements, and a scalar remainder
; resuming where the body stopped.
define void @saxpy(double %a, ptr %x, ptr %y, i64 %n) {
entry:
  %min.iters.check = icmp ult i64 %n, 4
  br i1 %min.iters.check, label %scalar.ph, label %vector.memcheck

vector.memcheck:
  %xi = ptrtoint ptr %x to i64
  %yi = ptrtoint ptr %y to i64
  %diff = sub i64 %yi, %xi
  %diff.check = icmp ult i64 %diff, 32
  br i1 %diff.check, label %scalar.ph, label %vector.ph

vector.ph:
  %n.vec = and i64 %n, -4
  %broadcast.splatinsert = insertelement <4 x double> poison, double %a, i64 0
  %broadcast.splat = shufflevector <4 x double> %broadcast.splatinsert, <4 x double> poison, <4 x i32> zeroinitializer
  br label %vector.body

vector.body:
  %index = phi i64 [ 0, %vector.ph ], [ %index.next, %vector.body ]
  %px = getelementptr inbounds double, ptr %x, i64 %index
  %wide.load = load <4 x double>, ptr %px, align 8
  %py = getelementptr inbounds double, ptr %y, i64 %index
  %wide.load1 = load <4 x double>, ptr %py, align 8
  %v = call <4 x double> @llvm.fmuladd.v4f64(<4 x double> %broadcast.splat, <4 x double> %wide.load, <4 x double> %wide.load1)
  store <4 x double> %v, ptr %py, align 8
  %index.next = add nuw i64 %index, 4
  %done = icmp eq i64 %index.next, %n.vec
  br i1 %done, label %middle.block, label %vector.body, !llvm.loop !0

middle.block:
  %cmp.n = icmp eq i64 %n, %n.vec
  br i1 %cmp.n, label %exit, label %scalar.ph

scalar.ph:
  %bc.resume.val = phi i64 [ %n.vec, %middle.block ], [ 0, %entry ], [ 0, %vector.memcheck ]
  %empty = icmp eq i64 %bc.resume.val, %n
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %bc.resume.val, %scalar.ph ], [ %i.next, %loop ]
  %qx = getelementptr inbounds double, ptr %x, i64 %i
  %sx = load double, ptr %qx, align 8
  %qy = getelementptr inbounds double, ptr %y, i64 %i
  %sy = load double, ptr %qy, align 8
  %s = call double @llvm.fmuladd.f64(double %a, double %sx, double %sy)
  store double %s, ptr %qy, align 8
  %i.next = add nuw nsw i64 %i, 1
  %exitcond = icmp eq i64 %i.next, %n
  br i1 %exitcond, label %exit, label %loop, !llvm.loop !3

exit:
  ret void
}

!0 = distinct !{!0, !1, !2}
!1 = !{!"llvm.loop.isvectorized", i32 1}
!2 = !{!"llvm.loop.unroll.runtime.disable"}
!3 = distinct !{!3, !2, !1}

define double @grad_saxpy(double %a, ptr %x, ptr %dx, ptr %y, ptr %dy, i64 %n) {
  %dup = load i32, ptr @enzyme_dup
  %out = load i32, ptr @enzyme_out
  %const = load i32, ptr @enzyme_const
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @saxpy, i32 %out, double %a, i32 %dup, ptr %x, ptr %dx, i32 %dup, ptr %y, ptr %dy, i32 %const, i64 %n)
  ret double %r
}
define void @tan_saxpy(double %a, double %ta, ptr %x, ptr %tx, ptr %y, ptr %ty, i64 %n) {
  %dup = load i32, ptr @enzyme_dup
  %const = load i32, ptr @enzyme_const
  call void (ptr, ...) @__enzyme_fwddiff(ptr @saxpy, double %a, double %ta, i32 %dup, ptr %x, ptr %tx, i32 %dup, ptr %y, ptr %ty, i32 %const, i64 %n)
  ret void
}
