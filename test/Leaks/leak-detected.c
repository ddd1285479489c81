// The control for test/Leaks: the same harness sees a leak when there is
// one. The differentiated function mallocs scratch space it never frees (the
// user's leak, which the derivative inherits: the primal's allocation lives
// until the reverse sweep, then is not freed either). LeakSanitizer must
// report it, with the allocation in the differentiated function, and the
// per-call heap check must count the bytes left live; the derivative is still
// right. If this test fails, the other tests in this directory prove nothing.
// REQUIRES: lsan
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O0 %s -lm %tapestry_rt -o %t0 && not %lsan_run %t0 2>&1 | FileCheck %s
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O2 %s -lm %tapestry_rt -o %t2 && not %lsan_run %t2 2>&1 | FileCheck %s
// CHECK: FAIL heap leaky: {{[1-9][0-9]*}} allocation(s) during the call, 48 byte(s) left live
// CHECK: PASS leaky d/dx
// CHECK: ERROR: LeakSanitizer: detected memory leaks
// CHECK: Direct leak of 48 byte(s) in 1 object(s) allocated from:
// CHECK: in leaky{{.*}}leak-detected.c
#include "Inputs/heap.h"
#include <stdlib.h>

extern int enzyme_out, enzyme_const;
double __enzyme_autodiff(void *, ...);

/* n cells of scratch, never freed: t_i = x^(i+1), s = sum_i t_i t_(n-1-i)
 * = n x^(n+1). */
double leaky(double x, int n) {
  double *t = malloc(n * sizeof *t);
  t[0] = x;
  for (int i = 1; i < n; i++)
    t[i] = t[i - 1] * x;
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += t[i] * t[n - 1 - i];
  return s;
}

int main(void) {
  double d = 0, x = 0.9;
  volatile int n_opaque = 6; /* unknown to the optimiser */
  int n = n_opaque;
  HEAP_CHECK("leaky", 1,
             d = __enzyme_autodiff((void *)leaky, enzyme_out, x, enzyme_const,
                                   n));
  check_close("leaky d/dx", d, n * (n + 1) * pow(x, n), 1e-12);
  return check_report();
}
