; Each request's call site zeroes the floating-point values of the implicit
; shadows of globals its derivative uses (here @work's, and the double in
; @rec's), so no derivative reads what an earlier one left there (a forward
; call's tangent read by the next gradient as a seed, probe22a W2);
; pointers in them stay (@rec's first member holds the shadow of @work).
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
declare double @__enzyme_fwddiff(...)
declare double @__enzyme_autodiff(...)
@enzyme_out = external global i32
@work = global double 0.0
@rec = global { ptr, double } zeroinitializer

; cube(x) = work * x with work = x * x; rec keeps a pointer beside a double.
define double @cube(double %x) {
  %sq = fmul double %x, %x
  store double %sq, ptr @work
  %w = load double, ptr @work
  %scale = getelementptr inbounds { ptr, double }, ptr @rec, i64 0, i32 1
  store double %w, ptr %scale
  store ptr @work, ptr @rec
  %r = fmul double %w, %x
  ret double %r
}

define double @tangent(double %x) {
  %t = call double (...) @__enzyme_fwddiff(ptr @cube, double %x, double 1.0)
  ret double %t
}

define double @gradient(double %x) {
  %o = load i32, ptr @enzyme_out
  %g = call double (...) @__enzyme_autodiff(ptr @cube, i32 %o, double %x)
  ret double %g
}

; CHECK-LABEL: define double @tangent(
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr align 8 @work.tapestry.shadow, i8 0, i64 8, i1 false)
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr align 8 getelementptr inbounds ({ ptr, double }, ptr @rec.tapestry.shadow, i32 0, i32 1), i8 0, i64 8, i1 false)
; CHECK-NEXT:    call double @cube.tapestry.fwd_d_ra(
; CHECK-LABEL: define double @gradient(
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr align 8 @work.tapestry.shadow, i8 0, i64 8, i1 false)
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr align 8 getelementptr inbounds ({ ptr, double }, ptr @rec.tapestry.shadow, i32 0, i32 1), i8 0, i64 8, i1 false)
; CHECK-NEXT:    call double @cube.tapestry.rev_a_ra(
