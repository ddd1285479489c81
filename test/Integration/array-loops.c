// Loops over arrays with break, continue and several exits, nested loops with
// run-time trip counts (rectangular, triangular, and an inner bound read from
// an integer array), a data-dependent while loop over an array and a
// do-while, in reverse and forward mode against central finite differences.
// Inputs keep every data-dependent branch at least 1e-3 from its threshold,
// so the finite differences see the same path.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;
void __enzyme_autodiff(void *, ...);
double __enzyme_autodiff_d(void *, ...);
double __enzyme_fwddiff(void *, ...);
void __enzyme_fwddiff_v(void *, ...);

#include "Inputs/gradcheck.h"

/* continue on negative elements, break once the running sum passes 3 */
double sum_until(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    if (x[i] < 0)
      continue;
    s += x[i] * x[i] + 0.5 * x[i];
    if (s > 3)
      break;
  }
  return s * exp(-0.1 * s);
}

/* three exits: an early return from inside the loop, a break, and the end */
double multi_exit(const double *x, int n) {
  double s = 0, p = 1;
  for (int i = 0; i < n; i++) {
    if (x[i] > 2.5)
      return s * x[i] + p;
    if (x[i] < -2.5)
      break;
    s += sin(x[i]);
    p *= 1 + 0.1 * x[i];
  }
  return s + p * p;
}

/* nested loops with run-time bounds m, n: rectangular and triangular */
double nested(const double *x, const double *y, int m, int n) {
  double s = 0;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      s += sin(x[i] * y[j]) / (1 + i + j);
  for (int i = 0; i < m; i++)
    for (int j = 0; j <= i; j++)
      s += x[i] * x[j] * 0.25;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      for (int k = j; k < n; k++)
        s += 0.1 * y[i] * y[j] * y[k];
  return s;
}

/* inner trip counts read from a constant integer array (ragged rows) */
double ragged(const double *x, const int *len, int rows) {
  double s = 0;
  int off = 0;
  for (int r = 0; r < rows; r++) {
    double rs = 0;
    for (int k = 0; k < len[r]; k++)
      rs += x[off + k] * (k + 1);
    off += len[r];
    s += rs * rs;
  }
  return s;
}

/* a while loop over the array whose stride depends on the data, and a
   do-while that halves a value until it is small */
double data_walk(const double *x, int n) {
  double s = 0;
  int i = 0;
  while (i < n) {
    s += x[i] * cos(x[i]);
    i += x[i] > 0 ? 1 : 2;
  }
  double v = s * s + 1;
  int halvings = 0;
  do {
    v *= 0.5;
    halvings++;
  } while (v > 1e-3);
  return v * halvings + s;
}

/* continue and break in a nested loop, with a goto-free early exit of both */
double nested_break(const double *x, int m, int n) {
  double s = 0;
  for (int i = 0; i < m; i++) {
    if (x[i * n] < -0.8)
      continue;
    double row = 0;
    int j;
    for (j = 0; j < n; j++) {
      if (x[i * n + j] > 0.9)
        break;
      if (x[i * n + j] < 0)
        continue;
      row += x[i * n + j] * x[i * n + j];
    }
    s += row * (j + 1);
    if (s > 50)
      return s;
  }
  return s;
}

#define NX 10
static double x_sum_until[NX] = {0.3, -0.4, 0.7, 0.2, -1.2,
                                 0.9, 0.8,  1.1, 0.5, 0.2};
static double x_multi1[NX] = {0.3, -0.4, 0.7, 2.0, 2.7,
                              0.9, 0.8,  1.1, 0.5, 0.2};
static double x_multi2[NX] = {0.3, -0.4, 0.7, -2.8, 2.7,
                              0.9, 0.8,  1.1, 0.5,  0.2};
static double x_multi3[NX] = {0.3, -0.4, 0.7, -2.0, 1.7,
                              0.9, 0.8,  1.1, 0.5,  0.2};

#define ARRAY_TEST(F)                                                          \
  static double F##_eval(const double *p) {                                    \
    double *x = copy_of(p, NX);                                                \
    double r = F(x, NX);                                                       \
    free(x);                                                                   \
    return r;                                                                  \
  }                                                                            \
  static void F##_grad(const double *p, double *g) {                           \
    double *x = copy_of(p, NX);                                                \
    __enzyme_autodiff((void *)F, enzyme_dup, x, g, enzyme_const, NX);          \
    free(x);                                                                   \
  }                                                                            \
  static double F##_tangent(const double *p, int j) {                          \
    double *x = copy_of(p, NX), *tx = unit_slice(j, 0, NX);                    \
    double t =                                                                 \
        __enzyme_fwddiff((void *)F, enzyme_dup, x, tx, enzyme_const, NX);      \
    free(x), free(tx);                                                         \
    return t;                                                                  \
  }
ARRAY_TEST(sum_until)
ARRAY_TEST(multi_exit)
ARRAY_TEST(data_walk)

static int M = 4, N = 5;
/* p = [x (M), y (N)] */
static double nested_eval(const double *p) {
  double *x = copy_of(p, M), *y = copy_of(p + M, N);
  double r = nested(x, y, M, N);
  free(x), free(y);
  return r;
}
static void nested_grad(const double *p, double *g) {
  double *x = copy_of(p, M), *y = copy_of(p + M, N);
  __enzyme_autodiff((void *)nested, enzyme_dup, x, g, enzyme_dup, y, g + M,
                    enzyme_const, M, enzyme_const, N);
  free(x), free(y);
}
static double nested_tangent(const double *p, int j) {
  double *x = copy_of(p, M), *y = copy_of(p + M, N);
  double *tx = unit_slice(j, 0, M), *ty = unit_slice(j, M, N);
  double t = __enzyme_fwddiff((void *)nested, enzyme_dup, x, tx, enzyme_dup, y,
                              ty, enzyme_const, M, enzyme_const, N);
  free(x), free(y), free(tx), free(ty);
  return t;
}

#define ROWS 4
static const int lens[ROWS] = {3, 0, 5, 2};
#define NR 10
static double ragged_eval(const double *p) {
  double *x = copy_of(p, NR);
  double r = ragged(x, lens, ROWS);
  free(x);
  return r;
}
static void ragged_grad(const double *p, double *g) {
  double *x = copy_of(p, NR);
  __enzyme_autodiff((void *)ragged, enzyme_dup, x, g, enzyme_const, lens,
                    enzyme_const, ROWS);
  free(x);
}
static double ragged_tangent(const double *p, int j) {
  double *x = copy_of(p, NR), *tx = unit_slice(j, 0, NR);
  double t = __enzyme_fwddiff((void *)ragged, enzyme_dup, x, tx, enzyme_const,
                              lens, enzyme_const, ROWS);
  free(x), free(tx);
  return t;
}

#define BM 4
#define BN 5
static double nb_eval(const double *p) {
  double *x = copy_of(p, BM * BN);
  double r = nested_break(x, BM, BN);
  free(x);
  return r;
}
static void nb_grad(const double *p, double *g) {
  double *x = copy_of(p, BM * BN);
  __enzyme_autodiff((void *)nested_break, enzyme_dup, x, g, enzyme_const, BM,
                    enzyme_const, BN);
  free(x);
}
static double nb_tangent(const double *p, int j) {
  double *x = copy_of(p, BM * BN), *tx = unit_slice(j, 0, BM * BN);
  double t = __enzyme_fwddiff((void *)nested_break, enzyme_dup, x, tx,
                              enzyme_const, BM, enzyme_const, BN);
  free(x), free(tx);
  return t;
}

int main(void) {
  compare("sum_until", NX, x_sum_until, sum_until_eval, sum_until_grad,
          sum_until_tangent);
  compare("multi_exit, early return", NX, x_multi1, multi_exit_eval,
          multi_exit_grad, multi_exit_tangent);
  compare("multi_exit, break", NX, x_multi2, multi_exit_eval, multi_exit_grad,
          multi_exit_tangent);
  compare("multi_exit, loop end", NX, x_multi3, multi_exit_eval,
          multi_exit_grad, multi_exit_tangent);
  compare("data_walk", NX, x_sum_until, data_walk_eval, data_walk_grad,
          data_walk_tangent);
  double p[BM * BN];
  fill(p, M + N, -1.0, 1.0, 16);
  compare("nested 4x5", M + N, p, nested_eval, nested_grad, nested_tangent);
  M = 3, N = 6;
  compare("nested 3x6", M + N, p, nested_eval, nested_grad, nested_tangent);
  M = 0, N = 2;
  compare("nested 0x2", M + N, p, nested_eval, nested_grad, nested_tangent);
  fill(p, NR, -1.0, 1.0, 17);
  compare("ragged", NR, p, ragged_eval, ragged_grad, ragged_tangent);
  static const double xb[BM * BN] = {
      0.5,  0.3,  -0.2, 0.95, 0.4,  /* breaks at j = 3 */
      -0.9, 0.3,  0.3,  0.3,  0.3,  /* skipped */
      0.2,  -0.3, 0.6,  0.7,  0.1,  /* runs to the end */
      0.8,  0.5,  0.99, 0.2,  0.2}; /* breaks at j = 2 */
  compare("nested_break", BM * BN, xb, nb_eval, nb_grad, nb_tangent);
  return check_report();
}
