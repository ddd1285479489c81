// Issue 17 item 1, the shape of a newcomer's first split program: local
// arrays filled and read by small helper functions (calls at -O0, kept out
// of line with noinline at every level here too), the tape in the caller's
// buffer (enzyme_allocated) or returned by the forward half. The helpers'
// reverses only read the locals and keep no copy of their addresses, so the
// tape is reusable (the thunk says so at compile time) and one forward half
// serves several reverses with different seeds, the inputs overwritten in
// between; checked against the analytic gradient.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O0 -DNOINLINE %s -lm -o %tn0 && %tn0 | FileCheck %s
// RUN: %clang -O2 -DNOINLINE %s -lm -o %tn2 && %tn2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <string.h>
#include <tapestry/thunk.h>

#ifdef NOINLINE
#define HELPER __attribute__((noinline)) static
#else
#define HELPER static
#endif

extern int enzyme_dup, enzyme_const, enzyme_allocated, enzyme_tape,
    enzyme_nofree;
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
int __enzyme_augmentsize(void *, ...);

HELPER void mat3_mul_vec(const double *A, const double *x, double *y) {
  for (int i = 0; i < 3; i++) {
    y[i] = 0;
    for (int j = 0; j < 3; j++)
      y[i] += A[3 * i + j] * x[j];
  }
}
HELPER double energy(const double *v) {
  return v[0] * v[0] + sin(v[1]) + exp(v[2]);
}
HELPER void scale(double *v, double s) {
  for (int i = 0; i < 3; i++)
    v[i] *= s;
}

/* out0 = energy(z), z = 0.5 A x; out1 = z0 z2 */
void f(const double *A, const double *x, double *out) {
  double y[3], z[3];
  mat3_mul_vec(A, x, y);
  memcpy(z, y, sizeof z);
  scale(z, 0.5);
  out[0] = energy(z);
  out[1] = z[0] * z[2];
}

static const double A[9] = {1, 2, 3, 4, 5, 6, 7, 8, 10};
static const double x0[3] = {0.1, 0.2, -0.3};

/* Row r of the Jacobian of f at x0: d out_r / d x = (d out_r / d z) 0.5 A */
static void want(int r, double *g) {
  double z[3];
  for (int i = 0; i < 3; i++) {
    z[i] = 0;
    for (int j = 0; j < 3; j++)
      z[i] += 0.5 * A[3 * i + j] * x0[j];
  }
  double dz[3];
  if (r == 0) {
    dz[0] = 2 * z[0];
    dz[1] = cos(z[1]);
    dz[2] = exp(z[2]);
  } else {
    dz[0] = z[2];
    dz[1] = 0;
    dz[2] = z[0];
  }
  for (int j = 0; j < 3; j++) {
    g[j] = 0;
    for (int i = 0; i < 3; i++)
      g[j] += dz[i] * 0.5 * A[3 * i + j];
  }
}

int main(void) {
  const tapestry_thunk *t = __tapestry_thunk((void *)f, enzyme_const,
                                             enzyme_dup, enzyme_dup);
  check_close("f is reusable", t->reusable, 1, 0);
  double g[2][3];
  want(0, g[0]);
  want(1, g[1]);
  char what[80];

  /* The tape in the caller's buffer. */
  int size = __enzyme_augmentsize((void *)f, enzyme_const, enzyme_dup,
                                  enzyme_dup);
  _Alignas(16) char buf[4096];
  check_close("tape fits", size <= (int)sizeof buf, 1, 0);
  double x[3], dx[3], out[2], dout[2];
  memcpy(x, x0, sizeof x);
  __enzyme_augmentfwd((void *)f, enzyme_allocated, size, enzyme_tape, buf,
                      enzyme_const, A, enzyme_dup, x, dx, enzyme_dup, out,
                      dout);
  x[0] = x[1] = x[2] = 50;
  for (int k = 0; k < 4; k++) {
    int r = k % 2;
    double seed = 1.5 + k;
    memset(dx, 0, sizeof dx);
    dout[0] = r == 0 ? seed : 0;
    dout[1] = r == 1 ? seed : 0;
    if (k < 3)
      __enzyme_reverse((void *)f, enzyme_nofree, enzyme_allocated, size,
                       enzyme_tape, buf, enzyme_const, A, enzyme_dup, x, dx,
                       enzyme_dup, out, dout);
    else /* the last one frees what the tape owns */
      __enzyme_reverse((void *)f, enzyme_allocated, size, enzyme_tape, buf,
                       enzyme_const, A, enzyme_dup, x, dx, enzyme_dup, out,
                       dout);
    for (int j = 0; j < 3; j++) {
      snprintf(what, sizeof what, "buffer: replay %d d out%d / d x%d", k, r,
               j);
      check_close(what, dx[j], seed * g[r][j], 1e-12);
    }
  }

  /* The tape the forward half allocates; the last reverse frees it. */
  memcpy(x, x0, sizeof x);
  void *tape = __enzyme_augmentfwd((void *)f, enzyme_const, A, enzyme_dup, x,
                                   dx, enzyme_dup, out, dout);
  x[0] = x[1] = x[2] = -50;
  for (int k = 0; k < 3; k++) {
    int r = (k + 1) % 2;
    double seed = 0.25 + k;
    memset(dx, 0, sizeof dx);
    dout[0] = r == 0 ? seed : 0;
    dout[1] = r == 1 ? seed : 0;
    if (k < 2)
      __enzyme_reverse((void *)f, enzyme_nofree, enzyme_const, A, enzyme_dup,
                       x, dx, enzyme_dup, out, dout, tape);
    else
      __enzyme_reverse((void *)f, enzyme_const, A, enzyme_dup, x, dx,
                       enzyme_dup, out, dout, tape);
    for (int j = 0; j < 3; j++) {
      snprintf(what, sizeof what, "own tape: replay %d d out%d / d x%d", k, r,
               j);
      check_close(what, dx[j], seed * g[r][j], 1e-12);
    }
  }
  return check_report();
}
