; A call through a pointer that can hold only known functions (a local
; global initialised to @malloc and never written: Enzyme's metamalloc) is
; dispatched without the unknown-callee fallback, so the call is malloc's
; and the block gets a shadow (the primal block itself is simplified away
; here: its value is forwarded). Through a table holding an alias, the
; targets are not all known and the fallback stays
; (test/Integration/calls-function-table-alias.c). The run:
; test/Integration/malloc-through-static-pointer.c.
; RUN: %opt -passes=tapestry -S %s -o - | FileCheck %s
; CHECK-NOT: tapestry.unknown.callee
; CHECK-LABEL: define internal {{.*}} @f.tapestry.rev
; CHECK: call {{.*}}ptr @malloc(i64 8)
; CHECK: fmul double {{.*}}, %x
; CHECK: ret

@allocfn = internal global ptr @malloc

declare ptr @malloc(i64)
declare void @free(ptr)
declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
  %fn = load ptr, ptr @allocfn, align 8
  %mem = call ptr %fn(i64 8)
  %sq = fmul double %x, %x
  store double %sq, ptr %mem, align 8
  %r = load double, ptr %mem, align 8
  call void @free(ptr %mem)
  ret double %r
}

define double @grad(double %x) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %d
}
