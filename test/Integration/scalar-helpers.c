// A differentiated function that calls helper functions (static, static
// inline, external, noinline, a helper calling a helper, a helper called
// twice, a helper writing results through pointers, one returning a small
// struct, a float helper), in reverse and forward mode, against analytic
// derivatives. (Recursive helpers: scalar-helpers-recursive.c.)
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_out, enzyme_dup, enzyme_const, enzyme_primal_return;
typedef struct {
  double d0, d1;
} D2;
typedef struct {
  double d0, d1, d2;
} D3;
double __enzyme_autodiff(void *, ...);
D2 __enzyme_autodiff_2(void *, ...);
D3 __enzyme_autodiff_3(void *, ...);
double __enzyme_fwddiff(void *, ...);
D2 __enzyme_fwddiff_p(void *, ...);

static double opaque(double x) {
  volatile double v = x;
  return v;
}

#define TOL 1e-12

/* ---- Helpers ------------------------------------------------------------- */

static double sq(double x) { return x * x; }
static inline double cube(double x) { return x * x * x; }
double ext_scale(double x, double k) { return k * sin(x); } /* external */
__attribute__((noinline)) static double ni_exp(double x) { return exp(x) - x; }
__attribute__((noinline)) double ni_ext(double x, double y) {
  return x / y + log(y);
}
static double outer(double x) { return sq(cube(x)) + ext_scale(x, 2.0); }
static void polar(double r, double t, double *px, double *py) {
  *px = r * cos(t);
  *py = r * sin(t);
}
typedef struct {
  double lo, hi;
} Pair;
static Pair split(double x) {
  Pair p = {x * x, exp(x)};
  return p;
}
static float halfsq(float x) { return 0.5f * x * x; }
static double branchy(double x) {
  if (x < 0)
    return -x * x;
  return sqrt(x);
}

/* ---- Differentiated functions -------------------------------------------- */

/* x^2 + x^3 + 2 sin(x) */
double use_static(double x) { return sq(x) + cube(x) + ext_scale(x, 2.0); }
/* sq(x y) + sq(x - y): one helper called twice with different arguments */
double twice(double x, double y) { return sq(x * y) + sq(x - y); }
/* x^6 + 2 sin(x) via helper-calls-helper; times (e^y - y) (noinline) */
double chain(double x, double y) { return outer(x) * ni_exp(y); }
/* x / y + log(y) through a noinline external helper, with y constant or not */
double call_ni(double x, double y) { return ni_ext(x, y) * x; }
/* out-parameters: x^2 + y^2 of the polar point = r^2, and x*y */
double use_polar(double r, double t) {
  double px, py;
  polar(r, t, &px, &py);
  return px * py + px * px + py * py;
}
/* small struct returned by value */
double use_pair(double x) {
  Pair p = split(x);
  return p.lo * p.hi + p.hi;
}
/* float helper inside a double function */
double use_float(double x) { return (double)halfsq((float)x) * x; }
/* helper with its own branches */
double use_branchy(double x, double y) { return branchy(x) * y + branchy(y); }
/* The differentiated function is itself a helper of another one. */
double uses_diffed(double x, double y) { return use_static(x * y) + y; }

int main(void) {
  double x = opaque(0.7), y = opaque(-1.2);

  {
    double want = 2 * x + 3 * x * x + 2 * cos(x);
    check_close("static/inline/external reverse",
                __enzyme_autodiff((void *)use_static, enzyme_out, x), want,
                TOL);
    check_close("static/inline/external forward",
                __enzyme_fwddiff((void *)use_static, enzyme_dup, x, 1.0), want,
                TOL);
    D2 p = __enzyme_fwddiff_p((void *)use_static, enzyme_primal_return,
                              enzyme_dup, x, 1.0);
    check_close("static/inline/external forward primal", p.d0,
                x * x + x * x * x + 2 * sin(x), TOL);
    check_close("static/inline/external forward tangent", p.d1, want, TOL);
  }
  {
    double wx = 2 * x * y * y + 2 * (x - y), wy = 2 * x * x * y - 2 * (x - y);
    D2 g = __enzyme_autodiff_2((void *)twice, enzyme_out, x, enzyme_out, y);
    check_close("helper twice reverse d/dx", g.d0, wx, TOL);
    check_close("helper twice reverse d/dy", g.d1, wy, TOL);
    check_close(
        "helper twice forward",
        __enzyme_fwddiff((void *)twice, enzyme_dup, x, 1.0, enzyme_dup, y, 2.0),
        wx + 2 * wy, TOL);
  }
  {
    double o = pow(x, 6) + 2 * sin(x), dout = 6 * pow(x, 5) + 2 * cos(x);
    double n = exp(y) - y, dn = exp(y) - 1;
    D2 g = __enzyme_autodiff_2((void *)chain, enzyme_out, x, enzyme_out, y);
    check_close("helper chain reverse d/dx", g.d0, dout * n, TOL);
    check_close("helper chain reverse d/dy", g.d1, o * dn, TOL);
    check_close(
        "helper chain forward d/dy",
        __enzyme_fwddiff((void *)chain, enzyme_const, x, enzyme_dup, y, 1.0),
        o * dn, TOL);
    check_close(
        "helper chain forward d/dx",
        __enzyme_fwddiff((void *)chain, enzyme_dup, x, 1.0, enzyme_const, y),
        dout * n, TOL);
  }
  {
    double yy = opaque(2.5);
    /* (x / y + log y) x */
    double wx = 2 * x / yy + log(yy), wy = -x * x / (yy * yy) + x / yy;
    D2 g = __enzyme_autodiff_2((void *)call_ni, enzyme_out, x, enzyme_out, yy);
    check_close("noinline external reverse d/dx", g.d0, wx, TOL);
    check_close("noinline external reverse d/dy", g.d1, wy, TOL);
    check_close(
        "noinline external reverse const y",
        __enzyme_autodiff((void *)call_ni, enzyme_out, x, enzyme_const, yy), wx,
        TOL);
    check_close("noinline external forward",
                __enzyme_fwddiff((void *)call_ni, enzyme_dup, x, 1.0,
                                 enzyme_dup, yy, -1.0),
                wx - wy, TOL);
  }
  {
    double r = opaque(1.5), t = opaque(0.4);
    /* r^2 cos t sin t + r^2 */
    double wr = 2 * r * cos(t) * sin(t) + 2 * r,
           wt = r * r * (cos(t) * cos(t) - sin(t) * sin(t));
    D2 g = __enzyme_autodiff_2((void *)use_polar, enzyme_out, r, enzyme_out, t);
    check_close("out-parameter helper reverse d/dr", g.d0, wr, TOL);
    check_close("out-parameter helper reverse d/dt", g.d1, wt, TOL);
    check_close("out-parameter helper forward",
                __enzyme_fwddiff((void *)use_polar, enzyme_dup, r, 0.5,
                                 enzyme_dup, t, 1.0),
                0.5 * wr + wt, TOL);
  }
  {
    /* x^2 e^x + e^x */
    double want = (2 * x + x * x) * exp(x) + exp(x);
    check_close("struct-returning helper reverse",
                __enzyme_autodiff((void *)use_pair, enzyme_out, x), want, TOL);
    check_close("struct-returning helper forward",
                __enzyme_fwddiff((void *)use_pair, enzyme_dup, x, 1.0), want,
                TOL);
  }
  {
    /* 0.5 (float)x^2 x: d = 1.5 x^2 up to float rounding */
    double want = 1.5 * x * x;
    check_close("float helper reverse",
                __enzyme_autodiff((void *)use_float, enzyme_out, x), want,
                1e-6);
    check_close("float helper forward",
                __enzyme_fwddiff((void *)use_float, enzyme_dup, x, 1.0), want,
                1e-6);
  }
  {
    /* x > 0, y < 0: sqrt(x) y - y^2 */
    double wx = 0.5 / sqrt(x) * y, wy = sqrt(x) - 2 * y;
    D2 g =
        __enzyme_autodiff_2((void *)use_branchy, enzyme_out, x, enzyme_out, y);
    check_close("branchy helper reverse d/dx", g.d0, wx, TOL);
    check_close("branchy helper reverse d/dy", g.d1, wy, TOL);
    check_close("branchy helper forward",
                __enzyme_fwddiff((void *)use_branchy, enzyme_dup, x, 1.0,
                                 enzyme_dup, y, 1.0),
                wx + wy, TOL);
    double a = -x, b = -y; /* a < 0, b > 0: -a^2 b + sqrt(b) */
    g = __enzyme_autodiff_2((void *)use_branchy, enzyme_out, a, enzyme_out, b);
    check_close("branchy helper other path d/dx", g.d0, -2 * a * b, TOL);
    check_close("branchy helper other path d/dy", g.d1, -a * a + 0.5 / sqrt(b),
                TOL);
  }
  {
    double u = x * y;
    double du = 2 * u + 3 * u * u + 2 * cos(u);
    D2 g =
        __enzyme_autodiff_2((void *)uses_diffed, enzyme_out, x, enzyme_out, y);
    check_close("differentiated function as helper d/dx", g.d0, du * y, TOL);
    check_close("differentiated function as helper d/dy", g.d1, du * x + 1,
                TOL);
    check_close("differentiated function as helper forward",
                __enzyme_fwddiff((void *)uses_diffed, enzyme_dup, x, 1.0,
                                 enzyme_dup, y, 0.0),
                du * y, TOL);
  }
  return check_report();
}
