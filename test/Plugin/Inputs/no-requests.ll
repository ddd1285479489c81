; Input of ../opt-pass.ll: a module without requests, which the pass leaves
; as it is.

; CHECK:      define double @f(double %x) {
; CHECK-NEXT:   %s = call double @llvm.sin.f64(double %x)
; CHECK-NEXT:   %r = fmul double %s, %x
; CHECK-NEXT:   ret double %r
; CHECK-NEXT: }
; CHECK-NOT:  define

declare double @llvm.sin.f64(double)

define double @f(double %x) {
  %s = call double @llvm.sin.f64(double %x)
  %r = fmul double %s, %x
  ret double %r
}
