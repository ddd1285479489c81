// Calls to a function of another file that takes no arguments, made while
// memory with derivatives is only reachable from the differentiated
// function, or after its address escaped but from a function declared
// inactive, are differentiated (the calls carry no derivative), as are
// library calls given the address (realloc, posix_memalign), alignment
// tests of it and file-local arrays; the same
// call after the address escaped is an error (test/Errors/
// opaque-call-escaped-shadow.c).
// RUN: %clang -O0 -g %s %S/Inputs/opaque-call-counts.c -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s %S/Inputs/opaque-call-counts.c -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdint.h>
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

// Shapes an adversarial review found refused by the first version of the
// check: a buffer grown with realloc, an alignment test on the scratch's
// address, a block from posix_memalign, and a global that other files can
// name, written only after the call.
static double grown(const double *x, int n) {
  int cap = 2, len = 0;
  double *h = malloc(cap * sizeof(double));
  for (int i = 0; i < n; i++) {
    if (len == cap) {
      cap *= 2;
      h = realloc(h, cap * sizeof(double));
    }
    h[len++] = x[i] * x[i];
    countStep();
  }
  double s = 0;
  for (int i = 0; i < len; i++)
    s += h[i] * x[i];
  free(h);
  return s;
}

static double aligned(const double *x, int n) {
  double *t = 0;
  if (posix_memalign((void **)&t, 64, n * sizeof(double)))
    return 0;
  if ((uintptr_t)t % 64)
    stepsSeen = -1000;
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

double sharedSquares[8];
static double globalAfterCall(const double *x, int n) {
  countStep();
  for (int i = 0; i < n; i++)
    sharedSquares[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; i++)
    s += sharedSquares[i] * x[i];
  return s;
}

// A file-local array written at constant indices: its address is a
// constant expression, which goes nowhere other files see.
static double staticSquares[5];
static double staticScratch(const double *x, int n) {
  staticSquares[0] = x[0] * x[0];
  staticSquares[1] = x[1] * x[1];
  staticSquares[2] = x[2] * x[2];
  staticSquares[3] = x[3] * x[3];
  staticSquares[4] = x[4] * x[4];
  countStep();
  double s = 0;
  for (int i = 0; i < n; i++)
    s += staticSquares[i] * x[i];
  return s;
}

// A file-local array reached through a file-local accessor whose result
// stays in this file (the accessor other files may call is an error:
// test/Errors/opaque-call-escaped-shadow.c).
static double accessedSquares[5];
__attribute__((noinline)) static double *squaresBuffer(void) {
  return accessedSquares;
}
static double localAccessor(const double *x, int n) {
  double *b = squaresBuffer();
  for (int i = 0; i < n; i++)
    b[i] = x[i] * x[i];
  countStep();
  double s = 0;
  for (int i = 0; i < n; i++)
    s += b[i] * x[i];
  return s;
}

// A block kept in a file-local pointer whose address goes nowhere other
// files see (review30 p51).
static double *work;
static double staticWorkPointer(const double *x, int n) {
  work = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    work[i] = x[i] * x[i];
  countStep();
  double s = 0;
  for (int i = 0; i < n; i++)
    s += work[i] * x[i];
  free(work);
  return s;
}

#define GRAD(fn)                                                               \
  static void grad_##fn(double *x, double *dx, int n) {                        \
    __enzyme_autodiff((void *)fn, enzyme_dup, x, dx, enzyme_const, n);         \
  }
GRAD(local)
GRAD(publishedLate)
GRAD(publishedEarly)
GRAD(grown)
GRAD(aligned)
GRAD(globalAfterCall)
GRAD(staticScratch)
GRAD(localAccessor)
GRAD(staticWorkPointer)

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
  checkCubes("grown", grad_grown);
  checkCubes("aligned", grad_aligned);
  checkCubes("globalAfterCall", grad_globalAfterCall);
  checkCubes("staticScratch", grad_staticScratch);
  checkCubes("localAccessor", grad_localAccessor);
  checkCubes("staticWorkPointer", grad_staticWorkPointer);
  if (stepsSeen < 5 + 1 + 1)
    printf("FAIL: the primal's calls ran %d times\n", stepsSeen);
  return check_report();
}
