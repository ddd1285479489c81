// Memory holding active values copied (memcpy, memmove) into enzyme_const memory and read back would lose its
// derivative, like the store of an active value (const-memory-read-back.c):
// an error, in reverse and forward mode. Before, the copy was dropped and
// the derivative came back 0 (probe21a W0). A copy of local data without
// derivatives (a table of constants) into the same memory stays allowed,
// and so does a copy never read back (a "constant output").
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clang -O0 -DALLOWED %s -lm -o %t0 && %t0 | FileCheck %s --check-prefix=OK
// RUN: %clang -O2 -DALLOWED %s -lm -o %t2 && %t2 | FileCheck %s --check-prefix=OK
// CHECK-NOT: PLEASE submit a bug report
// OK-NOT: FAIL
// OK: ALL PASSED
#include <string.h>
extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

#ifndef ALLOWED
__attribute__((noinline)) static void copy_into(double *dst, const double *src,
                                                int n) {
  // CHECK-DAG: const-memory-copy-read-back.c:[[@LINE+2]]:3: error: tapestry: cannot differentiate 'forward': memory holding active values is copied through parameter 2{{( \('[a-z]+'\))?}}, which is enzyme_const; pass it as enzyme_dup with a shadow
  // CHECK-DAG: const-memory-copy-read-back.c:[[@LINE+1]]:3: error: tapestry: cannot differentiate 'reverse': memory holding active values is copied through parameter 2{{( \('[a-z]+'\))?}}, which is enzyme_const; pass it as enzyme_dup with a shadow
  memcpy(dst, src, n * sizeof(double));
}

double reverse(const double *x, double *scratch, int n) {
  double sq[8];
  for (int i = 0; i < n; i++)
    sq[i] = x[i] * x[i];
  copy_into(scratch, sq, n);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += (i + 1) * scratch[i];
  return s;
}

double forward(double x, double *scratch) {
  double v[2] = {x * x, 3 * x};
  copy_into(scratch, v, 2);
  return scratch[0] + scratch[1];
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0}, scratch[4];
  __enzyme_autodiff((void *)reverse, enzyme_dup, x, dx, enzyme_const, scratch,
                    enzyme_const, 4);
  return (int)__enzyme_fwddiff((void *)forward, 2.0, 1.0, enzyme_const,
                               scratch);
}
#else
#include "../Integration/Inputs/check.h"
#include <math.h>

// A table of constants copied into the const buffer and read back.
double table(double x, double *scratch) {
  double k[3] = {1, 2, 3};
  memcpy(scratch, k, sizeof k);
  return x * (scratch[0] + scratch[1] + scratch[2]);
}

// Active values copied into const memory never read back.
double unread(double x, double *out) {
  double v[2] = {x * x, sin(x)};
  memcpy(out, v, sizeof v);
  return 2 * x;
}

int main(void) {
  double s[3], o[2];
  check_close("table", __enzyme_autodiff((void *)table, 0.5, enzyme_const, s),
              6, 0);
  check_close("unread",
              __enzyme_autodiff((void *)unread, 0.5, enzyme_const, o), 2, 0);
  check_close("table fwd",
              __enzyme_fwddiff((void *)table, 0.5, 1.0, enzyme_const, s), 6,
              0);
  return check_report();
}
#endif
