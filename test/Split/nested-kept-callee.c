// Issue 17 item 1: a derivative whose split keeps the tapes of a callee
// that stays a call (noinline), differentiated again. The callee tapes are
// linked into one list per call site and released by a direct call (no
// function address in memory), so forward over reverse and reverse over
// reverse go through them:
//   - dg: one-shot reverse of g, whose call to k stays a call; k's split
//     keeps the tapes of its two calls to h;
//   - ds: __enzyme_augmentfwd and __enzyme_reverse of s, whose split keeps
//     the tapes of its calls to h (one per loop iteration).
// Expected values: analytic second derivatives (h(x) = x sin x), and the
// first derivatives against central finite differences of the primal.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"

extern int enzyme_const, enzyme_dup, enzyme_out;
typedef struct {
  void *tape;
  double primal;
} aug_d;
typedef struct {
  double a, b;
} pair_d;
double __enzyme_autodiff(void *, ...);
pair_d __enzyme_autodiff_2(void *, ...);
double __enzyme_fwddiff(void *, ...);
aug_d __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);

#define TOL 1e-10

__attribute__((noinline)) double h(double x) { return sin(x) * x; }

__attribute__((noinline)) double k(double x, double y) {
  return h(x) * y + h(x * y);
}

double g(double x, double y) { return k(x, y) * x; }

/* dg/dx by one-shot reverse mode. */
double dg(double x, double y) {
  return __enzyme_autodiff((void *)g, x, enzyme_const, y);
}

/* s = sum_{j<3} h(x + j y) x, split. */
double s(double x, double y) {
  double t = 0;
  for (int j = 0; j < 3; j++)
    t += h(x + j * y) * x;
  return t;
}

/* ds/dx through the split halves. */
double ds(double x, double y) {
  aug_d r = __enzyme_augmentfwd((void *)s, enzyme_out, x, enzyme_const, y);
  return __enzyme_reverse((void *)s, enzyme_out, x, enzyme_const, y, 1.0,
                          r.tape);
}

static double H0(double x) { return x * sin(x); }
static double H1(double x) { return sin(x) + x * cos(x); }
static double H2(double x) { return 2 * cos(x) - x * sin(x); }

int main(void) {
  const double x = 0.7, y = -1.3, e = 1e-5;

  /* g = k x, k = h(x) y + h(x y). */
  double kv = H0(x) * y + H0(x * y);
  double kx = H1(x) * y + H1(x * y) * y;
  double ky = H0(x) + H1(x * y) * x;
  double kxx = H2(x) * y + H2(x * y) * y * y;
  double kxy = H1(x) + H1(x * y) + H2(x * y) * x * y;
  double gx = kx * x + kv, gxx = kxx * x + 2 * kx, gxy = kxy * x + ky;
  check_close("dg = dg/dx", dg(x, y), gx, TOL);
  check_close("dg against finite differences", dg(x, y),
              (g(x + e, y) - g(x - e, y)) / (2 * e), 1e-7);
  check_close("forward over reverse: d2g/dx2",
              __enzyme_fwddiff((void *)dg, x, 1.0, enzyme_const, y), gxx,
              TOL);
  pair_d rr = __enzyme_autodiff_2((void *)dg, x, y);
  check_close("reverse over reverse: d2g/dx2", rr.a, gxx, TOL);
  check_close("reverse over reverse: d2g/dxdy", rr.b, gxy, TOL);

  /* s = x sum_j h(x + j y). */
  double sx = 0, sxx = 0, sxy = 0;
  for (int j = 0; j < 3; j++) {
    double u = x + j * y;
    sx += H0(u) + H1(u) * x;
    sxx += 2 * H1(u) + H2(u) * x;
    sxy += j * H1(u) + j * H2(u) * x;
  }
  check_close("ds = ds/dx", ds(x, y), sx, TOL);
  check_close("ds against finite differences", ds(x, y),
              (s(x + e, y) - s(x - e, y)) / (2 * e), 1e-7);
  check_close("forward over split: d2s/dx2",
              __enzyme_fwddiff((void *)ds, x, 1.0, enzyme_const, y), sxx, TOL);
  pair_d sr = __enzyme_autodiff_2((void *)ds, x, y);
  check_close("reverse over split: d2s/dx2", sr.a, sxx, TOL);
  check_close("reverse over split: d2s/dxdy", sr.b, sxy, TOL);
  return check_report();
}
