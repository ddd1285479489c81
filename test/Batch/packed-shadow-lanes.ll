; Batch forward mode (enzyme_width 2): memory the function allocates itself,
; accessed only as doubles, gets one shadow block of twice its size with
; the two lanes of each element side by side, so that a tangent is one
; vector load or store (Synthesis/PackedShadows.h): @packed's heap block and
; its copy, whose shadow blocks come from the thread's tape cache
; (tapestry.shadow.take, zeroed, and .give). Copies between a packed block
; and the caller's memory (one shadow per lane) go element by element
; through tapestry.lanes.copy.i64 (@copied: in; @copied_out: out). A block
; passed to another function (@escapes), copied from the caller's memory
; in part of an element (@partial), or accessed as two sizes (@mixed)
; keeps one shadow per lane.
; RUN: %opt -passes=tapestry,verify -S %s > %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: FileCheck %s --check-prefix=ESCAPES < %t.ll
; RUN: FileCheck %s --check-prefix=COPIED < %t.ll
; RUN: FileCheck %s --check-prefix=OUT < %t.ll
; RUN: FileCheck %s --check-prefix=PARTIAL < %t.ll
; RUN: FileCheck %s --check-prefix=TAKE < %t.ll
; RUN: FileCheck %s --check-prefix=LANECOPY < %t.ll
; RUN: FileCheck %s --check-prefix=GIVE < %t.ll
; RUN: FileCheck %s --check-prefix=MIXED < %t.ll
declare void @__enzyme_fwddiff(...)
declare ptr @malloc(i64)
declare void @free(ptr)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
@enzyme_width = external global i32
@enzyme_dupv = external global i32
@enzyme_const = external global i32

; CHECK-LABEL: define internal [2 x double] @packed.tapestry.fwd
; CHECK: %t = call ptr @malloc(i64 %bytes)
; CHECK-NEXT: %[[TB:[0-9]+]] = shl i64 %n, 4
; CHECK-NEXT: %"t'" = call ptr @tapestry.shadow.take(i64 %[[TB]])
; CHECK: %"u'" = call ptr @tapestry.shadow.take(i64 %[[TB]])
; CHECK: %[[OFF:[0-9]+]] = shl i64 %i, 4
; CHECK-NEXT: %"tp'" = getelementptr inbounds i8, ptr %"t'", i64 %[[OFF]]
; CHECK: store <2 x double> %"sq'", ptr %"tp'", align 8
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 1 %"u'", ptr align 1 %"t'", i64 %[[TB]], i1 false)
; CHECK: %"up'" = getelementptr inbounds i8, ptr %"u'", i64 16
; CHECK: %"u1'" = load <2 x double>, ptr %"up'", align 8
; CHECK: call void @tapestry.shadow.give(ptr %"t'")
; CHECK: call void @tapestry.shadow.give(ptr %"u'")
define double @packed(ptr %x, i64 %n) {
entry:
  %bytes = shl i64 %n, 3
  %t = call ptr @malloc(i64 %bytes)
  %u = call ptr @malloc(i64 %bytes)
  br label %fill

fill:
  %i = phi i64 [ 0, %entry ], [ %i.next, %fill ]
  %xp = getelementptr inbounds double, ptr %x, i64 %i
  %xi = load double, ptr %xp
  %sq = fmul double %xi, %xi
  %tp = getelementptr inbounds double, ptr %t, i64 %i
  store double %sq, ptr %tp
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %fill, label %copy

copy:
  call void @llvm.memcpy.p0.p0.i64(ptr %u, ptr %t, i64 %bytes, i1 false)
  %up = getelementptr inbounds double, ptr %u, i64 1
  %u1 = load double, ptr %up
  %r = fmul double %u1, %xi
  call void @free(ptr %t)
  call void @free(ptr %u)
  ret double %r
}

; ESCAPES-LABEL: define internal [2 x double] @escapes.tapestry.fwd
; ESCAPES: %"t'" = call {{.*}}ptr @malloc(i64 16)
; ESCAPES: %"t'1" = call {{.*}}ptr @malloc(i64 16)
; ESCAPES-NOT: <2 x double>, ptr
; ESCAPES: ret
define void @sink(ptr %p) noinline {
  %v = load double, ptr %p
  %w = fmul double %v, 2.0
  store double %w, ptr %p
  ret void
}

define double @escapes(ptr %x) {
  %t = call ptr @malloc(i64 16)
  %x0 = load double, ptr %x
  %sq = fmul double %x0, %x0
  store double %sq, ptr %t
  call void @sink(ptr %t)
  %r = load double, ptr %t
  call void @free(ptr %t)
  ret double %r
}

; COPIED-LABEL: define internal [2 x double] @copied.tapestry.fwd
; COPIED: %"t'" = call ptr @tapestry.shadow.take(i64 32)
; COPIED: call void @tapestry.lanes.copy.i64(ptr {{.*}}%"t'", ptr {{.*}}%lane.pointers, i64 2, i64 2, i1 false)
; COPIED: %"a'" = load <2 x double>, ptr %"t'"
; COPIED: ret
; LANECOPY-LABEL: define internal void @tapestry.lanes.copy.i64(
; LANECOPY: %k = phi i64
; LANECOPY: %[[LANE:[0-9]+]] = load ptr, ptr
; LANECOPY: %[[LE:[0-9]+]] = getelementptr i64, ptr %[[LANE]], i64 %e
; LANECOPY: %[[EW:[0-9]+]] = mul i64 %e, %2
; LANECOPY: %[[IDX:[0-9]+]] = add i64 %[[EW]], %k
; LANECOPY: %[[PE:[0-9]+]] = getelementptr i64, ptr %0, i64 %[[IDX]]
; OUT-LABEL: define internal void @copied_out.tapestry.fwd
; OUT: %"t'" = call ptr @tapestry.shadow.take(i64 32)
; OUT: store <2 x double>
; OUT: call void @tapestry.lanes.copy.i64(ptr {{.*}}%"t'", ptr {{.*}}%lane.pointers, i64 2, i64 2, i1 true)
define void @copied_out(ptr %x, ptr %out) {
  %t = call ptr @malloc(i64 16)
  %x0 = load double, ptr %x
  %sq = fmul double %x0, %x0
  store double %sq, ptr %t
  %t1 = getelementptr inbounds double, ptr %t, i64 1
  %cu = fmul double %sq, %x0
  store double %cu, ptr %t1
  call void @llvm.memcpy.p0.p0.i64(ptr %out, ptr %t, i64 16, i1 false)
  call void @free(ptr %t)
  ret void
}

; PARTIAL-LABEL: define internal [2 x double] @partial.tapestry.fwd
; PARTIAL: %"t'" = call {{.*}}ptr @malloc(i64 16)
; PARTIAL: %"t'1" = call {{.*}}ptr @malloc(i64 16)
; PARTIAL-NOT: <2 x double>, ptr
; PARTIAL: ret
define double @partial(ptr %x, i64 %i) {
  %t = call ptr @malloc(i64 16)
  call void @llvm.memcpy.p0.p0.i64(ptr %t, ptr %x, i64 12, i1 false)
  %ti = getelementptr inbounds double, ptr %t, i64 %i
  %a = load double, ptr %ti
  %r = fmul double %a, %a
  call void @free(ptr %t)
  ret double %r
}

define double @copied(ptr %x) {
  %t = call ptr @malloc(i64 16)
  call void @llvm.memcpy.p0.p0.i64(ptr %t, ptr %x, i64 16, i1 false)
  %t1 = getelementptr inbounds double, ptr %t, i64 1
  %a = load double, ptr %t
  %b = load double, ptr %t1
  %r = fmul double %a, %b
  call void @free(ptr %t)
  ret double %r
}

; MIXED-LABEL: define internal [2 x double] @mixed.tapestry.fwd
; MIXED: %"t'" = call {{.*}}ptr @malloc(i64 16)
; MIXED: %"t'1" = call {{.*}}ptr @malloc(i64 16)
; MIXED-NOT: <2 x double>, ptr
; MIXED: ret
define double @mixed(ptr %x, i64 %i, i64 %j) {
  %t = call ptr @malloc(i64 16)
  %x0 = load double, ptr %x
  %sq = fmul double %x0, %x0
  %ti = getelementptr inbounds double, ptr %t, i64 %i
  store double %sq, ptr %ti
  %tj = getelementptr inbounds double, ptr %t, i64 %j
  store i32 7, ptr %tj
  %r = load double, ptr %ti
  call void @free(ptr %t)
  ret double %r
}

define void @run(ptr %x, ptr %dx, i64 %n, ptr %out) {
  %a = call [2 x double] (...) @__enzyme_fwddiff(ptr @packed, ptr @enzyme_width, i32 2, ptr @enzyme_dupv, i64 32, ptr %x, ptr %dx, ptr @enzyme_const, i64 %n)
  store [2 x double] %a, ptr %out
  %b = call [2 x double] (...) @__enzyme_fwddiff(ptr @escapes, ptr @enzyme_width, i32 2, ptr @enzyme_dupv, i64 32, ptr %x, ptr %dx)
  %o1 = getelementptr inbounds [2 x double], ptr %out, i64 1
  store [2 x double] %b, ptr %o1
  %c = call [2 x double] (...) @__enzyme_fwddiff(ptr @copied, ptr @enzyme_width, i32 2, ptr @enzyme_dupv, i64 32, ptr %x, ptr %dx)
  %o2 = getelementptr inbounds [2 x double], ptr %out, i64 2
  store [2 x double] %c, ptr %o2
  call void (...) @__enzyme_fwddiff(ptr @copied_out, ptr @enzyme_width, i32 2, ptr @enzyme_dupv, i64 32, ptr %x, ptr %dx, ptr @enzyme_dupv, i64 16, ptr %out, ptr %dx)
  %e = call [2 x double] (...) @__enzyme_fwddiff(ptr @partial, ptr @enzyme_width, i32 2, ptr @enzyme_dupv, i64 32, ptr %x, ptr %dx, ptr @enzyme_const, i64 %n)
  %o4 = getelementptr inbounds [2 x double], ptr %out, i64 4
  store [2 x double] %e, ptr %o4
  %d = call [2 x double] (...) @__enzyme_fwddiff(ptr @mixed, ptr @enzyme_width, i32 2, ptr @enzyme_dupv, i64 32, ptr %x, ptr %dx, ptr @enzyme_const, i64 0, ptr @enzyme_const, i64 %n)
  %o3 = getelementptr inbounds [2 x double], ptr %out, i64 3
  store [2 x double] %d, ptr %o3
  ret void
}

; The helpers: a cached block if one fits, else malloc; zeroed.
; TAKE-LABEL: define internal ptr @tapestry.shadow.take(i64 %0)
; TAKE: call void @tapestry.tape.acquire(ptr %state, i64 %0)
; TAKE: call ptr @malloc(i64 %0)
; TAKE: call void @llvm.memset.p0.i64(ptr align 16 %block, i8 0, i64 %0, i1 false)
; GIVE-LABEL: define internal void @tapestry.shadow.give(ptr %0)
; GIVE: call i64 @malloc_usable_size(ptr %0)
; GIVE: call void @tapestry.tape.recycle(ptr %state)
