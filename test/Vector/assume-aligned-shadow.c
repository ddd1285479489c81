// A kernel that promises its input 32-byte aligned (__builtin_assume_aligned),
// vectorised for AVX2 before AD (the opt flow): the optimiser gave the
// loads through it `align 32`, the derivative's shadow loads copied it, and
// a shadow buffer aligned less (the caller's own allocation) faulted
// (probe25b C2). A function with such a promise now has its derivative's
// accesses assume only their scalar type's alignment. Expected: analytic
// (d/da_k sum a_i^2 = 2 a_k), forward and reverse, shadow at 8 mod 32.
// RUN: %plain_cc -O3 -march=x86-64-v3 -S -emit-llvm %s -o - | %any_x86_cpu > %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.bc
// RUN: %plain_cc -O2 %t.bc -lm -o %t && %t | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <stdint.h>
#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_fwddiff(void *, ...);
void __enzyme_autodiff(void *, ...);

double energy(const double *a, int n) {
  const double *A = __builtin_assume_aligned(a, 32);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += A[i] * A[i];
  return s;
}

int main(void) {
  int n = 64;
  double *a = aligned_alloc(32, n * sizeof(double));
  char *raw = calloc(n * sizeof(double) + 64, 1);
  /* 8 mod 32: not even 16-byte aligned */
  double *da = (double *)(raw + ((32 - ((uintptr_t)raw & 31)) & 31) + 8);
  for (int i = 0; i < n; i++)
    a[i] = sin(i);
  da[3] = 1;
  check_close("forward d/da3",
              __enzyme_fwddiff((void *)energy, enzyme_dup, a, da,
                               enzyme_const, n),
              2 * a[3], 1e-14);
  da[3] = 0;
  __enzyme_autodiff((void *)energy, enzyme_dup, a, da, enzyme_const, n);
  for (int k = 0; k < n; k += 7)
    check_close("reverse d/da_k", da[k], 2 * a[k], 1e-14);
  free(a);
  free(raw);
  return check_report();
}
