; -tapestry-max-indirect-candidates=N (clang: -fplugin=<plugin> -mllvm
; -tapestry-max-indirect-candidates=N; default 32): a call through a
; function pointer with active arguments is dispatched over at most N
; candidate functions (those of its type whose address escapes); with more,
; the request is an error that names the option.
;
; RUN: %opt -passes=tapestry -S %s | FileCheck %s --check-prefix=DISPATCH
; RUN: %opt -passes=tapestry -tapestry-max-indirect-candidates=2 -S %s \
; RUN:   | FileCheck %s --check-prefix=DISPATCH
; RUN: not %opt -passes=tapestry -tapestry-max-indirect-candidates=1 \
; RUN:   -disable-output %s 2>&1 | FileCheck %s --check-prefix=TOO-MANY
@table = global [2 x ptr] [ptr @sq, ptr @cube]
@enzyme_const = external global i32
@enzyme_out = external global i32

define internal double @sq(double %x) {
  %m = fmul double %x, %x
  ret double %m
}
define internal double @cube(double %x) {
  %m = fmul double %x, %x
  %c = fmul double %m, %x
  ret double %c
}

define double @apply(ptr %f, double %x) {
  %r = call double %f(double %x)
  ret double %r
}
declare double @__enzyme_autodiff(ptr, ...)
define double @grad(ptr %f, double %x) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @apply, ptr @enzyme_const, ptr %f, ptr @enzyme_out, double %x)
  ret double %d
}

; DISPATCH-LABEL: define internal double @apply.tapestry.rev_ca_ra(
; DISPATCH: icmp eq ptr %f, @sq
; DISPATCH: icmp eq ptr %f, @cube

; TOO-MANY: error: {{.*}}tapestry: cannot differentiate 'apply': a call through a function pointer takes active arguments, and 2 functions of its type have their address taken in this file, more than Tapestry dispatches over (-mllvm -tapestry-max-indirect-candidates=N); raise the limit to 2 (-mllvm -tapestry-max-indirect-candidates=2){{$}}
