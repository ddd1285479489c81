; Integer keys made from a double's bits (a radix sort's order-preserving
; key: flip every bit of a negative, set the sign bit of a positive) that
; are only compared, through selects, to choose which element to use: no
; derivative flows through the bits, and the derivative flows through the
; chosen elements. This was refused as bit manipulation. @weighted_pair is
; clang -O1's code for 3 max(x0, x1) + min(x0, x1), the larger chosen by key:
; the gradient adds 3 to the chosen element's adjoint and 1 to the other's.
; Bits that become a double again are still refused: test/Errors/
; float-bits-masked.c.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
; CHECK-LABEL: define void @gradient(
; CHECK: call void @weighted_pair.tapestry.rev_d_ra(ptr %x, ptr %dx, double 1.0
; CHECK-LABEL: define internal void @weighted_pair.tapestry.rev_d_ra(ptr %x, ptr %"x'", double %seed)
; CHECK: %cmp = icmp ule i64 %cond.i, %cond.i13
; CHECK: %"arrayidx3'" = getelementptr inbounds double, ptr %"x'", i64 %idxprom
; CHECK: %"arrayidx5'" = getelementptr inbounds double, ptr %"x'", i64 %idxprom4
; CHECK: %[[S3:[0-9]+]] = fmul double %seed, 3.000000e+00
; CHECK: %[[LO:[0-9]+]] = load double, ptr %"arrayidx5'"
; CHECK: %[[LO1:[0-9]+]] = fadd double %[[LO]], %seed
; CHECK: store double %[[LO1]], ptr %"arrayidx5'"
; CHECK: %[[HI:[0-9]+]] = load double, ptr %"arrayidx3'"
; CHECK: %[[HI1:[0-9]+]] = fadd double %[[HI]], %[[S3]]
; CHECK: store double %[[HI1]], ptr %"arrayidx3'"
; CHECK: ret void
declare void @__enzyme_autodiff(...)
declare double @llvm.fabs.f64(double)
declare double @llvm.fmuladd.f64(double, double, double)
@enzyme_dup = external global i32

define double @weighted_pair(ptr nocapture readonly %x) {
entry:
  %0 = load double, ptr %x, align 8
  %1 = bitcast double %0 to i64
  %not.i = xor i64 %1, -1
  %2 = tail call double @llvm.fabs.f64(double %0)
  %3 = fneg double %2
  %or.i = bitcast double %3 to i64
  %tobool.not3.i = icmp slt i64 %1, 0
  %cond.i = select i1 %tobool.not3.i, i64 %not.i, i64 %or.i
  %arrayidx1 = getelementptr inbounds i8, ptr %x, i64 8
  %4 = load double, ptr %arrayidx1, align 8
  %5 = bitcast double %4 to i64
  %not.i10 = xor i64 %5, -1
  %6 = tail call double @llvm.fabs.f64(double %4)
  %7 = fneg double %6
  %or.i11 = bitcast double %7 to i64
  %tobool.not3.i12 = icmp slt i64 %5, 0
  %cond.i13 = select i1 %tobool.not3.i12, i64 %not.i10, i64 %or.i11
  %cmp = icmp ule i64 %cond.i, %cond.i13
  %idxprom = zext i1 %cmp to i64
  %arrayidx3 = getelementptr inbounds double, ptr %x, i64 %idxprom
  %8 = load double, ptr %arrayidx3, align 8
  %not.cmp = xor i1 %cmp, true
  %idxprom4 = zext i1 %not.cmp to i64
  %arrayidx5 = getelementptr inbounds double, ptr %x, i64 %idxprom4
  %9 = load double, ptr %arrayidx5, align 8
  %10 = tail call double @llvm.fmuladd.f64(double %8, double 3.000000e+00, double %9)
  ret double %10
}

define void @gradient(ptr %x, ptr %dx) {
  call void (...) @__enzyme_autodiff(ptr @weighted_pair, ptr @enzyme_dup, ptr %x, ptr %dx)
  ret void
}
