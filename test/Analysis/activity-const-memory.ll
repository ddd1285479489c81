; An enzyme_const pointer's memory has no shadow: what is loaded from it is
; inactive, and so is everything computed from it alone.
; RUN: %opt -passes='print<tapestry-activity>' -disable-output %s | FileCheck %s

define double @f(ptr %table, double %x) #0 {
  %t = load double, ptr %table
  %t2 = fmul double %t, %t
  %r = fmul double %t2, %x
  ret double %r
}

; CHECK-LABEL: activity of 'f':
; CHECK-NEXT:    arg %table: inactive
; CHECK-NEXT:    arg %x: active
; CHECK-NEXT:    %t: inactive
; CHECK-NEXT:    %t2: inactive
; CHECK-NEXT:    %r: active
; CHECK-NOT:     {{^  }}

attributes #0 = { "tapestry-activity"="ca" }
