; Run-time activity through memcpy: the source of the copy is read from a
; table that holds an active pointer (x) and a constant one (k), so whether
; it is constant is known only at run time. Forward mode copies the
; source's shadow and, where that shadow is the source itself (constant),
; zeroes the floating-point parts it copied (primal values, not tangents);
; reverse mode drops the destination's adjoint there instead of adding it
; into the constant memory. Both were a compile error ("argument 2 of this
; call is a pointer read from memory that also holds pointers to constant
; data").
; RUN: %opt -passes=tapestry,verify -S %s 2>&1 | FileCheck %s
; CHECK-NOT: error:
; CHECK-LABEL: define internal double @f.tapestry.fwd_dccc_ra(
; CHECK: %src = load ptr, ptr %slot
; CHECK-NEXT: %"src'" = load ptr, ptr %"slot'"
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr nonnull align 8 %"t'", ptr align 1 %"src'", i64 %bytes, i1 false)
; CHECK-NEXT: %shadow.is.primal = icmp eq ptr %"src'", %src
; CHECK-NEXT: %bytes.if.constant = select i1 %shadow.is.primal, i64 %bytes, i64 0
; CHECK-NEXT: call void @tapestry.parts.zero.p8.0double(ptr nonnull %"t'", ptr nonnull %"t'", i64 %bytes.if.constant)
; The helper only stores zeros into the destination's doubles:
; CHECK-LABEL: define internal void @tapestry.parts.zero.p8.0double(
; CHECK-NOT: load
; CHECK: store double 0.000000e+00
; CHECK-NOT: load
; CHECK: ret void
; CHECK-LABEL: define internal void @f.tapestry.rev_dccc_ra(
; CHECK: %shadow.is.primal = icmp eq ptr %"src'", %src
; CHECK-NEXT: %bytes.if.constant = select i1 %shadow.is.primal, i64 %bytes, i64 0
; CHECK-NEXT: call void @tapestry.parts.zero.p8.0double(ptr nonnull %"t'", ptr nonnull %"t'", i64 %bytes.if.constant)
; CHECK-NEXT: %bytes.unless.constant = select i1 %shadow.is.primal, i64 0, i64 %bytes
; CHECK-NEXT: call void @tapestry.parts.adjoint.p8.0double(ptr nonnull %"t'", ptr %"src'", i64 %bytes.unless.constant)
declare double @__enzyme_fwddiff(...)
declare void @__enzyme_autodiff(...)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
@enzyme_dup = external global i32
@enzyme_const = external global i32

define double @f(ptr %x, ptr %k, i64 %w, i64 %n) {
  %rows = alloca [2 x ptr]
  %t = alloca [4 x double]
  store ptr %x, ptr %rows
  %r1 = getelementptr ptr, ptr %rows, i64 1
  store ptr %k, ptr %r1
  %slot = getelementptr ptr, ptr %rows, i64 %w
  %src = load ptr, ptr %slot
  %bytes = shl i64 %n, 3
  call void @llvm.memcpy.p0.p0.i64(ptr %t, ptr %src, i64 %bytes, i1 false)
  %v = load double, ptr %t
  %xv = load double, ptr %x
  %m = fmul double %v, %xv
  ret double %m
}

define double @fwd(ptr %x, ptr %dx, ptr %k, i64 %w, i64 %n) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_const, ptr %k, ptr @enzyme_const, i64 %w, ptr @enzyme_const, i64 %n)
  ret double %r
}

define void @rev(ptr %x, ptr %dx, ptr %k, i64 %w, i64 %n) {
  call void (...) @__enzyme_autodiff(ptr @f, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_const, ptr %k, ptr @enzyme_const, i64 %w, ptr @enzyme_const, i64 %n)
  ret void
}
