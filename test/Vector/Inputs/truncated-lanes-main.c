/* Runs the derivatives of lanes-through-truncated-integers.ll against
   analytic values. With v = 2 x: r = v2 v7 + v3 + (v4 + v5) v1, so
   dr/dx2 = 4 x7, dr/dx7 = 4 x2, dr/dx3 = 2, dr/dx4 = dr/dx5 = 4 x1,
   dr/dx1 = 4 (x4 + x5), the others 0. The function doubles x in place.
   wide(x) = x1^2 x0: d/dx0 = x1^2, d/dx1 = 2 x0 x1. */
#include "../../Integration/Inputs/check.h"

void grad_lanes(double *x, double *dx);
void grad_wide(double *x, double *dx);
double tan_lanes(double *x, double *tx);

static void init(double *x) {
  double v[8] = {0.5, -1.25, 2.0, 0.75, 1.5, -0.5, 3.0, 0.25};
  for (int i = 0; i < 8; i++)
    x[i] = v[i];
}

int main(void) {
  double x[8];
  init(x);
  double want[8] = {0,        4 * (x[4] + x[5]), 4 * x[7], 2, 4 * x[1],
                    4 * x[1], 0,                 4 * x[2]};
  double dx[8] = {0};
  grad_lanes(x, dx);
  char what[64];
  for (int i = 0; i < 8; i++) {
    snprintf(what, sizeof what, "reverse d/dx%d", i);
    check_close(what, dx[i], want[i], 1e-14);
    double t[8] = {0};
    t[i] = 1;
    init(x);
    snprintf(what, sizeof what, "forward d/dx%d", i);
    check_close(what, tan_lanes(x, t), want[i], 1e-14);
  }
  double w[2] = {1.5, -2.0}, dw[2] = {0};
  grad_wide(w, dw);
  check_close("wide d/dx0", dw[0], 4.0, 1e-15);
  check_close("wide d/dx1", dw[1], -6.0, 1e-15);
  return check_report();
}
