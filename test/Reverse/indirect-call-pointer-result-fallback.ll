; A call through a function pointer read from a writable global (Enzyme's
; metamalloc.c: `struct {int count; void *(*allocfn)(size_t);} tup =
; {0, malloc}`) is dispatched over malloc with a fallback for a function
; another file may store there. The fallback's pointer result has no
; shadow; it was an error ("the pointer ... may point to differentiable
; memory but has no shadow"). The derivative now stops with a message where
; the fallback would be called, before anything reads a shadow of its
; result, and the malloc branch allocates a shadow block. The C program is
; test/Integration/malloc-through-global-struct.c.
; RUN: %opt -passes=tapestry -S %s | FileCheck %s
; CHECK-LABEL: define internal double @f.tapestry.rev
; CHECK: icmp eq ptr %fn, @malloc
; CHECK: dispatch.malloc:
; CHECK: call {{.*}}ptr @malloc(i64 8)
; CHECK: %"'" = call {{.*}}ptr @malloc(i64 8)
; CHECK: dispatch.next:
; CHECK-NEXT: call i32 @fflush(ptr null)
; CHECK-NEXT: call i64 @write(i32 2, ptr nonnull @tapestry.unknown.callee
; CHECK-NEXT: call void @abort()
; CHECK-NEXT: unreachable

@tab = global { i32, ptr } { i32 0, ptr @malloc }

declare noalias ptr @malloc(i64)
declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
  %fnp = getelementptr inbounds i8, ptr @tab, i64 8
  %fn = load ptr, ptr %fnp
  %m = call ptr %fn(i64 8)
  %xx = fmul double %x, %x
  store double %xx, ptr %m
  %v = load double, ptr %m
  ret double %v
}

define double @df(double %x) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %d
}
