// Batch mode (enzyme_width) in a split-mode request is an error at the call
// that says which entry points take a width, for both halves and for the
// tape size query (reported in the order the plugin resolves them: reverse
// halves first).
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
#include <stddef.h>
extern int enzyme_width, enzyme_dup;
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
size_t __enzyme_augmentsize(void *, ...);

void sq(const double *x, double *y) { y[0] = x[0] * x[0]; }

void *forward(double *x, double *dx0, double *dx1, double *y, double *dy0,
              double *dy1) {
  // CHECK-DAG: batch-split.c:[[@LINE+1]]:10: error: tapestry: batch mode (enzyme_width) is not supported in split mode yet; use __enzyme_autodiff or __enzyme_fwddiff with enzyme_width
  return __enzyme_augmentfwd((void *)sq, enzyme_width, 2, enzyme_dup, x, dx0,
                             dx1, enzyme_dup, y, dy0, dy1);
}

void reverse(double *x, double *dx0, double *dx1, double *y, double *dy0,
             double *dy1, void *tape) {
  // CHECK-DAG: batch-split.c:[[@LINE+1]]:3: error: tapestry: batch mode (enzyme_width) is not supported in split mode yet; use __enzyme_autodiff or __enzyme_fwddiff with enzyme_width
  __enzyme_reverse((void *)sq, enzyme_width, 2, enzyme_dup, x, dx0, dx1,
                   enzyme_dup, y, dy0, dy1, tape);
}

size_t size(double *x, double *dx0, double *dx1, double *y, double *dy0,
            double *dy1) {
  // CHECK-DAG: batch-split.c:[[@LINE+1]]:10: error: tapestry: batch mode (enzyme_width) is not supported in split mode yet; use __enzyme_autodiff or __enzyme_fwddiff with enzyme_width
  return __enzyme_augmentsize((void *)sq, enzyme_width, 2, enzyme_dup, x, dx0,
                              dx1, enzyme_dup, y, dy0, dy1);
}
// CHECK: 3 errors generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
