; A store through a constant GEP types the bytes at that offset: an i32 at
; byte 12 (element 3 of an i32 array), a float at byte 4 (an i8 GEP).
; RUN: %opt -passes='print<tapestry-types>' -disable-output %s | FileCheck %s

; CHECK-LABEL: types of 'f':
; CHECK-NEXT:    arg %p: [4] float, [12] i32
; CHECK-NOT:     {{^  }}
define void @f(ptr %p, float %x) {
  %a = getelementptr i32, ptr %p, i64 3
  store i32 7, ptr %a
  %b = getelementptr i8, ptr %p, i64 4
  store float %x, ptr %b
  ret void
}
