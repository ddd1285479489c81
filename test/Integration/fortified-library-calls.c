// Built as distributions build C (-D_FORTIFY_SOURCE=2: memcpy, memmove and
// memset whose length is not known at compile time become glibc's
// __memcpy_chk, __memmove_chk and __memset_chk, printf becomes
// __printf_chk) and with -fno-builtin (they stay calls of the C library's
// functions). Both were refused ("no derivative is known for external
// function"). The checked copies keep their check in the derivative: an
// overlong copy into a local array still stops the program. Expected
// values are analytic.
// RUN: %clang -O1 -D_FORTIFY_SOURCE=2 %s -lm -o %tf1 && %tf1 | FileCheck %s
// RUN: %clang -O2 -D_FORTIFY_SOURCE=2 %s -lm -o %tf2 && %tf2 | FileCheck %s
// RUN: %clang -O3 -D_FORTIFY_SOURCE=2 %s -lm -o %tf3 && %tf3 | FileCheck %s
// RUN: not --crash %tf2 stop 2>&1 | FileCheck %s --check-prefix=STOP
// RUN: %clang -O0 -fno-builtin %s -lm -o %tb0 && %tb0 | FileCheck %s
// RUN: %clang -O2 -fno-builtin %s -lm -o %tb2 && %tb2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// STOP: buffer overflow detected
// STOP-NOT: not stopped
#include "Inputs/check.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

// w = {x0, x0, x1, x2, ...} through a heap copy, a shift and a fill;
// s = sum_i w_i^2 x_i.
double shifted(const double *x, int n) {
  double *w = malloc(n * sizeof(double));
  memset(w, 0, n * sizeof(double));
  memcpy(w, x, n * sizeof(double));
  memmove(w + 1, w, (n - 1) * sizeof(double));
  double s = 0;
  for (int i = 0; i < n; i++)
    s += w[i] * w[i] * x[i];
  if (s > 1e9)
    printf("large s = %g\n", s);
  free(w);
  return s;
}

// A local array of known size filled from x with a length known only at
// run time: the fortified copy checks it against the array's 8 doubles.
double local(const double *x, int n) {
  double buf[8];
  memset(buf, 0, sizeof buf);
  memcpy(buf, x, n * sizeof(double));
  double s = 0;
  for (int i = 0; i < 8; i++)
    s += (i + 1) * buf[i] * buf[i] * buf[i];
  return s;
}

int main(int argc, char **argv) {
  enum { N = 6 };
  double x[N + 4];
  for (int i = 0; i < N + 4; i++)
    x[i] = 0.5 + 0.25 * i;
  if (argc > 1) {
    // Too long for buf: the check must stop the derivative too.
    double dx[N + 4] = {0};
    __enzyme_autodiff((void *)local, enzyme_dup, x, dx, enzyme_const, N + 4);
    printf("not stopped\n");
    return 0;
  }
  double dx[N] = {0};
  __enzyme_autodiff((void *)shifted, enzyme_dup, x, dx, enzyme_const, N);
  // s = x0^3 + x0^2 x1 + sum_{i>=2} x_{i-1}^2 x_i
  for (int i = 0; i < N; i++) {
    double want = 0;
    if (i == 0)
      want = 3 * x[0] * x[0] + 2 * x[0] * x[1];
    else
      want = (i == 1 ? x[0] * x[0] : x[i - 1] * x[i - 1]) +
             (i + 1 < N ? 2 * x[i] * x[i + 1] : 0);
    check_close("reverse through fortified copies", dx[i], want, 1e-12);
  }
  for (int k = 0; k < N; k++) {
    double tx[N] = {0};
    tx[k] = 1;
    double ds =
        __enzyme_fwddiff((void *)shifted, enzyme_dup, x, tx, enzyme_const, N);
    check_close("forward through fortified copies", ds, dx[k], 1e-12);
  }
  double dl[N] = {0};
  __enzyme_autodiff((void *)local, enzyme_dup, x, dl, enzyme_const, N);
  for (int i = 0; i < N; i++)
    check_close("reverse through a checked local copy", dl[i],
                3.0 * (i + 1) * x[i] * x[i], 1e-12);
  return check_report();
}
