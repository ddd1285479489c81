/* Runs the derivatives of vectorized-loop.ll against analytic values, with
 * trip counts that run the vector body and the remainder (11), only the
 * vector body (8) and only the remainder (3); and with overlapping arrays
 * that fail the alias check, against finite differences. */
#include "../../Integration/Inputs/check.h"
#include <string.h>

void saxpy(double a, double *x, double *y, long n);

double grad_saxpy(double a, double *x, double *dx, double *y, double *dy,
                  long n);
void tan_saxpy(double a, double ta, double *x, double *tx, double *y,
               double *ty, long n);

static void run(const char *name, long n, double *x, double *y, double *dx,
                double *dy) {
  /* y[i] = a x[i] + y[i]: with seeds s on y, dx_i += a s_i, dy_i stays s_i
     (the old y's adjoint), da = sum_i s_i x_i. */
  double a = 1.3, x0[16], s[16], da = 0;
  for (long i = 0; i < n; i++) {
    x0[i] = x[i];
    s[i] = 0.25 * i - 1;
    dx[i] = 0.5;
    dy[i] = s[i];
    da += s[i] * x[i];
  }
  double g = grad_saxpy(a, x, dx, y, dy, n);
  char what[80];
  snprintf(what, sizeof what, "%s: reverse da", name);
  check_close(what, g, da, 1e-14);
  for (long i = 0; i < n; i++) {
    snprintf(what, sizeof what, "%s: reverse dx[%ld]", name, i);
    check_close(what, dx[i], 0.5 + a * s[i], 1e-14);
    snprintf(what, sizeof what, "%s: reverse dy[%ld]", name, i);
    check_close(what, dy[i], s[i], 1e-14);
  }
  /* Forward: ty_i = ta x_i + a tx_i + ty_i. */
  double tx[16], ty[16], ty0[16];
  for (long i = 0; i < n; i++) {
    x[i] = x0[i];
    tx[i] = 0.1 * i;
    ty[i] = ty0[i] = 1 - 0.2 * i;
  }
  tan_saxpy(a, 0.7, x, tx, y, ty, n);
  for (long i = 0; i < n; i++) {
    snprintf(what, sizeof what, "%s: forward ty[%ld]", name, i);
    check_close(what, ty[i], 0.7 * x0[i] + a * tx[i] + ty0[i], 1e-14);
  }
}

int main(void) {
  long ns[3] = {11, 8, 3};
  for (int k = 0; k < 3; k++) {
    double x[16], y[16], dx[16], dy[16];
    for (int i = 0; i < 16; i++)
      x[i] = 0.3 * i - 1, y[i] = 2 - 0.1 * i;
    char name[32];
    snprintf(name, sizeof name, "n=%ld", ns[k]);
    run(name, ns[k], x, y, dx, dy);
  }
  /* y = x + 1 overlaps x: the alias check sends every element through the
     scalar loop, a recurrence z[i+1] += a z[i]. The loss L = w . z after
     the call, against central finite differences of saxpy itself. */
  enum { M = 11 };
  double z0[M + 1], w[M + 1], dz[M + 1], z[M + 1], a = 0.9, h = 1e-6;
  for (int i = 0; i <= M; i++)
    z0[i] = 0.2 * i - 1, w[i] = 1 + 0.1 * i;
  memcpy(z, z0, sizeof z);
  memcpy(dz, w, sizeof dz);
  double da = grad_saxpy(a, z, dz, z + 1, dz + 1, M);
  double zp[M + 1], zm[M + 1];
  for (int j = -1; j <= M; j++) {
    memcpy(zp, z0, sizeof zp), memcpy(zm, z0, sizeof zm);
    double ap = a, am = a;
    if (j < 0)
      ap += h, am -= h;
    else
      zp[j] += h, zm[j] -= h;
    saxpy(ap, zp, zp + 1, M);
    saxpy(am, zm, zm + 1, M);
    double lp = 0, lm = 0;
    for (int i = 0; i <= M; i++)
      lp += w[i] * zp[i], lm += w[i] * zm[i];
    char what[80];
    if (j < 0)
      snprintf(what, sizeof what, "aliased: reverse d/da vs FD");
    else
      snprintf(what, sizeof what, "aliased: reverse d/dz[%d] vs FD", j);
    check_close(what, j < 0 ? da : dz[j], (lp - lm) / (2 * h), 1e-7);
  }
  return check_report();
}
