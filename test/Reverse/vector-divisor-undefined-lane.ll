; SLP-vectorised code divides a vector by a constant whose unused lanes are
; poison (`fdiv %v, <poison, 4.0>`), and a shuffle keeps only the defined
; lanes. The primal's preparation gives undefined lanes a value (zero), so
; the partial 1 / C of such a lane is infinite, and the zero adjoint the
; shuffle sends it made 0 * inf = NaN, which the lane's other use added into
; the input's adjoint: NaN gradients from the fuzz campaign's seed 21686
; (opt -O3 -march=native output of an in-place reversed loop), silent. A
; constant partial that is not finite now gets the same zero-adjoint guard
; as a computed one. f(x) = (x + 1) * (x / 4): df/dx = (2 x + 1) / 4.
; RUN: %opt -passes=tapestry -S %s -o %t.ll
; RUN: FileCheck %s --input-file=%t.ll
; RUN: %plain_cc -O0 -Wno-override-module %t.ll -o %t && %t | FileCheck %s --check-prefix=EXEC
; EXEC: df/dx(-1.5) = -0.5
; EXEC: df/dx(0.75) = 0.625
; EXEC: df/dx(3) = 1.75
; CHECK-LABEL: define internal {{.*}} @f.tapestry.rev
; CHECK: fcmp uno <2 x double>
; CHECK: ret

declare double @__enzyme_autodiff(ptr, ...)
declare i32 @printf(ptr, ...)

@fmt = private constant [19 x i8] c"df/dx(%g) = %.17g\0A\00"

define double @f(double %x) {
  %v0 = insertelement <2 x double> poison, double %x, i64 0
  %v = insertelement <2 x double> %v0, double %x, i64 1
  %d = fdiv <2 x double> %v, <double poison, double 4.0>
  %a = fadd <2 x double> %v, <double 1.0, double poison>
  %m = shufflevector <2 x double> %a, <2 x double> %d, <2 x i32> <i32 0, i32 3>
  %e0 = extractelement <2 x double> %m, i64 0
  %e1 = extractelement <2 x double> %m, i64 1
  %r = fmul double %e0, %e1
  ret double %r
}

define i32 @main() {
  %g0 = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double -1.5)
  call i32 (ptr, ...) @printf(ptr @fmt, double -1.5, double %g0)
  %g1 = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double 0.75)
  call i32 (ptr, ...) @printf(ptr @fmt, double 0.75, double %g1)
  %g2 = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double 3.0)
  call i32 (ptr, ...) @printf(ptr @fmt, double 3.0, double %g2)
  ret i32 0
}
