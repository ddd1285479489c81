// A pointer that the differentiated function keeps in a global (a static
// context, a file-scope work pointer, one aimed at a file-scope array, one
// a helper reads) and loads back, after a call the analysis cannot see
// through or in a function that is not inlined, keeps its derivative: such
// globals get shadows holding the shadow pointers when the function sets
// them before every read. Before Dec 2026 the reloaded pointer was taken
// for a constant (a silent wrong number: review29 p12c, 0.36 for 1.08;
// helperReads gave 0) or the stores through it were refused ("an active
// value is stored to memory that has no shadow"). A pointer set outside
// differentiated code (a lazily allocated static workspace) still gets
// no shadow: test/Errors/cxx-static-workspace.cpp.
// RUN: %clang -O0 -g %s %S/Inputs/opaque-call-counts.c -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s %S/Inputs/opaque-call-counts.c -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdio.h>
#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

enum { N = 4 };
void countStep(void); /* another file's; reads nothing of ours */
void *__enzyme_inactivefn[] = {(void *)countStep};

/* The input pointer, kept in a static context. */
static struct {
  const double *in;
  int n;
} inputs;
double argPointer(const double *x, int n) {
  inputs.in = x;
  inputs.n = n;
  countStep();
  double s = 0;
  for (int i = 0; i < inputs.n; i++)
    s += inputs.in[i] * inputs.in[i] * inputs.in[i];
  return s;
}

/* A heap block kept in a static pointer. */
static double *work;
double heapPointer(const double *x, int n) {
  work = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    work[i] = sin(x[i]);
  countStep();
  double s = 0;
  for (int i = 0; i < n; i++)
    s += work[i] * work[i];
  free(work);
  return s;
}

/* The input pointer, set before a helper that is not inlined reads it. */
static const double *terms;
__attribute__((noinline)) static double cube(int i) {
  return terms[i] * terms[i] * terms[i];
}
double helperReads(const double *x, int n) {
  terms = x;
  double s = 0;
  for (int i = 0; i < n; i++)
    s += cube(i);
  return s;
}

/* A pointer global aimed at a file-scope array the function writes. */
static double products[N];
static double *current;
double pointerToGlobal(const double *x, int n) {
  current = products;
  for (int i = 0; i < n; i++)
    products[i] = x[i] * x[(i + 1) % n];
  countStep();
  double s = 0;
  for (int i = 0; i < n; i++)
    s += current[i] * current[i];
  return s;
}

/* A non-static pointer global updated in a loop around a library call. */
double *state;
double iteratedState(const double *x, int n) {
  state = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    state[i] = x[i];
  for (int it = 0; it < 3; it++) {
    for (int i = 0; i < n; i++)
      state[i] = sin(state[i]) + 0.5 * x[i];
    fflush(stdout);
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    s += state[i];
  free(state);
  return s;
}

/* Checks the gradient of F at x against want (a macro: a request names the
 * function it differentiates). */
#define REVERSE(F, x, want)                                                    \
  do {                                                                         \
    double dx[N] = {0};                                                        \
    __enzyme_autodiff((void *)F, enzyme_dup, x, dx, enzyme_const, N);          \
    char what[64];                                                             \
    for (int k = 0; k < N; k++) {                                              \
      snprintf(what, sizeof what, "%s d/dx[%d]", #F, k);                       \
      check_close(what, dx[k], want[k], 1e-12);                                \
    }                                                                          \
  } while (0)

int main(void) {
  double x[N] = {0.3, -0.7, 1.1, 0.45}, want[N];

  for (int k = 0; k < N; k++)
    want[k] = 3 * x[k] * x[k];
  REVERSE(argPointer, x, want);

  for (int k = 0; k < N; k++)
    want[k] = 2 * sin(x[k]) * cos(x[k]);
  REVERSE(heapPointer, x, want);

  for (int k = 0; k < N; k++)
    want[k] = 3 * x[k] * x[k];
  REVERSE(helperReads, x, want);

  for (int k = 0; k < N; k++) {
    int next = (k + 1) % N, prev = (k + N - 1) % N;
    want[k] = 2 * x[k] * x[next] * x[next] + 2 * x[prev] * x[k] * x[prev];
  }
  REVERSE(pointerToGlobal, x, want);

  for (int k = 0; k < N; k++) {
    double s = x[k], ds = 1;
    for (int it = 0; it < 3; it++) {
      ds = cos(s) * ds + 0.5;
      s = sin(s) + 0.5 * x[k];
    }
    want[k] = ds;
  }
  REVERSE(iteratedState, x, want);

  double dx[N] = {0, 0, 1, 0};
  double tangent =
      __enzyme_fwddiff((void *)argPointer, enzyme_dup, x, dx, enzyme_const, N);
  check_close("argPointer forward d/dx[2]", tangent, 3 * x[2] * x[2], 1e-12);
  return check_report();
}
