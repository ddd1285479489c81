/* Runs the derivatives of lanes-through-integers.ll against analytic
   values: r = x0 x2 + x3 / x1 + (x2 + x3) x1. */
#include "../../Integration/Inputs/check.h"

void grad_lanes(double *x, double *dx);
double tan_lanes(double *x, double *tx);

int main(void) {
  double x[4] = {0.5, -1.25, 2.0, 0.75};
  double want[4] = {x[2], -x[3] / (x[1] * x[1]) + x[2] + x[3],
                    x[0] + x[1], 1 / x[1] + x[1]};
  double dx[4] = {0};
  grad_lanes(x, dx);
  char what[64];
  for (int i = 0; i < 4; i++) {
    snprintf(what, sizeof what, "reverse d/dx%d", i);
    check_close(what, dx[i], want[i], 1e-14);
    double t[4] = {0};
    t[i] = 1;
    snprintf(what, sizeof what, "forward d/dx%d", i);
    check_close(what, tan_lanes(x, t), want[i], 1e-14);
  }
  return check_report();
}
