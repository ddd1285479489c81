; A global declared inactive (__enzyme_inactive_global_buf) written with a
; value that carries a derivative and loaded back into the result: an error
; at the store (the declaration would drop the derivative); the puts in
; between keeps the load from being forwarded. The same global only
; written (a log) is accepted.
; RUN: not %opt -passes=tapestry -disable-output %s 2>&1 | FileCheck %s
; RUN: sed -e 's/%%back = load double, ptr @buf/%%back = fadd double %%sq, 0.0/' %s | %opt -passes=tapestry -S | FileCheck %s --check-prefix=LOG
; CHECK: error: {{.*}}an active value is stored to the global 'buf', which is declared inactive
; LOG: define internal {{.*}}@f.tapestry.rev

@buf = global double 0.0
@__enzyme_inactive_global_buf = global [1 x ptr] [ptr @buf]
@enzyme_out = external global i32
@msg = private constant [3 x i8] c"ok\00"

define double @f(double %x) {
  %sq = fmul double %x, %x
  store double %sq, ptr @buf
  %p = call i32 @puts(ptr @msg)
  %back = load double, ptr @buf
  %r = fmul double %back, %x
  ret double %r
}

define double @df(double %x) {
  %m = load i32, ptr @enzyme_out
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %m, double %x)
  ret double %d
}

declare double @__enzyme_autodiff(ptr, ...)
declare i32 @puts(ptr)
