// A pointer read back from memory that also holds constant pointers (an
// enzyme_const argument stored in a table beside active ones) is tested at
// run time where it is used, in the function itself and in the functions
// it calls (test/Integration/runtime-activity-callee-params.c). Where that
// test cannot follow it, a clear error: here a function with a registered
// gradient, which takes the shadows as they are. (An active value stored
// through such a pointer and read back is checked at run time:
// test/Integration/runtime-activity-constant-store.c.)
// RUN: not %clang -g -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -g -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
#include <stdlib.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

// A function with a registered gradient takes the shadows as they are: a
// shadow that may be the pointer itself cannot be given to it.
__attribute__((noinline)) static double dot(const double *a, const double *b,
                                            int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}
static double dot_aug(const double *a, double *da, const double *b, double *db,
                      int n) {
  return dot(a, b, n);
}
static void dot_rev(const double *a, double *da, const double *b, double *db,
                    int n, double dret) {
  for (int i = 0; i < n; i++) {
    if (da)
      da[i] += dret * b[i];
    if (db)
      db[i] += dret * a[i];
  }
}
void *__enzyme_register_gradient_dot[3] = {(void *)dot, (void *)dot_aug,
                                           (void *)dot_rev};

double callee(double *w, const double *seq, int n) {
  const double **rows = malloc(2 * sizeof *rows);
  rows[0] = w;
  rows[1] = seq;
  double s = 0;
  for (int i = 0; i < 2; i++)
    // CHECK-DAG: runtime-constant-pointer-use.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: cannot differentiate 'callee': argument 1 of this call is a pointer read from memory that also holds pointers to constant data (enzyme_const or global), so whether it points to constant data is only known at run time, and this call cannot test it
    s += dot(rows[i], w, n);
  free(rows);
  return s;
}

void grads(double *w, double *dw, double *seq, int n, int k) {
  __enzyme_autodiff((void *)callee, enzyme_dup, w, dw, enzyme_const, seq,
                    enzyme_const, n);
}
