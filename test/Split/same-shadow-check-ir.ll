; Split mode: a tape that keeps addresses into a shadow as the forward
; half computed them (a pointer stepping by a data-dependent amount) also
; keeps the shadow the augmented forward was given, and the reverse
; compares its own with it and stops with a message if they differ: the
; adjoints would go into the forward's shadow. A reverse that indexes the
; shadow it is given (flat) gets no such field or check. End to end:
; test/Errors/split-other-shadow-kept-addresses.c.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
@enzyme_dup = external global i32
declare { ptr, double } @__enzyme_augmentfwd(ptr, ...)
declare void @__enzyme_reverse(ptr, ...)
declare double @llvm.fmuladd.f64(double, double, double)

define double @walk(ptr %x, i32 %n) {
entry:
  %idx.ext = sext i32 %n to i64
  %end = getelementptr inbounds double, ptr %x, i64 %idx.ext
  %some = icmp sgt i32 %n, 0
  br i1 %some, label %body, label %exit
body:
  %p = phi ptr [ %next, %body ], [ %x, %entry ]
  %s = phi double [ %s.next, %body ], [ 0.0, %entry ]
  %v = load double, ptr %p
  %s.next = call double @llvm.fmuladd.f64(double %v, double %v, double %s)
  %pos = fcmp ogt double %v, 0.0
  %step = select i1 %pos, i64 1, i64 2
  %next = getelementptr inbounds double, ptr %p, i64 %step
  %more = icmp ult ptr %next, %end
  br i1 %more, label %body, label %exit
exit:
  %r = phi double [ 0.0, %entry ], [ %s.next, %body ]
  ret double %r
}

define double @flat(ptr %x, i32 %n) {
entry:
  %some = icmp sgt i32 %n, 0
  br i1 %some, label %body, label %exit
body:
  %i = phi i32 [ %i.next, %body ], [ 0, %entry ]
  %s = phi double [ %s.next, %body ], [ 0.0, %entry ]
  %at = getelementptr inbounds double, ptr %x, i32 %i
  %v = load double, ptr %at
  %s.next = call double @llvm.fmuladd.f64(double %v, double %v, double %s)
  %i.next = add nsw i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %body, label %exit
exit:
  %r = phi double [ 0.0, %entry ], [ %s.next, %body ]
  ret double %r
}

define void @run(ptr %x, ptr %dx, ptr %dx2, i32 %n) {
  %dup = load i32, ptr @enzyme_dup
  %a = call { ptr, double } (ptr, ...) @__enzyme_augmentfwd(ptr @walk, i32 %dup, ptr %x, ptr %dx, i32 %n)
  %t = extractvalue { ptr, double } %a, 0
  call void (ptr, ...) @__enzyme_reverse(ptr @walk, i32 %dup, ptr %x, ptr %dx2, i32 %n, double 1.0, ptr %t)
  %b = call { ptr, double } (ptr, ...) @__enzyme_augmentfwd(ptr @flat, i32 %dup, ptr %x, ptr %dx, i32 %n)
  %u = extractvalue { ptr, double } %b, 0
  call void (ptr, ...) @__enzyme_reverse(ptr @flat, i32 %dup, ptr %x, ptr %dx2, i32 %n, double 1.0, ptr %u)
  ret void
}

; CHECK: @[[MSG:[0-9]+]] = private unnamed_addr constant {{.*}} c"tapestry: the reverse of 'walk' was given another shadow of parameter 1 ('x') than its augmented forward
; CHECK-LABEL: define internal {{.*}} @flat.tapestry.{{.*}}.reverse(
; CHECK-NOT: shadows:
; CHECK-LABEL: define internal {{.*}} @flat.tapestry.{{.*}}.release(
; CHECK-LABEL: define internal {{.*}} @walk.tapestry.{{.*}}.augmented(ptr %x, ptr %"x'", i32 %n, ptr %tape)
; CHECK: store ptr %"x'", ptr
; CHECK-LABEL: define internal {{.*}} @walk.tapestry.{{.*}}.reverse(
; CHECK: icmp {{eq|ne}} ptr %{{[^,]*}}, %"x'"
; CHECK: br i1 %{{.*}}, label %tape.{{same|other}}.shadows, label %tape.{{same|other}}.shadows
; CHECK: tape.other.shadows:
; CHECK: @[[MSG]]
; CHECK-LABEL: define internal {{.*}} @walk.tapestry.{{.*}}.release(
