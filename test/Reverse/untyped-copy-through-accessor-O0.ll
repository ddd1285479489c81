; A memcpy of a struct {double a, b;} at -O0 whose addresses come out of an
; accessor's result (It::at returns cur + n), in a recursive function
; differentiated on its own (split): nothing in shiftDown or its callees
; reads the bytes with a type, and its caller reads them through the same
; accessor. The type analysis now also looks at a copy of shiftDown with
; its small callees inlined (plugin/Analysis/InlinedTypes.h), where the
; address is a GEP of %struct.P from the parameter: the reverse moves the
; adjoints of both doubles. This was refused ("cannot tell what the memory
; this instruction copies holds"). From clang -O0 of:
;   struct P { double a, b; };
;   struct It { P *cur; P *at(long n) const { return cur + n; } };
;   void shiftDown(It it, long i) {
;     if (i <= 0) return;
;     __builtin_memcpy(it.at(i - 1), it.at(i), sizeof(P));
;     shiftDown(it, i - 1);
;   }
;   double f(P *p) { It it{p}; shiftDown(it, 3);
;                    return it.at(0)->a * it.at(0)->b + it.at(3)->a; }
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s --check-prefix=PARTS
; CHECK-LABEL: define internal void @_Z9shiftDown2Itl.tapestry.split_dc.reverse(
; CHECK: %[[D:.*]] = getelementptr inbounds %struct.P, ptr %"'", i64 %.re
; CHECK: %[[S:.*]] = getelementptr inbounds %struct.P, ptr %"'", i64 %1
; CHECK: call void @tapestry.parts.adjoint.p0.0double.8double(ptr %[[D]], ptr {{(nonnull )?}}%[[S]], i64 16)
; PARTS-LABEL: define internal void @tapestry.parts.adjoint.p0.0double.8double(
; PARTS-COUNT-2: fadd double
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.It = type { ptr }
%struct.P = type { double, double }

$_ZNK2It2atEl = comdat any

@enzyme_dup = external global i32, align 4

; Function Attrs: mustprogress noinline optnone uwtable
define dso_local void @_Z9shiftDown2Itl(ptr %0, i64 noundef %1) #0 {
  %3 = alloca %struct.It, align 8
  %4 = alloca i64, align 8
  %5 = alloca %struct.It, align 8
  %6 = getelementptr inbounds %struct.It, ptr %3, i32 0, i32 0
  store ptr %0, ptr %6, align 8
  store i64 %1, ptr %4, align 8
  %7 = load i64, ptr %4, align 8
  %8 = icmp sle i64 %7, 0
  br i1 %8, label %9, label %10

9:                                                ; preds = %2
  br label %20

10:                                               ; preds = %2
  %11 = load i64, ptr %4, align 8
  %12 = sub nsw i64 %11, 1
  %13 = call noundef ptr @_ZNK2It2atEl(ptr noundef nonnull align 8 dereferenceable(8) %3, i64 noundef %12)
  %14 = load i64, ptr %4, align 8
  %15 = call noundef ptr @_ZNK2It2atEl(ptr noundef nonnull align 8 dereferenceable(8) %3, i64 noundef %14)
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %13, ptr align 8 %15, i64 16, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %5, ptr align 8 %3, i64 8, i1 false)
  %16 = load i64, ptr %4, align 8
  %17 = sub nsw i64 %16, 1
  %18 = getelementptr inbounds %struct.It, ptr %5, i32 0, i32 0
  %19 = load ptr, ptr %18, align 8
  call void @_Z9shiftDown2Itl(ptr %19, i64 noundef %17)
  br label %20

20:                                               ; preds = %10, %9
  ret void
}

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define linkonce_odr dso_local noundef ptr @_ZNK2It2atEl(ptr noundef nonnull align 8 dereferenceable(8) %0, i64 noundef %1) #1 comdat align 2 {
  %3 = alloca ptr, align 8
  %4 = alloca i64, align 8
  store ptr %0, ptr %3, align 8
  store i64 %1, ptr %4, align 8
  %5 = load ptr, ptr %3, align 8
  %6 = getelementptr inbounds %struct.It, ptr %5, i32 0, i32 0
  %7 = load ptr, ptr %6, align 8
  %8 = load i64, ptr %4, align 8
  %9 = getelementptr inbounds %struct.P, ptr %7, i64 %8
  ret ptr %9
}

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias nocapture writeonly, ptr noalias nocapture readonly, i64, i1 immarg) #2

; Function Attrs: mustprogress noinline optnone uwtable
define dso_local noundef double @_Z1fP1P(ptr noundef %0) #0 {
  %2 = alloca ptr, align 8
  %3 = alloca %struct.It, align 8
  %4 = alloca %struct.It, align 8
  store ptr %0, ptr %2, align 8
  %5 = getelementptr inbounds %struct.It, ptr %3, i32 0, i32 0
  %6 = load ptr, ptr %2, align 8
  store ptr %6, ptr %5, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %4, ptr align 8 %3, i64 8, i1 false)
  %7 = getelementptr inbounds %struct.It, ptr %4, i32 0, i32 0
  %8 = load ptr, ptr %7, align 8
  call void @_Z9shiftDown2Itl(ptr %8, i64 noundef 3)
  %9 = call noundef ptr @_ZNK2It2atEl(ptr noundef nonnull align 8 dereferenceable(8) %3, i64 noundef 0)
  %10 = getelementptr inbounds %struct.P, ptr %9, i32 0, i32 0
  %11 = load double, ptr %10, align 8
  %12 = call noundef ptr @_ZNK2It2atEl(ptr noundef nonnull align 8 dereferenceable(8) %3, i64 noundef 0)
  %13 = getelementptr inbounds %struct.P, ptr %12, i32 0, i32 1
  %14 = load double, ptr %13, align 8
  %15 = call noundef ptr @_ZNK2It2atEl(ptr noundef nonnull align 8 dereferenceable(8) %3, i64 noundef 3)
  %16 = getelementptr inbounds %struct.P, ptr %15, i32 0, i32 0
  %17 = load double, ptr %16, align 8
  %18 = call double @llvm.fmuladd.f64(double %11, double %14, double %17)
  ret double %18
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double) #3

; Function Attrs: mustprogress noinline optnone uwtable
define dso_local void @_Z1gP1PS0_(ptr noundef %0, ptr noundef %1) #0 {
  %3 = alloca ptr, align 8
  %4 = alloca ptr, align 8
  store ptr %0, ptr %3, align 8
  store ptr %1, ptr %4, align 8
  %5 = load i32, ptr @enzyme_dup, align 4
  %6 = load ptr, ptr %3, align 8
  %7 = load ptr, ptr %4, align 8
  call void (ptr, ...) @__enzyme_autodiff(ptr noundef @_Z1fP1P, i32 noundef %5, ptr noundef %6, ptr noundef %7)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) #4

attributes #0 = { mustprogress noinline optnone uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { mustprogress noinline nounwind optnone uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { nocallback nofree nounwind willreturn memory(argmem: readwrite) }
attributes #3 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #4 = { "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!llvm.module.flags = !{!0, !1, !2, !3, !4}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 8, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{i32 7, !"uwtable", i32 2}
!4 = !{i32 7, !"frame-pointer", i32 2}
!5 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
