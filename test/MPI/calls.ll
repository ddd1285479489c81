; The calls the derivatives of MPI_Send, MPI_Recv (from MPI_ANY_SOURCE,
; status ignored) and MPI_Allreduce (MPI_MAX) make: reverse mode reads the
; matched source and tag from a status of its own, keeps the reduction's
; partials from before the call (reduce_aug), and in the reverse sweep
; reduces, sends back the received value's adjoint to the matched source
; and receives the sent values' adjoint, in reverse order; forward mode
; sends and receives the tangent after the value, per lane in batch mode,
; and computes a reduction's tangent before the call. An MPI_INT broadcast
; gets no derivative code.
; RUN: %opt -passes=tapestry %s -S | FileCheck %s

; CHECK-LABEL: define internal void @f.tapestry.rev
; CHECK: %[[ST:mpi.status]] = alloca [64 x i8]
; CHECK: call i32 @MPI_Bcast(
; CHECK-NOT: __tapestry_mpi_bcast
; CHECK: call i32 @MPI_Send(
; CHECK: call i32 @MPI_Recv({{.*}}, i32 noundef -1, i32 noundef 4, {{.*}}, ptr noundef nonnull %[[ST]])
; CHECK-NEXT: %[[SRC:[0-9]+]] = call i32 @__tapestry_mpi_status_source(ptr nonnull %[[ST]])
; CHECK-NEXT: %[[TAG:[0-9]+]] = call i32 @__tapestry_mpi_status_tag(ptr nonnull %[[ST]])
; CHECK: %[[AUG:[0-9]+]] = call ptr @__tapestry_mpi_reduce_aug(ptr nonnull %[[IN:[0-9]+]], ptr nonnull %[[OUT:[0-9]+]], i32 1, ptr nonnull @ompi_mpi_double, ptr nonnull @ompi_mpi_op_max, i32 -1, ptr nonnull @ompi_mpi_comm_world)
; CHECK-NEXT: call i32 @MPI_Allreduce(ptr noundef nonnull %[[IN]], ptr noundef nonnull %[[OUT]]
; CHECK: call void @__tapestry_mpi_reduce_rev(ptr %[[AUG]], ptr nonnull %[[IN]], ptr nonnull %{{.*}}, ptr nonnull %{{.*}}, i32 1, ptr nonnull @ompi_mpi_double, ptr nonnull @ompi_mpi_op_max, i32 -1, ptr nonnull @ompi_mpi_comm_world)
; CHECK-NEXT: call void @__tapestry_mpi_free(ptr %[[AUG]])
; CHECK: call void @__tapestry_mpi_recv_rev(ptr nonnull %{{.*}}, i32 1, ptr nonnull @ompi_mpi_double, i32 %[[SRC]], i32 %[[TAG]], ptr nonnull @ompi_mpi_comm_world)
; CHECK-NEXT: call void @__tapestry_mpi_send_rev(ptr nonnull %"'", i32 2, ptr nonnull @ompi_mpi_double, i32 %1, i32 3, ptr nonnull @ompi_mpi_comm_world)
; CHECK-NOT: __tapestry_mpi_bcast

; CHECK-LABEL: define internal double @f.tapestry.fwd
; CHECK: call i32 @MPI_Send(
; CHECK-NEXT: call void @__tapestry_mpi_send_fwd(ptr %"'", i32 2, ptr nonnull @ompi_mpi_double, i32 %1, i32 3, ptr nonnull @ompi_mpi_comm_world)
; CHECK: call i32 @MPI_Recv(
; CHECK-NEXT: %[[FSRC:[0-9]+]] = call i32 @__tapestry_mpi_status_source(
; CHECK-NEXT: %[[FTAG:[0-9]+]] = call i32 @__tapestry_mpi_status_tag(
; CHECK-NEXT: call void @__tapestry_mpi_recv_fwd(ptr nonnull %{{.*}}, i32 1, ptr nonnull @ompi_mpi_double, i32 %[[FSRC]], i32 %[[FTAG]], ptr nonnull @ompi_mpi_comm_world)
; CHECK: call void @__tapestry_mpi_reduce_fwd(
; CHECK-NEXT: call i32 @MPI_Allreduce(

; CHECK-LABEL: define internal [2 x double] @f.tapestry.fwd{{.*}}_w2
; CHECK: call i32 @MPI_Send(
; CHECK: call void @__tapestry_mpi_send_fwd(
; CHECK: call void @__tapestry_mpi_send_fwd(
; CHECK: call i32 @MPI_Recv(
; CHECK: call void @__tapestry_mpi_recv_fwd(
; CHECK-NEXT: call void @__tapestry_mpi_recv_fwd(
; CHECK: call void @__tapestry_mpi_reduce_fwd(
; CHECK-NEXT: call void @__tapestry_mpi_reduce_fwd(
; CHECK-NEXT: call i32 @MPI_Allreduce(

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.ompi_predefined_datatype_t = type opaque
%struct.ompi_predefined_communicator_t = type opaque
%struct.ompi_predefined_op_t = type opaque

@ompi_mpi_double = external global %struct.ompi_predefined_datatype_t, align 1
@ompi_mpi_comm_world = external global %struct.ompi_predefined_communicator_t, align 1
@ompi_mpi_op_max = external global %struct.ompi_predefined_op_t, align 1
@ompi_mpi_int = external global %struct.ompi_predefined_datatype_t, align 1
@enzyme_dup = external local_unnamed_addr global i32, align 4
@enzyme_const = external local_unnamed_addr global i32, align 4
@enzyme_width = external local_unnamed_addr global i32, align 4

; Function Attrs: nounwind uwtable
define dso_local double @f(ptr noundef %0, i32 noundef %1) #0 {
  %n = alloca i32, align 4
  %3 = alloca double, align 8
  %4 = alloca double, align 8
  %5 = alloca double, align 8
  call void @llvm.lifetime.start.p0(i64 8, ptr nonnull %3) #3
  call void @llvm.lifetime.start.p0(i64 8, ptr nonnull %4) #3
  %bc = call i32 @MPI_Bcast(ptr %n, i32 1, ptr @ompi_mpi_int, i32 0, ptr @ompi_mpi_comm_world)
  %6 = tail call i32 @MPI_Send(ptr noundef %0, i32 noundef 2, ptr noundef nonnull @ompi_mpi_double, i32 noundef %1, i32 noundef 3, ptr noundef nonnull @ompi_mpi_comm_world) #3
  %7 = call i32 @MPI_Recv(ptr noundef nonnull %3, i32 noundef 1, ptr noundef nonnull @ompi_mpi_double, i32 noundef -1, i32 noundef 4, ptr noundef nonnull @ompi_mpi_comm_world, ptr noundef null) #3
  call void @llvm.lifetime.start.p0(i64 8, ptr nonnull %5) #3
  %8 = load double, ptr %3, align 8, !tbaa !5
  %9 = load double, ptr %0, align 8, !tbaa !5
  %10 = fmul double %8, %9
  store double %10, ptr %5, align 8, !tbaa !5
  %11 = call i32 @MPI_Allreduce(ptr noundef nonnull %5, ptr noundef nonnull %4, i32 noundef 1, ptr noundef nonnull @ompi_mpi_double, ptr noundef nonnull @ompi_mpi_op_max, ptr noundef nonnull @ompi_mpi_comm_world) #3
  %12 = load double, ptr %4, align 8, !tbaa !5
  call void @llvm.lifetime.end.p0(i64 8, ptr nonnull %5) #3
  call void @llvm.lifetime.end.p0(i64 8, ptr nonnull %4) #3
  call void @llvm.lifetime.end.p0(i64 8, ptr nonnull %3) #3
  ret double %12
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

declare i32 @MPI_Bcast(ptr, i32, ptr, i32, ptr)

declare i32 @MPI_Send(ptr noundef, i32 noundef, ptr noundef, i32 noundef, i32 noundef, ptr noundef) local_unnamed_addr #2

declare i32 @MPI_Recv(ptr noundef, i32 noundef, ptr noundef, i32 noundef, i32 noundef, ptr noundef, ptr noundef) local_unnamed_addr #2

declare i32 @MPI_Allreduce(ptr noundef, ptr noundef, i32 noundef, ptr noundef, ptr noundef, ptr noundef) local_unnamed_addr #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: nounwind uwtable
define dso_local void @grad(ptr noundef %0, ptr noundef %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = load i32, ptr @enzyme_dup, align 4, !tbaa !9
  %5 = load i32, ptr @enzyme_const, align 4, !tbaa !9
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @f, i32 noundef %4, ptr noundef %0, ptr noundef %1, i32 noundef %5, i32 noundef %2) #3
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr #2

; Function Attrs: nounwind uwtable
define dso_local double @tan1(ptr noundef %0, ptr noundef %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = load i32, ptr @enzyme_dup, align 4, !tbaa !9
  %5 = load i32, ptr @enzyme_const, align 4, !tbaa !9
  %6 = tail call double (ptr, ...) @__enzyme_fwddiff(ptr noundef nonnull @f, i32 noundef %4, ptr noundef %0, ptr noundef %1, i32 noundef %5, i32 noundef %2) #3
  ret double %6
}

declare double @__enzyme_fwddiff(ptr noundef, ...) local_unnamed_addr #2

; Function Attrs: nounwind uwtable
define dso_local { double, double } @tan2(ptr noundef %0, ptr noundef %1, ptr noundef %2, i32 noundef %3) local_unnamed_addr #0 {
  %5 = load i32, ptr @enzyme_width, align 4, !tbaa !9
  %6 = load i32, ptr @enzyme_dup, align 4, !tbaa !9
  %7 = load i32, ptr @enzyme_const, align 4, !tbaa !9
  %8 = tail call { double, double } (ptr, ...) @__enzyme_fwddiff_2(ptr noundef nonnull @f, i32 noundef %5, i32 noundef 2, i32 noundef %6, ptr noundef %0, ptr noundef %1, ptr noundef %2, i32 noundef %7, i32 noundef %3) #3
  ret { double, double } %8
}

declare { double, double } @__enzyme_fwddiff_2(ptr noundef, ...) local_unnamed_addr #2

attributes #0 = { nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { nounwind }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.ident = !{!4}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 8, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{i32 7, !"uwtable", i32 2}
!4 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!5 = !{!6, !6, i64 0}
!6 = !{!"double", !7, i64 0}
!7 = !{!"omnipotent char", !8, i64 0}
!8 = !{!"Simple C/C++ TBAA"}
!9 = !{!10, !10, i64 0}
!10 = !{!"int", !7, i64 0}
