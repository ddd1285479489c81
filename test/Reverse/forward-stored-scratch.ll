; A scratch array that one loop fills and a later loop reads, rewritten for
; every iteration of the loop around them (GMM's xc = x - mu, then Q xc,
; tools/bench/standard/gmm.cpp): each later load is replaced, before
; differentiation, by what the first loop stored computed again at the same
; index from memory nothing writes (Synthesis/StoredValueForwarding.h), so
; the reverse sweep recomputes it instead of taping 8 bytes per read; the
; stores nothing reads any more are removed. Not when something else writes
; the array between the loops (g) or when the first loop writes fewer
; elements than the second reads (h): those reads stay on the tape.
; From C (-O1 -fno-unroll-loops):
;   void f(const double *restrict x, const double *restrict m,
;          double *restrict err, int n, int np) {
;     double *buf = malloc(n * sizeof(double));
;     double s = 0;
;     for (int p = 0; p < np; p++) {
;       for (int i = 0; i < n; i++)
;         buf[i] = x[p * n + i] - m[i];
;       for (int j = 0; j < n; j++)
;         s += buf[j] * buf[j] * m[j];
;     }
;     *err = s;
;     free(buf);
;   }
; g adds `buf[0] = x[0] * 2;` between the loops; h's buffer is calloc'd and
; its first loop stops at n - 1.
;
; RUN: %opt -passes=tapestry -tapestry-print-prepared -disable-output %s 2> %t.prep
; RUN: FileCheck %s --check-prefix=PF --input-file=%t.prep
; RUN: FileCheck %s --check-prefix=PG --input-file=%t.prep
; RUN: FileCheck %s --check-prefix=PH --input-file=%t.prep
; RUN: %opt -passes=tapestry -S %s -o %t.ll -pass-remarks=tapestry -pass-remarks-missed=tapestry 2> %t.rem
; RUN: FileCheck %s --check-prefix=RF --input-file=%t.rem
; RUN: FileCheck %s --check-prefix=RG --input-file=%t.rem
; RUN: FileCheck %s --check-prefix=RH --input-file=%t.rem
; RUN: %opt -passes=verify -disable-output %t.ll

; PF-LABEL: define internal void @f.tapestry.primal
; PF-NOT: store double %sub
; PF: %sub.fwd = fsub double
; PF-NEXT: fmul double %sub.fwd, %sub.fwd
; PF-NOT: store double %sub
; PF: {{^}}}

; PG-LABEL: define internal void @g.tapestry.primal
; PG-NOT: .fwd
; PG: store double %sub
; PG-NOT: .fwd
; PG: {{^}}}

; PH-LABEL: define internal void @h.tapestry.primal
; PH-NOT: .fwd
; PH: store double %sub
; PH-NOT: .fwd
; PH: {{^}}}

; RF-NOT: reverse sweep of 'f' caches a double read from memory
; RF: reverse sweep of 'f' recomputes
; RF-NOT: reverse sweep of 'f' caches a double read from memory

; RG: reverse sweep of 'g' caches a double read from memory, 8 bytes per iteration of the loop
; RH: reverse sweep of 'h' caches a double read from memory, 8 bytes per iteration of the loop

define dso_local void @f(ptr noalias nocapture noundef readonly %x, ptr noalias nocapture noundef readonly %m, ptr noalias nocapture noundef writeonly %err, i32 noundef %n, i32 noundef %np) local_unnamed_addr #0 {
entry:
  %conv = sext i32 %n to i64
  %mul = shl nsw i64 %conv, 3
  %call = tail call noalias ptr @malloc(i64 noundef %mul) #5
  %cmp54 = icmp sgt i32 %np, 0
  br i1 %cmp54, label %for.cond2.preheader.lr.ph, label %for.cond.cleanup

for.cond2.preheader.lr.ph:                        ; preds = %entry
  %cmp349 = icmp sgt i32 %n, 0
  %cmp1351 = icmp sgt i32 %n, 0
  %0 = zext i32 %n to i64
  %wide.trip.count69 = zext nneg i32 %np to i64
  %wide.trip.count = zext nneg i32 %n to i64
  %wide.trip.count63 = zext nneg i32 %n to i64
  br label %for.cond2.preheader

for.cond2.preheader:                              ; preds = %for.cond2.preheader.lr.ph, %for.cond.cleanup15
  %indvars.iv65 = phi i64 [ 0, %for.cond2.preheader.lr.ph ], [ %indvars.iv.next66, %for.cond.cleanup15 ]
  %s.055 = phi double [ 0.000000e+00, %for.cond2.preheader.lr.ph ], [ %s.1.lcssa, %for.cond.cleanup15 ]
  br i1 %cmp349, label %for.body6.lr.ph, label %for.cond12.preheader

for.body6.lr.ph:                                  ; preds = %for.cond2.preheader
  %1 = mul nuw nsw i64 %indvars.iv65, %0
  %invariant.gep = getelementptr inbounds double, ptr %x, i64 %1
  br label %for.body6

for.cond.cleanup:                                 ; preds = %for.cond.cleanup15, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %s.1.lcssa, %for.cond.cleanup15 ]
  store double %s.0.lcssa, ptr %err, align 8, !tbaa !5
  tail call void @free(ptr noundef %call) #6
  ret void

for.cond12.preheader:                             ; preds = %for.body6, %for.cond2.preheader
  br i1 %cmp1351, label %for.body16, label %for.cond.cleanup15

for.body6:                                        ; preds = %for.body6.lr.ph, %for.body6
  %indvars.iv = phi i64 [ 0, %for.body6.lr.ph ], [ %indvars.iv.next, %for.body6 ]
  %gep = getelementptr inbounds double, ptr %invariant.gep, i64 %indvars.iv
  %2 = load double, ptr %gep, align 8, !tbaa !5
  %arrayidx9 = getelementptr inbounds double, ptr %m, i64 %indvars.iv
  %3 = load double, ptr %arrayidx9, align 8, !tbaa !5
  %sub = fsub double %2, %3
  %arrayidx11 = getelementptr inbounds double, ptr %call, i64 %indvars.iv
  store double %sub, ptr %arrayidx11, align 8, !tbaa !5
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond12.preheader, label %for.body6, !llvm.loop !9

for.cond.cleanup15:                               ; preds = %for.body16, %for.cond12.preheader
  %s.1.lcssa = phi double [ %s.055, %for.cond12.preheader ], [ %6, %for.body16 ]
  %indvars.iv.next66 = add nuw nsw i64 %indvars.iv65, 1
  %exitcond70.not = icmp eq i64 %indvars.iv.next66, %wide.trip.count69
  br i1 %exitcond70.not, label %for.cond.cleanup, label %for.cond2.preheader, !llvm.loop !12

for.body16:                                       ; preds = %for.cond12.preheader, %for.body16
  %indvars.iv60 = phi i64 [ %indvars.iv.next61, %for.body16 ], [ 0, %for.cond12.preheader ]
  %s.152 = phi double [ %6, %for.body16 ], [ %s.055, %for.cond12.preheader ]
  %arrayidx18 = getelementptr inbounds double, ptr %call, i64 %indvars.iv60
  %4 = load double, ptr %arrayidx18, align 8, !tbaa !5
  %mul21 = fmul double %4, %4
  %arrayidx23 = getelementptr inbounds double, ptr %m, i64 %indvars.iv60
  %5 = load double, ptr %arrayidx23, align 8, !tbaa !5
  %6 = tail call double @llvm.fmuladd.f64(double %mul21, double %5, double %s.152)
  %indvars.iv.next61 = add nuw nsw i64 %indvars.iv60, 1
  %exitcond64.not = icmp eq i64 %indvars.iv.next61, %wide.trip.count63
  br i1 %exitcond64.not, label %for.cond.cleanup15, label %for.body16, !llvm.loop !13
}

; Function Attrs: mustprogress nofree nounwind willreturn allockind("alloc,uninitialized") allocsize(0) memory(inaccessiblemem: readwrite)
declare noalias noundef ptr @malloc(i64 noundef) local_unnamed_addr #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double) #2

; Function Attrs: mustprogress nounwind willreturn allockind("free") memory(argmem: readwrite, inaccessiblemem: readwrite)
declare void @free(ptr allocptr nocapture noundef) local_unnamed_addr #3

; Function Attrs: nounwind uwtable
define dso_local void @g(ptr noalias nocapture noundef readonly %x, ptr noalias nocapture noundef readonly %m, ptr noalias nocapture noundef writeonly %err, i32 noundef %n, i32 noundef %np) local_unnamed_addr #0 {
entry:
  %conv = sext i32 %n to i64
  %mul = shl nsw i64 %conv, 3
  %call = tail call noalias ptr @malloc(i64 noundef %mul) #5
  %cmp59 = icmp sgt i32 %np, 0
  br i1 %cmp59, label %for.cond2.preheader.lr.ph, label %for.cond.cleanup

for.cond2.preheader.lr.ph:                        ; preds = %entry
  %cmp354 = icmp sgt i32 %n, 0
  %0 = load double, ptr %x, align 8, !tbaa !5
  %mul13 = fmul double %0, 2.000000e+00
  %cmp1656 = icmp sgt i32 %n, 0
  %1 = zext i32 %n to i64
  %wide.trip.count74 = zext nneg i32 %np to i64
  %wide.trip.count = zext nneg i32 %n to i64
  %wide.trip.count68 = zext nneg i32 %n to i64
  br label %for.cond2.preheader

for.cond2.preheader:                              ; preds = %for.cond2.preheader.lr.ph, %for.cond.cleanup18
  %indvars.iv70 = phi i64 [ 0, %for.cond2.preheader.lr.ph ], [ %indvars.iv.next71, %for.cond.cleanup18 ]
  %s.060 = phi double [ 0.000000e+00, %for.cond2.preheader.lr.ph ], [ %s.1.lcssa, %for.cond.cleanup18 ]
  br i1 %cmp354, label %for.body6.lr.ph, label %for.cond.cleanup5

for.body6.lr.ph:                                  ; preds = %for.cond2.preheader
  %2 = mul nuw nsw i64 %indvars.iv70, %1
  %invariant.gep = getelementptr inbounds double, ptr %x, i64 %2
  br label %for.body6

for.cond.cleanup:                                 ; preds = %for.cond.cleanup18, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %s.1.lcssa, %for.cond.cleanup18 ]
  store double %s.0.lcssa, ptr %err, align 8, !tbaa !5
  tail call void @free(ptr noundef %call) #6
  ret void

for.cond.cleanup5:                                ; preds = %for.body6, %for.cond2.preheader
  store double %mul13, ptr %call, align 8, !tbaa !5
  br i1 %cmp1656, label %for.body19, label %for.cond.cleanup18

for.body6:                                        ; preds = %for.body6.lr.ph, %for.body6
  %indvars.iv = phi i64 [ 0, %for.body6.lr.ph ], [ %indvars.iv.next, %for.body6 ]
  %gep = getelementptr inbounds double, ptr %invariant.gep, i64 %indvars.iv
  %3 = load double, ptr %gep, align 8, !tbaa !5
  %arrayidx9 = getelementptr inbounds double, ptr %m, i64 %indvars.iv
  %4 = load double, ptr %arrayidx9, align 8, !tbaa !5
  %sub = fsub double %3, %4
  %arrayidx11 = getelementptr inbounds double, ptr %call, i64 %indvars.iv
  store double %sub, ptr %arrayidx11, align 8, !tbaa !5
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup5, label %for.body6, !llvm.loop !14

for.cond.cleanup18:                               ; preds = %for.body19, %for.cond.cleanup5
  %s.1.lcssa = phi double [ %s.060, %for.cond.cleanup5 ], [ %7, %for.body19 ]
  %indvars.iv.next71 = add nuw nsw i64 %indvars.iv70, 1
  %exitcond75.not = icmp eq i64 %indvars.iv.next71, %wide.trip.count74
  br i1 %exitcond75.not, label %for.cond.cleanup, label %for.cond2.preheader, !llvm.loop !15

for.body19:                                       ; preds = %for.cond.cleanup5, %for.body19
  %indvars.iv65 = phi i64 [ %indvars.iv.next66, %for.body19 ], [ 0, %for.cond.cleanup5 ]
  %s.157 = phi double [ %7, %for.body19 ], [ %s.060, %for.cond.cleanup5 ]
  %arrayidx21 = getelementptr inbounds double, ptr %call, i64 %indvars.iv65
  %5 = load double, ptr %arrayidx21, align 8, !tbaa !5
  %mul24 = fmul double %5, %5
  %arrayidx26 = getelementptr inbounds double, ptr %m, i64 %indvars.iv65
  %6 = load double, ptr %arrayidx26, align 8, !tbaa !5
  %7 = tail call double @llvm.fmuladd.f64(double %mul24, double %6, double %s.157)
  %indvars.iv.next66 = add nuw nsw i64 %indvars.iv65, 1
  %exitcond69.not = icmp eq i64 %indvars.iv.next66, %wide.trip.count68
  br i1 %exitcond69.not, label %for.cond.cleanup18, label %for.body19, !llvm.loop !16
}

; Function Attrs: nounwind uwtable
define dso_local void @h(ptr noalias nocapture noundef readonly %x, ptr noalias nocapture noundef readonly %m, ptr noalias nocapture noundef writeonly %err, i32 noundef %n, i32 noundef %np) local_unnamed_addr #0 {
entry:
  %conv = sext i32 %n to i64
  %call = tail call noalias ptr @calloc(i64 noundef %conv, i64 noundef 8) #7
  %cmp54 = icmp sgt i32 %np, 0
  br i1 %cmp54, label %for.cond2.preheader.lr.ph, label %for.cond.cleanup

for.cond2.preheader.lr.ph:                        ; preds = %entry
  %sub = add i32 %n, -1
  %cmp349 = icmp sgt i32 %n, 1
  %cmp1351 = icmp sgt i32 %n, 0
  %0 = zext i32 %n to i64
  %wide.trip.count69 = zext nneg i32 %np to i64
  %wide.trip.count = zext i32 %sub to i64
  %wide.trip.count63 = zext nneg i32 %n to i64
  br label %for.cond2.preheader

for.cond2.preheader:                              ; preds = %for.cond2.preheader.lr.ph, %for.cond.cleanup15
  %indvars.iv65 = phi i64 [ 0, %for.cond2.preheader.lr.ph ], [ %indvars.iv.next66, %for.cond.cleanup15 ]
  %s.055 = phi double [ 0.000000e+00, %for.cond2.preheader.lr.ph ], [ %s.1.lcssa, %for.cond.cleanup15 ]
  br i1 %cmp349, label %for.body6.lr.ph, label %for.cond12.preheader

for.body6.lr.ph:                                  ; preds = %for.cond2.preheader
  %1 = mul nuw nsw i64 %indvars.iv65, %0
  %invariant.gep = getelementptr inbounds double, ptr %x, i64 %1
  br label %for.body6

for.cond.cleanup:                                 ; preds = %for.cond.cleanup15, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %s.1.lcssa, %for.cond.cleanup15 ]
  store double %s.0.lcssa, ptr %err, align 8, !tbaa !5
  tail call void @free(ptr noundef %call) #6
  ret void

for.cond12.preheader:                             ; preds = %for.body6, %for.cond2.preheader
  br i1 %cmp1351, label %for.body16, label %for.cond.cleanup15

for.body6:                                        ; preds = %for.body6.lr.ph, %for.body6
  %indvars.iv = phi i64 [ 0, %for.body6.lr.ph ], [ %indvars.iv.next, %for.body6 ]
  %gep = getelementptr inbounds double, ptr %invariant.gep, i64 %indvars.iv
  %2 = load double, ptr %gep, align 8, !tbaa !5
  %arrayidx8 = getelementptr inbounds double, ptr %m, i64 %indvars.iv
  %3 = load double, ptr %arrayidx8, align 8, !tbaa !5
  %sub9 = fsub double %2, %3
  %arrayidx11 = getelementptr inbounds double, ptr %call, i64 %indvars.iv
  store double %sub9, ptr %arrayidx11, align 8, !tbaa !5
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond12.preheader, label %for.body6, !llvm.loop !17

for.cond.cleanup15:                               ; preds = %for.body16, %for.cond12.preheader
  %s.1.lcssa = phi double [ %s.055, %for.cond12.preheader ], [ %6, %for.body16 ]
  %indvars.iv.next66 = add nuw nsw i64 %indvars.iv65, 1
  %exitcond70.not = icmp eq i64 %indvars.iv.next66, %wide.trip.count69
  br i1 %exitcond70.not, label %for.cond.cleanup, label %for.cond2.preheader, !llvm.loop !18

for.body16:                                       ; preds = %for.cond12.preheader, %for.body16
  %indvars.iv60 = phi i64 [ %indvars.iv.next61, %for.body16 ], [ 0, %for.cond12.preheader ]
  %s.152 = phi double [ %6, %for.body16 ], [ %s.055, %for.cond12.preheader ]
  %arrayidx18 = getelementptr inbounds double, ptr %call, i64 %indvars.iv60
  %4 = load double, ptr %arrayidx18, align 8, !tbaa !5
  %mul21 = fmul double %4, %4
  %arrayidx23 = getelementptr inbounds double, ptr %m, i64 %indvars.iv60
  %5 = load double, ptr %arrayidx23, align 8, !tbaa !5
  %6 = tail call double @llvm.fmuladd.f64(double %mul21, double %5, double %s.152)
  %indvars.iv.next61 = add nuw nsw i64 %indvars.iv60, 1
  %exitcond64.not = icmp eq i64 %indvars.iv.next61, %wide.trip.count63
  br i1 %exitcond64.not, label %for.cond.cleanup15, label %for.body16, !llvm.loop !19
}

; Function Attrs: mustprogress nofree nounwind willreturn allockind("alloc,zeroed") allocsize(0,1) memory(inaccessiblemem: readwrite)
declare noalias noundef ptr @calloc(i64 noundef, i64 noundef) local_unnamed_addr #4

attributes #0 = { nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { mustprogress nofree nounwind willreturn allockind("alloc,uninitialized") allocsize(0) memory(inaccessiblemem: readwrite) "alloc-family"="malloc" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { mustprogress nounwind willreturn allockind("free") memory(argmem: readwrite, inaccessiblemem: readwrite) "alloc-family"="malloc" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { mustprogress nofree nounwind willreturn allockind("alloc,zeroed") allocsize(0,1) memory(inaccessiblemem: readwrite) "alloc-family"="malloc" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #5 = { nounwind allocsize(0) }
attributes #6 = { nounwind }
attributes #7 = { nounwind allocsize(0,1) }

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
!9 = distinct !{!9, !10, !11}
!10 = !{!"llvm.loop.mustprogress"}
!11 = !{!"llvm.loop.unroll.disable"}
!12 = distinct !{!12, !10, !11}
!13 = distinct !{!13, !10, !11}
!14 = distinct !{!14, !10, !11}
!15 = distinct !{!15, !10, !11}
!16 = distinct !{!16, !10, !11}
!17 = distinct !{!17, !10, !11}
!18 = distinct !{!18, !10, !11}
!19 = distinct !{!19, !10, !11}

@enzyme_dup = external global i32
@enzyme_const = external global i32
declare double @__enzyme_autodiff(ptr, ...)

define void @grad(ptr %x, ptr %dx, ptr %m, ptr %dm, ptr %e, ptr %de, i32 %n, i32 %np) {
  call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dup, ptr %m, ptr %dm, ptr @enzyme_dup, ptr %e, ptr %de, ptr @enzyme_const, i32 %n, ptr @enzyme_const, i32 %np)
  call double (ptr, ...) @__enzyme_autodiff(ptr @g, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dup, ptr %m, ptr %dm, ptr @enzyme_dup, ptr %e, ptr %de, ptr @enzyme_const, i32 %n, ptr @enzyme_const, i32 %np)
  call double (ptr, ...) @__enzyme_autodiff(ptr @h, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dup, ptr %m, ptr %dm, ptr @enzyme_dup, ptr %e, ptr %de, ptr @enzyme_const, i32 %n, ptr @enzyme_const, i32 %np)
  ret void
}
