; A global the differentiated code writes with an active value (a callee
; leaves its result in @last) gets a zero-initialised shadow global; the
; caller's reverse sweep adds the read's adjoint into it and the callee's
; reverse consumes it (load, zero, propagate to x'). A global only read
; (@table) gets no shadow and stays a constant.
;
; DEFINE: %{fc} = FileCheck %s --input-file=%t
; RUN: %opt -passes=tapestry -S %s -o %t
; RUN: %{fc} --implicit-check-not=table.tapestry.shadow
@enzyme_dup = external global i32
@last = internal global double 0.0
@table = internal global [2 x double] zeroinitializer

declare void @__enzyme_autodiff(ptr, ...)

define internal void @square_into_last(ptr %x) noinline {
  %v = load double, ptr %x
  %s = fmul double %v, %v
  store double %s, ptr @last
  ret void
}

define internal double @read_last(ptr %x) {
  call void @square_into_last(ptr %x)
  %r = load double, ptr @last
  %t = load double, ptr getelementptr inbounds ([2 x double], ptr @table, i64 0, i64 1)
  %m = fmul double %r, %t
  ret double %m
}

define void @grad(ptr %x, ptr %dx) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @read_last, ptr @enzyme_dup, ptr %x, ptr %dx)
  ret void
}

; CHECK: @last.tapestry.shadow = internal global double 0.000000e+00
; CHECK-LABEL: define internal void @read_last.tapestry.rev
; CHECK: call ptr @square_into_last.tapestry.split_d.call.fwd(
; CHECK: [[A:%[0-9]+]] = load double, ptr @last.tapestry.shadow
; CHECK: [[S:%[0-9]+]] = fadd double [[A]],
; CHECK: store double [[S]], ptr @last.tapestry.shadow
; CHECK: call void @square_into_last.tapestry.split_d.call.rev(
; CHECK-LABEL: define internal void @square_into_last.tapestry.split_d.reverse(
; CHECK: [[D:%[0-9]+]] = load double, ptr @last.tapestry.shadow
; CHECK-NEXT: store double 0.000000e+00, ptr @last.tapestry.shadow
; CHECK: fmul double %v.tape, [[D]]
; CHECK: store double %{{[0-9]+}}, ptr %"x'"
