; Split mode lists the shadows of the caller's blocks the augmented forward
; frees under its tape (Synthesis/FreedShadows.h): the augmentfwd call site
; sets the list's tag to the tape around the augmented forward and restores
; the previous tag; the reverse call site that releases the tape checks and
; frees the shadows listed under it (releasetag, with the lost-adjoints
; message naming @grow) before the tape's own release. End to end:
; test/Errors/split-caller-block-freed-lost-adjoints.c.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
declare { ptr, double } @__enzyme_augmentfwd(...)
declare void @__enzyme_reverse(...)
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

define void @caller(ptr %s, ptr %ds, double %x) {
  %dup = load i32, ptr @enzyme_dup
  %aug = call { ptr, double } (...) @__enzyme_augmentfwd(ptr @grow, i32 %dup, ptr %s, ptr %ds, double %x)
  %tape = extractvalue { ptr, double } %aug, 0
  call void (...) @__enzyme_reverse(ptr @grow, i32 %dup, ptr %s, ptr %ds, double %x, double 1.0, ptr %tape)
  ret void
}

; CHECK: @[[MSG:[0-9]+]] = {{.*}}c"tapestry: the reverse derivative of 'grow' lost adjoints
; CHECK-LABEL: define void @caller(
; CHECK: %[[TAPE:.*]] = call ptr @malloc(
; CHECK: %[[OLD:.*]] = call ptr @tapestry.freed.settag(ptr %[[TAPE]])
; CHECK-NEXT: call {{.*}} @grow.tapestry.{{.*}}.augmented(
; CHECK-NEXT: call ptr @tapestry.freed.settag(ptr %[[OLD]])
; CHECK: %[[TAPE2:.*]] = extractvalue { ptr, double } %{{.*}}, 0
; CHECK: call {{.*}} @grow.tapestry.{{.*}}.reverse({{.*}}, ptr %[[TAPE2]])
; CHECK-NEXT: call void @tapestry.freed.releasetag(ptr %[[TAPE2]], ptr @[[MSG]], i64 {{[0-9]+}})
; CHECK-NEXT: call void @grow.tapestry.{{.*}}.release(ptr %[[TAPE2]])
; CHECK-NEXT: call void @free(ptr %[[TAPE2]])

; The push keeps the tag it was pushed under.
; CHECK-LABEL: define internal void @tapestry.freed.push(
; CHECK: %[[TAG:.*]] = load ptr, ptr @tapestry.freed.tag
; CHECK: store ptr %[[TAG]],
