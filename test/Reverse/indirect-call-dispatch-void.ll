; A call through a function pointer of a type that passes and returns
; nothing differentiable (void(void) kernels in a table, working through
; globals) is dispatched like any other: the kernels' work on the globals
; has derivatives. A call whose candidates touch no memory (a void(i32)
; callback marked memory(none)) is left as it is.
; RUN: %opt -passes=tapestry %s -S | FileCheck %s
@in = internal global double 0.0
@acc = internal global double 0.0
@steps = internal global [2 x ptr] [ptr @square, ptr @twice]
@hooks = internal global [1 x ptr] [ptr @noop]

define internal void @square() {
  %x = load double, ptr @in
  %m = fmul double %x, %x
  store double %m, ptr @acc
  ret void
}
define internal void @twice() {
  %a = load double, ptr @acc
  %m = fmul double %a, 2.0
  store double %m, ptr @acc
  ret void
}
define internal void @noop(i32 %k) memory(none) {
  ret void
}

define double @run(double %x, i64 %k) {
  store double %x, ptr @in
  %slot = getelementptr [2 x ptr], ptr @steps, i64 0, i64 %k
  %f = load volatile ptr, ptr %slot
  call void %f()
  %h = load volatile ptr, ptr @hooks
  call void %h(i32 1)
  %r = load double, ptr @acc
  ret double %r
}
declare double @__enzyme_autodiff(ptr, ...)
define double @grad(double %x, i64 %k) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @run, double %x, i64 %k)
  ret double %d
}

; CHECK-LABEL: define internal double @run.tapestry.rev
; CHECK: icmp eq ptr %f, @square
; CHECK: icmp eq ptr %f, @twice
; CHECK-NOT: icmp eq ptr %h, @noop
; CHECK: ret double
