// Calls through function pointers that are compile-time constants, in
// reverse and forward mode at every -O level:
//   - a Simpson-rule integrator integrate(f, a, b, k, n) (not inlined) that
//     calls its callback f(t, k) at every node, reached from a differentiated
//     wrapper that passes a static function; the derivatives with respect to
//     k, a and b are checked against the analytic derivative of the discrete
//     sum (Simpson's weights are fixed, the nodes move with a and b) and
//     against central finite differences;
//   - the same integrator with two different callbacks in one function;
//   - a fixed-count Newton solver taking f and f' as callbacks, whose
//     derivative converges to the implicit-function value 1 / (2 sqrt(p));
//   - callbacks held in a constant global pointer and in a constant table
//     of function pointers (a C "vtable").
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
typedef struct {
  double dk, da, db;
} Grad3;
Grad3 __enzyme_autodiff3(void *, ...);
double __enzyme_fwddiff(void *, ...);

typedef double (*integrand_fn)(double t, double k);

/* Composite Simpson rule over [a, b] with n (even) intervals. */
__attribute__((noinline)) double integrate(integrand_fn f, double a, double b,
                                           double k, int n) {
  double h = (b - a) / n;
  double s = f(a, k) + f(b, k);
  for (int i = 1; i < n; i++)
    s += (i % 2 ? 4.0 : 2.0) * f(a + i * h, k);
  return s * h / 3.0;
}

static double gauss(double t, double k) { return exp(-k * t * t); }
static double gauss_t(double t, double k) { return -2 * k * t * exp(-k * t * t); }
static double gauss_k(double t, double k) { return -t * t * exp(-k * t * t); }

static double wave(double t, double k) { return sin(k * t) * t; }
static double wave_t(double t, double k) {
  return k * cos(k * t) * t + sin(k * t);
}
static double wave_k(double t, double k) { return t * t * cos(k * t); }

#define N 20

double area(double k, double a, double b) {
  return integrate(gauss, a, b, k, N);
}
double two_areas(double k, double a, double b) {
  return integrate(gauss, a, b, k, N) * integrate(wave, a, b, k, N);
}

/* Analytic derivatives of the discrete Simpson sum S = h/3 sum w_i f(t_i),
   t_i = a + i h, h = (b - a)/n. */
static double simpson(integrand_fn f, double a, double b, double k, int n) {
  double h = (b - a) / n, s = 0;
  for (int i = 0; i <= n; i++) {
    double w = (i == 0 || i == n) ? 1.0 : (i % 2 ? 4.0 : 2.0);
    s += w * f(a + i * h, k);
  }
  return s * h / 3;
}
static Grad3 simpson_grad(integrand_fn f, integrand_fn ft, integrand_fn fk,
                          double a, double b, double k, int n) {
  double h = (b - a) / n;
  Grad3 g = {0, 0, 0};
  double sum = 0;
  for (int i = 0; i <= n; i++) {
    double w = (i == 0 || i == n) ? 1.0 : (i % 2 ? 4.0 : 2.0);
    double t = a + i * h;
    sum += w * f(t, k);
    g.dk += w * fk(t, k) * h / 3;
    /* dt_i/da = 1 - i/n, dt_i/db = i/n */
    g.da += w * ft(t, k) * (1.0 - (double)i / n) * h / 3;
    g.db += w * ft(t, k) * ((double)i / n) * h / 3;
  }
  g.da -= sum / (3.0 * n);
  g.db += sum / (3.0 * n);
  return g;
}

/* Newton with callbacks: the root of f(x, p) = 0 from x0 = p, 40 steps. */
__attribute__((noinline)) double newton(integrand_fn f, integrand_fn df,
                                        double p) {
  double x = p;
  for (int i = 0; i < 40; i++)
    x = x - f(x, p) / df(x, p);
  return x;
}
static double sq_res(double x, double p) { return x * x - p; }
static double sq_res_x(double x, double p) {
  (void)p;
  return 2 * x;
}
double my_sqrt(double p) { return newton(sq_res, sq_res_x, p); }

/* Constant global pointer and a constant table of pointers. */
static double cube(double x) { return x * x * x; }
static double twice_sin(double x) { return 2 * sin(x); }
double (*const the_op)(double) = cube;
typedef struct {
  double (*first)(double);
  double (*second)(double);
} Ops;
static const Ops OPS = {cube, twice_sin};

__attribute__((noinline)) double apply(double (*op)(double), double x) {
  return op(x) + x;
}
double via_global(double x) { return the_op(x) * 0.5; }
double via_table(double x) { return OPS.first(x) + OPS.second(x * x); }
double via_param(double x) { return apply(twice_sin, x) * apply(cube, x); }

int main(void) {
  double k = 0.8, a = -0.3, b = 1.1;

  /* area: reverse (three adjoints) and forward, analytic and FD */
  {
    Grad3 want = simpson_grad(gauss, gauss_t, gauss_k, a, b, k, N);
    check_close("simpson helper agrees with integrate",
                simpson(gauss, a, b, k, N), area(k, a, b), 1e-14);
    Grad3 g = __enzyme_autodiff3((void *)area, enzyme_out, k, enzyme_out, a,
                                 enzyme_out, b);
    check_close("reverse area d/dk", g.dk, want.dk, 1e-12);
    check_close("reverse area d/da", g.da, want.da, 1e-12);
    check_close("reverse area d/db", g.db, want.db, 1e-12);
    double h = 1e-6;
    check_close("reverse area d/dk vs FD", g.dk,
                (area(k + h, a, b) - area(k - h, a, b)) / (2 * h), 1e-8);
    check_close("reverse area d/db vs FD", g.db,
                (area(k, a, b + h) - area(k, a, b - h)) / (2 * h), 1e-8);
    check_close("d/db close to the integrand at b", g.db, gauss(b, k), 1e-4);
    check_close("forward area along k",
                __enzyme_fwddiff((void *)area, enzyme_dup, k, 1.0, enzyme_dup,
                                 a, 0.0, enzyme_dup, b, 0.0),
                want.dk, 1e-12);
    check_close("forward area along a",
                __enzyme_fwddiff((void *)area, enzyme_dup, k, 0.0, enzyme_dup,
                                 a, 1.0, enzyme_dup, b, 0.0),
                want.da, 1e-12);
    check_close("forward area along (1, -2, 3)",
                __enzyme_fwddiff((void *)area, enzyme_dup, k, 1.0, enzyme_dup,
                                 a, -2.0, enzyme_dup, b, 3.0),
                want.dk - 2 * want.da + 3 * want.db, 1e-12);
  }

  /* two callbacks in one function: product rule on the two sums */
  {
    Grad3 g1 = simpson_grad(gauss, gauss_t, gauss_k, a, b, k, N);
    Grad3 g2 = simpson_grad(wave, wave_t, wave_k, a, b, k, N);
    double s1 = simpson(gauss, a, b, k, N), s2 = simpson(wave, a, b, k, N);
    Grad3 g = __enzyme_autodiff3((void *)two_areas, enzyme_out, k, enzyme_out,
                                 a, enzyme_out, b);
    check_close("reverse two_areas d/dk", g.dk, g1.dk * s2 + s1 * g2.dk,
                1e-12);
    check_close("reverse two_areas d/da", g.da, g1.da * s2 + s1 * g2.da,
                1e-12);
    check_close("reverse two_areas d/db", g.db, g1.db * s2 + s1 * g2.db,
                1e-12);
    check_close("forward two_areas along b",
                __enzyme_fwddiff((void *)two_areas, enzyme_dup, k, 0.0,
                                 enzyme_dup, a, 0.0, enzyme_dup, b, 1.0),
                g1.db * s2 + s1 * g2.db, 1e-12);
  }

  /* Newton through callbacks */
  {
    double p = 2.5;
    check_close("newton primal", my_sqrt(p), sqrt(p), 1e-14);
    check_close("reverse newton", __enzyme_autodiff((void *)my_sqrt, enzyme_out,
                                                    p),
                0.5 / sqrt(p), 1e-12);
    check_close("forward newton",
                __enzyme_fwddiff((void *)my_sqrt, enzyme_dup, p, 1.0),
                0.5 / sqrt(p), 1e-12);
  }

  /* constant global pointer, table, pointer parameter */
  {
    double x = 0.7;
    check_close("reverse via constant global pointer",
                __enzyme_autodiff((void *)via_global, enzyme_out, x),
                1.5 * x * x, 1e-14);
    check_close("forward via constant global pointer",
                __enzyme_fwddiff((void *)via_global, enzyme_dup, x, 1.0),
                1.5 * x * x, 1e-14);
    double want_t = 3 * x * x + 2 * cos(x * x) * 2 * x;
    check_close("reverse via constant table",
                __enzyme_autodiff((void *)via_table, enzyme_out, x), want_t,
                1e-14);
    check_close("forward via constant table",
                __enzyme_fwddiff((void *)via_table, enzyme_dup, x, 1.0), want_t,
                1e-14);
    /* (2 sin x + x)(x^3 + x) */
    double u = 2 * sin(x) + x, du = 2 * cos(x) + 1, v = x * x * x + x,
           dv = 3 * x * x + 1;
    check_close("reverse via pointer parameter",
                __enzyme_autodiff((void *)via_param, enzyme_out, x),
                du * v + u * dv, 1e-14);
    check_close("forward via pointer parameter",
                __enzyme_fwddiff((void *)via_param, enzyme_dup, x, 1.0),
                du * v + u * dv, 1e-14);
  }
  return check_report();
}
