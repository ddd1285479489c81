; A value that depends on an active input but never reaches the result is
; varied, not active: it gets no adjoint.
; RUN: %opt -passes='print<tapestry-activity>' -disable-output %s | FileCheck %s

declare double @llvm.exp.f64(double)

define double @f(double %x) #0 {
  %unused = call double @llvm.exp.f64(double %x)
  %r = fmul double %x, 3.0
  ret double %r
}

; CHECK-LABEL: activity of 'f':
; CHECK-NEXT:    arg %x: active
; CHECK-NEXT:    %unused: varied
; CHECK-NEXT:    %r: active
; CHECK-NOT:     {{^  }}

attributes #0 = { "tapestry-activity"="a" }
