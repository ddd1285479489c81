; Both ends of a memcpy hold the same data: the destination's type comes
; from what is known of the source.
; RUN: %opt -passes='print<tapestry-types>' -disable-output %s | FileCheck %s

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

; CHECK-LABEL: types of 'f':
; CHECK-NEXT:    arg %dst: [0] double
; CHECK-NEXT:    arg %src: [0] double
; CHECK-NOT:     {{^  }}
define double @f(ptr %dst, ptr %src) {
  %v = load double, ptr %src
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 8, i1 false)
  ret double %v
}
