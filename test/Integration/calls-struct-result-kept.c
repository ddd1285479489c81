// A struct returned by value from a call that stays a call (recursion)
// carries its derivative: {double, double} (two doubles in registers),
// {double, int} and {int, double} (a double beside an integer that carries
// none), {double, long}, and through mutual recursion. Until Dec 2026 such a
// call's derivative returned nothing for the struct and the derivative
// through it was silently zero (found by fuzz seed 2248: a {double, int}
// result frozen at -O3). Reverse, forward, batch forward (width 2) and split
// mode at -O0..-O3, against analytic derivatives: with h^(n) doubling the
// first member n times, f(x) = 2^n sin(3x) x + (the other members' terms).
// RUN: %clang -O0 %s -o %t0 -lm && %t0 | FileCheck %s
// RUN: %clang -O1 %s -o %t1 -lm && %t1 | FileCheck %s
// RUN: %clang -O2 %s -o %t2 -lm && %t2 | FileCheck %s
// RUN: %clang -O3 %s -o %t3 -lm && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_out, enzyme_dup, enzyme_width;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
typedef struct {
  double t[2];
} two;
two __enzyme_fwddiff_2(void *, ...);
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

struct DD { double a, b; };
struct DI { double d; int n; };
struct ID { int n; double d; };
struct DL { double d; long n; };

static struct DD hdd(double x, int n) {
  if (n > 0) {
    struct DD r = hdd(x, n - 1);
    r.a *= 2;
    r.b += x;
    return r;
  }
  return (struct DD){sin(x), x * x};
}
static struct DI hdi(double x, int n) {
  if (n > 0) {
    struct DI r = hdi(x, n - 1);
    r.d *= 2;
    r.n += 3;
    return r;
  }
  return (struct DI){sin(x), 1};
}
static struct ID hid(double x, int n) {
  if (n > 0) {
    struct ID r = hid(x, n - 1);
    r.d *= 2;
    r.n -= 1;
    return r;
  }
  return (struct ID){5, sin(x)};
}
static struct DL hdl(double x, long n) {
  if (n > 0) {
    struct DL r = hdl(x, n - 1);
    r.d *= 2;
    r.n *= 2;
    return r;
  }
  return (struct DL){sin(x), 1};
}
// Mutual recursion: even/odd halves, each doubling d.
static struct DI odd(double x, int n);
static struct DI even(double x, int n) {
  if (n == 0)
    return (struct DI){sin(x), 0};
  struct DI r = odd(x, n - 1);
  r.d *= 2;
  r.n += 1;
  return r;
}
static struct DI odd(double x, int n) {
  struct DI r = even(x, n - 1);
  r.d *= 2;
  r.n += 1;
  return r;
}

// The integer members decide nothing here, but they are used (a sum the
// optimiser must keep) so the struct stays whole.
double fdd(double x) {
  struct DD r = hdd(3 * x, 2);
  return r.a * x + r.b;
}
double fdi(double x) {
  struct DI r = hdi(3 * x, 2);
  return r.d * x + (r.n == 7 ? 0.0 : 1e9);
}
double fid(double x) {
  struct ID r = hid(3 * x, 2);
  return r.d * x + (r.n == 3 ? 0.0 : 1e9);
}
double fdl(double x) {
  struct DL r = hdl(3 * x, 2);
  return r.d * x + (r.n == 4 ? 0.0 : 1e9);
}
double fmut(double x) {
  struct DI r = even(3 * x, 4);
  return r.d * x + (r.n == 4 ? 0.0 : 1e9);
}
void fsplit(const double *x, double *out) {
  struct DI r = hdi(3 * x[0], 2);
  *out = r.d * x[0];
}

// d/dx [2^n sin(3x) x] = 2^n (3 cos(3x) x + sin(3x))
static double dscaled(double x, int n) {
  return ldexp(3 * cos(3 * x) * x + sin(3 * x), n);
}

int main(void) {
  double x = 0.7;
  // fdd adds b = (3x)^2 + 2 (3x): b' = 18x + 6.
  double want_dd = dscaled(x, 2) + 18 * x + 6;
  double want = dscaled(x, 2), want_mut = dscaled(x, 4);
  check_close("reverse {double,double}",
              __enzyme_autodiff((void *)fdd, enzyme_out, x), want_dd, 1e-13);
  check_close("reverse {double,int}",
              __enzyme_autodiff((void *)fdi, enzyme_out, x), want, 1e-13);
  check_close("reverse {int,double}",
              __enzyme_autodiff((void *)fid, enzyme_out, x), want, 1e-13);
  check_close("reverse {double,long}",
              __enzyme_autodiff((void *)fdl, enzyme_out, x), want, 1e-13);
  check_close("reverse mutual recursion",
              __enzyme_autodiff((void *)fmut, enzyme_out, x), want_mut, 1e-13);

  check_close("forward {double,double}",
              __enzyme_fwddiff((void *)fdd, x, 1.0), want_dd, 1e-13);
  check_close("forward {double,int}", __enzyme_fwddiff((void *)fdi, x, 1.0),
              want, 1e-13);
  check_close("forward {int,double}", __enzyme_fwddiff((void *)fid, x, 1.0),
              want, 1e-13);
  check_close("forward {double,long}", __enzyme_fwddiff((void *)fdl, x, 1.0),
              want, 1e-13);
  check_close("forward mutual recursion",
              __enzyme_fwddiff((void *)fmut, x, 1.0), want_mut, 1e-13);

  // Two tangent directions at once: 1 and -2.
  two b = __enzyme_fwddiff_2((void *)fdi, enzyme_width, 2, enzyme_dup, x,
                             1.0, -2.0);
  check_close("batch forward {double,int} lane 0", b.t[0], want, 1e-13);
  check_close("batch forward {double,int} lane 1", b.t[1], -2 * want, 1e-13);
  b = __enzyme_fwddiff_2((void *)fdd, enzyme_width, 2, enzyme_dup, x, 1.0,
                         -2.0);
  check_close("batch forward {double,double} lane 0", b.t[0], want_dd, 1e-13);
  check_close("batch forward {double,double} lane 1", b.t[1], -2 * want_dd,
              1e-13);

  double xs[1] = {x}, dxs[1] = {0}, out = 0, dout = 0;
  void *tape = __enzyme_augmentfwd((void *)fsplit, enzyme_dup, xs, dxs,
                                   enzyme_dup, &out, &dout);
  check_close("split primal", out, fdi(x), 1e-15);
  dout = 1.0;
  __enzyme_reverse((void *)fsplit, enzyme_dup, xs, dxs, enzyme_dup, &out,
                   &dout, tape);
  check_close("split {double,int}", dxs[0], want, 1e-13);

  check_close("finite difference agrees {double,int}",
              CENTRAL_DIFF(fdi(t_), x, 1e-6), want, 1e-7);
  return check_report();
}
