// memcpy through pointers that are active or constant only at run time
// (runtime activity): a table holds an enzyme_dup pointer and an
// enzyme_const one, and a run-time index picks the row a memcpy reads or
// writes. Where the row is constant, the copy carries no derivative, and
// nothing is written into the constant data.
//   f(x; k, w) = sum_i t_i^2 x_i with t = row w (copied):
//     w = 0 (t = x): df/dx_i = 3 x_i^2;  w = 1 (t = k): df/dx_i = k_i^2.
//   g(x; k) = sum_i y_i^2 with x := 2 x copied back into row 0 (x), then
//     y = x: dg/dx_i = 8 x_i.
//   h(a; c, w) = t.v * t.p[0] + a.v with t = *a or *c (a struct of a
//     pointer and a double, copied): w = 0: dh/da.v = a.p[0] + 1,
//     dh/da.p[0] = a.v; w = 1: dh/da.v = 1, dh/da.p[0] = 0.
//   e(x; k, w) = sum_i u_i^2 with 2x copied into row w and copied back out
//     into u: w = 0: de/dx_i = 8 x_i. With w = 1 the copy back (a memcpy,
//     not a load) reads the active values out of k: a run-time stop too
//     (`copied`; it was a silent 0 before the copy counted as a read).
// Row 1 of g (k) would receive an active copy that is read back: the
// derivative stops at run time with the reason (h: RUN lines with `not`).
// RUN: %clang -O0 %s -o %t0 -lm && %t0 | FileCheck %s
// RUN: %clang -O1 %s -o %t1 -lm && %t1 | FileCheck %s
// RUN: %clang -O2 %s -o %t2 -lm && %t2 | FileCheck %s
// RUN: %clang -O3 %s -o %t3 -lm && %t3 | FileCheck %s
// RUN: not %t0 lost 2>&1 | FileCheck %s --check-prefix=LOST
// RUN: not %t2 lost 2>&1 | FileCheck %s --check-prefix=LOST
// RUN: not %t0 copied 2>&1 | FileCheck %s --check-prefix=LOST
// RUN: not %t3 copied 2>&1 | FileCheck %s --check-prefix=LOST
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// LOST: an active value is stored through a pointer to constant data
#include "Inputs/check.h"
#include <string.h>
extern void __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const;

double f(double *x, const double *k, int w, int n) {
  const double *rows[2] = {x, k};
  double t[4];
  memcpy(t, rows[w], n * sizeof(double));
  double s = 0;
  for (int i = 0; i < n; i++)
    s += t[i] * t[i] * x[i];
  return s;
}

double g(double *x, double *k, int w, int n) {
  double *rows[2] = {x, k};
  double t[4];
  for (int i = 0; i < n; i++)
    t[i] = 2 * x[i];
  memmove(rows[w], t, n * sizeof(double));
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return s;
}

double e(double *x, double *k, int w, int n) {
  double *rows[2] = {x, k};
  double t[4], u[4];
  memcpy(t, x, n * sizeof(double));
  for (int i = 0; i < n; i++)
    t[i] *= 2;
  memcpy(rows[w], t, n * sizeof(double));
  memcpy(u, rows[w], n * sizeof(double));
  double s = 0;
  for (int i = 0; i < n; i++)
    s += u[i] * u[i];
  return s;
}

struct S {
  const double *p;
  double v;
};

double h(struct S *a, const struct S *c, int w) {
  const struct S *rows[2] = {a, c};
  struct S t;
  memcpy(&t, rows[w], sizeof t);
  return t.v * t.p[0] + a->v;
}

int main(int argc, char **argv) {
  const double x0[3] = {0.5, -1.5, 2}, k0[3] = {3, -0.25, 1.5};
  double v[3] = {1, -2, 0.5}; // forward-mode direction
  if (argc > 1) {
    double x[3], dx[3] = {0}, k[3];
    memcpy(x, x0, sizeof x);
    memcpy(k, k0, sizeof k);
    if (strcmp(argv[1], "copied") == 0)
      __enzyme_autodiff((void *)e, enzyme_dup, x, dx, enzyme_const, k,
                        enzyme_const, 1, enzyme_const, 3);
    else
      __enzyme_autodiff((void *)g, enzyme_dup, x, dx, enzyme_const, k,
                      enzyme_const, 1, enzyme_const, 3);
    printf("FAIL: no stop\n");
    return 0;
  }
  for (int w = 0; w < 2; w++) {
    double x[3], dx[3] = {0}, k[3];
    memcpy(x, x0, sizeof x);
    memcpy(k, k0, sizeof k);
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, k,
                      enzyme_const, w, enzyme_const, 3);
    double dir = 0, want_dir = 0;
    for (int i = 0; i < 3; i++) {
      double want = w == 0 ? 3 * x0[i] * x0[i] : k0[i] * k0[i];
      check_close(w == 0 ? "rev f row x" : "rev f row k", dx[i], want, 1e-14);
      check_close("k unchanged", k[i], k0[i], 0);
      want_dir += want * v[i];
    }
    dir = __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const, k,
                           enzyme_const, w, enzyme_const, 3);
    check_close(w == 0 ? "fwd f row x" : "fwd f row k", dir, want_dir, 1e-14);
    for (int i = 0; i < 3; i++)
      check_close("k unchanged (fwd)", k[i], k0[i], 0);
  }
  {
    double x[3], dx[3] = {0}, k[3];
    memcpy(x, x0, sizeof x);
    memcpy(k, k0, sizeof k);
    __enzyme_autodiff((void *)g, enzyme_dup, x, dx, enzyme_const, k,
                      enzyme_const, 0, enzyme_const, 3);
    double want_dir = 0;
    for (int i = 0; i < 3; i++) {
      check_close("rev g row x", dx[i], 8 * x0[i], 1e-14);
      check_close("k unchanged (g)", k[i], k0[i], 0);
      want_dir += 8 * x0[i] * v[i];
    }
    memcpy(x, x0, sizeof x);
    double dv[3] = {v[0], v[1], v[2]};
    double dir = __enzyme_fwddiff((void *)g, enzyme_dup, x, dv, enzyme_const,
                                  k, enzyme_const, 0, enzyme_const, 3);
    check_close("fwd g row x", dir, want_dir, 1e-14);
  }
  {
    double x[3], dx[3] = {0}, k[3];
    memcpy(x, x0, sizeof x);
    memcpy(k, k0, sizeof k);
    __enzyme_autodiff((void *)e, enzyme_dup, x, dx, enzyme_const, k,
                      enzyme_const, 0, enzyme_const, 3);
    double want_dir = 0;
    for (int i = 0; i < 3; i++) {
      check_close("rev e row x", dx[i], 8 * x0[i], 1e-14);
      want_dir += 8 * x0[i] * v[i];
    }
    memcpy(x, x0, sizeof x);
    double dir = __enzyme_fwddiff((void *)e, enzyme_dup, x, v, enzyme_const,
                                  k, enzyme_const, 0, enzyme_const, 3);
    check_close("fwd e row x", dir, want_dir, 1e-14);
  }
  for (int w = 0; w < 2; w++) {
    double x[1] = {0.75}, dx[1] = {0}, k[1] = {-3};
    struct S a = {x, 2.5}, da = {dx, 0}, c = {k, 5};
    __enzyme_autodiff((void *)h, enzyme_dup, &a, &da, enzyme_const, &c,
                      enzyme_const, w);
    check_close(w == 0 ? "rev h row a: a.v" : "rev h row c: a.v", da.v,
                w == 0 ? 0.75 + 1 : 1, 1e-14);
    check_close(w == 0 ? "rev h row a: x" : "rev h row c: x", dx[0],
                w == 0 ? 2.5 : 0, 1e-14);
    check_close("c unchanged", c.v, 5, 0);
    check_close("k unchanged (h)", k[0], -3, 0);
    double tx[1] = {1};
    struct S ta = {tx, 1};
    double dir = __enzyme_fwddiff((void *)h, enzyme_dup, &a, &ta,
                                  enzyme_const, &c, enzyme_const, w);
    check_close(w == 0 ? "fwd h row a" : "fwd h row c", dir,
                w == 0 ? 0.75 + 1 + 2.5 : 1, 1e-14);
  }
  return check_report();
}
