; -fsanitize=float-cast-overflow passes the double's bits to its check
; (`bitcast double %x to i64` given to __ubsan_handle_*): no derivative
; flows there, so it is not refused as bit manipulation (probe45b F5), and
; the check stays in the derivative as it is.
; RUN: %opt -passes=tapestry -S %s | FileCheck %s
; CHECK-LABEL: define internal double @f.tapestry.rev
; CHECK: bitcast double %{{.*}} to i64
; CHECK: call void @__ubsan_handle_float_cast_overflow_abort(ptr {{.*}}@data, i64
; CHECK: fmul double

@enzyme_out = external global i32
@data = private constant [16 x i8] zeroinitializer

define double @f(double %x) {
entry:
  %ok = fcmp olt double %x, 2.147483648e+09
  br i1 %ok, label %cont, label %bad

bad:
  %bits = bitcast double %x to i64
  call void @__ubsan_handle_float_cast_overflow_abort(ptr @data, i64 %bits)
  unreachable

cont:
  %k = fptosi double %x to i32
  %kd = sitofp i32 %k to double
  %sq = fmul double %x, %x
  %r = fadd double %sq, %kd
  ret double %r
}

define double @df(double %x) {
  %m = load i32, ptr @enzyme_out
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %m, double %x)
  ret double %d
}

declare void @__ubsan_handle_float_cast_overflow_abort(ptr, i64)
declare double @__enzyme_autodiff(ptr, ...)
