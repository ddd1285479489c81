// A pointer from __enzyme_todense used other than by loads and stores at an
// offset from it, or by passing it unchanged to a function with a body, is
// an error at the use; so is a load function of the wrong signature.
// clang-format off
// RUN: not %clang -O0 -g -c %s -o /dev/null -DESCAPE 2>&1 | FileCheck %s --check-prefix=ESCAPE
// RUN: not %clang -O2 -g -c %s -o /dev/null -DESCAPE 2>&1 | FileCheck %s --check-prefix=ESCAPE
// RUN: not %clang -O0 -g -c %s -o /dev/null -DSIGNATURE 2>&1 | FileCheck %s --check-prefix=SIGNATURE
// CHECK-NOT: PLEASE submit a bug report
#include <stdint.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_fwddiff(void *, ...);
double *__enzyme_todense(void *, ...);
void external_sink(double *);

static double unit_load(int64_t idx, int64_t i) { return idx / 8 == i; }
static double bad_load(int64_t idx, int64_t i, int64_t j, int64_t k) { return 0; }
static void no_store(double v, int64_t idx, int64_t i) {}

static double sum(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return s;
}

double column(const double *x, int n, int64_t i) {
#ifdef ESCAPE
  double *dx = __enzyme_todense((void *)unit_load, (void *)no_store, i);
  // ESCAPE: todense.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: the pointer from __enzyme_todense is passed to 'external_sink', which has no body
  external_sink(dx);
#else
  // SIGNATURE: error: tapestry: 'bad_load' must take the byte offset, then at most the 1 extra argument(s) given to __enzyme_todense
  double *dx = __enzyme_todense((void *)bad_load, (void *)no_store, i);
#endif
  __enzyme_fwddiff((void *)sum, enzyme_dup, x, dx, enzyme_const, n);
  return 0;
}
// clang-format on
