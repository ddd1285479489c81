// A static pointer a helper replaces (free the old block, malloc a new one,
// copy the input into it) before the differentiated function reads through
// it: the store is in the helper, the reads in its caller. Under
// -fplugin the helper is still a call when the analysis of which globals
// get shadows runs, and that analysis saw a read not preceded by a store in
// the same function: no shadow, and a gradient of 0 with no error (the opt
// flow, where clang had inlined the helper, was right). The analysis now
// inlines such setters into its copies, as preparation does; a helper
// kept as a call (noinline) stores the shadow too; so does a noinline
// setter given the input itself (an error before: "the global gets no
// shadow"). Expected derivatives are analytic: d/dx_j sum_i exp(buf[i]) =
// exp(x_j), the same times 2 for the noinline helper's 2 x copy, and
// d/dx_0 held[0]^2 = 2 x_0.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

static double *buf;
static double *scaled;

void fill(const double *x, int n) {
  free(buf);
  buf = malloc(n * sizeof(double));
  memcpy(buf, x, n * sizeof(double));
}

__attribute__((noinline)) void fill_scaled(const double *x, int n) {
  free(scaled);
  scaled = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    scaled[i] = 2 * x[i];
}

static double *held;

__attribute__((noinline)) static void hold(double *p) { held = p; }

double setter(double *x) {
  hold(x);
  return held[0] * held[0];
}

double f(const double *x, int n) {
  fill(x, n);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += exp(buf[i]);
  return s;
}

double g(const double *x, int n) {
  fill_scaled(x, n);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += exp(scaled[i]);
  return s;
}

int main(void) {
  for (int call = 0; call < 2; call++) {
    double x[3] = {0.1 * call, 0.2, -0.3}, dx[3] = {0}, dy[3] = {0};
    double dh[3] = {0};
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 3);
    __enzyme_autodiff((void *)g, enzyme_dup, x, dy, enzyme_const, 3);
    __enzyme_autodiff((void *)setter, enzyme_dup, x, dh);
    check_close("dsetter/dx0", dh[0], 2 * x[0], 1e-15);
    check_close("dsetter/dx1", dh[1], 0, 0);
    for (int j = 0; j < 3; j++) {
      check_close("df/dx", dx[j], exp(x[j]), 1e-12);
      check_close("dg/dx", dy[j], 2 * exp(2 * x[j]), 1e-12);
    }
  }
  free(buf);
  free(scaled);
  return check_report();
}
