; __enzyme_fixed_point(step, markers..., args...) becomes its loop,
; `i = 0; while (step(i++, args...))`, before any request is read, in a
; module that differentiates nothing too: the markers' loads go with the
; call (nothing defines enzyme_fp_state). An invoke (C++, cleanups) invokes
; the step with the same unwind destination, whose phi-less landing pad
; is now reached from the loop. The C programs are
; test/Integration/fixed-point.c and fixed-point-cxx.cpp.
; RUN: %opt -passes=tapestry -S %s | FileCheck %s
; CHECK-NOT: call {{.*}}@__enzyme_fixed_point
; CHECK-LABEL: define double @solve(
; CHECK-NOT: load i32, ptr @enzyme_fp
; CHECK: br label %[[STEP:fixed_point.step]]
; CHECK: [[STEP]]:
; CHECK-NEXT: %[[I:.*]] = phi i64 [ 0, %{{.*}} ], [ %[[NEXT:.*]], %[[STEP]] ]
; CHECK-NEXT: %[[AGAIN:.*]] = call i32 @step(i64 %[[I]], ptr %u, ptr %p)
; CHECK-NEXT: %[[NEXT]] = add i64 %[[I]], 1
; CHECK-NEXT: %[[MORE:.*]] = icmp ne i32 %[[AGAIN]], 0
; CHECK-NEXT: br i1 %[[MORE]], label %[[STEP]], label %fixed_point.done
; CHECK: fixed_point.done:
; CHECK-NEXT: load double, ptr %u
; CHECK-LABEL: define double @solve_invoke(
; CHECK: fixed_point.step:
; CHECK: invoke i32 @step(i64 %{{.*}}, ptr %u, ptr %p)
; CHECK-NEXT: to label %fixed_point.next unwind label %lpad
; CHECK: fixed_point.next:
; CHECK: br i1 %{{.*}}, label %fixed_point.step, label %done
; CHECK: lpad:
; CHECK-SAME: preds = %fixed_point.step

declare void @__enzyme_fixed_point(ptr, ...)
@enzyme_fp_state = external global i32
@enzyme_fp_reduction = external global i32

define internal i32 @step(i64 %i, ptr %u, ptr %p) {
  %o = load double, ptr %u
  %pv = load double, ptr %p
  %h = fmul double %o, 5.000000e-01
  %n = fadd double %h, %pv
  store double %n, ptr %u
  %d = fsub double %o, %n
  %more = fcmp une double %d, 0.000000e+00
  %r = zext i1 %more to i32
  ret i32 %r
}

define double @solve(ptr %u, ptr %p) {
  %s = load i32, ptr @enzyme_fp_state
  %r = load i32, ptr @enzyme_fp_reduction
  call void (ptr, ...) @__enzyme_fixed_point(ptr @step, i32 %s, ptr %u, i64 8, i32 %r, double 1.0e-30, ptr %u, ptr %p)
  %v = load double, ptr %u
  ret double %v
}

declare i32 @__gxx_personality_v0(...)
declare void @cleanup(ptr)

define double @solve_invoke(ptr %u, ptr %p) personality ptr @__gxx_personality_v0 {
entry:
  %s = load i32, ptr @enzyme_fp_state
  invoke void (ptr, ...) @__enzyme_fixed_point(ptr @step, i32 %s, ptr %u, i64 8, ptr %u, ptr %p)
          to label %done unwind label %lpad
done:
  %v = load double, ptr %u
  ret double %v
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  call void @cleanup(ptr %u)
  resume { ptr, i32 } %lp
}
