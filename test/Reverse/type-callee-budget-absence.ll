; Beyond its callee budget the type analysis has not seen everything, so
; it draws no conclusion from what it did not see. Here a double moves
; from x into the local %a seven calls down (@s7), %a is copied to %b,
; and %b is read as a double seven calls down (@g7). Seen in full (the
; default budget), the copy moves a double's adjoint. With a budget of 5
; nothing typed is seen at either local; the copy would look like one of
; local bytes that never hold floating-point data, which moves no adjoint
; (a silent zero derivative). It is an error naming the budget instead.
;
; RUN: %opt -passes=tapestry -S %s | FileCheck %s --check-prefix=SEEN
; RUN: not %opt -passes=tapestry -tapestry-type-callee-budget=5 -S %s \
; RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=BUDGET

@enzyme_dup = external global i32
declare void @__enzyme_autodiff(ptr, ...)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

; SEEN-LABEL: define internal void @h.tapestry.rev_
; SEEN:       call void @tapestry.parts.adjoint.p0.0double(
; SEEN-LABEL: {{^}}}

; BUDGET: cannot tell what the memory this instruction copies holds
; BUDGET-SAME: stopped after looking into 5 callee bodies

define void @h(ptr %x, ptr %out) {
  %a = alloca [8 x i8]
  %b = alloca [8 x i8]
  call void @s1(ptr %a, ptr %x)
  call void @llvm.memcpy.p0.p0.i64(ptr %b, ptr %a, i64 8, i1 false)
  call void @g1(ptr %b, ptr %out)
  ret void
}

define void @s1(ptr %a, ptr %x) noinline {
  call void @s2(ptr %a, ptr %x)
  ret void
}

define void @g1(ptr %t, ptr %out) noinline {
  call void @g2(ptr %t, ptr %out)
  ret void
}

define void @s2(ptr %a, ptr %x) noinline {
  call void @s3(ptr %a, ptr %x)
  ret void
}

define void @g2(ptr %t, ptr %out) noinline {
  call void @g3(ptr %t, ptr %out)
  ret void
}

define void @s3(ptr %a, ptr %x) noinline {
  call void @s4(ptr %a, ptr %x)
  ret void
}

define void @g3(ptr %t, ptr %out) noinline {
  call void @g4(ptr %t, ptr %out)
  ret void
}

define void @s4(ptr %a, ptr %x) noinline {
  call void @s5(ptr %a, ptr %x)
  ret void
}

define void @g4(ptr %t, ptr %out) noinline {
  call void @g5(ptr %t, ptr %out)
  ret void
}

define void @s5(ptr %a, ptr %x) noinline {
  call void @s6(ptr %a, ptr %x)
  ret void
}

define void @g5(ptr %t, ptr %out) noinline {
  call void @g6(ptr %t, ptr %out)
  ret void
}

define void @s6(ptr %a, ptr %x) noinline {
  call void @s7(ptr %a, ptr %x)
  ret void
}

define void @g6(ptr %t, ptr %out) noinline {
  call void @g7(ptr %t, ptr %out)
  ret void
}

define void @s7(ptr %a, ptr %x) noinline {
  %v = load double, ptr %x
  store double %v, ptr %a
  ret void
}

define void @g7(ptr %t, ptr %out) noinline {
  %v = load double, ptr %t
  %o = load double, ptr %out
  %s = fadd double %o, %v
  store double %s, ptr %out
  ret void
}

define void @grad(ptr %x, ptr %dx, ptr %out, ptr %dout) {
  %d = load i32, ptr @enzyme_dup
  call void (ptr, ...) @__enzyme_autodiff(ptr @h, i32 %d, ptr %x, ptr %dx, i32 %d, ptr %out, ptr %dout)
  ret void
}
