/* Runs running-max-bits-stored.ll's gradient against analytic values:
   acc = sum_{i=1..n} m_i^2, m_i = max(a[0..i)), out = m_n; with a =
   {1, 3, 2, 4}: m = 1, 3, 3, 4, so d acc/d a = {2, 12, 0, 8}, plus 1 on
   a[3] from out's seed. */
#include "../../Integration/Inputs/check.h"
#include <stdint.h>

void grad_f(double *a, double *da, double *out, double *dout, int64_t n);

int main(void) {
  double a[4] = {1, 3, 2, 4}, da[4] = {0}, out = 0, dout = 1;
  grad_f(a, da, &out, &dout, 4);
  check_close("out", out, 4, 0);
  check_close("da0", da[0], 2, 0);
  check_close("da1", da[1], 12, 0);
  check_close("da2", da[2], 0, 0);
  check_close("da3", da[3], 9, 0);
  return check_report();
}
