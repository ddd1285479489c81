; A throw in differentiated code: the derivative keeps the primal's
; arithmetic but, where the primal throws, writes a message naming the
; throw and the function being differentiated to stderr and aborts; no
; __cxa_throw is left in the derivative. The user's function still throws.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
declare double @__enzyme_autodiff(...)
declare ptr @__cxa_allocate_exception(i64)
declare void @__cxa_throw(ptr, ptr, ptr)
declare double @llvm.sqrt.f64(double)

define double @guarded(double %x) {
entry:
  %neg = fcmp olt double %x, 0.000000e+00
  br i1 %neg, label %throw, label %ok
throw:
  %e = call ptr @__cxa_allocate_exception(i64 8)
  call void @__cxa_throw(ptr %e, ptr null, ptr null)
  unreachable
ok:
  %s = call double @llvm.sqrt.f64(double %x)
  ret double %s
}

define double @caller(double %x) {
  %d = call double (...) @__enzyme_autodiff(ptr @guarded, double %x)
  ret double %d
}

; CHECK: @[[MSG:.*]] = {{.*}}c"tapestry: exception thrown in guarded while differentiating guarded: Tapestry differentiates the paths on which nothing is thrown
; CHECK-LABEL: define double @guarded(
; CHECK: call void @__cxa_throw(
; CHECK-LABEL: define internal double @guarded.tapestry.rev_
; CHECK-NOT: @__cxa_throw
; CHECK: call i64 @write(i32 2, ptr {{(nonnull )?}}@[[MSG]], i64 {{[0-9]+}})
; CHECK-NEXT: call void @abort()
; CHECK-NEXT: unreachable
; CHECK-NOT: @__cxa_throw
; CHECK: ret double
