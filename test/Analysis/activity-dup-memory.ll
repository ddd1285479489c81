; An enzyme_dup pointer points to memory with a shadow: the pointer and the
; addresses computed from it are shadowed, a double loaded from it is
; active, and a double stored into it makes the stored value active (it
; reaches the output through memory).
; RUN: %opt -passes='print<tapestry-activity>' -disable-output %s | FileCheck %s

define void @f(ptr %out, ptr %in, i64 %i) #0 {
  %p = getelementptr inbounds double, ptr %in, i64 %i
  %v = load double, ptr %p
  %sq = fmul double %v, %v
  store double %sq, ptr %out
  ret void
}

; CHECK-LABEL: activity of 'f':
; CHECK-NEXT:    arg %out: shadowed
; CHECK-NEXT:    arg %in: shadowed
; CHECK-NEXT:    arg %i: inactive
; CHECK-NEXT:    %p: shadowed
; CHECK-NEXT:    %v: active
; CHECK-NEXT:    %sq: active
; CHECK-NOT:     {{^  }}

attributes #0 = { "tapestry-activity"="ddc" }
