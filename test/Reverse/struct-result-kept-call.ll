; A call that stays a call (recursion) returning a struct by value that
; mixes a double with an integer ({double, i32}, C's struct {double d; int
; n;}) passes its adjoint to the callee's reverse as a seed of the struct's
; type, through a freeze of the result (-O3 freezes such results before
; extracting fields); the reverse takes the double member's adjoint from the
; seed. Until Dec 2026 the struct was not a differentiable type: no seed, a
; silently zero derivative (fuzz seed 2248).
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
declare double @__enzyme_autodiff(...)
declare double @llvm.sin.f64(double)
@enzyme_out = external global i32

define internal { double, i32 } @h(double %x, i32 %n) noinline {
entry:
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %rec, label %base
rec:
  %n1 = sub i32 %n, 1
  %r = call { double, i32 } @h(double %x, i32 %n1)
  %v = extractvalue { double, i32 } %r, 0
  %w = fmul double %v, 2.0
  %a2 = insertvalue { double, i32 } poison, double %w, 0
  %b2 = insertvalue { double, i32 } %a2, i32 2, 1
  ret { double, i32 } %b2
base:
  %s = call double @llvm.sin.f64(double %x)
  %a = insertvalue { double, i32 } poison, double %s, 0
  %b = insertvalue { double, i32 } %a, i32 2, 1
  ret { double, i32 } %b
}

define double @f(double %x) {
  %y = fmul double %x, 3.0
  %r = call { double, i32 } @h(double %y, i32 1)
  %fr = freeze { double, i32 } %r
  %d = extractvalue { double, i32 } %fr, 0
  %z = fmul double %d, %x
  ret double %z
}

define double @grad(double %x) {
  %o = load i32, ptr @enzyme_out
  %g = call double (...) @__enzyme_autodiff(ptr @f, i32 %o, double %x)
  ret double %g
}

; The caller seeds the call's reverse with {d(z)/d(d) = x * seed, 0}.
; CHECK-LABEL: define internal double @f.tapestry.rev_a_ra(
; CHECK:         [[T:%[0-9]+]] = fmul double %x, %seed
; CHECK:         [[D:%[0-9]+]] = select i1 {{%[0-9]+}}, double 0.000000e+00, double [[T]]
; CHECK:         [[S0:%.*]] = insertvalue { double, i32 } poison, double [[D]], 0
; CHECK:         [[S1:%.*]] = insertvalue { double, i32 } [[S0]], i32 0, 1
; CHECK:         [[DY:%[0-9]+]] = call double @h.tapestry.[[H:[a-z_]+]].call.rev(double %y, i32 1, { double, i32 } [[S1]], ptr
; CHECK:         fmul double [[DY]], 3.000000e+00

; The callee's reverse takes the seed's double member: twice it into the
; recursive call, cos(x) times it at the base.
; CHECK-LABEL: define internal double @h.tapestry.{{[a-z_]+}}.reverse(double %x, i32 %n, { double, i32 } %seed, ptr
; CHECK-DAG:     extractvalue { double, i32 } %seed, 0
; CHECK-DAG:     call double @llvm.cos.f64(double %x)
; CHECK-DAG:     call double @h.tapestry.{{[a-z_]+}}.reverse(double %x, i32 %n1.re, { double, i32 }
