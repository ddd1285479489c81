// Found by the fuzz campaign (seed 12426), reduced: IR vectorised for AVX2
// under -ffast-math divides in a <2 x double> whose second divisor lane is
// poison (only lane 0 is used). Preparation gives such lanes a value (0),
// so lane 1 became x / 0 = inf, which the fast-math flags nnan/ninf make
// poison again; the reverse multiplied it by a zero adjoint and the poison
// reached real adjoints: the batched reverse (width 2) lost the derivative
// through c[16] (-0.132 for -0.315). The prepared primal now drops nnan and
// ninf. Expected derivatives: central finite differences of the primal.
// Fuzz seed 12617 (g below) had the scalar reverse wrong too.
// RUN: %plain_cc -O3 -march=x86-64-v3 -w -ffast-math -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.bc
// RUN: %plain_cc -O1 -march=x86-64-v3 -w %t.bc -lm -o %t && %t | FileCheck %s
// RUN: %clang -O3 -march=x86-64-v3 -w -ffast-math %s -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <math.h>
#include <stdlib.h>

extern int enzyme_dup, enzyme_const, enzyme_width;
typedef struct {
  double d0, d1;
} Grad;
typedef struct {
  double d0[2], d1[2];
} BatchGrad;
typedef struct {
  double d[2];
} BatchOne;
Grad __enzyme_autodiff(void *, ...);
BatchGrad __enzyme_autodiff_batch(void *, ...);
double __enzyme_autodiff_one(void *, ...);
BatchOne __enzyme_autodiff_batch_one(void *, ...);

static int descending(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? 1 : x > y ? -1 : 0;
}

double f(double x0, double x1, const double *a) {
  double *g = malloc(18 * sizeof(double));
  for (int j = 0; j < 18; j++)
    g[j] = 3.5625 * erf(x1 * x0 * 0.25);
  double *c = malloc(18 * sizeof(double));
  for (int j = 0; j < 18; j++)
    c[j] = 3.5625 * sin((j + 0.03125 + 0.75 * g[j] + 0.0625 * sin(j)) * 0.0625);
  qsort(c, 18, sizeof *c, descending);
  double b = a[10], r = 0.6875;
  for (int v = 0; v < 9; v++) {
    double u = b / (1.25 + c[2 * v] * c[2 * v]) * 0.5;
    r *= 1.0 + 0.125 * (0.875 * (u / sqrt(1.0 + u * u)));
  }
  double out = (r + b + x0 + x1) * c[16];
  free(g);
  free(c);
  return out;
}

// Seed 12617, reduced: the same shape in a compare-select maximum; here
// the scalar reverse was NaN too (linked at -O1 or -O2).
double g(const double *a, double x) {
  double r = -3.0625;
  for (int i = 0; i < 8; i++) {
    double w = x / (1.5 + a[i] * a[i]);
    double u = (x - 0.5) / (1.25 + w * w);
    double e = u * u + 0.125 * i;
    r = e > r ? e : r;
  }
  return r;
}

static volatile double Inputs[3] = {1.453125, -1.734375, 0.859375};

int main(void) {
  double a[18], da[18] = {0}, ea[18] = {0};
  for (int i = 0; i < 18; i++)
    a[i] = 0.25 + 0.0625 * i;
  double x0 = Inputs[0], x1 = Inputs[1];
  Grad rev = __enzyme_autodiff((void *)f, x0, x1, enzyme_const, a);
  BatchGrad brev = __enzyme_autodiff_batch((void *)f, enzyme_width, 2, x0, x1,
                                           enzyme_dup, a, da, ea);
  const double h = 1e-5;
  double fd0 = (f(x0 + h, x1, a) - f(x0 - h, x1, a)) / (2 * h);
  double fd1 = (f(x0, x1 + h, a) - f(x0, x1 - h, a)) / (2 * h);
  check_close("reverse d/dx0", rev.d0, fd0, 1e-6);
  check_close("reverse d/dx1", rev.d1, fd1, 1e-6);
  for (int k = 0; k < 2; k++) {
    check_close("batched reverse d/dx0", brev.d0[k], fd0, 1e-6);
    check_close("batched reverse d/dx1", brev.d1[k], fd1, 1e-6);
  }

  const double b[8] = {-0.421875, -1.046875, 0.265625, 0.640625,
                       0.53125,   0.78125,   1.703125, -1.484375};
  double db[8] = {0}, eb[8] = {0}, x = Inputs[2];
  double gs = __enzyme_autodiff_one((void *)g, enzyme_const, b, x);
  BatchOne gb = __enzyme_autodiff_batch_one((void *)g, enzyme_width, 2,
                                            enzyme_dup, b, db, eb, x);
  double fdx = (g(b, x + h) - g(b, x - h)) / (2 * h);
  check_close("reverse dg/dx", gs, fdx, 1e-6);
  check_close("batched reverse dg/dx", gb.d[0], fdx, 1e-6);
  check_close("batched reverse dg/dx lane 2", gb.d[1], fdx, 1e-6);
  return check_report();
}
