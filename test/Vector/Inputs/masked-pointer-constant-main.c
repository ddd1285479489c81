/* Runs the derivatives of masked-pointer-gather-constant.ll: r = c[0]^2 +
   d[0]^2 with c constant, against analytic values; c must not change. */
#include "../../Integration/Inputs/check.h"

void grad_mixed(double *c, double *d, double *dd);
double tan_mixed(double *c, double *d, double *td);

int main(void) {
  double c[2] = {1.5, -0.5}, d[2] = {-2.0, 0.25}, dd[2] = {0, 0};
  grad_mixed(c, d, dd);
  check_close("reverse d/dd[0]", dd[0], 2 * d[0], 1e-15);
  check_close("reverse d/dd[1]", dd[1], 0, 1e-15);
  check_close("constant c[0] unchanged", c[0], 1.5, 0);
  check_close("constant c[1] unchanged", c[1], -0.5, 0);
  double td[2] = {3.0, 7.0};
  check_close("forward", tan_mixed(c, d, td), 2 * d[0] * 3.0, 1e-15);
  return check_report();
}
