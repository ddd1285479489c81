; Shadows of heap blocks in reverse mode (Synthesis/FreedShadows.h): @grow
; allocates a block, stores it where the caller sees it (*%slot), and frees
; the block the caller had there. The forward sweep lists the old block's
; shadow before freeing the old block; the reverse sweep frees the new
; block's shadow at its allocation only if it was listed (here it never is:
; the block outlives the call and its shadow stays in *%slot'); the call
; site releases what remains listed when the request returns, after
; checking that no adjoint reached a listed shadow after its block was
; freed (no word of it changed to a nonzero value since the copy taken
; when it was listed); else it stops the program with the message naming
; @grow.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
declare double @__enzyme_autodiff(...)
declare ptr @malloc(i64)
declare void @free(ptr)
@enzyme_dup = external global i32

define double @grow(ptr %slot, double %x) {
  %old = load ptr, ptr %slot
  %v = load double, ptr %old
  %new = call ptr @malloc(i64 16)
  %m = fmul double %v, %x
  store double %m, ptr %new
  store ptr %new, ptr %slot
  call void @free(ptr %old)
  %r = load double, ptr %new
  ret double %r
}

define double @caller(ptr %s, ptr %ds, double %x) {
  %dup = load i32, ptr @enzyme_dup
  %d = call double (...) @__enzyme_autodiff(ptr @grow, i32 %dup, ptr %s, ptr %ds, double %x)
  ret double %d
}

; CHECK: @[[MSG:[0-9]+]] = {{.*}}c"tapestry: the reverse derivative of 'grow' lost adjoints: 'grow' freed or reallocated a block the caller passed it
; CHECK-LABEL: define double @caller(
; CHECK: %[[MARK:.*]] = call i64 @tapestry.freed.mark()
; CHECK-NEXT: call {{.*}} @grow.tapestry.rev_
; CHECK-NEXT: call void @tapestry.freed.release(i64 %[[MARK]], ptr @[[MSG]], i64 {{[0-9]+}})

; CHECK-LABEL: define internal {{.*}} @grow.tapestry.rev_
; A block from malloc: its size is asked of the allocator (-1).
; CHECK: call void @tapestry.freed.push(ptr %{{.*}}, i64 0, i64 -1, i64 0)
; CHECK-NEXT: call void @free(
; CHECK: %[[LISTED:.*]] = call i1 @tapestry.freed.take(ptr {{(nonnull )?}}%[[SHADOW:[^)]*]])
; CHECK-NEXT: %[[OR_NULL:.*]] = select i1 %[[LISTED]], ptr %[[SHADOW]], ptr null
; CHECK-NEXT: call void @free(ptr %[[OR_NULL]])

; CHECK-LABEL: define internal void @tapestry.freed.push(ptr %0, i64 %1, i64 %2, i64 %3)
; CHECK: call i64 @malloc_usable_size(ptr %0)
; CHECK: %[[COPY:.*]] = call ptr @malloc(i64 %[[BYTES:.*]])
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 1 %[[COPY]], ptr align 1 %0, i64 %[[BYTES]], i1 false)

; CHECK-LABEL: define internal void @tapestry.freed.release(i64 %0, ptr %1, i64 %2)
; CHECK: %[[LOST:.*]] = call i1 @tapestry.freed.lost(
; CHECK-NEXT: br i1 %[[LOST]]
; CHECK: call i64 @write(i32 2, ptr %1, i64 %2)
; CHECK-NEXT: call void @abort()
; CHECK: call void @free(
