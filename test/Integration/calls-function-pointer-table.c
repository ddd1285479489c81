// Calls through function pointers whose values are known only at run time:
// a global table of functions indexed by an input, callbacks stored in
// structs beside their weights, and libm functions taken by address. Each
// call is dispatched on the pointer's value over the functions of its type
// whose address escapes in this file, so the derivative is right in
// reverse, forward, split and batch mode.
// RUN: %clang -O0 %s -o %t0 -lm && %t0 | FileCheck %s
// RUN: %clang -O1 %s -o %t1 -lm && %t1 | FileCheck %s
// RUN: %clang -O2 %s -o %t2 -lm && %t2 | FileCheck %s
// RUN: %clang -O3 %s -o %t3 -lm && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_width;
typedef struct {
  double d[2];
} D2;
typedef struct {
  void *tape;
  double primal;
} Aug;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
D2 __enzyme_fwddiff_2(void *, ...);
Aug __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

typedef double (*unary)(double);
static double square(double x) { return x * x; }
static double cube(double x) { return x * x * x; }
static double logistic(double x) { return 1.0 / (1.0 + exp(-x)); }
unary table[] = {sin, square, cube, exp, logistic};

/* sum_i table[idx[i]](x[i]) */
double apply(const int *idx, int n, const double *x) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += table[idx[i]](x[i]);
  return s;
}

struct term {
  unary f;
  double w;
};
/* sum_i t[i].w * t[i].f(y) */
double mix(const struct term *t, int n, double y) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += t[i].w * t[i].f(y);
  return s;
}

static double dtable(int k, double x) {
  switch (k) {
  case 0:
    return cos(x);
  case 1:
    return 2 * x;
  case 2:
    return 3 * x * x;
  case 3:
    return exp(x);
  default:
    return logistic(x) * (1 - logistic(x));
  }
}

int main(int argc, char **argv) {
  (void)argv;
  /* the indices come from the input: nothing is known at compile time */
  int idx[5] = {3, 0, 2, 1, 4};
  for (int i = 0; i < 5; i++)
    idx[i] = (idx[i] + argc - 1) % 5;
  double x[5] = {0.5, 1.2, -0.7, 2.0, 0.3};
  double dx[5] = {0};
  __enzyme_autodiff((void *)apply, enzyme_const, idx, enzyme_const, 5,
                    enzyme_dup, x, dx);
  for (int i = 0; i < 5; i++)
    check_close("apply (reverse)", dx[i], dtable(idx[i], x[i]), 1e-12);

  double tx[5] = {0, 0, 1, 0, 0};
  check_close("apply (forward)",
              __enzyme_fwddiff((void *)apply, enzyme_const, idx, enzyme_const,
                               5, enzyme_dup, x, tx),
              dtable(idx[2], x[2]), 1e-12);

  double e0[5] = {1, 0, 0, 0, 0}, e1[5] = {0, 0, 0, 0, 1};
  D2 t2 = __enzyme_fwddiff_2((void *)apply, enzyme_width, 2, enzyme_const, idx,
                             enzyme_const, 5, enzyme_dup, x, e0, e1);
  check_close("apply (batch lane 0)", t2.d[0], dtable(idx[0], x[0]), 1e-12);
  check_close("apply (batch lane 1)", t2.d[1], dtable(idx[4], x[4]), 1e-12);

  double sx[5] = {0};
  Aug a = __enzyme_augmentfwd((void *)apply, enzyme_const, idx, enzyme_const,
                              5, enzyme_dup, x, sx);
  __enzyme_reverse((void *)apply, enzyme_const, idx, enzyme_const, 5,
                   enzyme_dup, x, sx, 1.0, a.tape);
  for (int i = 0; i < 5; i++)
    check_close("apply (split)", sx[i], dtable(idx[i], x[i]), 1e-12);

  struct term t[3] = {{square, 2.0}, {cube, 0.5}, {sin, -1.0}};
  if (argc > 3)
    t[1].f = exp;
  double y = 1.5;
  double want = 2 * 2 * y + 0.5 * 3 * y * y - cos(y);
  check_close("mix (reverse)",
              __enzyme_autodiff((void *)mix, enzyme_const, t, enzyme_const, 3,
                                enzyme_out, y),
              want, 1e-12);
  check_close("mix (forward)",
              __enzyme_fwddiff((void *)mix, enzyme_const, t, enzyme_const, 3,
                               y, 1.0),
              want, 1e-12);
  double h = 1e-6;
  check_close("mix (finite difference)",
              (mix(t, 3, y + h) - mix(t, 3, y - h)) / (2 * h), want, 1e-7);
  return check_report();
}
