/* Runs integer-max-of-double-bits.ll's gradient against analytic values:
   out = max(a0, a1) for non-negative doubles, so d out/d a is 1 for the
   larger one and 0 for the other. */
#include "../../Integration/Inputs/check.h"

void grad_larger(double *a, double *da, double *out, double *dout);

int main(void) {
  double a[2] = {2.5, 1.5}, da[2] = {0, 0}, out = 0, dout = 1;
  grad_larger(a, da, &out, &dout);
  check_close("out", out, 2.5, 0);
  check_close("da0", da[0], 1, 0);
  check_close("da1", da[1], 0, 0);
  double b[2] = {0.5, 7.25}, db[2] = {0, 0}, out2 = 0, dout2 = 3;
  grad_larger(b, db, &out2, &dout2);
  check_close("out2", out2, 7.25, 0);
  check_close("db0", db[0], 0, 0);
  check_close("db1", db[1], 3, 0);
  return check_report();
}
