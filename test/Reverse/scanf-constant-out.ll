; sscanf stores numbers with derivative zero where its format says (here
; "%d %lf": the int goes to its pointer, the double into a[1]). Forward
; mode zeroes the tangent of a[1] right after the call; reverse mode drops
; the adjoint a[1] had from its read after the call (the read before it
; contributes, the one after does not reach a[1]'s shadow).
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
@.str = private unnamed_addr constant [7 x i8] c"%d %lf\00", align 1
@enzyme_dup = external local_unnamed_addr global i32, align 4
@enzyme_const = external local_unnamed_addr global i32, align 4

define dso_local double @f(ptr noundef %a, ptr nocapture noundef readonly %s) {
entry:
  %0 = load double, ptr %a, align 8
  %arrayidx1 = getelementptr inbounds i8, ptr %a, i64 8
  %1 = load double, ptr %arrayidx1, align 8
  %mul = fmul double %0, %1
  %call = tail call i32 (ptr, ptr, ...) @__isoc99_sscanf(ptr noundef %s, ptr noundef nonnull @.str, ptr noundef null, ptr noundef nonnull %arrayidx1)
  %2 = load double, ptr %arrayidx1, align 8
  %3 = load double, ptr %a, align 8
  %4 = tail call double @llvm.fmuladd.f64(double %2, double %3, double %mul)
  ret double %4
}

declare noundef i32 @__isoc99_sscanf(ptr nocapture noundef readonly, ptr nocapture noundef readonly, ...) local_unnamed_addr

declare double @llvm.fmuladd.f64(double, double, double)

define dso_local void @run(ptr noundef %a, ptr noundef %da, ptr noundef %s) local_unnamed_addr {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %1 = load i32, ptr @enzyme_const, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @f, i32 noundef %0, ptr noundef %a, ptr noundef %da, i32 noundef %1, ptr noundef %s)
  %2 = load i32, ptr @enzyme_dup, align 4
  %3 = load i32, ptr @enzyme_const, align 4
  %call = tail call double (ptr, ...) @__enzyme_fwddiff(ptr noundef nonnull @f, i32 noundef %2, ptr noundef %a, ptr noundef %da, i32 noundef %3, ptr noundef %s)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

declare double @__enzyme_fwddiff(ptr noundef, ...) local_unnamed_addr


; CHECK-LABEL: define internal void @f.tapestry.rev_dc_ra(
; CHECK-NOT:   load double, ptr %"arrayidx1'"
; CHECK:       call i32 (ptr, ptr, ...) @__isoc99_sscanf(
; CHECK-NOT:   load double, ptr %"arrayidx1'"
; CHECK:       [[OLD:%.*]] = fmul double %0, %seed
; CHECK-NOT:   load double, ptr %"arrayidx1'"
; CHECK:       store double {{%.*}}, ptr %"arrayidx1'"
; CHECK-NOT:   ptr %"arrayidx1'"
; CHECK:       ret void

; CHECK-LABEL: define internal double @f.tapestry.fwd_dc_ra(
; CHECK:       call i32 (ptr, ptr, ...) @__isoc99_sscanf(ptr noundef %s, ptr noundef nonnull @.str, ptr noundef null, ptr noundef nonnull %arrayidx1)
; CHECK-NEXT:  store double 0.000000e+00, ptr %"arrayidx1'"
