; Doubles moved as integers through a choice of paths: the -O3 pipeline
; turns a one-element memcpy into an i64 load and store, and GVN forwards
; the bytes to a later read of the double as a bitcast; where the copy was
; made on two paths (or the bytes reloaded on one), the bitcast is of a
; phi or select of i64 loads, or of doubles bitcast to i64. Each is read
; as a phi or select of double loads (or of the doubles themselves), and a
; store of such a choice stores the doubles. Was "a floating-point value is
; rebuilt here from an integer ('long') read from memory that has
; derivatives" and "a double is reinterpreted as a long here" (fuzz seed
; 16420, staged -O3 -march=native -ffast-math). Shapes, then a run against
; analytic derivatives:
;   f: v = c ? a0 : a1 (read as i64), out = v, r = v x^2
;   g: v = c ? x a0 (through an i64 cell) : 3x (bitcast), r = v^2
;   h: out = c ? x^2 : 3x (as i64), r = x
; RUN: %opt -passes=tapestry -S %s -o %t.ll
; RUN: FileCheck %s --input-file=%t.ll
; RUN: %plain_cc -O1 -Wno-override-module %t.ll %S/Inputs/integer-copies-through-choices-main.c -lm -o %t && %t | FileCheck %s --check-prefix=EXEC
; EXEC-NOT: FAIL
; EXEC: ALL PASSED
; Each choice is made among the doubles, and stored as a double: the
; reverse moves out's adjoint to the a[k] the path read.
; CHECK-LABEL: define internal {{.*}} @h.tapestry.rev
; CHECK-NOT: bitcast
; CHECK: store double %s.fp, ptr %out
; CHECK: load double, ptr %"out'"
; CHECK: ret
; CHECK-LABEL: define internal {{.*}} @g.tapestry.rev
; CHECK-NOT: bitcast
; CHECK: ret
; CHECK-LABEL: define internal {{.*}} @f.tapestry.rev
; CHECK-NOT: bitcast
; CHECK: %bits.fp = load double
; CHECK: store double %bits.fp, ptr %out
; CHECK: load double, ptr %"out'"
; CHECK: ret
; CHECK-LABEL: define internal {{.*}} @f.tapestry.fwd
; CHECK-NOT: bitcast
; CHECK: store double %"bits.fp'", ptr %"out'"
; CHECK: ret

@enzyme_dup = external global i32
@enzyme_const = external global i32
declare void @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %x, ptr %a, ptr %out, i1 %c) {
entry:
  br i1 %c, label %first, label %second

first:
  %l0 = load i64, ptr %a, align 8
  br label %merge

second:
  %a1p = getelementptr inbounds double, ptr %a, i64 1
  %l1 = load i64, ptr %a1p, align 8
  br label %merge

merge:
  %bits = phi i64 [ %l0, %first ], [ %l1, %second ]
  store i64 %bits, ptr %out, align 8
  %v = bitcast i64 %bits to double
  %xx = fmul double %x, %x
  %r = fmul double %v, %xx
  ret double %r
}

define double @g(double %x, ptr %a, i1 %c) {
entry:
  %a0 = load double, ptr %a, align 8
  %xa = fmul double %x, %a0
  %cell = alloca double, align 8
  store double %xa, ptr %cell, align 8
  %l = load i64, ptr %cell, align 8
  %y = fmul double %x, 3.0
  %yi = bitcast double %y to i64
  %s = select i1 %c, i64 %l, i64 %yi
  %v = bitcast i64 %s to double
  %r = fmul double %v, %v
  ret double %r
}

define double @h(double %x, ptr %out, i1 %c) {
entry:
  %xx = fmul double %x, %x
  %y = fmul double %x, 3.0
  %xxi = bitcast double %xx to i64
  %yi = bitcast double %y to i64
  %s = select i1 %c, i64 %xxi, i64 %yi
  store i64 %s, ptr %out, align 8
  ret double %x
}

define double @grad_f(double %x, ptr %a, ptr %da, ptr %out, ptr %dout, i1 %c) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, ptr @enzyme_dup, ptr %a, ptr %da, ptr @enzyme_dup, ptr %out, ptr %dout, ptr @enzyme_const, i1 %c)
  ret double %r
}

define double @tangent_f(double %x, double %dx, ptr %a, ptr %da, ptr %out, ptr %dout, i1 %c) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx, ptr @enzyme_dup, ptr %a, ptr %da, ptr @enzyme_dup, ptr %out, ptr %dout, ptr @enzyme_const, i1 %c)
  ret double %r
}

define double @grad_g(double %x, ptr %a, ptr %da, i1 %c) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @g, double %x, ptr @enzyme_dup, ptr %a, ptr %da, ptr @enzyme_const, i1 %c)
  ret double %r
}

define double @grad_h(double %x, ptr %out, ptr %dout, i1 %c) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @h, double %x, ptr @enzyme_dup, ptr %out, ptr %dout, ptr @enzyme_const, i1 %c)
  ret double %r
}
