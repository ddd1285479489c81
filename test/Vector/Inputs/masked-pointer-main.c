/* Runs the derivatives of masked-pointer-gather.ll against analytic
   values: pointer tables whose shadow tables point to the shadow rows. */
#include "../../Integration/Inputs/check.h"

void grad_rows(double **r, double **dr, _Bool m);
double tan_rows(double **r, double **tr, _Bool m);
void grad_gathered(double **t, double **dt, long k);
double tan_gathered(double **t, double **tt, long k);
typedef struct {
  double a[2];
} D2;
D2 tan2_gathered(double **t, double **t0, double **t1, long k);
void grad_scattered(double *d, double *dd);
double tan_scattered(double *d, double *td);

#define TOL 1e-14

int main(void) {
  double row0[4] = {1.5, 0.1, 0.2, -0.7}, row1[4] = {-2.0, 0.3, 0.4, 1.25};
  double row2[4] = {0.5, 0.6, 0.7, 3.0};
  double d0[4], d1[4], d2[4];
  double *rows[3] = {row0, row1, row2}, *drows[3] = {d0, d1, d2};
  for (int m = 0; m <= 1; ++m) {
    for (int j = 0; j < 4; ++j)
      d0[j] = d1[j] = d2[j] = 0;
    grad_rows(rows, drows, m);
    /* r = row0[0] * (m ? row1[0] : row0[0]) */
    check_close("rows reverse d row0[0]", d0[0],
                m ? row1[0] : 2 * row0[0], TOL);
    check_close("rows reverse d row1[0]", d1[0], m ? row0[0] : 0, TOL);
    /* Tangents: 1 on row0[0], 10 on row1[0]. */
    for (int j = 0; j < 4; ++j)
      d0[j] = d1[j] = d2[j] = 0;
    d0[0] = 1;
    d1[0] = 10;
    check_close("rows forward", tan_rows(rows, drows, m),
                m ? row1[0] + 10 * row0[0] : 2 * row0[0], TOL);
  }
  for (long k = 0; k < 3; ++k) {
    double *dk[3] = {d0, d1, d2};
    for (int j = 0; j < 4; ++j)
      d0[j] = d1[j] = d2[j] = 0;
    grad_gathered(rows, drows, k);
    /* r = row0[3]^2 + rows[k][3]^2 */
    for (int i = 0; i < 3; ++i) {
      double want = (i == 0 ? 2 * row0[3] : 0) +
                    (i == k ? 2 * rows[k][3] : 0);
      check_close("gathered reverse", dk[i][3], want, TOL);
      check_close("gathered reverse, other elements", dk[i][0], 0, TOL);
    }
    /* Tangent i+1 on rows[i][3]. */
    for (int i = 0; i < 3; ++i)
      dk[i][3] = i + 1;
    double want = 2 * row0[3] * 1 + 2 * rows[k][3] * (k + 1);
    check_close("gathered forward", tan_gathered(rows, drows, k), want, TOL);
    /* Width 2: lane 0 as above, lane 1 with tangent 1 on every row's [3]. */
    double e0[4] = {0, 0, 0, 1}, e1[4] = {0, 0, 0, 1}, e2[4] = {0, 0, 0, 1};
    double *lane1[3] = {e0, e1, e2};
    D2 t = tan2_gathered(rows, drows, lane1, k);
    check_close("gathered batch lane 0", t.a[0], want, TOL);
    check_close("gathered batch lane 1", t.a[1], 2 * row0[3] + 2 * rows[k][3],
                TOL);
  }
  double data[6] = {0.5, 1.5, -2.5, 3.5, -0.75, 2.0}, dd[6] = {0};
  grad_scattered(data, dd);
  for (int i = 0; i < 6; ++i)
    check_close("scattered reverse", dd[i],
                i == 1 ? data[4] : i == 4 ? data[1] : 0, TOL);
  double td[6] = {1, 2, 3, 4, 5, 6};
  check_close("scattered forward", tan_scattered(data, td),
              2 * data[4] + 5 * data[1], TOL);
  return check_report();
}
