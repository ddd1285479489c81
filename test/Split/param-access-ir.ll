; The halves of a callee's split derivative get the parameter attributes
; their bodies prove (Analysis/ParamAccess.cpp): the reverses only read the
; primal local %v (readonly), accumulate into its shadow, and keep no copy
; of either address (nocapture); fill's augmented forward writes %v (not
; readonly). The caller's reverse therefore reads %v in place on the tape
; and accumulates into its own copy of the shadow: the tape stays
; reusable, which the misuse check of the caller's reverse shows by not
; marking the tape consumed. End to end:
; test/Split/reusable-local-arrays-in-helpers.c.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
declare ptr @__enzyme_augmentfwd(...)
declare void @__enzyme_reverse(...)
declare i64 @__enzyme_augmentsize(...)
@enzyme_dup = external global i32
@enzyme_allocated = external global i32
@enzyme_tape = external global i32

define internal void @fill(ptr %v, ptr %x) #0 {
  %a = load double, ptr %x, align 8
  %sq = fmul double %a, %a
  store <2 x double> zeroinitializer, ptr %v, align 16
  store double %sq, ptr %v, align 16
  ret void
}

define internal double @use(ptr %v) #0 {
  %p1 = getelementptr inbounds double, ptr %v, i64 1
  %a = load double, ptr %v, align 16
  %b = load double, ptr %p1, align 8
  %m = fmul double %a, %a
  %s = fadd double %m, %b
  ret double %s
}

define void @f(ptr %x, ptr %y) {
entry:
  %n = alloca i32, align 4
  %v = alloca [2 x double], align 16
  call void @fill(ptr %v, ptr %x)
  %r = call double @use(ptr %v)
  store double %r, ptr %y, align 8
  ret void
}

define i64 @size() {
  %s = call i64 (...) @__enzyme_augmentsize(ptr @f, ptr @enzyme_dup, ptr @enzyme_dup)
  ret i64 %s
}

define void @grad(ptr %x, ptr %dx, ptr %y, ptr %dy, ptr %buf) {
  call ptr (...) @__enzyme_augmentfwd(ptr @f, ptr @enzyme_allocated, i64 96, ptr @enzyme_tape, ptr %buf, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dup, ptr %y, ptr %dy)
  call void (...) @__enzyme_reverse(ptr @f, ptr @enzyme_allocated, i64 96, ptr @enzyme_tape, ptr %buf, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dup, ptr %y, ptr %dy)
  ret void
}
attributes #0 = { noinline }

; CHECK-LABEL: define internal void @fill.tapestry.split_dd.augmented(ptr nocapture %v, ptr nocapture readonly %"v'", ptr nocapture readonly %x, ptr nocapture readonly %"x'", ptr nocapture %tape)
; CHECK-LABEL: define internal void @fill.tapestry.split_dd.reverse(ptr nocapture readonly %v, ptr nocapture %"v'", ptr nocapture readonly %x, ptr nocapture %"x'", ptr noalias nocapture readonly dereferenceable_or_null(8) %tape)
; CHECK-LABEL: define internal void @use.tapestry.split_d_ra.reverse(ptr nocapture readonly %v, ptr nocapture %"v'", double %seed, ptr noalias nocapture readonly dereferenceable_or_null(8) %tape)

; CHECK-LABEL: define internal void @f.tapestry.split_dd.reverse(
; CHECK: tape.ok:
; CHECK-NOT: store i64 {{[0-9]+}}, ptr %tape.aligned
; CHECK: call void @use.tapestry.split_d_ra.reverse(
