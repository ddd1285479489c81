; Integers carry no derivative: integer arithmetic, a comparison and an
; integer made from an active double (fptosi) are inactive, and so is the
; integer argument.
; RUN: %opt -passes='print<tapestry-activity>' -disable-output %s | FileCheck %s

define double @f(double %x, i64 %n) #0 {
  %n2 = mul i64 %n, 2
  %xi = fptosi double %x to i64
  %k = add i64 %n2, %xi
  %kf = sitofp i64 %k to double
  %neg = fcmp olt double %x, 0.0
  %r = fmul double %x, %kf
  ret double %r
}

; CHECK-LABEL: activity of 'f':
; CHECK-NEXT:    arg %x: active
; CHECK-NEXT:    arg %n: inactive
; CHECK-NEXT:    %n2: inactive
; CHECK-NEXT:    %xi: inactive
; CHECK-NEXT:    %k: inactive
; CHECK-NEXT:    %kf: inactive
; CHECK-NEXT:    %neg: inactive
; CHECK-NEXT:    %r: active
; CHECK-NOT:     {{^  }}

attributes #0 = { "tapestry-activity"="ac" }
