// Globals that differentiated code writes with active values get shadows
// (Enzyme's implicit global shadows): a result a callee leaves in a global
// for its caller, a file-scope scratch array written by one function and
// read by another, a static local workspace reused across calls, a struct
// global mixing a counter and doubles. Derivatives are checked against
// analytic formulas in reverse, forward, split and batch mode, and calling
// a derivative again gives the same gradient (the shadows are consumed by
// each reverse sweep, not accumulated across calls).
// RUN: %clang -O0 %s -o %t0 -lm && %t0 | FileCheck %s
// RUN: %clang -O1 %s -o %t1 -lm && %t1 | FileCheck %s
// RUN: %clang -O2 %s -o %t2 -lm && %t2 | FileCheck %s
// RUN: %clang -O3 %s -o %t3 -lm && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_width;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
typedef struct {
  double d[2];
} D2;
D2 __enzyme_fwddiff_2(void *, ...);
typedef struct {
  void *tape;
  double primal;
} Aug;
Aug __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

// 1. A callee leaves its result in a global; the caller returns it.
static double last;
__attribute__((noinline)) static void square_into_last(const double *x) {
  last = x[0] * x[0];
}
static double read_last(const double *x) {
  square_into_last(x);
  return last;
}

// 2. One function fills a global array, another reduces it.
static double field[4];
__attribute__((noinline)) static void fill(const double *x, int n) {
  for (int i = 0; i < n; i++)
    field[i] = sin(x[i]) * x[i];
}
__attribute__((noinline)) static double energy(int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += field[i] * field[i];
  return s;
}
static double pipeline(const double *x, int n) {
  fill(x, n);
  return energy(n);
}

// 3. A static local workspace, written and read in one function.
static double smooth_norm(const double *x, int n) {
  static double work[16];
  for (int i = 0; i < n; i++)
    work[i] = exp(x[i]);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += work[i] * work[(i + 1) % n];
  return s;
}

// 4. An active scalar saved in a global and read back.
double saved;
double save_and_use(double x) {
  saved = x * x;
  return saved + x;
}

// 5. A helper fills an output array it is given: a global one.
static double forces[3];
static void compute_forces(double *out, const double *q) {
  for (int i = 0; i < 3; i++)
    out[i] = -q[i] * q[i] * q[i];
}
static double work_done(const double *q) {
  compute_forces(forces, q);
  return forces[0] * q[0] + forces[1] * q[1] + forces[2] * q[2];
}

// 6. A struct global with an integer member beside doubles.
struct stats {
  int count;
  double sum, sumsq;
} acc;
static double variance(const double *x, int n) {
  acc.count = 0;
  acc.sum = 0;
  acc.sumsq = 0;
  for (int i = 0; i < n; i++) {
    acc.count++;
    acc.sum += x[i];
    acc.sumsq += x[i] * x[i];
  }
  double m = acc.sum / acc.count;
  return acc.sumsq / acc.count - m * m;
}

int main(void) {
  double x1 = 3.0, dx1 = 0;
  __enzyme_autodiff((void *)read_last, enzyme_dup, &x1, &dx1);
  check_close("callee result in a global", dx1, 2 * x1, 1e-12);

  double x[4] = {0.3, -1.2, 2.0, 0.7};
  for (int round = 0; round < 2; round++) {
    double dx[4] = {0};
    __enzyme_autodiff((void *)pipeline, enzyme_dup, x, dx, enzyme_const, 4);
    for (int i = 0; i < 4; i++) {
      double f = sin(x[i]) * x[i], df = cos(x[i]) * x[i] + sin(x[i]);
      check_close("global array pipeline (reverse)", dx[i], 2 * f * df, 1e-12);
    }
  }
  double tx[4] = {0, 0, 1, 0};
  double f2 = sin(x[2]) * x[2], df2 = cos(x[2]) * x[2] + sin(x[2]);
  check_close("global array pipeline (forward)",
              __enzyme_fwddiff((void *)pipeline, enzyme_dup, x, tx,
                               enzyme_const, 4),
              2 * f2 * df2, 1e-12);
  double e0[4] = {1, 0, 0, 0}, e3[4] = {0, 0, 0, 1};
  D2 t = __enzyme_fwddiff_2((void *)pipeline, enzyme_width, 2, enzyme_dup, x,
                            e0, e3, enzyme_const, 4);
  for (int k = 0; k < 2; k++) {
    int i = k ? 3 : 0;
    double f = sin(x[i]) * x[i], df = cos(x[i]) * x[i] + sin(x[i]);
    check_close("global array pipeline (batch)", t.d[k], 2 * f * df, 1e-12);
  }

  double ds[4] = {0};
  __enzyme_autodiff((void *)smooth_norm, enzyme_dup, x, ds, enzyme_const, 4);
  for (int i = 0; i < 4; i++) {
    double want = exp(x[i]) * (exp(x[(i + 1) % 4]) + exp(x[(i + 3) % 4]));
    check_close("static local workspace (reverse)", ds[i], want, 1e-12);
  }
  double dsp[4] = {0};
  Aug a = __enzyme_augmentfwd((void *)smooth_norm, enzyme_dup, x, dsp,
                              enzyme_const, 4);
  __enzyme_reverse((void *)smooth_norm, enzyme_dup, x, dsp, enzyme_const, 4,
                   1.0, a.tape);
  for (int i = 0; i < 4; i++) {
    double want = exp(x[i]) * (exp(x[(i + 1) % 4]) + exp(x[(i + 3) % 4]));
    check_close("static local workspace (split)", dsp[i], want, 1e-12);
  }

  double y = 1.7;
  check_close("saved scalar (reverse)",
              __enzyme_autodiff((void *)save_and_use, enzyme_out, y),
              2 * y + 1, 1e-12);
  check_close("saved scalar (forward)",
              __enzyme_fwddiff((void *)save_and_use, enzyme_dup, y, 1.0),
              2 * y + 1, 1e-12);
  check_close("saved scalar primal", saved, y * y, 1e-12);

  double q[3] = {0.5, -1.1, 0.8}, dq[3] = {0};
  __enzyme_autodiff((void *)work_done, enzyme_dup, q, dq);
  for (int i = 0; i < 3; i++)
    check_close("helper fills a global array", dq[i], -4 * q[i] * q[i] * q[i],
                1e-12);

  double dv[4] = {0};
  __enzyme_autodiff((void *)variance, enzyme_dup, x, dv, enzyme_const, 4);
  double mean = (x[0] + x[1] + x[2] + x[3]) / 4;
  for (int i = 0; i < 4; i++)
    check_close("struct global (variance)", dv[i], 2 * (x[i] - mean) / 4,
                1e-12);
  return check_report();
}
