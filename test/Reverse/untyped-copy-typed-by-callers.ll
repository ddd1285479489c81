; A function kept as a call (noinline) that moves its caller's memory with a
; memmove and no typed access of its own: the type analysis asks its only
; caller, which stores and loads the bytes as double, so the reverse of the
; copy moves double adjoints (before, "cannot tell what the memory this
; instruction copies holds"). The copy's adjoint reads the destination's
; shadow as double and adds it into the source's. (The parameter spilled
; to a local, as clang writes it before optimisation, is what keeps the
; call: a function without floating-point work is inlined.)
; RUN: %opt -passes=tapestry -S %s | FileCheck %s
; RUN: %opt -passes=tapestry %s -disable-output

@enzyme_dup = external global i32
@enzyme_out = external global i32

define void @shift(ptr %q, double %unused) noinline {
entry:
  %unused.addr = alloca double
  store double %unused, ptr %unused.addr
  %dst = getelementptr inbounds i8, ptr %q, i64 8
  call void @llvm.memmove.p0.p0.i64(ptr align 8 %dst, ptr align 8 %q, i64 16, i1 false)
  ret void
}

define double @f(ptr %a, double %x) {
entry:
  store double %x, ptr %a, align 8
  call void @shift(ptr %a, double %x)
  %p1 = getelementptr inbounds i8, ptr %a, i64 8
  %v1 = load double, ptr %p1, align 8
  %p2 = getelementptr inbounds i8, ptr %a, i64 16
  %v2 = load double, ptr %p2, align 8
  %mul = fmul double %v1, %v2
  ret double %mul
}

define double @run(ptr %a, ptr %da) {
entry:
  %dup = load i32, ptr @enzyme_dup
  %out = load i32, ptr @enzyme_out
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %dup, ptr %a, ptr %da, i32 %out, double 1.0)
  ret double %call
}

declare double @__enzyme_autodiff(ptr, ...)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)

; The reverse of shift moves the adjoints of two doubles, at byte 0 and 8 of
; the window, from the destination's shadow into the source's.
; CHECK-LABEL: define internal double @shift.tapestry.{{.*}}reverse(
; CHECK: %[[DST:.*]] = getelementptr inbounds i8, ptr %"q'", i64 8
; CHECK: call void @tapestry.parts.adjoint.move.p0.0double.8double(ptr {{.*}}%[[DST]], ptr %"q'", i64 16)
