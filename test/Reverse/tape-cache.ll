; Reverse sweeps keep their per-loop record arrays for the next call
; (Synthesis/TapeCache.h): the record state starts empty and takes a block
; from the thread-local cache before the first reserve (the smallest block
; that holds the records of a loop whose trip count is known, and not many
; times more), and the sweep ends by giving the block back instead of
; freeing it (the cache keeps the largest blocks). The cache is one
; thread-local array shared by every module (linkonce_odr), freed at thread
; exit through __cxa_thread_atexit_impl.
;
; DEFINE: %{fc} = FileCheck %s --input-file=%t
; RUN: %opt -passes=tapestry -S %s -o %t
; RUN: %{fc}
; RUN: %{fc} --check-prefix=HELPERS
@enzyme_dup = external global i32
@enzyme_const = external global i32
declare double @__enzyme_autodiff(ptr, ...)
declare double @llvm.sin.f64(double)

; s = sum sin(x[i]) * x[i] over i < n; the loop's records are taped.
define double @f(ptr %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s1, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p
  store double 0.0, ptr %p
  %sv = call double @llvm.sin.f64(double %v)
  %m = fmul double %sv, %v
  %s1 = fadd double %s, %m
  %i1 = add i64 %i, 1
  %c = icmp slt i64 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret double %s1
}

define void @grad(ptr %x, ptr %dx, i64 %n) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_const, i64 %n)
  ret void
}

; CHECK-LABEL: define internal void @f.tapestry.rev
; CHECK: %tape = alloca %tapestry.tape
; CHECK: store ptr null, ptr %tape
; The loop's records take the cached block that fits their size best.
; CHECK: call void @tapestry.tape.acquire(ptr {{.*}}%tape, i64 %[[NEED:[0-9]+]])
; CHECK-NOT: call void @free
; CHECK: call void @tapestry.tape.reserve(ptr {{.*}}%tape, i64 %[[NEED]], i64 0)
; CHECK-NOT: call void @free
; CHECK: call void @tapestry.tape.recycle(ptr {{.*}}%tape)
; CHECK-NEXT: ret void

; HELPERS: @__tapestry_tape_cache = linkonce_odr thread_local global [8 x { ptr, i64 }] zeroinitializer
; HELPERS: @__tapestry_tape_cache_registered = linkonce_odr thread_local global i8 0
; HELPERS-LABEL: define internal void @tapestry.tape.acquire(
; HELPERS: call {{.*}}@llvm.threadlocal.address.p0(ptr {{.*}}@__tapestry_tape_cache)
; HELPERS-LABEL: define internal void @tapestry.tape.recycle(
; HELPERS: call i32 @__cxa_thread_atexit_impl(ptr @tapestry.tape.cache.free, ptr null, ptr @__dso_handle)
; HELPERS-LABEL: define internal void @tapestry.tape.cache.free(
