/* Runs the derivatives of lanes-through-integer-phi.ll against analytic
   values, on both sides of its branch: r = c x0 x1 + x2 x3 when c < 0,
   else 4 x0 x1 + 4 x2 x3 (derivatives with respect to x on entry). */
#include "../../Integration/Inputs/check.h"

void grad_lanes_phi(double *x, double *dx, double c);
double tan_lanes_phi(double *x, double *tx, double c);

int main(void) {
  const double x0[4] = {0.5, -1.25, 2.0, 0.75};
  const double cs[2] = {-0.5, 1.5};
  char what[64];
  for (int k = 0; k < 2; k++) {
    double c = cs[k], s = c < 0 ? c : 4, u = c < 0 ? 1 : 4;
    double want[4] = {s * x0[1], s * x0[0], u * x0[3], u * x0[2]};
    double x[4] = {x0[0], x0[1], x0[2], x0[3]}, dx[4] = {0};
    grad_lanes_phi(x, dx, c);
    for (int i = 0; i < 4; i++) {
      snprintf(what, sizeof what, "c=%g reverse d/dx%d", c, i);
      check_close(what, dx[i], want[i], 1e-14);
      double y[4] = {x0[0], x0[1], x0[2], x0[3]}, t[4] = {0};
      t[i] = 1;
      snprintf(what, sizeof what, "c=%g forward d/dx%d", c, i);
      check_close(what, tan_lanes_phi(y, t, c), want[i], 1e-14);
    }
  }
  return check_report();
}
