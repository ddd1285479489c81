/* Runs double-copied-through-integer-phi.ll's gradient against analytic
   values: r = y x0, y = c ? x1 : x0 (x2 overwritten by y). */
#include "../../Integration/Inputs/check.h"

void grad_copy(double *x, double *dx, int c);

int main(void) {
  for (int c = 0; c < 2; c++) {
    double x[3] = {1.5, -2.0, 7.0}, dx[3] = {0};
    grad_copy(x, dx, c);
    double want[3] = {c ? -2.0 : 3.0, c ? 1.5 : 0.0, 0.0};
    char what[32];
    for (int i = 0; i < 3; i++) {
      snprintf(what, sizeof what, "c=%d d/dx%d", c, i);
      check_close(what, dx[i], want[i], 1e-15);
    }
  }
  return check_report();
}
