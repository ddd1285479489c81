; A pointer to differentiated memory passed as an integer (ptrtoint) to a
; function that stays a call: the callee gets shadows for its pointer
; parameters only, so its reads through the integer would carry no
; derivative. An error at the call, never a silent 0. An address
; difference (a size) is not a pointer, and is accepted (@fine).
; RUN: not %opt -passes=tapestry -disable-output %s 2>&1 | FileCheck %s
; CHECK: tapestry: cannot differentiate 'f': a pointer to memory with derivatives, parameter 1 ('x'), is passed to 'product' as an integer, and Tapestry gives a called function the shadows of its pointer parameters only; pass it as a pointer (double *)
; CHECK-NOT: cannot differentiate 'fine'
; CHECK-NOT: Stack dump
declare void @__enzyme_autodiff(...)
@enzyme_dup = external global i32

define double @product(i64 %a) noinline {
  %p = inttoptr i64 %a to ptr
  %x0 = load double, ptr %p
  %q = getelementptr inbounds double, ptr %p, i64 1
  %x1 = load double, ptr %q
  %r = fmul double %x0, %x1
  ret double %r
}

define double @scaled(ptr %p, i64 %bytes) noinline {
  %x0 = load double, ptr %p
  %n = sdiv i64 %bytes, 8
  %c = sitofp i64 %n to double
  %r = fmul double %x0, %c
  ret double %r
}

define double @f(ptr %x) {
  %a = ptrtoint ptr %x to i64
  %r = call double @product(i64 %a)
  ret double %r
}

define double @fine(ptr %x) {
  %end = getelementptr inbounds double, ptr %x, i64 2
  %e = ptrtoint ptr %end to i64
  %b = ptrtoint ptr %x to i64
  %d = sub i64 %e, %b
  %r = call double @scaled(ptr %x, i64 %d)
  ret double %r
}

define void @gradient(ptr %x, ptr %dx) {
  call void (...) @__enzyme_autodiff(ptr @f, ptr @enzyme_dup, ptr %x, ptr %dx)
  call void (...) @__enzyme_autodiff(ptr @fine, ptr @enzyme_dup, ptr %x, ptr %dx)
  ret void
}
