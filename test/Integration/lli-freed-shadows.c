// A reverse sweep over a loop that grows its array with realloc keeps the
// list of shadows to free in a thread-local global. Run under lli (as
// Enzyme's users run their programs) that global must not be assumed more
// aligned than its type: lli's thread-local storage gave it 8 bytes, the
// code generated for a 24-byte global without stated alignment used 16-byte
// aligned stores, and the program crashed at -O0.
// RUN: %clang_enzyme -O0 %s -S -emit-llvm -o - | lli - | FileCheck %s
// RUN: %clang_enzyme -O1 %s -S -emit-llvm -o - | lli - | FileCheck %s
// RUN: %clang_enzyme -O2 %s -S -emit-llvm -o - | lli - | FileCheck %s
// RUN: %clang_enzyme -O3 %s -S -emit-llvm -o - | lli - | FileCheck %s
// RUN: %plain_cc -O0 %s -S -emit-llvm -o - | %opt -passes=enzyme -S | lli - | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t && %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>

double __enzyme_autodiff(void *, ...);

// a_0 = x, a_i = a_{i-1} x + 1 (so a_i = x^(i+1) + x^(i-1) + ... + 1),
// the array grown one element at a time.
static double grow(double x, int n) {
  double *a = 0;
  for (int i = 0; i < n; ++i) {
    a = (double *)realloc(a, (i + 1) * sizeof(double));
    a[i] = i == 0 ? x : a[i - 1] * x + 1;
  }
  double r = a[n - 1];
  free(a);
  return r;
}

int main(void) {
  for (int n = 1; n <= 12; n += 5) {
    double x = 0.7;
    double got = __enzyme_autodiff((void *)grow, x, n);
    // d/dx of x^n + sum_{k<n-1} x^k.
    double want = n * pow(x, n - 1);
    for (int k = 1; k < n - 1; ++k)
      want += k * pow(x, k - 1);
    char what[32];
    snprintf(what, sizeof what, "n=%d", n);
    check_close(what, got, want, 1e-12);
    check_close("finite difference", got,
                CENTRAL_DIFF(grow(t_, n), x, 1e-6), 1e-6);
  }
  return check_report();
}
