/* Runs integer-copies-through-choices.ll's derivatives against analytic
   values: f: v = c ? a0 : a1, out = v, r = v x^2; g: v = c ? x a0 : 3x,
   r = v^2; h: out = c ? x^2 : 3x, r = x. */
#include "../../Integration/Inputs/check.h"
#include <stdbool.h>

double grad_f(double x, double *a, double *da, double *out, double *dout,
              bool c);
double tangent_f(double x, double dx, double *a, double *da, double *out,
                 double *dout, bool c);
double grad_g(double x, double *a, double *da, bool c);
double grad_h(double x, double *out, double *dout, bool c);

int main(void) {
  double x = 1.25, a[2] = {0.5, -3.0};
  for (int c = 0; c < 2; ++c) {
    double v = c ? a[0] : a[1], out = 0, dout = 1;
    double da[2] = {0, 0};
    double dx = grad_f(x, a, da, &out, &dout, c);
    check_close("f reverse dr/dx", dx, 2 * x * v, 1e-15);
    check_close("f reverse d/dv", da[c ? 0 : 1], x * x + 1, 1e-15);
    check_close("f reverse other", da[c ? 1 : 0], 0, 0);
    check_close("f reverse out", out, v, 0);
    double t0[2] = {0, 0}, tout = 0;
    check_close("f forward dr/dx", tangent_f(x, 1, a, t0, &out, &tout, c),
                2 * x * v, 1e-15);
    check_close("f forward dout/dx", tout, 0, 0);
    double tv[2] = {c ? 1 : 0, c ? 0 : 1};
    check_close("f forward dr/dv", tangent_f(x, 0, a, tv, &out, &tout, c),
                x * x, 1e-15);
    check_close("f forward dout/dv", tout, 1, 0);

    double dg[2] = {0, 0};
    double gx = grad_g(x, a, dg, c);
    check_close("g reverse dr/dx", gx, c ? 2 * x * a[0] * a[0] : 18 * x,
                1e-15);
    check_close("g reverse dr/da0", dg[0], c ? 2 * x * x * a[0] : 0, 1e-15);

    double hout = 0, dhout = 1;
    double hx = grad_h(x, &hout, &dhout, c);
    check_close("h reverse dx", hx, 1 + (c ? 2 * x : 3), 1e-15);
    check_close("h out", hout, c ? x * x : 3 * x, 1e-15);
  }
  return check_report();
}
