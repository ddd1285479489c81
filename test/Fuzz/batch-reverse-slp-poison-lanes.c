// Reduced from the all-features fuzz campaign (seeds 94, 158 and 188, features
// all,vectorize,realloc,sort,constptr,fnptr,byval,tape,batch; batch-mismatch,
// all three compiled with -O3 -march=native -ffast-math before opt): the
// batched reverse (enzyme_width 2) of f returned 0 in both lanes for
// d/dx3 where the scalar reverse and the analytic value are 1. The SLP
// vectoriser packs x3 and a1[0] into one <8 x double> and multiplies it by
// a constant <c, poison, ...> whose lanes 1-7 are never used. The partial of
// that fmul is the constant itself, so the adjoint's unused lanes became
// poison, and the reverse of the shuffle that had broadcast x3 summed them
// into x3's adjoint (in batch mode the whole sum then folded to poison). A
// constant partial's undefined lanes are now zero.
// AVX-512 code (x86-64-v4), as the campaign machine's -march=native.
// Expected values are analytic: d/dx3 (1.25 + x3) = 1, d/da1 = 0.
// The derivative is compiled for the baseline x86-64 (%any_x86_cpu), so
// that it runs on machines without AVX-512 too.
// RUN: %plain_cc -O3 -march=x86-64-v4 -ffast-math -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -S -o - | %any_x86_cpu > %t.d.ll
// RUN: %plain_cc -O0 %t.d.ll -lm -o %t && %t | FileCheck %s
// RUN: %plain_cc -O3 -march=x86-64-v4 -S -emit-llvm %s -o %t2.ll
// RUN: %opt -passes=tapestry %t2.ll -S -o - | %any_x86_cpu > %t2.d.ll
// RUN: %plain_cc -O0 %t2.d.ll -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <stdlib.h>

extern int enzyme_width;
typedef struct {
  double g[2];
} Lanes;
Lanes __enzyme_autodiff_batch(void *, ...);
double __enzyme_autodiff(void *, ...);

static int cmp(const void *a, const void *b) {
  if (*(const double *)a < *(const double *)b)
    return -1;
  return *(const double *)a > *(const double *)b;
}

/* c3 is sorted and never read: only 1.25 + x3 matters */
double f(double *a1, int m, double x3) {
  double c2[10];
  for (int j = 0; j < 10; j++)
    c2[j] = 3.5625 * ((-1.25 * a1[j] + 0.0625 * sin((double)j)) * 0.125);
  double *c3 = (double *)malloc(10 * sizeof(double));
  for (int j = 0; j < 10; j++)
    c3[j] = 3.5625 * ((x3 + (c2[j] + sin((double)j))) * 0.125);
  qsort(c3, m, sizeof *c3, cmp);
  free(c3);
  return 1.25 + x3;
}

int main(void) {
  double a1[10], da1[10] = {0}, ea1[10] = {0};
  for (int i = 0; i < 10; i++)
    a1[i] = 0.125 * i - 0.3125;
  Lanes r = __enzyme_autodiff_batch((void *)f, enzyme_width, 2, a1, da1, ea1,
                                    10, -1.921875);
  check_close("batch lane 0 d/dx3", r.g[0], 1.0, 1e-15);
  check_close("batch lane 1 d/dx3", r.g[1], 1.0, 1e-15);
  for (int i = 0; i < 10; i++) {
    check_close("batch lane 0 d/da1", da1[i], 0.0, 1e-15);
    check_close("batch lane 1 d/da1", ea1[i], 0.0, 1e-15);
  }
  double s = __enzyme_autodiff((void *)f, a1, da1, 10, -1.921875);
  check_close("scalar d/dx3", s, 1.0, 1e-15);
  return check_report();
}
