; A loop-carried sum of active values is active (its phi and update); the
; induction variable and the exit test are inactive.
; RUN: %opt -passes='print<tapestry-activity>' -disable-output %s | FileCheck %s

define double @f(double %x, i64 %n) #0 {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s1, %loop ]
  %s1 = fadd double %s, %x
  %i1 = add i64 %i, 1
  %c = icmp slt i64 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret double %s1
}

; CHECK-LABEL: activity of 'f':
; CHECK-NEXT:    arg %x: active
; CHECK-NEXT:    arg %n: inactive
; CHECK-NEXT:    %i: inactive
; CHECK-NEXT:    %s: active
; CHECK-NEXT:    %s1: active
; CHECK-NEXT:    %i1: inactive
; CHECK-NEXT:    %c: inactive
; CHECK-NOT:     {{^  }}

attributes #0 = { "tapestry-activity"="ac" }
