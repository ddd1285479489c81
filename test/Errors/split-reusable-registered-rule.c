// A reusable tape demanded for a function that calls a registered reverse
// (which may free its own tape) twice: the error gives each reason once
// (the registered reverse's clause was printed once per call) and names
// the variable without nested quotes.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
#include <stdlib.h>
#include <string.h>
#include <tapestry/thunk.h>
extern int enzyme_dup, enzyme_const;

__attribute__((noinline)) void cubes(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i] * x[i];
}
void *cubes_aug(const double *x, const double *dx, double *y, double *dy,
                int n) {
  (void)dx;
  (void)dy;
  double *c = malloc(sizeof(double) * n);
  memcpy(c, x, sizeof(double) * n);
  cubes(x, y, n);
  return c;
}
void cubes_rev(const double *x, double *dx, double *y, double *dy, int n,
               void *tape) {
  (void)x;
  (void)y;
  const double *c = tape;
  for (int i = 0; i < n; i++) {
    dx[i] += 3 * c[i] * c[i] * dy[i];
    dy[i] = 0;
  }
  free(tape);
}
void *__enzyme_register_gradient_cubes[3] = {(void *)cubes, (void *)cubes_aug,
                                             (void *)cubes_rev};

double f(const double *x, const double *w, int n) {
  double y[8], z[8], s = 0;
  cubes(x, y, n);
  cubes(y, z, n);
  for (int i = 0; i < n; i++)
    s += w[i] * z[i];
  return s;
}

const tapestry_thunk *get(void) {
  // CHECK: error: tapestry: cannot give 'f' a reusable tape (tapestry_reusable_tape): it calls the registered reverse of 'cubes', which may consume its own tape
  // CHECK-NOT: which may consume its own tape
  // CHECK-NOT: ('the
  return __tapestry_thunk((void *)f, tapestry_reusable_tape, enzyme_dup,
                          enzyme_const, enzyme_const);
}
