// Enzyme's hints about memory have no effect on a derivative, and Tapestry
// needs none: __enzyme_float / __enzyme_double / __enzyme_integer /
// __enzyme_pointer(p, bytes) say what memory holds, and
// __enzyme_ptr_size_hint(p, bytes[, space]) the extent of memory a
// checkpointed loop writes (Enzyme's checkpoint_attr.c passes it in front of
// the loop). Each is dropped, in code that is differentiated and in code
// that is not. __enzyme_ptr_size_hint was "not an Enzyme entry point
// Tapestry knows" (found by running Enzyme's own tests, probe35b).
// g(u) = u0 u1 written into u0, then u0 + sin(u1):
// d/du0 = u1, d/du1 = u0 + cos(u1) (reverse, with the seed on u0 only).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang_fplugin -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <math.h>
#include <stddef.h>

void __enzyme_ptr_size_hint(void *, size_t, ...);
void __enzyme_double(void *, size_t);
void __enzyme_float(void *, size_t);
void __enzyme_integer(void *, size_t);
void __enzyme_pointer(void *, size_t);
extern int enzyme_const;
void __enzyme_autodiff(void *, ...);

static void g(double *u, int *count, float *scale, double **self) {
  __enzyme_ptr_size_hint(u, 2 * sizeof(double));
  __enzyme_ptr_size_hint(count, sizeof(int), (size_t)0);
  __enzyme_double(u, 2 * sizeof(double));
  __enzyme_integer(count, sizeof(int));
  __enzyme_float(scale, sizeof(float));
  __enzyme_pointer(self, sizeof(double *));
  u[0] *= u[1];
  u[0] += sin(u[1]) * *scale;
  *count += 1;
}

int main(void) {
  for (double a = -1.0; a <= 1.5; a += 1.25) {
    double u[2] = {a, 2 * a + 0.5}, du[2] = {1, 0};
    int count = 0;
    float scale = 1.0f;
    double *self = u;
    __enzyme_ptr_size_hint(u, sizeof u);
    __enzyme_autodiff((void *)g, u, du, enzyme_const, &count, enzyme_const,
                      &scale, enzyme_const, &self);
    double u1 = 2 * a + 0.5;
    check_close("d/du0", du[0], u1, 1e-12);
    check_close("d/du1", du[1], a + cos(u1), 1e-12);
  }
  return check_report();
}
