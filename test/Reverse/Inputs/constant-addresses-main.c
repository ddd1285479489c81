/* Runs constant-addresses-on-null-path.ll's derivatives against analytic
   values: r = x (a1 x + a0), dr/dx = 2 a1 x + a0, dr/da1 = x^2,
   dr/da0 = x. */
#include "../../Integration/Inputs/check.h"

double grad_f(double x, double *a, double *da, int m);
double tangent_f(double x, double dx, double *a, double *da, int m);

int main(void) {
  double x = 1.25, a[2] = {0.5, -3.0}, da[2] = {0, 0};
  double dx = grad_f(x, a, da, 4);
  check_close("reverse dr/dx", dx, 2 * a[1] * x + a[0], 1e-15);
  check_close("reverse dr/da0", da[0], x, 1e-15);
  check_close("reverse dr/da1", da[1], x * x, 1e-15);
  double ta[2] = {0, 1};
  check_close("forward dr/dx", tangent_f(x, 1, a, (double[2]){0, 0}, 4),
              2 * a[1] * x + a[0], 1e-15);
  check_close("forward dr/da1", tangent_f(x, 0, a, ta, 4), x * x, 1e-15);
  double t0[2] = {1, 0};
  check_close("forward dr/da0", tangent_f(x, 0, a, t0, 4), x, 1e-15);
  return check_report();
}
