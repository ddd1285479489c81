; Enzyme's __enzyme_shadow(&g, width, lane) without a context is the
; address of that lane of g's implicit shadow (at the member's offset):
; the reverse adds g's adjoint there although f only reads g, and the
; request's call site does not zero it (the program seeds and reads it: a
; second gradient adds again). A blk.b read with no zeroing by the program
; keeps what it held. The C program is test/Integration/global-shadow-query.c.
; RUN: %opt -passes=tapestry -S %s | FileCheck %s
; CHECK: @g.tapestry.shadow = internal global double 0.000000e+00, {{.*}}!tapestry.shadow_queried
; CHECK: @blk.tapestry.shadow = internal global { double, double } zeroinitializer, {{.*}}!tapestry.shadow_queried
; CHECK-NOT: call ptr @__enzyme_shadow
; CHECK-LABEL: define double @grad(
; CHECK-NEXT: store double 0.000000e+00, ptr @g.tapestry.shadow
; CHECK-NOT: store {{.*}}@blk.tapestry.shadow
; CHECK-NEXT: call double @f.tapestry.rev
; CHECK-NEXT: load double, ptr @g.tapestry.shadow
; CHECK: load double, ptr getelementptr (i8, ptr @blk.tapestry.shadow, i64 8)
; CHECK-LABEL: define internal double @f.tapestry.rev
; CHECK: store double %{{.*}}, ptr getelementptr inbounds (i8, ptr @blk.tapestry.shadow, i64 8)
; CHECK: store double %{{.*}}, ptr @g.tapestry.shadow

@g = global double 2.000000e+00
@blk = global { double, double } { double 1.0, double 3.0 }

declare ptr @__enzyme_shadow(ptr, i32, i32)
declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
  %gv = load double, ptr @g
  %b = getelementptr inbounds i8, ptr @blk, i64 8
  %bv = load double, ptr %b
  %xx = fmul double %x, %x
  %t = fmul double %gv, %xx
  %u = fmul double %bv, %x
  %r = fadd double %t, %u
  ret double %r
}

define double @grad(double %x, ptr %dg, ptr %db) {
  %sg = call ptr @__enzyme_shadow(ptr @g, i32 1, i32 0)
  %sb = call ptr @__enzyme_shadow(ptr getelementptr inbounds (i8, ptr @blk, i64 8), i32 1, i32 0)
  store double 0.0, ptr %sg
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  %vg = load double, ptr %sg
  store double %vg, ptr %dg
  %vb = load double, ptr %sb
  store double %vb, ptr %db
  ret double %d
}
