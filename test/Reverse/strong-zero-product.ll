; Strong zero for products: the zero adjoint sent to the untaken side of a
; speculated branch must contribute exactly zero even though the other
; operand of the product is infinite (0 * inf would be NaN in the gradient).
; At x = 2, y = +inf the program takes the first branch of
; f(x, y) = y > 1e300 ? x : x * y, so df/dx = 1. The derivative is run with
; lli.
;
; RUN: %opt -passes=tapestry %s -o %t.bc
; RUN: lli %t.bc | FileCheck %s
; CHECK: df/dx = 1 (expected 1)

@enzyme_out = external global i32
@enzyme_const = external global i32
@fmt = private constant [25 x i8] c"df/dx = %g (expected 1)\0A\00"

declare double @__enzyme_autodiff(ptr, ...)
declare i32 @printf(ptr, ...)

; f(x, y) = y > 1e300 ? x : x * y
define double @f(double %x, double %y) {
entry:
  %big = fcmp ogt double %y, 1.0e300
  br i1 %big, label %done, label %mul

mul:
  %p = fmul double %x, %y
  br label %done

done:
  %r = phi double [ %x, %entry ], [ %p, %mul ]
  ret double %r
}

define i32 @main() {
  %m = load i32, ptr @enzyme_out
  %c = load i32, ptr @enzyme_const
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %m, double 2.0, i32 %c, double 0x7FF0000000000000)
  %n = call i32 (ptr, ...) @printf(ptr @fmt, double %d)
  ret i32 0
}
