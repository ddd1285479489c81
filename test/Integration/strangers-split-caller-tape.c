// A system-identification user's program in split mode: the forward half
// (__enzyme_augmentfwd) runs a nonlinear recursive filter
//   y_0 = p0 tanh(p2 u_0),  y_i = p1 y_{i-1} + p0 tanh(p2 u_i)
// and the caller keeps the tape while it looks at the output, builds the
// seed dL/dy itself (the residual 2 (y - data) of a least-squares loss),
// and only then calls __enzyme_reverse. If the compiler says the tape is
// reusable (__tapestry_thunk(...)->reusable), the same tape is reversed a
// second and third time with other seeds (the rows of the Jacobian for two
// chosen outputs), enzyme_nofree on all but the last; otherwise each seed
// gets a fresh forward. The input buffer u is overwritten between the
// forward and the reverse, as a streaming caller would.
// Expected: dL/dp = J^T seed, with J from the forward sensitivity
// recursion s_i = d y_i / d p computed here in plain C:
//   s_i = p1 s_{i-1} + (tanh, y_{i-1}, p0 u_i sech^2) per parameter.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O3 -march=native -ffast-math %s -lm -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <string.h>
#include <tapestry/thunk.h>

extern int enzyme_dup, enzyme_const, enzyme_nofree;
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

#define T 12
#define NPAR 3

void filter(const double *p, const double *u, double *y, int n) {
  double prev = 0.0;
  for (int i = 0; i < n; ++i) {
    double cur = p[0] * tanh(p[2] * u[i]);
    if (i > 0)
      cur += p[1] * prev;
    y[i] = cur;
    prev = cur;
  }
}

/* J[i][k] = d y_i / d p_k by forward sensitivities. */
static void jacobian(const double *p, const double *u, double J[T][NPAR]) {
  double y = 0, s[NPAR] = {0, 0, 0};
  for (int i = 0; i < T; ++i) {
    double th = tanh(p[2] * u[i]), sech2 = 1 - th * th;
    double ns[NPAR];
    ns[0] = th + (i > 0 ? p[1] * s[0] : 0);
    ns[1] = i > 0 ? y + p[1] * s[1] : 0;
    ns[2] = p[0] * u[i] * sech2 + (i > 0 ? p[1] * s[2] : 0);
    y = p[0] * th + (i > 0 ? p[1] * y : 0);
    for (int k = 0; k < NPAR; ++k) {
      s[k] = ns[k];
      J[i][k] = s[k];
    }
  }
}

int main(void) {
  double p[NPAR] = {1.3, 0.72, 0.9}, u[T], u0[T], data[T];
  double y[T], dy[T], dp[NPAR];
  for (int i = 0; i < T; ++i) {
    u0[i] = u[i] = sin(0.8 * i) + 0.3 * cos(2.1 * i);
    data[i] = 0.5 * sin(0.8 * i - 0.3);
  }
  double J[T][NPAR];
  jacobian(p, u0, J);

  const tapestry_thunk *th = __tapestry_thunk(
      (void *)filter, enzyme_dup, enzyme_const, enzyme_dup, enzyme_const);
  printf("filter tape reusable: %d\n", th->reusable);

  memset(dp, 0, sizeof dp);
  memset(dy, 0, sizeof dy);
  void *tape = __enzyme_augmentfwd((void *)filter, enzyme_dup, p, dp,
                                   enzyme_const, u, enzyme_dup, y, dy,
                                   enzyme_const, T);
  /* The caller inspects the output and forms the seed itself. */
  double seeds[3][T];
  for (int i = 0; i < T; ++i) {
    double yref = 0;
    /* independent primal: y_i = sum over the recursion */
    for (int j = 0; j <= i; ++j)
      yref += pow(p[1], i - j) * p[0] * tanh(p[2] * u0[j]);
    check_close("primal y", y[i], yref, 1e-12);
    seeds[0][i] = 2 * (y[i] - data[i]);
    seeds[1][i] = i == T - 1;
    seeds[2][i] = i == 4 ? 1.0 : (i == 7 ? -0.5 : 0.0);
  }
  for (int i = 0; i < T; ++i)
    u[i] = -99.0; /* the input buffer is reused for the next block */

  for (int s = 0; s < 3; ++s) {
    memset(dp, 0, sizeof dp);
    memcpy(dy, seeds[s], sizeof dy);
    if (th->reusable) {
      if (s < 2)
        __enzyme_reverse((void *)filter, enzyme_nofree, enzyme_dup, p, dp,
                         enzyme_const, u, enzyme_dup, y, dy, enzyme_const, T,
                         tape);
      else
        __enzyme_reverse((void *)filter, enzyme_dup, p, dp, enzyme_const, u,
                         enzyme_dup, y, dy, enzyme_const, T, tape);
    } else {
      if (s > 0) {
        memcpy(u, u0, sizeof u);
        double scratch[T];
        memset(dy, 0, sizeof dy);
        tape = __enzyme_augmentfwd((void *)filter, enzyme_dup, p, dp,
                                   enzyme_const, u, enzyme_dup, scratch, dy,
                                   enzyme_const, T);
        memcpy(dy, seeds[s], sizeof dy);
      }
      __enzyme_reverse((void *)filter, enzyme_dup, p, dp, enzyme_const, u,
                       enzyme_dup, y, dy, enzyme_const, T, tape);
    }
    for (int k = 0; k < NPAR; ++k) {
      double want = 0;
      for (int i = 0; i < T; ++i)
        want += J[i][k] * seeds[s][i];
      check_close(s == 0 ? "dL/dp (residual seed)" : "J^T e (row seed)",
                  dp[k], want, 1e-11);
    }
  }
  /* The Jacobian itself against central differences, so the reference
     recursion is checked too. */
  for (int k = 0; k < NPAR; ++k) {
    double yp[T], ym[T], save = p[k], h = 1e-6;
    p[k] = save + h;
    filter(p, u0, yp, T);
    p[k] = save - h;
    filter(p, u0, ym, T);
    p[k] = save;
    check_close("J (finite differences)", J[T - 1][k],
                (yp[T - 1] - ym[T - 1]) / (2 * h), 1e-7);
  }
  return check_report();
}
