; A load types the bytes it reads: a double at offset 0 of the argument.
; RUN: %opt -passes='print<tapestry-types>' -disable-output %s | FileCheck %s

; CHECK-LABEL: types of 'f':
; CHECK-NEXT:    arg %p: [0] double
; CHECK-NOT:     {{^  }}
define double @f(ptr %p) {
  %v = load double, ptr %p
  ret double %v
}
