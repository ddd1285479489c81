// Batch mode through the public headers alone: <tapestry/tapestry.h>
// declares enzyme_width, enzyme_dupv and enzyme_dupnoneedv and the batch
// helpers, in C and in C++.
// RUN: %clang -O0 %s %tapestry_rt -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s %tapestry_rt -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O1 -x c++ %s %tapestry_rt -o %t3 && %t3 | FileCheck %s
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <tapestry/tapestry.h>

#ifdef __cplusplus
extern "C" {
#endif
typedef struct {
  double d[4];
} D4;
D4 __enzyme_fwddiff_4(void *, ...);
#ifdef __cplusplus
}
#endif

double poly(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i] * (i + 1);
  return s;
}

int main(void) {
  double x[5] = {0.5, -1, 2, 0.25, 3};
  size_t stride;
  double *dx = (double *)tapestry_batch_alloc(4, sizeof x, &stride);
  tapestry_batch_seed_identity(dx, 4, stride, 5, 1);
  D4 t = __enzyme_fwddiff_4((void *)poly, enzyme_width, 4, enzyme_dupv, stride,
                            x, dx, enzyme_const, 5);
  for (int k = 0; k < 4; k++)
    check_close("lane k: d poly / d x[k+1]", t.d[k], 2 * x[k + 1] * (k + 2),
                1e-12);
  tapestry_batch_free(dx);
  return check_report();
}
