// Split mode of a function given a callback as enzyme_const, the same
// named function in both halves (probe39a): each half differentiates a
// copy of 'apply' with the callback in place (calls through it direct),
// and the reverse was refused because the augmented forward it was
// compared with had not been specialised yet ("its tape comes from the
// __enzyme_augmentfwd for ... 'apply'" against 'apply.tapestry.const').
// A different callback in the reverse is still a mismatch. Expected
// values are analytic: d/dx_i sum f(x_i) = f'(x_i).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: not %clang -O2 -DMISMATCH -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// ERR: error: tapestry: this __enzyme_reverse and the __enzyme_augmentfwd that made its tape pass 'apply' different functions as enzyme_const arguments; name the same functions in both halves (by name, not through a variable)
#include "../Integration/Inputs/check.h"
#include <math.h>

typedef struct {
  void *tape;
  double v;
} AR;
extern AR __enzyme_augmentfwd(void *, ...);
extern void __enzyme_reverse(void *, ...);
extern int enzyme_dup, enzyme_const;
typedef double (*cb)(double);

static double cube(double v) { return v * v * v; }
static double wave(double v) { return sin(2 * v) * v; }

double apply(const double *x, int n, cb f) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += f(x[i]);
  return s;
}

int main(void) {
  double x[3] = {0.5, 0.7, 0.9}, dx[3] = {0}, dw[3] = {0};
  AR a = __enzyme_augmentfwd((void *)apply, enzyme_dup, x, dx, enzyme_const,
                             3, enzyme_const, cube);
  AR b = __enzyme_augmentfwd((void *)apply, enzyme_dup, x, dw, enzyme_const,
                             3, enzyme_const, wave);
#ifdef MISMATCH
  __enzyme_reverse((void *)apply, enzyme_dup, x, dx, enzyme_const, 3,
                   enzyme_const, wave, 1.0, a.tape);
#else
  __enzyme_reverse((void *)apply, enzyme_dup, x, dx, enzyme_const, 3,
                   enzyme_const, cube, 1.0, a.tape);
#endif
  __enzyme_reverse((void *)apply, enzyme_dup, x, dw, enzyme_const, 3,
                   enzyme_const, wave, 1.0, b.tape);
  for (int i = 0; i < 3; i++) {
    check_close("cube through the callback", dx[i], 3 * x[i] * x[i], 1e-12);
    check_close("wave through the callback", dw[i],
                2 * cos(2 * x[i]) * x[i] + sin(2 * x[i]), 1e-12);
  }
  check_close("primal", a.v, 0.125 + 0.343 + 0.729, 1e-12);
  return check_report();
}
