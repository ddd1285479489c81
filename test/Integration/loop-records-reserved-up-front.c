// Loop nests whose tape records the derivative reserves in full before the
// loops run when it knows their iterations exactly (the forward sweep then
// checks nothing per iteration), and nests it must keep growing per
// iteration: an outer loop left early, an inner loop under a condition, a
// triangular nest, a stride-2 inner loop (its exit count, (n - 1) / 2,
// also starts its reverse), a do-while. Each overwrites its array in place
// so every iteration is taped. Under AddressSanitizer a record written past
// the reservation stops the program. Expected: central finite differences
// of each function along every element.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O2 -fsanitize=address -fno-omit-frame-pointer %s -lm -o %ta && %ta | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

enum { N = 23 };

static double sumSquares(const double *u, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += u[i] * u[i];
  return s;
}

/* The heat stencil of tools/bench/heat.c: exact. */
double stencil(double *u, int n, int steps) {
  for (int t = 0; t < steps; t++) {
    double left = u[0];
    for (int i = 1; i < n - 1; i++) {
      double here = u[i];
      u[i] = here + 0.2 * (left - 2 * here + u[i + 1]) - 0.01 * here * here;
      left = here;
    }
  }
  return sumSquares(u, n);
}

/* The outer loop stops when the data says so. */
double leftEarly(double *u, int n, int steps) {
  for (int t = 0; t < steps; t++) {
    if (u[0] > 1.5)
      break;
    for (int i = 0; i < n; i++)
      u[i] = u[i] + 0.05 * sin(u[i]) + 0.01 * u[(i + 1) % n];
  }
  return sumSquares(u, n);
}

/* The inner loop runs in every other outer iteration. */
double everyOther(double *u, int n, int steps) {
  for (int t = 0; t < steps; t++)
    if (t % 2 == 0)
      for (int i = 0; i < n; i++)
        u[i] = u[i] * (1 + 0.1 * u[i]);
  return sumSquares(u, n);
}

/* The inner count depends on the outer index. */
double triangle(double *u, int n) {
  for (int j = 0; j < n; j++)
    for (int i = 0; i <= j; i++)
      u[i] = u[i] + 0.01 * u[j] * u[i];
  return sumSquares(u, n);
}

/* A stride-2 inner loop. */
double strided(double *u, int n, int steps) {
  for (int t = 0; t < steps; t++)
    for (int i = 1; i < n; i += 2)
      u[i] = u[i] * u[i - 1] * 0.5 + u[i];
  return sumSquares(u, n);
}

/* A do-while nest: runs at least once. */
double doWhile(double *u, int n, int steps) {
  int t = 0;
  do {
    int i = 0;
    do {
      u[i] = cos(u[i]) + 0.1 * u[i];
      i++;
    } while (i < n);
    t++;
  } while (t < steps);
  return sumSquares(u, n);
}

static double u0[N], u[N], du[N];

static void setUp(void) {
  for (int i = 0; i < N; i++)
    u0[i] = 0.3 + 0.02 * i;
  memcpy(u, u0, sizeof u);
  memset(du, 0, sizeof du);
}

/* Compares du with central differences of CALL(x), a call of the function
 * on the array x. */
#define CHECK_AGAINST_FD(name, CALL)                                           \
  do {                                                                         \
    char what[64];                                                             \
    for (int k = 0; k < n; k++) {                                              \
      double h = 1e-6, up[N], um[N];                                           \
      memcpy(up, u0, sizeof up);                                               \
      memcpy(um, u0, sizeof um);                                               \
      up[k] += h;                                                              \
      um[k] -= h;                                                              \
      double fd = (CALL(up) - CALL(um)) / (2 * h);                             \
      snprintf(what, sizeof what, "%s n=%d steps=%d d/du[%d]", name, n,        \
               steps, k);                                                      \
      check_close(what, du[k], fd, 1e-6);                                      \
    }                                                                          \
  } while (0)

#define CHECK_NEST(f)                                                          \
  do {                                                                         \
    setUp();                                                                   \
    __enzyme_autodiff((void *)f, enzyme_dup, u, du, enzyme_const, n,           \
                      enzyme_const, steps);                                    \
    CHECK_AGAINST_FD(#f, f##On);                                               \
  } while (0)

int main(void) {
  int sizes[][2] = {{N, 7}, {3, 1}, {1, 4}, {N, 0}};
  for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    int n = sizes[s][0], steps = sizes[s][1];
#define stencilOn(x) stencil(x, n, steps)
#define leftEarlyOn(x) leftEarly(x, n, steps)
#define everyOtherOn(x) everyOther(x, n, steps)
#define stridedOn(x) strided(x, n, steps)
#define doWhileOn(x) doWhile(x, n, steps)
#define triangleOn(x) triangle(x, n)
    CHECK_NEST(stencil);
    CHECK_NEST(leftEarly);
    CHECK_NEST(everyOther);
    CHECK_NEST(strided);
    if (steps > 0)
      CHECK_NEST(doWhile);
    setUp();
    __enzyme_autodiff((void *)triangle, enzyme_dup, u, du, enzyme_const, n);
    CHECK_AGAINST_FD("triangle", triangleOn);
  }
  return check_report();
}
