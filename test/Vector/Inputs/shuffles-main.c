/* Runs the derivatives of shuffles.ll against analytic values: reverse
 * mode's gradient and forward mode along each unit direction. */
#include "../../Integration/Inputs/check.h"

void grad_deinterleave(double *p, double *dp);
double tan_deinterleave(double *p, double *tp);
void grad_mix(double *p, double *dp);
double tan_mix(double *p, double *tp);
void grad_dynamic(double *p, double *dp, long k);
double tan_dynamic(double *p, double *tp, long k);

static void check(const char *name, int n, const double *g, const double *t,
                  const double *want) {
  char what[64];
  for (int j = 0; j < n; j++) {
    snprintf(what, sizeof what, "%s reverse d/dp[%d]", name, j);
    check_close(what, g[j], want[j], 1e-14);
    snprintf(what, sizeof what, "%s forward d/dp[%d]", name, j);
    check_close(what, t[j], want[j], 1e-14);
  }
}

int main(void) {
  double p[8] = {0.5, -1.25, 2.0, 0.75, 1.5, -0.5, 3.0, 0.25};
  double g[8], t[8], want[8];

  /* r = sum_i (i + 1) p[2i] p[2i+1] */
  for (int i = 0; i < 4; i++) {
    want[2 * i] = (i + 1) * p[2 * i + 1];
    want[2 * i + 1] = (i + 1) * p[2 * i];
  }
  for (int j = 0; j < 8; j++) {
    double e[8] = {0};
    e[j] = 1;
    t[j] = tan_deinterleave(p, e);
    g[j] = 0;
  }
  grad_deinterleave(p, g);
  check("deinterleave", 8, g, t, want);

  /* a = p[0..3], b = p[4..7]; see mix in shuffles.ll. */
  const double *a = p, *b = p + 4;
  double wmix[8] = {a[1], a[0] + 3 * a[2] + 4 * a[3] + 5 * b[0] + 6 * b[1] +
                              8 * b[3],
                    3 * a[1], 4 * a[1], 5 * a[1] + 12, 6 * a[1] + 10, 8,
                    8 * a[1] + 6};
  for (int j = 0; j < 8; j++) {
    double e[8] = {0};
    e[j] = 1;
    t[j] = tan_mix(p, e);
    g[j] = 0;
  }
  grad_mix(p, g);
  check("mix", 8, g, t, wmix);

  /* Lane k squared in place: d/dv_j = j + 1, d/dv_k = 2 (k + 1) v_k. */
  for (long k = 0; k < 4; k++) {
    for (int j = 0; j < 4; j++) {
      double e[4] = {0};
      e[j] = 1;
      t[j] = tan_dynamic(p, e, k);
      g[j] = 0;
      want[j] = j == k ? 2 * (k + 1) * p[k] : j + 1;
    }
    grad_dynamic(p, g, k);
    char name[32];
    snprintf(name, sizeof name, "dynamic k=%ld", k);
    check(name, 4, g, t, want);
  }
  return check_report();
}
