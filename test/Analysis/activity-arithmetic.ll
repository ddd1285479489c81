; Activity of floating-point arithmetic: a value computed from an active
; input that reaches the result is active; one computed only from a const
; input is inactive, even where it feeds an active value.
; RUN: %opt -passes='print<tapestry-activity>' -disable-output %s | FileCheck %s

; f(x, c) = x * x + c * c
define double @f(double %x, double %c) #0 {
  %xx = fmul double %x, %x
  %cc = fmul double %c, %c
  %r = fadd double %xx, %cc
  ret double %r
}

; CHECK-LABEL: activity of 'f':
; CHECK-NEXT:    arg %x: active
; CHECK-NEXT:    arg %c: inactive
; CHECK-NEXT:    %xx: active
; CHECK-NEXT:    %cc: inactive
; CHECK-NEXT:    %r: active
; CHECK-NOT:     {{^  }}

attributes #0 = { "tapestry-activity"="ac" }
