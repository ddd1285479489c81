; A heap block that active data is stored into gets a shadow: malloc's
; result is shadowed (allocations are recognised once, in
; Core/AllocationFunctions.cpp), the double read back from it is active,
; and free's call carries no value.
; RUN: %opt -passes='print<tapestry-activity>' -disable-output %s | FileCheck %s

declare ptr @malloc(i64)
declare void @free(ptr)

define double @f(double %x) #0 {
  %buf = call ptr @malloc(i64 8)
  %sq = fmul double %x, %x
  store double %sq, ptr %buf
  %v = load double, ptr %buf
  call void @free(ptr %buf)
  ret double %v
}

; CHECK-LABEL: activity of 'f':
; CHECK-NEXT:    arg %x: active
; CHECK-NEXT:    %buf: shadowed
; CHECK-NEXT:    %sq: active
; CHECK-NEXT:    %v: active
; CHECK-NOT:     {{^  }}

attributes #0 = { "tapestry-activity"="a" }
