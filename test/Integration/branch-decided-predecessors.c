// The reverse of a block reached from two places must know which one: when
// the branch that decides it is in the same loop, the reverse reads that
// branch's condition instead of taping an index per iteration: `v > 0`
// from the value it tapes anyway, `scaled` (loop-invariant) and the inner
// loop's guard `m > 0` for nothing. The outer loop's records went from 24
// bytes (the overwritten x[i] and three indices) to 8.
// Expected: the analytic derivative of the in-place update
// x_i <- W (v > 0 ? v^2 : v^3 / 2) (scaled ? 3 : 1), W = sum_k w_k, with
// v = x_i: dx_i = W (v > 0 ? 2 v : 3 v^2 / 2) (scaled ? 3 : 1).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// RUN: %clang -O2 %s -c -o /dev/null -Rpass=tapestry 2>&1 \
// RUN:   | FileCheck --check-prefix=REMARK %s
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

void update(double *x, const double *w, int n, int m, int scaled) {
  // REMARK: :[[#@LINE+1]]:3: remark: reverse sweep of 'update' caches 1 value(s), 8 bytes per iteration of this loop: a double read from memory (line [[#@LINE+2]]);
  for (int i = 0; i < n; i++) {
    double v = x[i];
    if (v > 0)
      x[i] = v * v;
    else
      x[i] = 0.5 * v * v * v;
    if (scaled)
      x[i] = x[i] * 3.0;
    double s = 0;
    for (int k = 0; k < m; k++)
      s += w[k] * x[i];
    x[i] = s;
  }
}

int main(void) {
  enum { N = 7 };
  const double x0[N] = {0.7, -1.3, 2.1, -0.4, 0.05, -2.2, 1.6};
  const double w[3] = {0.5, -0.25, 1.5};
  const double W = 0.5 - 0.25 + 1.5;
  char what[64];
  for (int scaled = 0; scaled < 2; scaled++)
    for (int m = 0; m <= 3; m += 3) {
      double x[N], dx[N];
      for (int i = 0; i < N; i++)
        x[i] = x0[i], dx[i] = 1;
      __enzyme_autodiff((void *)update, enzyme_dup, x, dx, enzyme_const, w,
                        enzyme_const, N, enzyme_const, m, enzyme_const, scaled);
      double Wm = m ? W : 0; // m = 0: the inner loop never runs, x_i = 0.
      for (int i = 0; i < N; i++) {
        double v = x0[i];
        double want =
            Wm * (v > 0 ? 2 * v : 1.5 * v * v) * (scaled ? 3.0 : 1.0);
        snprintf(what, sizeof what, "scaled=%d m=%d dx[%d]", scaled, m, i);
        check_close(what, dx[i], want, 1e-12);
      }
    }
  return check_report();
}
