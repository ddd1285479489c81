; Input of ../call-type-differs.ll: a malformed request (the value of x
; is missing) through a call whose type differs from the declaration.

; CHECK: error: {{.*}}too few arguments

@enzyme_out = external global i32

declare double @__enzyme_autodiff(...)

define double @sq(double %x) {
  %r = fmul double %x, %x
  ret double %r
}

define double @grad() {
  %m = load i32, ptr @enzyme_out
  %d = call double (ptr, i32) @__enzyme_autodiff(ptr @sq, i32 %m)
  ret double %d
}
