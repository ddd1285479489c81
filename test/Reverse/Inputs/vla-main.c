/* Runs the derivatives of vla-stackrestore.ll against analytic values. */
#include "../../Integration/Inputs/check.h"

void grad_squares(double *x, double *dx, long n);
double tan_squares(double *x, double *tx, long n);

/* Fills the stack the reverse sweep would read if the array were gone. */
static double scribble(int k) {
  volatile double junk[64];
  for (int i = 0; i < 64; ++i)
    junk[i] = 1e6 * (i + k);
  return junk[k];
}

int main(void) {
  double x[7], dx[7] = {0}, tx[7];
  for (int i = 0; i < 7; ++i) {
    x[i] = 0.3 * i - 0.8;
    tx[i] = 1;
  }
  scribble(3);
  grad_squares(x, dx, 7);
  double want = 0;
  for (int i = 0; i < 7; ++i) {
    check_close("reverse", dx[i], 2 * sin(x[i]) * cos(x[i]), 1e-14);
    want += 2 * sin(x[i]) * cos(x[i]);
  }
  check_close("forward", tan_squares(x, tx, 7), want, 1e-14);
  return check_report();
}
