// Reverse over reverse over reverse of a loop whose trip count is known only
// as it runs (issues 13 and 16): each derivative's record arrays grow
// (outgrown blocks freed) while the derivative around it records the
// shadows of those blocks for its own reverse sweep. The inner request's
// call site releases the shadows its own derivative listed; it used to
// release the outer derivative's too, which the outer reverse sweep then
// wrote (heap corruption, or glibc aborting). A thousand terms grow every
// record array several times, whatever its first size.
// Expected (analytic): f(x) = sum_{i<n} x^i / i!, so f^(k)(x) =
// sum_{i<n-k} x^i / i!, summed here directly.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

double __enzyme_autodiff(void *, double);

#define MAXN 1000
/* stop[i] != 0 ends the series before term i: a trip count no analysis
 * knows before the loop runs. */
static int stop[MAXN + 1];

double f(double x) {
  double sum = 0, term = 1;
  for (int i = 0; !stop[i]; i++) {
    sum += term;
    term = term * x / (i + 1);
  }
  return sum;
}

double d1(double x) { return __enzyme_autodiff((void *)f, x); }
double d2(double x) { return __enzyme_autodiff((void *)d1, x); }
double d3(double x) { return __enzyme_autodiff((void *)d2, x); }

/* sum_{i<n} x^i / i! */
static double partial_exp(double x, int n) {
  double sum = 0, term = 1;
  for (int i = 0; i < n; i++) {
    sum += term;
    term = term * x / (i + 1);
  }
  return sum;
}

static volatile double in = 0.75;
static volatile int terms[] = {MAXN, 12};

int main(void) {
  double x = in;
  for (unsigned k = 0; k < sizeof terms / sizeof *terms; k++) {
    int n = terms[k];
    for (int i = 0; i <= MAXN; i++)
      stop[i] = i >= n;
    char what[64];
    snprintf(what, sizeof what, "f' (%d terms)", n);
    check_close(what, d1(x), partial_exp(x, n - 1), 1e-14);
    snprintf(what, sizeof what, "f'' (%d terms)", n);
    check_close(what, d2(x), partial_exp(x, n - 2), 1e-14);
    snprintf(what, sizeof what, "f''' (%d terms)", n);
    check_close(what, d3(x), partial_exp(x, n - 3), 1e-14);
  }
  return check_report();
}
