; A helper that differentiates the function its caller passes: internal
; @grad makes the request on its parameter %f, directly, and internal
; @grad_slot through the stack slot clang spills it to at -O0. Each is
; inlined where the caller names the function, the request then names
; @cube or @wave, and the helpers, used nowhere else, are gone. Refused
; before ("got parameter 1, a function pointer whose value is known only
; at run time").
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
declare double @__enzyme_autodiff(...)
declare double @llvm.sin.f64(double)

define internal double @cube(double %x) {
  %a = fmul double %x, %x
  %b = fmul double %a, %x
  ret double %b
}

define internal double @wave(double %x) {
  %s = call double @llvm.sin.f64(double %x)
  ret double %s
}

define internal double @grad(ptr %f, double %x) {
  %d = call double (...) @__enzyme_autodiff(ptr %f, double %x)
  ret double %d
}

define internal double @grad_slot(ptr %f, double %x) {
  %slot = alloca ptr, align 8
  store ptr %f, ptr %slot, align 8
  %g = load ptr, ptr %slot, align 8
  %d = call double (...) @__enzyme_autodiff(ptr %g, double %x)
  ret double %d
}

define double @both(double %x) {
  %a = call double @grad(ptr @cube, double %x)
  %b = call double @grad_slot(ptr @wave, double %x)
  %s = fadd double %a, %b
  ret double %s
}

; CHECK-NOT:   define internal double @grad(
; CHECK-NOT:   define internal double @grad_slot(
; CHECK-LABEL: define double @both(
; CHECK:       call double @cube.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CHECK:       call double @wave.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CHECK:       ret double
