// The convention for a pointer argument that is constant at a call to a
// function with registered rules (here a static const table K, which
// carries no derivative): the rules receive NULL as its shadow, in the
// augmented forward, the reverse and the forward rule alike, and a rule
// must check for NULL (README, custom derivatives). The same rules used
// with a duplicated first argument get a real shadow. Expected derivatives
// are analytic: loss(b) = x0 + x1^2 + x2 with x = K .* b, and
// loss2(a, b) = sum (a_i b_i)^2.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static int null_shadows_seen;

__attribute__((noinline)) void wmul(const double *a, const double *b, double *x,
                                    int n) {
  for (int i = 0; i < n; i++)
    x[i] = a[i] * b[i];
}
void *wmul_aug(const double *a, const double *da, const double *b,
               const double *db, double *x, double *dx, int n) {
  (void)db;
  (void)dx;
  null_shadows_seen += !da;
  wmul(a, b, x, n);
  return 0;
}
void wmul_rev(const double *a, double *da, const double *b, double *db,
              double *x, double *dx, int n, void *tape) {
  (void)x;
  (void)tape;
  null_shadows_seen += !da;
  for (int i = 0; i < n; i++) {
    if (da)
      da[i] += b[i] * dx[i];
    if (db)
      db[i] += a[i] * dx[i];
    dx[i] = 0;
  }
}
void wmul_fwd(const double *a, const double *da, const double *b,
              const double *db, double *x, double *dx, int n) {
  null_shadows_seen += !da;
  for (int i = 0; i < n; i++) {
    x[i] = a[i] * b[i];
    dx[i] = (da ? da[i] * b[i] : 0) + (db ? a[i] * db[i] : 0);
  }
}
void *__enzyme_register_gradient_wmul[3] = {(void *)wmul, (void *)wmul_aug,
                                            (void *)wmul_rev};
void *__enzyme_register_derivative_wmul[2] = {(void *)wmul, (void *)wmul_fwd};

static const double K[3] = {1.0, -2.0, 0.5};
double loss(const double *b) {
  double x[3];
  wmul(K, b, x, 3);
  return x[0] + x[1] * x[1] + x[2];
}
double loss2(const double *a, const double *b) {
  double x[3];
  wmul(a, b, x, 3);
  return x[0] * x[0] + x[1] * x[1] + x[2] * x[2];
}

int main(void) {
  double b[3] = {0.3, 0.4, 0.5}, db[3] = {0};
  double want[3] = {K[0], 2 * K[1] * K[1] * b[1], K[2]};
  __enzyme_autodiff((void *)loss, enzyme_dup, b, db);
  check_close("reverse: aug and rev get a NULL shadow for K", null_shadows_seen,
              2, 0);
  char what[64];
  for (int i = 0; i < 3; i++) {
    snprintf(what, sizeof what, "reverse d/db%d", i);
    check_close(what, db[i], want[i], 1e-14);
    double t[3] = {0};
    t[i] = 1;
    snprintf(what, sizeof what, "forward d/db%d", i);
    check_close(what, __enzyme_fwddiff((void *)loss, enzyme_dup, b, t), want[i],
                1e-14);
  }
  check_close("forward: fwd gets a NULL shadow for K", null_shadows_seen, 5, 0);
  double a[3] = {0.7, -1.1, 1.3}, da[3] = {0}, db2[3] = {0};
  __enzyme_autodiff((void *)loss2, enzyme_dup, a, da, enzyme_dup, b, db2);
  for (int i = 0; i < 3; i++) {
    snprintf(what, sizeof what, "duplicated d/da%d", i);
    check_close(what, da[i], 2 * a[i] * b[i] * b[i], 1e-14);
    snprintf(what, sizeof what, "duplicated d/db%d", i);
    check_close(what, db2[i], 2 * a[i] * a[i] * b[i], 1e-14);
  }
  check_close("duplicated: no NULL shadow", null_shadows_seen, 5, 0);
  return check_report();
}
