// Enzyme's users run their programs under the JIT: clang emits IR with the
// plugin loaded, and lli runs it. A reverse sweep whose loop keeps records
// gives its block to the thread's tape cache; the main thread must not
// register a thread-exit destructor for it, which would run after lli has
// released the JIT'd code (a crash at exit, after correct output).
// RUN: %clang_enzyme -O0 %s -S -emit-llvm -o - | lli - | FileCheck %s
// RUN: %clang_enzyme -O1 %s -S -emit-llvm -o - | lli - | FileCheck %s
// RUN: %clang_enzyme -O2 %s -S -emit-llvm -o - | lli - | FileCheck %s
// RUN: %clang_enzyme -O3 %s -S -emit-llvm -o - | lli - | FileCheck %s
// RUN: %plain_cc -O1 %s -S -emit-llvm -o - | %opt -passes=enzyme -S | lli - | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t && %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

// f(x) = sum_i x_i^2 * cos(t_i), t_i = x_i * x_{i+1} overwritten each
// iteration, so the reverse sweep reads it back from its records.
static double f(const double *x, int n) {
  double s = 0, t;
  for (int i = 0; i + 1 < n; ++i) {
    t = x[i] * x[i + 1];
    s += x[i] * x[i] * cos(t);
  }
  return s;
}

int main(void) {
  enum { N = 6 };
  double x[N], g[N];
  for (int rep = 0; rep < 3; ++rep) {
    for (int i = 0; i < N; ++i) {
      x[i] = 0.3 + 0.1 * i + 0.05 * rep;
      g[i] = 0;
    }
    __enzyme_autodiff((void *)f, enzyme_dup, x, g, enzyme_const, N);
    for (int k = 0; k < N; ++k) {
      // d/dx_k of the term i = k and of the term i = k - 1.
      double want = 0;
      if (k + 1 < N) {
        double t = x[k] * x[k + 1];
        want += 2 * x[k] * cos(t) - x[k] * x[k] * sin(t) * x[k + 1];
      }
      if (k > 0) {
        double t = x[k - 1] * x[k];
        want += -x[k - 1] * x[k - 1] * sin(t) * x[k - 1];
      }
      char what[32];
      snprintf(what, sizeof what, "rep %d df/dx%d", rep, k);
      check_close(what, g[k], want, 1e-12);
    }
  }
  return check_report();
}
