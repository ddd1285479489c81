; A global whose shadow the IR names with Enzyme's !enzyme_shadow metadata
; (what __attribute__((enzyme_shadow(s))) lowers to, and what Enzyme users'
; own IR carries): the reverse adds the global's adjoint into @scale_shadow
; itself, no implicit shadow is made for it, and no request zeroes it.
; The run: test/Frontend/enzyme-shadow-attribute.cpp.
; RUN: %opt -passes=tapestry -S %s -o - | FileCheck %s
; CHECK-NOT: @scale.tapestry.shadow
; CHECK-LABEL: define internal {{.*}} @f.tapestry.rev
; CHECK: load double, ptr @scale_shadow
; CHECK: fadd double
; CHECK: store double {{.*}}, ptr @scale_shadow
; CHECK: ret

@scale_shadow = global double 0.0
@scale = global double 2.0, !enzyme_shadow !0

declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
  %s = load double, ptr @scale, align 8
  %xx = fmul double %x, %x
  %r = fmul double %s, %xx
  ret double %r
}

define double @grad(double %x) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %d
}

!0 = !{ptr @scale_shadow}
