; An access at a variable index types every element: [0 + 8i] double for a
; double array indexed by %i.
; RUN: %opt -passes='print<tapestry-types>' -disable-output %s | FileCheck %s

; CHECK-LABEL: types of 'f':
; CHECK-NEXT:    arg %a: [0 + 8i] double
; CHECK-NOT:     {{^  }}
define double @f(ptr %a, i64 %i) {
  %p = getelementptr inbounds double, ptr %a, i64 %i
  %v = load double, ptr %p
  ret double %v
}
