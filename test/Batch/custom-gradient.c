// A registered gradient (aug with a malloc'd tape, rev consuming it) in
// batched reverse mode: aug runs once per lane (it has no side effect but
// its tape) and rev once per lane with that lane's seed and shadows; every
// lane equals the scalar reverse and the analytic derivative.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <stdlib.h>
extern int enzyme_width, enzyme_dup, enzyme_out, enzyme_const;

/* A cube root by bisection (its body is not differentiable), with the
 * analytic gradient registered: d cbrt(a) / da = 1 / (3 cbrt(a)^2). */
__attribute__((noinline)) double root3(double a) {
  double lo = 0, hi = a > 1 ? a : 1;
  for (int i = 0; i < 200; i++) {
    double mid = 0.5 * (lo + hi);
    if (mid * mid * mid < a)
      lo = mid;
    else
      hi = mid;
  }
  return 0.5 * (lo + hi);
}
typedef struct {
  void *tape;
  double r;
} aug_t;
aug_t root3_aug(double a) {
  double *t = malloc(sizeof(double));
  double r = root3(a);
  *t = r;
  aug_t out = {t, r};
  return out;
}
double root3_rev(double a, double dr, void *tape) {
  double r = *(double *)tape;
  free(tape);
  (void)a;
  return dr / (3 * r * r);
}
void *__enzyme_register_gradient_root3[3] = {(void *)root3, (void *)root3_aug,
                                             (void *)root3_rev};

/* y_i = root3(x_i) * k: vector in, vector out. */
void f(const double *x, double *y, double k) {
  for (int i = 0; i < 3; i++)
    y[i] = root3(x[i]) * k;
}

typedef struct {
  double d[2];
} R2;
R2 __enzyme_autodiff_w(void *, ...);
double __enzyme_autodiff(void *, ...);

int main(void) {
  double x[3] = {2, 5, 0.7}, y[3];
  double dx0[3] = {0}, dx1[3] = {0};
  double dy0[3] = {1, 0, 0.5}, dy1[3] = {0, 2, 1};
  const double k = 1.5;
  R2 dk = __enzyme_autodiff_w((void *)f, enzyme_width, 2, enzyme_dup, x, dx0,
                              dx1, enzyme_dup, y, dy0, dy1, enzyme_out, k);
  double s0[3] = {1, 0, 0.5}, s1[3] = {0, 2, 1};
  double dk0 = 0, dk1 = 0;
  for (int i = 0; i < 3; i++) {
    double r = cbrt(x[i]), dr = 1 / (3 * r * r);
    check_close("lane 0 dx", dx0[i], s0[i] * k * dr, 1e-12);
    check_close("lane 1 dx", dx1[i], s1[i] * k * dr, 1e-12);
    dk0 += s0[i] * r;
    dk1 += s1[i] * r;
  }
  check_close("lane 0 dk", dk.d[0], dk0, 1e-12);
  check_close("lane 1 dk", dk.d[1], dk1, 1e-12);
  /* Lane 1 equals a scalar sweep with lane 1's seed. */
  double sx[3] = {0}, sy[3] = {0, 2, 1};
  double sk = __enzyme_autodiff((void *)f, enzyme_dup, x, sx, enzyme_dup, y,
                                sy, enzyme_out, k);
  for (int i = 0; i < 3; i++)
    check_close("lane 1 == scalar sweep", dx1[i], sx[i], 1e-15);
  check_close("lane 1 dk == scalar sweep", dk.d[1], sk, 1e-15);
  return check_report();
}
