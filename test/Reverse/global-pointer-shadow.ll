; A pointer the function stores into a global and reads back after a call
; (@in, set to the input array) gets an implicit shadow holding the shadow
; pointer: the derivative stores x' beside x and accumulates through the
; reloaded shadow. A pointer set on one path only (@lazy, a workspace
; allocated on the first call) gets none: its shadow could be null.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
@enzyme_dup = external global i32
@enzyme_const = external global i32
declare void @__enzyme_autodiff(...)
declare i32 @fflush(ptr)
declare ptr @malloc(i64)
@in = internal global ptr null
@lazy = internal global ptr null

; CHECK: @in.tapestry.shadow = internal global ptr null
; CHECK-NOT: @lazy.tapestry.shadow

; square(x) = x[0]^2, x read back through @in after fflush.
define double @square(ptr %x) {
  store ptr %x, ptr @in
  %r = call i32 @fflush(ptr null)
  %p = load ptr, ptr @in
  %v = load double, ptr %p
  %m = fmul double %v, %v
  ret double %m
}

; scaled(x) = x * lazy[0], lazy allocated once and never written here.
define double @scaled(double %x) {
entry:
  %w = load ptr, ptr @lazy
  %none = icmp eq ptr %w, null
  br i1 %none, label %alloc, label %use
alloc:
  %m = call ptr @malloc(i64 8)
  store double 2.0, ptr %m
  store ptr %m, ptr @lazy
  br label %use
use:
  %p = load ptr, ptr @lazy
  %s = load double, ptr %p
  %y = fmul double %x, %s
  ret double %y
}

define void @grad(ptr %x, ptr %dx) {
  %d = load i32, ptr @enzyme_dup
  call void (...) @__enzyme_autodiff(ptr @square, i32 %d, ptr %x, ptr %dx)
  ret void
}

define double @gradScaled(double %x) {
  %r = call double (...) @__enzyme_autodiff(ptr @scaled, double %x)
  ret double %r
}

; CHECK-LABEL: define internal void @square.tapestry.rev
; CHECK: store ptr %x, ptr @in
; CHECK-NEXT: store ptr %"x'", ptr @in.tapestry.shadow
; CHECK: call i32 @fflush
; CHECK: %p = load ptr, ptr @in
; CHECK-NEXT: %"p'" = load ptr, ptr @in.tapestry.shadow
; CHECK: [[OLD:%[0-9]+]] = load double, ptr %"p'"
; CHECK: [[NEW:%[0-9]+]] = fadd double [[OLD]],
; CHECK: store double [[NEW]], ptr %"p'"
