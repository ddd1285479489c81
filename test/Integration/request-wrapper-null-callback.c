// Helpers whose function parameters may be null, called with 0 for them:
// a loss with an optional regulariser (`if (reg != NULL)`, `if (reg)` and
// `if (NULL == reg)` spellings, and a helper reached through another
// helper), and a Hessian-vector helper that does not test its pointer but
// is told at run time whether to use it. Expected values are analytic:
// f(x) = x0^2 x1 has gradient (2 x0 x1, x0^2); r(x) = x0^2 + x1^2 has
// gradient (2 x0, 2 x1); f's Hessian times (1, 0) is (2 x1, 2 x0).
// A request reached with a null function stops with a message naming the
// helper and its parameter (here through `hessianTimes(f, 0, 1)`).
// RUN: %clang -O0 -g %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: not --crash %t0 stop 2>&1 | FileCheck %s --check-prefix=STOP
// RUN: not --crash %t2 stop 2>&1 | FileCheck %s --check-prefix=STOP2
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// STOP: tapestry: __enzyme_fwddiff (line [[#@LINE+30]]) in 'hessianTimes', called from 'main' (line [[#@LINE+72]]), was asked for the derivative of a null function pointer (its parameter 'grad' is null there); test the pointer before the request, or pass a function.
// STOP-NOT: not stopped
// STOP2: tapestry: __enzyme_fwddiff in 'hessianTimes', called from 'main', was asked for the derivative of a null function pointer
// STOP2-NOT: not stopped
#include "Inputs/check.h"
#include <stddef.h>
#include <string.h>

extern int enzyme_const, enzyme_dup;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

typedef void Objective(const double *, double *);

void product(const double *x, double *out) { *out = x[0] * x[0] * x[1]; }
void ridge(const double *x, double *out) { *out = x[0] * x[0] + x[1] * x[1]; }

static void gradient(Objective *f, const double *x, double *g) {
  double out = 0, seed = 1;
  memset(g, 0, 2 * sizeof(double));
  __enzyme_autodiff((void *)f, enzyme_dup, x, g, enzyme_dup, &out, &seed);
}

static void gradProduct(const double *x, double *g) { gradient(product, x, g); }

static void hessianTimes(void (*grad)(const double *, double *),
                         const double *x, const double *v, double *hv,
                         int use) {
  double g[2];
  if (use)
    __enzyme_fwddiff((void *)grad, enzyme_dup, x, v, enzyme_dup, g, hv);
}

/// Gradient of f plus, when given, the regulariser's.
static void lossGradient(Objective *f, Objective *reg, const double *x,
                         double *g, int spelling) {
  // (The reverse zeroes the seed: each request has its own.)
  double out = 0, seed = 1, rseed = 1, gr[2] = {0, 0};
  memset(g, 0, 2 * sizeof(double));
  __enzyme_autodiff((void *)f, enzyme_dup, x, g, enzyme_dup, &out, &seed);
  if (spelling == 0 && reg != NULL)
    __enzyme_autodiff((void *)reg, enzyme_dup, x, gr, enzyme_dup, &out, &rseed);
  if (spelling == 1 && reg)
    __enzyme_autodiff((void *)reg, enzyme_dup, x, gr, enzyme_dup, &out, &rseed);
  if (spelling == 2) {
    if (NULL == reg)
      return;
    __enzyme_autodiff((void *)reg, enzyme_dup, x, gr, enzyme_dup, &out, &rseed);
  }
  for (int i = 0; i < 2; i++)
    g[i] += gr[i];
}

static void report(const char *name, Objective *f, Objective *reg,
                   int spelling, const double *want) {
  const double x[2] = {1.5, -0.5};
  double g[2];
  char what[64];
  lossGradient(f, reg, x, g, spelling);
  for (int i = 0; i < 2; i++) {
    snprintf(what, sizeof what, "%s spelling %d d/dx[%d]", name, spelling, i);
    check_close(what, g[i], want[i], 1e-12);
  }
}

int main(int argc, char **argv) {
  const double x[2] = {1.5, -0.5}, v[2] = {1, 0};
  const double gf[2] = {2 * x[0] * x[1], x[0] * x[0]};
  const double gr[2] = {2 * x[0], 2 * x[1]};
  const double both[2] = {gf[0] + gr[0], gf[1] + gr[1]};
  double hv[2] = {0, 0};
  if (argc > 1 && strcmp(argv[1], "stop") == 0) {
    hessianTimes(0, x, v, hv, 1);
    printf("not stopped\n");
    return 0;
  }
  for (int s = 0; s < 3; s++) {
    report("product", product, 0, s, gf);
    report("product+ridge", product, ridge, s, both);
  }
  hessianTimes(0, x, v, hv, 0);
  check_close("unused null: hv[0] untouched", hv[0], 0, 0);
  hessianTimes(gradProduct, x, v, hv, 1);
  check_close("(H (1, 0))[0]", hv[0], 2 * x[1], 1e-12);
  check_close("(H (1, 0))[1]", hv[1], 2 * x[0], 1e-12);
  return check_report();
}
