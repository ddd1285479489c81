; A heap block is a memory root of its own: malloc's result gets the types
; of what is stored into it.
; RUN: %opt -passes='print<tapestry-types>' -disable-output %s | FileCheck %s

declare ptr @malloc(i64)

; CHECK-LABEL: types of 'f':
; CHECK-NEXT:    %buf: [0] double, [8] i32
; CHECK-NOT:     {{^  }}
define ptr @f(double %x) {
  %buf = call ptr @malloc(i64 16)
  store double %x, ptr %buf
  %n = getelementptr i8, ptr %buf, i64 8
  store i32 1, ptr %n
  ret ptr %buf
}
