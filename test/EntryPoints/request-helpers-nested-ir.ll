; A request on a function-pointer parameter made two static helpers deep,
; as clang -O0 emits it (each parameter spilled to a stack slot and read
; back): @report passes its parameter on to @gradient, which makes the
; request. Helpers that pass the pointer on are inlined where their callers
; name the function, level by level (the inliner's lifetime markers on the
; slots it moves do not count as other values stored), so the request
; names @quad and its derivative is synthesised. Before, it was refused:
; "a function pointer whose value is known only at run time" (probe42 F1).
; End to end: test/Integration/request-wrapper-helpers-nested.c.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
; CHECK-LABEL: define i32 @main(
; CHECK: call {{.*}}@quad.tapestry.rev_
; CHECK-NOT: call void @report(
; CHECK: define internal {{.*}}@quad.tapestry.rev_

@enzyme_dup = external global i32
@enzyme_const = external global i32
declare void @__enzyme_autodiff(ptr, ...)
declare void @llvm.lifetime.start.p0(i64, ptr)
declare void @llvm.lifetime.end.p0(i64, ptr)

define internal double @quad(ptr %x, i32 %n) {
  %a = load double, ptr %x
  %s = fmul double %a, %a
  ret double %s
}

define internal void @gradient(ptr %f, ptr %x, ptr %g, i32 %n) {
  %f.addr = alloca ptr
  store ptr %f, ptr %f.addr
  %fv = load ptr, ptr %f.addr
  %dup = load i32, ptr @enzyme_dup
  %const = load i32, ptr @enzyme_const
  call void (ptr, ...) @__enzyme_autodiff(ptr %fv, i32 %dup, ptr %x, ptr %g, i32 %const, i32 %n)
  ret void
}

define internal void @report(ptr %f, ptr %x, ptr %g, i32 %n) {
  %f.addr = alloca ptr
  call void @llvm.lifetime.start.p0(i64 8, ptr %f.addr)
  store ptr %f, ptr %f.addr
  %fv = load ptr, ptr %f.addr
  call void @gradient(ptr %fv, ptr %x, ptr %g, i32 %n)
  call void @llvm.lifetime.end.p0(i64 8, ptr %f.addr)
  ret void
}

define i32 @main(ptr %x, ptr %g) {
  call void @report(ptr @quad, ptr %x, ptr %g, i32 1)
  ret i32 0
}
