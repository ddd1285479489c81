; A static pointer a helper replaces (free the old block, malloc a new one,
; copy the input in) before its caller reads through it, the helper still
; a call when the analysis of which globals get shadows runs (as under
; -fplugin): that analysis inlines such setters into its copies, so the
; read follows the store and @buf gets a shadow, which the derivative
; stores the new block's shadow into (preparation inlines the helper and
; forwards the read to the block). Was no shadow and a
; gradient of 0 (no error). The run: test/Integration/global-pointer-set-by-helper.c.
; RUN: %opt -passes=tapestry -S %s -o - | FileCheck %s
; CHECK: @buf.tapestry.shadow = internal global ptr null
; CHECK-LABEL: define internal {{.*}} @f.tapestry.rev
; CHECK: store ptr %"blk{{.*}}'", ptr @buf.tapestry.shadow
; CHECK: ret

@buf = internal global ptr null
@enzyme_dup = external global i32
@enzyme_const = external global i32
declare void @__enzyme_autodiff(ptr, ...)
declare ptr @malloc(i64)
declare void @free(ptr)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define void @fill(ptr %x, i64 %n) noinline {
entry:
  %old = load ptr, ptr @buf, align 8
  call void @free(ptr %old)
  %bytes = shl i64 %n, 3
  %blk = call ptr @malloc(i64 %bytes)
  store ptr %blk, ptr @buf, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr %blk, ptr %x, i64 %bytes, i1 false)
  ret void
}

define double @f(ptr %x, i64 %n) {
entry:
  call void @fill(ptr %x, i64 %n)
  %p = load ptr, ptr @buf, align 8
  %v = load double, ptr %p, align 8
  %r = fmul double %v, %v
  ret double %r
}

define void @grad(ptr %x, ptr %dx, i64 %n) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_const, i64 %n)
  ret void
}
