; print<tapestry-types> shows what each pointer argument and memory root
; holds, inferred from loads, stores, GEP element types, copies (both ends
; hold the same data) and what a callee does with its parameter.
; RUN: %opt -passes='print<tapestry-types>' -disable-output %s | FileCheck %s

; CHECK-LABEL: types of 'callee':
; CHECK-NEXT:    arg %q: float
define float @callee(ptr %q) {
  %v = load float, ptr %q
  ret float %v
}

; CHECK-LABEL: types of 'f':
; CHECK-NEXT:    arg %d: double
; CHECK-NEXT:    arg %copied: double
; CHECK-NEXT:    arg %mixed: double, i32
; CHECK-NEXT:    arg %passed: float
; CHECK-NEXT:    arg %untouched: unknown
; CHECK-NEXT:    %buf: double
define double @f(ptr %d, ptr %copied, ptr %mixed, ptr %passed, ptr %untouched) {
  %p = getelementptr double, ptr %d, i64 3
  %x = load double, ptr %p
  %buf = call ptr @malloc(i64 64)
  store double %x, ptr %buf
  call void @llvm.memcpy.p0.p0.i64(ptr %copied, ptr %buf, i64 64, i1 false)
  store double %x, ptr %mixed
  %m = getelementptr i8, ptr %mixed, i64 8
  store i32 1, ptr %m
  %c = call float @callee(ptr %passed)
  ret double %x
}

declare ptr @malloc(i64)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
