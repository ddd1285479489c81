// Split mode requested on a function that has a registered gradient
// (probe31 02): the request's halves go through a caller of the function,
// which the registered rule serves, but the reverse's tape check compared
// it with the augmented forward's request as written and refused the pair
// ("its tape comes from ... for the split reverse derivative of 'cube'").
// The registered rules' derivatives deliberately differ from the
// functions' own (a factor 10 in the reverse) so that the test fails if
// the body is differentiated instead of the rule. Expected values are
// analytic.
// RUN: %clang -O0 -g %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <math.h>

extern int enzyme_dup, enzyme_out;
typedef struct {
  void *tape;
  double primal;
} AugRet;
AugRet __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
void *__enzyme_augmentfwd_v(void *, ...);
void __enzyme_reverse_v(void *, ...);

__attribute__((noinline)) double cube(double x) { return x * x * x; }
double cube_aug(double x) { return x * x * x; }
double cube_rev(double x, double d) { return 30 * x * x * d; }
void *__enzyme_register_gradient_cube[3] = {(void *)cube, (void *)cube_aug,
                                            (void *)cube_rev};

__attribute__((noinline)) void twice(const double *x, double *y) {
  y[0] = 2 * x[0];
}
void *twice_aug(const double *x, const double *dx, double *y, double *dy) {
  y[0] = 2 * x[0];
  return 0;
}
void twice_rev(const double *x, double *dx, double *y, double *dy, void *t) {
  dx[0] += 20 * dy[0];
  dy[0] = 0;
}
void *__enzyme_register_gradient_twice[3] = {(void *)twice, (void *)twice_aug,
                                             (void *)twice_rev};

int main(void) {
  AugRet c = __enzyme_augmentfwd((void *)cube, enzyme_out, 1.5);
  double dc = __enzyme_reverse((void *)cube, enzyme_out, 1.5, 2.0, c.tape);
  check_close("cube primal", c.primal, 3.375, 1e-15);
  check_close("cube adjoint (rule: 30 x^2 d)", dc, 30 * 1.5 * 1.5 * 2.0,
              1e-12);

  double x = 1.5, dx = 0, y = 0, dy = 0;
  void *t = __enzyme_augmentfwd_v((void *)twice, enzyme_dup, &x, &dx,
                                  enzyme_dup, &y, &dy);
  dy = 1;
  __enzyme_reverse_v((void *)twice, enzyme_dup, &x, &dx, enzyme_dup, &y, &dy,
                     t);
  check_close("twice primal", y, 3, 1e-15);
  check_close("twice adjoint (rule: 20)", dx, 20, 1e-12);
  return check_report();
}
