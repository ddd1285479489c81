; What a callee does with its parameter types the caller's memory passed to
; it: the callee loads a float, so the caller's argument holds a float at
; the offset it passes (4).
; RUN: %opt -passes='print<tapestry-types>' -disable-output %s | FileCheck %s

; CHECK-LABEL: types of 'callee':
; CHECK-NEXT:    arg %q: [0] float
define float @callee(ptr %q) {
  %v = load float, ptr %q
  ret float %v
}

; CHECK-LABEL: types of 'caller':
; CHECK-NEXT:    arg %p: [4] float
; CHECK-NOT:     {{^  }}
define float @caller(ptr %p) {
  %q = getelementptr i8, ptr %p, i64 4
  %v = call float @callee(ptr %q)
  ret float %v
}
