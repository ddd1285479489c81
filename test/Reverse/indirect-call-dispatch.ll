; A call through a function pointer whose value is known only at run time is
; dispatched on the pointer over the functions of its type whose address
; escapes (here: the two in @table; @unused's address is only compared, and
; @other has another type), each branch differentiated like a direct call.
; A pointer to none of them stops the derivative with a message (write to
; stderr, then abort) rather than returning a wrong number.
; RUN: %opt -passes=tapestry %s -S | FileCheck %s
@table = global [2 x ptr] [ptr @sq, ptr @cube]
@enzyme_const = external global i32
@enzyme_out = external global i32
@other_table = global [1 x ptr] [ptr @other]

define internal double @sq(double %x) {
  %m = fmul double %x, %x
  ret double %m
}
define internal double @cube(double %x) {
  %m = fmul double %x, %x
  %c = fmul double %m, %x
  ret double %c
}
define internal float @other(float %x) {
  ret float %x
}
define internal double @unused(double %x) {
  ret double %x
}
define i1 @is_unused(ptr %f) {
  %c = icmp eq ptr %f, @unused
  ret i1 %c
}

define double @apply(ptr %f, double %x) {
  %r = call double %f(double %x)
  %s = fmul double %r, 2.0
  ret double %s
}
declare double @__enzyme_autodiff(ptr, ...)
define double @grad(ptr %f, double %x) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @apply, ptr @enzyme_const, ptr %f, ptr @enzyme_out, double %x)
  ret double %d
}
declare double @__enzyme_fwddiff(ptr, ...)
define double @tangent(ptr %f, double %x) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @apply, ptr @enzyme_const, ptr %f, double %x, double 1.0)
  ret double %d
}

; CHECK: @tapestry.unknown.callee{{.*}} c"Tapestry: the derivative of 'apply' calls, through a function pointer, a function that was not in the translation unit

; CHECK-LABEL: define internal double @apply.tapestry.rev_ca_ra(ptr %f, double %x, double %seed)
; CHECK-NOT: @unused
; CHECK-NOT: @other
; CHECK: icmp eq ptr %f, @sq
; CHECK: icmp eq ptr %f, @cube
; CHECK: call i64 @write(i32 2, ptr nonnull @tapestry.unknown.callee
; CHECK-NEXT: call void @abort()
; CHECK-NEXT: unreachable
; CHECK: ret double

; CHECK-LABEL: define internal double @apply.tapestry.fwd_cd_ra(ptr %f, double %x, double %"x'")
; CHECK: icmp eq ptr %f, @sq
; CHECK: dispatch.sq:
; CHECK: fmul double %x, %"x'"
; CHECK: icmp eq ptr %f, @cube
; CHECK: dispatch.cube:
; CHECK: call i64 @write(i32 2
; CHECK-NEXT: call void @abort()
; CHECK: dispatch.join:
; CHECK: phi double
; CHECK: ret double

