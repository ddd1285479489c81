/* Runs the derivatives of masked.ll against analytic values. */
#include "../../Integration/Inputs/check.h"
#include <string.h>

void grad_masked(double *x, double *dx, double *y, double *dy, double *out,
                 double *dout);
double tan_masked(double *x, double *tx, double *y, double *ty, double *out,
                  double *tout);
void grad_gs(double *x, double *dx, int *idx, double *out, double *dout,
             int *idx2);
double tan_gs(double *x, double *tx, int *idx, double *out, double *tout,
              int *idx2);

#define TOL 1e-14

static void test_masked(void) {
  double x[4] = {0.5, -1.0, 2.0, -0.25}, y[4] = {1.5, 0.7, -0.3, 2.5};
  double out[4], seed[4] = {0.1, 0.2, 0.3, 0.4};
  /* Lanes 0 and 2 are loaded from x (and stored squared to out), lanes 1
     and 3 pass 2 y through: r = x0 + 4 y1 + 3 x2 + 8 y3. */
  double dx[4] = {0}, dy[4] = {0}, dout[4];
  memcpy(dout, seed, sizeof dout);
  grad_masked(x, dx, y, dy, out, dout);
  double wx[4] = {1 + 0.1 * 2 * x[0], 0, 3 + 0.3 * 2 * x[2], 0};
  double wy[4] = {0, 4, 0, 8};
  double wout[4] = {0, seed[1], 0, seed[3]}; /* consumed where stored */
  char what[80];
  for (int i = 0; i < 4; i++) {
    snprintf(what, sizeof what, "masked reverse dx[%d]", i);
    check_close(what, dx[i], wx[i], TOL);
    snprintf(what, sizeof what, "masked reverse dy[%d]", i);
    check_close(what, dy[i], wy[i], TOL);
    snprintf(what, sizeof what, "masked reverse dout[%d] after", i);
    check_close(what, dout[i], wout[i], TOL);
  }
  double fx[4] = {1, 0, 3, 0};
  for (int j = 0; j < 8; j++) {
    double tx[4] = {0}, ty[4] = {0}, tout[4] = {-7, -7, -7, -7};
    (j < 4 ? tx : ty)[j % 4] = 1;
    double t = tan_masked(x, tx, y, ty, out, tout);
    snprintf(what, sizeof what, "masked forward d/d%c[%d]", j < 4 ? 'x' : 'y',
             j % 4);
    check_close(what, t, j < 4 ? fx[j] : wy[j - 4], TOL);
    /* out's tangent: 2 l_i dl_i in the stored lanes, untouched elsewhere. */
    for (int i = 0; i < 4; i++) {
      double want = (i == 1 || i == 3) ? -7 : (j == i ? 2 * x[i] : 0);
      snprintf(what, sizeof what, "masked forward tout[%d] along %d", i, j);
      check_close(what, tout[i], want, TOL);
    }
  }
}

static void test_gather_scatter(void) {
  double x[6] = {0.3, -1.1, 0.8, 1.7, 0.6, -0.9}, out[6];
  int idx[4] = {4, 1, 3, 4}, idx2[4] = {2, 0, 2, 5};
  double seed[6] = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6};
  /* g = [x4, x1, 0 (lane 2 off), x4]; r = 5 x4 + 2 x1; g^3 goes to
     out[2] (lane 0, then lane 2 overwrites it with 0), out[0] (lane 1),
     out[5] (lane 3). */
  double dx[6] = {0}, dout[6];
  memcpy(dout, seed, sizeof dout);
  grad_gs(x, dx, idx, out, dout, idx2);
  double wx[6] = {0, 2 + seed[0] * 3 * x[1] * x[1], 0, 0,
                  5 + seed[5] * 3 * x[4] * x[4], 0};
  double wout[6] = {0, seed[1], 0, seed[3], seed[4], 0};
  char what[80];
  for (int i = 0; i < 6; i++) {
    snprintf(what, sizeof what, "gather/scatter reverse dx[%d]", i);
    check_close(what, dx[i], wx[i], TOL);
    snprintf(what, sizeof what, "gather/scatter reverse dout[%d] after", i);
    check_close(what, dout[i], wout[i], TOL);
  }
  for (int j = 0; j < 6; j++) {
    double tx[6] = {0}, tout[6] = {-7, -7, -7, -7, -7, -7};
    tx[j] = 1;
    double t = tan_gs(x, tx, idx, out, tout, idx2);
    snprintf(what, sizeof what, "gather/scatter forward d/dx[%d]", j);
    check_close(what, t, j == 1 ? 2 : j == 4 ? 5 : 0, TOL);
    double wt[6] = {j == 1 ? 3 * x[1] * x[1] : 0, -7, 0, -7, -7,
                    j == 4 ? 3 * x[4] * x[4] : 0};
    for (int i = 0; i < 6; i++) {
      snprintf(what, sizeof what, "gather/scatter forward tout[%d] along %d",
               i, j);
      check_close(what, tout[i], wt[i], TOL);
    }
  }
}

int main(void) {
  test_masked();
  test_gather_scatter();
  return check_report();
}
