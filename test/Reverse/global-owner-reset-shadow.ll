; An owner kept in a global (a static std::unique_ptr, inlined at -O2):
; the old pointer is read only to release its block, then a fresh block
; filled from the input is stored, and read back after a call the analysis
; cannot see through. The global gets a shadow (the read that only
; releases may come before the store: GlobalShadows' releasesOnly); the
; new block's shadow is stored into the shadow global and read back, and
; the new block itself into the shadow's companion. Was a gradient of 0
; (no shadow). The old pointer's shadow is the shadow global's (the last
; derivative's shadow block) where the companion says that derivative
; stored this block, else the block itself (a plain call stored it, or
; another derivative stored the "no derivative" marker for another): the
; release lists the old shadow to be freed, never the block itself. (Before,
; the old read had no shadow and the old shadow block leaked on every call;
; taking the shadow global's pointer whenever it was not null freed a
; marker's block twice: test/Leaks/global-owner-adopts-constant-block.cpp.)
; The runs: test/Integration/global-smart-pointer-reloaded.cpp,
; test/Leaks/global-owner-kept-block.cpp.
; RUN: %opt -passes=tapestry -S %s -o - | FileCheck %s
; CHECK-LABEL: define internal {{.*}} @f.tapestry.rev
; CHECK: %old = load ptr, ptr @cache
; CHECK: %"old'" = load ptr, ptr @cache.tapestry.shadow
; CHECK: %old.stored.for = load ptr, ptr @cache.tapestry.shadow.primal
; CHECK: store ptr %"blk'", ptr @cache.tapestry.shadow
; CHECK: store ptr %blk, ptr @cache.tapestry.shadow.primal
; CHECK: release:
; CHECK: %[[MINE:.*]] = icmp eq ptr %old.stored.for, %old
; CHECK: %"old'.or.self" = select i1 %[[MINE]], ptr %"old'", ptr %old
; CHECK: %[[SELF:.*]] = icmp eq ptr %"old'.or.self", %old
; CHECK: %[[LISTED:.*]] = select i1 %[[SELF]], ptr null, ptr %"old'.or.self"
; CHECK: call void @tapestry.freed.push(ptr %[[LISTED]]
; CHECK: call void @free(ptr %old)
; CHECK: load ptr, ptr @cache.tapestry.shadow
; CHECK: ret

@cache = internal global ptr null
@enzyme_dup = external global i32
@enzyme_const = external global i32
declare void @__enzyme_autodiff(ptr, ...)
declare ptr @malloc(i64)
declare void @free(ptr)
declare i32 @fflush(ptr)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define double @f(ptr %x, i64 %n) {
entry:
  %old = load ptr, ptr @cache, align 8
  %bytes = shl i64 %n, 3
  %blk = call ptr @malloc(i64 %bytes)
  call void @llvm.memcpy.p0.p0.i64(ptr %blk, ptr %x, i64 %bytes, i1 false)
  store ptr %blk, ptr @cache, align 8
  %none = icmp eq ptr %old, null
  br i1 %none, label %read, label %release
release:
  call void @free(ptr %old)
  br label %read
read:
  %flushed = call i32 @fflush(ptr null)
  %p = load ptr, ptr @cache, align 8
  %v = load double, ptr %p, align 8
  %r = fmul double %v, %v
  ret double %r
}

define void @grad(ptr %x, ptr %dx, i64 %n) {
  %dup = load i32, ptr @enzyme_dup
  %const = load i32, ptr @enzyme_const
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %dup, ptr %x, ptr %dx, i32 %const, i64 %n)
  ret void
}
