/* Runs the derivatives of math.ll against analytic values: reverse mode's
 * gradient and forward mode along each unit direction. */
#include "../../Integration/Inputs/check.h"

void grad_math(double *p, double *dp);
double tan_math(double *p, double *tp);
void grad_mvec(double *p, double *dp);
double tan_mvec(double *p, double *tp);

typedef void (*grad_fn)(double *, double *);
typedef double (*tan_fn)(double *, double *);

static void check(const char *name, grad_fn grad, tan_fn tan, double *p,
                  const double *want) {
  double g[8] = {0};
  grad(p, g);
  char what[64];
  for (int j = 0; j < 8; j++) {
    double t[8] = {0};
    t[j] = 1;
    snprintf(what, sizeof what, "%s reverse d/dp[%d]", name, j);
    check_close(what, g[j], want[j], 1e-13);
    snprintf(what, sizeof what, "%s forward d/dp[%d]", name, j);
    check_close(what, tan(p, t), want[j], 1e-13);
  }
}

int main(void) {
  double p[8] = {0.5, -1.25, 2.0, 0.75, 1.5, -2.0, 0.25, 3.0};
  double want[8];
  for (int i = 0; i < 4; i++) {
    double v = p[i], w = p[4 + i];
    double da = v / sqrt(v * v + 1);
    /* maxnum passes its derivative to v unless v < w. */
    want[i] = 2 * da + 2 * cos(v) + w + (v < w ? 0 : 1);
    want[4 + i] = 0.5 * exp(0.5 * w) + v + 2 * w + (v < w ? 1 : 0);
  }
  check("math", grad_math, tan_math, p, want);
  for (int i = 0; i < 4; i++) {
    double v = p[i], w = p[4 + i];
    want[i] = cos(v) * exp(w);
    want[4 + i] = sin(v) * exp(w);
  }
  check("libmvec", grad_mvec, tan_mvec, p, want);
  return check_report();
}
