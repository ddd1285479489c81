// Misused batch mode (enzyme_width, enzyme_dupv, enzyme_dupnoneedv) is an
// error at the call's source line that says what was expected: a width that
// is not a compile-time constant or out of range, enzyme_width not first,
// too few or too many shadows for the width, a marker where a shadow should
// be, a strided shadow on a non-pointer, and a result type without room for
// every lane.
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=1 2>&1 | FileCheck %s --check-prefix=NONCONST
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=1 2>&1 | FileCheck %s --check-prefix=NONCONST
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=2 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=3 2>&1 | FileCheck %s --check-prefix=NOTFIRST
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=4 2>&1 | FileCheck %s --check-prefix=FEW
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=4 2>&1 | FileCheck %s --check-prefix=FEW
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=5 2>&1 | FileCheck %s --check-prefix=MARKER
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=6 2>&1 | FileCheck %s --check-prefix=MANY
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=6 2>&1 | FileCheck %s --check-prefix=MANY
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=7 2>&1 | FileCheck %s --check-prefix=DUPV -DM=enzyme_dupv
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=7 -DDUPV=enzyme_dupnoneedv 2>&1 | FileCheck %s --check-prefix=DUPV -DM=enzyme_dupnoneedv
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=8 2>&1 | FileCheck %s --check-prefix=TANGENTS
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=9 2>&1 | FileCheck %s --check-prefix=RESULT
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=9 2>&1 | FileCheck %s --check-prefix=RESULT
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=10 2>&1 | FileCheck %s --check-prefix=NOWIDTH
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=11 2>&1 | FileCheck %s --check-prefix=CUSTOM
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=11 2>&1 | FileCheck %s --check-prefix=CUSTOM
// CHECK-NOT and every prefix: no crash.
// NONCONST-NOT: Stack dump
// ZERO-NOT: Stack dump
// NOTFIRST-NOT: Stack dump
// FEW-NOT: Stack dump
// MARKER-NOT: Stack dump
// MANY-NOT: Stack dump
// DUPV-NOT: Stack dump
// TANGENTS-NOT: Stack dump
// RESULT-NOT: Stack dump
// NOWIDTH-NOT: Stack dump
// CUSTOM-NOT: Stack dump
extern int enzyme_width, enzyme_dup, enzyme_const, enzyme_dupv,
    enzyme_dupnoneedv;
typedef struct { double d[2]; } D2;
D2 __enzyme_fwddiff(void *, ...);
double __enzyme_fwddiff_d(void *, ...);
void __enzyme_autodiff(void *, ...);
double f(double x) { return x * x; }
double h(double *p, int n) { return *p * *p * n; }
#ifndef DUPV
#define DUPV enzyme_dupv
#endif

#if CASE == 1
D2 g(double x, int w) {
  // NONCONST: batch-misuse.c:[[@LINE+1]]:10: error: tapestry: the batch width after enzyme_width must be a compile-time constant integer; got
  return __enzyme_fwddiff((void *)f, enzyme_width, w, x, 1.0, 2.0);
}
#elif CASE == 2
D2 g(double x) {
  // ZERO: batch-misuse.c:[[@LINE+1]]:10: error: tapestry: the batch width after enzyme_width must be between 1 and 64; got 0
  return __enzyme_fwddiff((void *)f, enzyme_width, 0, x, 1.0, 2.0);
}
#elif CASE == 3
void g(double *p, double *dp0, double *dp1) {
  // NOTFIRST: batch-misuse.c:[[@LINE+1]]:3: error: tapestry: enzyme_width must come first, right after the function to differentiate, in the call to __enzyme_autodiff
  __enzyme_autodiff((void *)h, enzyme_dup, p, dp0, enzyme_width, 2, enzyme_const, 3);
}
#elif CASE == 4
void g(double *p, double *dp0) {
  // FEW: batch-misuse.c:[[@LINE+1]]:3: error: tapestry: too few arguments: enzyme_dup on parameter 1 'p' of 'h' (double *) must be followed by the value and 2 shadows (enzyme_width 2); the call ends after 1
  __enzyme_autodiff((void *)h, enzyme_width, 2, enzyme_dup, p, dp0);
}
#elif CASE == 5
void g(double *p, double *dp0) {
  // MARKER: batch-misuse.c:[[@LINE+1]]:3: error: tapestry: expected shadow 2 of 2 of parameter 1 'p' of 'h' (double *) but found the marker enzyme_const (with enzyme_width 2, enzyme_dup is followed by the value and 2 shadows, enzyme_dupv by the stride, the value and one shadow)
  __enzyme_autodiff((void *)h, enzyme_width, 2, enzyme_dup, p, dp0, enzyme_const, 3);
}
#elif CASE == 6
void g(double *p, double *dp0, double *dp1, double *dp2) {
  // MANY: batch-misuse.c:[[@LINE+1]]:3: error: tapestry: the value passed for parameter 2 'n' of 'h' (int) has type pointer, not the parameter's type (with enzyme_width 2, enzyme_dup is followed by the value and 2 shadows, enzyme_dupv by the stride, the value and one shadow)
  __enzyme_autodiff((void *)h, enzyme_width, 2, enzyme_dup, p, dp0, dp1, dp2, 3);
}
#elif CASE == 7
D2 g(double x, double *dx) {
  // DUPV: batch-misuse.c:[[@LINE+1]]:10: error: tapestry: [[M]] (a strided batch of shadows) needs a pointer, but parameter 1 'x' of 'f' (double) is not one; use enzyme_dup followed by the value and its 2 tangents
  return __enzyme_fwddiff((void *)f, enzyme_width, 2, DUPV, sizeof(double), x, dx);
}
#elif CASE == 8
D2 g(double x) {
  // TANGENTS: batch-misuse.c:[[@LINE+1]]:10: error: tapestry: too few arguments: enzyme_dup on parameter 1 'x' of 'f' (double) must be followed by the value and 2 tangents (enzyme_width 2); the call ends after 1
  return __enzyme_fwddiff((void *)f, enzyme_width, 2, x, 1.0);
}
#elif CASE == 9
double g(double x) {
  // RESULT: batch-misuse.c:[[@LINE+1]]:10: error: tapestry: the call to __enzyme_fwddiff_d is declared to return double, which does not match its 1 result(s) (double[2])
  return __enzyme_fwddiff_d((void *)f, enzyme_width, 2, x, 1.0, 2.0);
}
#elif CASE == 10
void g(double *p) {
  // NOWIDTH: batch-misuse.c:[[@LINE+1]]:3: error: tapestry: enzyme_width must be followed by the batch width, a compile-time constant integer
  __enzyme_autodiff((void *)f, enzyme_width);
}
#elif CASE == 11
// A registered gradient is scalar: batch mode runs its aug once per lane,
// which is only right when aug has no side effect but its own tape. One
// that writes other memory is an error at the call, not repeated effects.
__attribute__((noinline)) double solve(double a) { return a * 0.5; }
int solve_calls;
double solve_aug(double a) {
  solve_calls++;
  return solve(a);
}
double solve_rev(double a, double dret) { return dret * 0.5 + 0 * a; }
void *__enzyme_register_gradient_solve[3] = {(void *)solve, (void *)solve_aug,
                                             (void *)solve_rev};
double user(double a) {
  // CUSTOM: batch-misuse.c:[[@LINE+1]]:10: error: tapestry: cannot differentiate 'user': the gradient registered for 'solve' cannot serve batch mode (enzyme_width 2): its augmented forward writes memory other than the tape it allocates, so it cannot run once per lane; use width 1 or give the function's body
  return solve(a) * a;
}
typedef struct { double d[2]; } R2;
R2 __enzyme_autodiff_r(void *, ...);
R2 g(double a) { return __enzyme_autodiff_r((void *)user, enzyme_width, 2, a); }
#endif
