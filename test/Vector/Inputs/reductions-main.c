/* Runs the derivatives of reductions.ll against analytic values: reverse
 * mode's gradient and forward mode along each unit direction. */
#include "../../Integration/Inputs/check.h"

void grad_sum_ordered(double *p, double *dp);
double tan_sum_ordered(double *p, double *tp);
void grad_sum_reassoc(double *p, double *dp);
double tan_sum_reassoc(double *p, double *tp);
void grad_product(double *p, double *dp);
double tan_product(double *p, double *tp);
void grad_extrema(double *p, double *dp);
double tan_extrema(double *p, double *tp);

typedef void (*grad_fn)(double *, double *);
typedef double (*tan_fn)(double *, double *);

static void check(const char *name, grad_fn grad, tan_fn tan, double *p,
                  const double *want) {
  double g[5] = {0};
  grad(p, g);
  for (int j = 0; j < 5; j++) {
    double t[5] = {0};
    t[j] = 1;
    char what[64];
    snprintf(what, sizeof what, "%s reverse d/dp[%d]", name, j);
    check_close(what, g[j], want[j], 1e-14);
    snprintf(what, sizeof what, "%s forward d/dp[%d]", name, j);
    check_close(what, tan(p, t), want[j], 1e-14);
  }
}

int main(void) {
  double p[5] = {0.5, -1.25, 2.0, 0.75, 1.5};
  double ordered[5] = {1, 1, 1, 1, 2 * p[4]};
  check("sum_ordered", grad_sum_ordered, tan_sum_ordered, p, ordered);
  double reassoc[5] = {2 * p[0], 2 * p[1], 2 * p[2], 2 * p[3], 0};
  check("sum_reassoc", grad_sum_reassoc, tan_sum_reassoc, p, reassoc);
  double prod[5] = {p[4] * p[1] * p[2] * p[3], p[4] * p[0] * p[2] * p[3],
                    p[4] * p[0] * p[1] * p[3], p[4] * p[0] * p[1] * p[2],
                    p[0] * p[1] * p[2] * p[3]};
  check("product", grad_product, tan_product, p, prod);
  /* A zero factor: only its own partial is non-zero (no division). */
  double z[5] = {0.5, 0.0, 2.0, 0.75, 1.5};
  double prodz[5] = {0, z[4] * z[0] * z[2] * z[3], 0, 0, 0};
  check("product with a zero", grad_product, tan_product, z, prodz);
  /* max at lane 2 (fmax, fmaximum: 1 + 3), min at lane 1 (2 + 4). */
  double ext[5] = {0, 6, 4, 0, 0};
  check("extrema", grad_extrema, tan_extrema, p, ext);
  /* Ties go to the first lane holding the extremum. */
  double t[5] = {3.0, -2.0, 3.0, -2.0, 0};
  double extt[5] = {4, 6, 0, 0, 0};
  check("extrema with ties", grad_extrema, tan_extrema, t, extt);
  return check_report();
}
