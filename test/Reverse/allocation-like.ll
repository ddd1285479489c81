; An allocator registered with __enzyme_allocation_like (size: argument 1;
; freed by pool_free(p, argument 0)) is malloc for derivatives: the shadow
; of its block is allocated by calling it again with the same arguments and
; zeroed over the size argument. Reverse mode replays the deferred free of
; the primal block and frees the shadow with pool_free(shadow, 7) where the
; reverse sweep reaches the allocation; forward mode frees the shadow with
; the same call as the primal block.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
@.idx = private constant [5 x i8] c"-1,0\00"
@__enzyme_allocation_like = global [4 x ptr] [ptr @pool_alloc, ptr inttoptr (i64 1 to ptr), ptr @.idx, ptr @pool_free]

declare ptr @pool_alloc(i32, i64)
declare void @pool_free(ptr, i32)
declare double @__enzyme_autodiff(...)
declare double @__enzyme_fwddiff(...)

define double @square(double %x, i64 %n) {
  %p = call ptr @pool_alloc(i32 7, i64 %n)
  store double %x, ptr %p
  %v = load double, ptr %p
  %m = fmul double %v, %v
  call void @pool_free(ptr %p, i32 7)
  ret double %m
}

define double @rev(double %x) {
  %d = call double (...) @__enzyme_autodiff(ptr @square, double %x, i64 8)
  ret double %d
}

define double @fwd(double %x) {
  %d = call double (...) @__enzyme_fwddiff(ptr @square, double %x, double 1.0, i64 8)
  ret double %d
}

; CHECK-LABEL: define internal double @square.tapestry.rev_
; CHECK:         %p = call ptr @pool_alloc(i32 7, i64 %n)
; CHECK-NEXT:    %"p'" = call ptr @pool_alloc(i32 7, i64 %n)
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr {{.*}}%"p'", i8 0, i64 %n, i1 false)
; CHECK-NOT:     call void @pool_free
; CHECK:         call i1 @tapestry.freed.take(ptr {{.*}}%"p'")
; CHECK-NEXT:    call void @pool_free(ptr {{.*}}%"p'", i32 7)
; CHECK-NEXT:    call void @pool_free(ptr {{.*}}%p, i32 7)
; CHECK-NOT:     call void @pool_free
; CHECK:         ret double

; CHECK-LABEL: define internal double @square.tapestry.fwd_
; CHECK:         %p = call ptr @pool_alloc(i32 7, i64 %n)
; CHECK-NEXT:    %"p'" = call ptr @pool_alloc(i32 7, i64 %n)
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr {{.*}}%"p'", i8 0, i64 %n, i1 false)
; CHECK:         call void @pool_free(ptr {{.*}}%p, i32 7)
; CHECK-NEXT:    call void @pool_free(ptr {{.*}}%"p'", i32 7)
; CHECK-NEXT:    ret double
