// Calls to a function of another file that takes no arguments, made while
// memory with derivatives is only reachable from the differentiated
// function, or after its address escaped but from a function declared
// inactive, are differentiated (the calls carry no derivative); the same
// call after the address escaped is an error (test/Errors/
// opaque-call-escaped-shadow.c).
// RUN: %clang -O0 -g %s %S/Inputs/opaque-call-counts.c -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s %S/Inputs/opaque-call-counts.c -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

extern int stepsSeen;
extern double *lastSeen;
void countStep(void);
void logStep(void);
void *__enzyme_inactivefn[] = {(void *)logStep};

// sum_i t_i x_i with t_i = x_i^2: the scratch never leaves f.
static double local(const double *x, int n) {
  double *t = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) {
    t[i] = x[i] * x[i];
    countStep();
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    s += t[i] * x[i];
  free(t);
  return s;
}

// The same, with the scratch's address published only after the last call.
static double publishedLate(const double *x, int n) {
  double *t = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    t[i] = x[i] * x[i];
  countStep();
  double s = 0;
  for (int i = 0; i < n; i++)
    s += t[i] * x[i];
  lastSeen = t;
  return s;
}

// Published before a call the program declares inactive.
static double publishedEarly(const double *x, int n) {
  double *t = malloc(n * sizeof(double));
  lastSeen = t;
  for (int i = 0; i < n; i++)
    t[i] = x[i] * x[i];
  logStep();
  double s = 0;
  for (int i = 0; i < n; i++)
    s += t[i] * x[i];
  return s;
}

#define GRAD(fn)                                                               \
  static void grad_##fn(double *x, double *dx, int n) {                        \
    __enzyme_autodiff((void *)fn, enzyme_dup, x, dx, enzyme_const, n);         \
  }
GRAD(local)
GRAD(publishedLate)
GRAD(publishedEarly)

static void checkCubes(const char *name, void (*grad)(double *, double *, int)) {
  enum { N = 5 };
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++)
    x[i] = 0.5 + 0.25 * i;
  grad(x, dx, N);
  // d/dx_i of x_i^3.
  for (int i = 0; i < N; i++) {
    char what[64];
    snprintf(what, sizeof what, "%s d/dx[%d]", name, i);
    check_close(what, dx[i], 3 * x[i] * x[i], 1e-12);
  }
}

int main(void) {
  checkCubes("local", grad_local);
  checkCubes("publishedLate", grad_publishedLate);
  free(lastSeen);
  checkCubes("publishedEarly", grad_publishedEarly);
  free(lastSeen);
  if (stepsSeen < 5 + 1 + 1)
    printf("FAIL: the primal's calls ran %d times\n", stepsSeen);
  return check_report();
}
