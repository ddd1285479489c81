// Loops over scalars in reverse and forward mode: a polynomial by Horner's
// rule, Taylor series, a run-time trip count, a product, a two-value
// recurrence, nested loops, a data-dependent while loop, a do-while, a
// Newton iteration for sqrt run to convergence (the derivative of the fixed
// point), and for loops with break and continue. Expected values are analytic
// (the derivative of the truncated series or of the closed form), plus central
// finite differences where the loop's control flow is data dependent.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O0 -fno-math-errno %s -lm -o %t4 && %t4 | FileCheck %s
// RUN: %clang -O2 -fno-math-errno %s -lm -o %t5 && %t5 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_out, enzyme_dup, enzyme_const, enzyme_primal_return;
typedef struct {
  double d0, d1;
} D2;
double __enzyme_autodiff(void *, ...);
D2 __enzyme_autodiff_2(void *, ...);
double __enzyme_fwddiff(void *, ...);
float __enzyme_autodiff_f(void *, int, float);
float __enzyme_fwddiff_f(void *, int, float, float);

static double opaque(double x) {
  volatile double v = x;
  return v;
}

#define TOL 1e-12
#define FDTOL 1e-6

static char buf[160];
#define LABEL(...) (snprintf(buf, sizeof buf, __VA_ARGS__), buf)

#define CHECK1(f, x0, want, tol)                                               \
  do {                                                                         \
    double x_ = opaque(x0), w_ = (want);                                       \
    check_close(LABEL("%s reverse at %g", #f, (double)(x0)),                   \
                __enzyme_autodiff((void *)f, enzyme_out, x_), w_, tol);        \
    check_close(LABEL("%s forward at %g", #f, (double)(x0)),                   \
                __enzyme_fwddiff((void *)f, enzyme_dup, x_, 1.0), w_, tol);    \
  } while (0)

#define CHECKN(f, x0, n, want, tol)                                            \
  do {                                                                         \
    double x_ = opaque(x0), w_ = (want);                                       \
    check_close(LABEL("%s reverse at %g, n=%d", #f, (double)(x0), n),          \
                __enzyme_autodiff((void *)f, enzyme_out, x_, enzyme_const, n), \
                w_, tol);                                                      \
    check_close(                                                               \
        LABEL("%s forward at %g, n=%d", #f, (double)(x0), n),                  \
        __enzyme_fwddiff((void *)f, enzyme_dup, x_, 1.0, enzyme_const, n), w_, \
        tol);                                                                  \
  } while (0)

#define CHECK2(f, x0, y0, wx, wy, tol)                                         \
  do {                                                                         \
    double x_ = opaque(x0), y_ = opaque(y0), wx_ = (wx), wy_ = (wy);           \
    D2 g_ = __enzyme_autodiff_2((void *)f, enzyme_out, x_, enzyme_out, y_);    \
    check_close(LABEL("%s reverse d/dx at (%g, %g)", #f, x0, y0), g_.d0, wx_,  \
                tol);                                                          \
    check_close(LABEL("%s reverse d/dy at (%g, %g)", #f, x0, y0), g_.d1, wy_,  \
                tol);                                                          \
    check_close(                                                               \
        LABEL("%s forward d/dx at (%g, %g)", #f, x0, y0),                      \
        __enzyme_fwddiff((void *)f, enzyme_dup, x_, 1.0, enzyme_dup, y_, 0.0), \
        wx_, tol);                                                             \
    check_close(                                                               \
        LABEL("%s forward d/dy at (%g, %g)", #f, x0, y0),                      \
        __enzyme_fwddiff((void *)f, enzyme_dup, x_, 0.0, enzyme_dup, y_, 1.0), \
        wy_, tol);                                                             \
  } while (0)

/* ---- Fixed-size loops ---------------------------------------------------- */

static const double coef[6] = {1.5, -2.0, 0.25, 3.0, -0.5, 0.125};
/* p(x) = sum c_i x^i by Horner. */
double horner(double x) {
  double p = 0.0;
  for (int i = 5; i >= 0; i--)
    p = p * x + coef[i];
  return p;
}
static double horner_d(double x) {
  double d = 0.0;
  for (int i = 1; i <= 5; i++)
    d += i * coef[i] * pow(x, i - 1);
  return d;
}

/* exp(x) by its Taylor series to degree 12: sum_{k<=12} x^k / k!. Its
 * derivative is the same series to degree 11. */
double taylor_exp(double x) {
  double term = 1.0, sum = 1.0;
  for (int k = 1; k <= 12; k++) {
    term *= x / k;
    sum += term;
  }
  return sum;
}
static double taylor_exp_d(double x) {
  double term = 1.0, sum = 1.0;
  for (int k = 1; k <= 11; k++) {
    term = term * x / k;
    sum += term;
  }
  return sum;
}

/* sin(x) by its Taylor series, 8 terms: sum (-1)^k x^(2k+1) / (2k+1)!. The
 * derivative is sum (-1)^k x^(2k) / (2k)!, i.e. the cos series. */
double taylor_sin(double x) {
  double term = x, sum = x;
  for (int k = 1; k < 8; k++) {
    term *= -x * x / ((2 * k) * (2 * k + 1));
    sum += term;
  }
  return sum;
}
static double taylor_sin_d(double x) {
  double term = 1.0, sum = 1.0;
  for (int k = 1; k < 8; k++) {
    term = -term * x * x / ((2 * k - 1) * (2 * k));
    sum += term;
  }
  return sum;
}

/* x^n by repeated multiplication, run-time trip count. */
double power_loop(double x, int n) {
  double r = 1.0;
  for (int i = 0; i < n; i++)
    r *= x;
  return r;
}

/* prod_{k=1..6} (x + k y): d/dx = P sum 1/(x+ky), d/dy = P sum k/(x+ky). */
double product(double x, double y) {
  double p = 1.0;
  for (int k = 1; k <= 6; k++)
    p *= x + k * y;
  return p;
}
static D2 product_d(double x, double y) {
  double p = product(x, y), sx = 0, sy = 0;
  for (int k = 1; k <= 6; k++) {
    sx += 1.0 / (x + k * y);
    sy += k / (x + k * y);
  }
  return (D2){p * sx, p * sy};
}

/* a, b <- b, a + x b: a linear recurrence; b_n is a polynomial in x. With
 * a0 = 0, b0 = 1: b1 = x, b2 = x^2 + 1, b3 = x^3 + 2x, b4 = x^4 + 3x^2 + 1,
 * b5 = x^5 + 4x^3 + 3x. */
double recurrence(double x) {
  double a = 0.0, b = 1.0;
  for (int i = 0; i < 5; i++) {
    double t = a + x * b;
    a = b;
    b = t;
  }
  return b;
}

/* sum_{i<4} sum_{j<3} x^i y^j / (i + j + 1) */
double nested(double x, double y) {
  double s = 0.0, xi = 1.0;
  for (int i = 0; i < 4; i++) {
    double yj = 1.0;
    for (int j = 0; j < 3; j++) {
      s += xi * yj / (i + j + 1);
      yj *= y;
    }
    xi *= x;
  }
  return s;
}
static D2 nested_d(double x, double y) {
  D2 d = {0, 0};
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 3; j++) {
      if (i)
        d.d0 += i * pow(x, i - 1) * pow(y, j) / (i + j + 1);
      if (j)
        d.d1 += j * pow(x, i) * pow(y, j - 1) / (i + j + 1);
    }
  return d;
}

/* float loop: sum_{k=1..5} sinf(k x) / k, derivative sum cos(k x). */
float float_loop(float x) {
  float s = 0.0f;
  for (int k = 1; k <= 5; k++)
    s += sinf(k * x) / k;
  return s;
}

/* ---- Data-dependent loops ------------------------------------------------ */

/* Newton's method for sqrt(a), iterated until the step no longer changes y.
 * The result is the fixed point sqrt(a): d/da = 0.5 / sqrt(a), and it does
 * not depend on the starting guess y0. */
double newton_sqrt(double a, double y0) {
  double y = y0, prev;
  int it = 0;
  do {
    prev = y;
    y = 0.5 * (y + a / y);
  } while (fabs(y - prev) > 1e-15 * fabs(y) && ++it < 100);
  return y;
}
/* Same with a while loop on the residual. */
double newton_sqrt_while(double a) {
  double y = a > 1.0 ? a : 1.0;
  int it = 0;
  while (it < 100) {
    double next = 0.5 * (y + a / y);
    if (next == y)
      break;
    if (fabs(next - y) <= 4e-16 * next) {
      y = 0.5 * (next + a / next); /* one more step, then stop */
      break;
    }
    y = next;
    it++;
  }
  return y;
}

/* Doubles x until it exceeds 100: returns x 2^k with k data dependent. */
double double_until(double x) {
  double r = x;
  while (r < 100.0)
    r *= 2.0;
  return r;
}
static double double_until_d(double x) {
  double r = x, d = 1.0;
  while (r < 100.0)
    r *= 2.0, d *= 2.0;
  return d;
}

/* do-while: halves until below 1 and adds each value: x (1 + 1/2 + ...). */
double halve_sum(double x) {
  double s = 0.0, r = x;
  do {
    s += r;
    r *= 0.5;
  } while (r >= 1.0);
  return s;
}
static double halve_sum_d(double x) {
  double s = 0.0, r = x, w = 1.0;
  do {
    s += w;
    r *= 0.5;
    w *= 0.5;
  } while (r >= 1.0);
  return s;
}

/* for with continue and break: skip multiples of 3, stop once the partial
 * sum exceeds a bound. */
double break_continue(double x) {
  double s = 0.0;
  for (int i = 1; i < 40; i++) {
    if (i % 3 == 0)
      continue;
    s += sin(i * x) + x / i;
    if (s > 2.5)
      break;
  }
  return s;
}
static double break_continue_d(double x) {
  double s = 0.0, d = 0.0;
  for (int i = 1; i < 40; i++) {
    if (i % 3 == 0)
      continue;
    s += sin(i * x) + x / i;
    d += i * cos(i * x) + 1.0 / i;
    if (s > 2.5)
      break;
  }
  return d;
}
/* break out of a loop from the middle, with work after the loop. */
double search(double x, double y) {
  double acc = y;
  int i;
  for (i = 0; i < 20; i++) {
    acc = acc * x + 1.0;
    if (acc > 50.0)
      break;
  }
  return acc * y + i;
}

/* Newton for cbrt(x) with a fixed 30 iterations from y = x: the derivative of
 * the fixed point is 1 / (3 cbrt(x)^2). */
double newton_cbrt(double x) {
  double y = x;
  for (int i = 0; i < 30; i++)
    y = y - (y * y * y - x) / (3 * y * y);
  return y;
}

/* Nested loops, a break in the inner loop and a return from the outer. */
double nested_exit(double x) {
  double s = 0;
  for (int i = 0; i < 10; i++) {
    if (s > 3)
      return s * x;
    for (int j = 0; j < i; j++) {
      s += sin(x * j) * 0.1;
      if (s < -1)
        break;
    }
  }
  return s + x;
}

/* A while loop (data-dependent trip count) around a counted loop. */
double while_for(double x) {
  double s = x;
  int n = 0;
  while (s < 50) {
    double t = s;
    for (int k = 0; k < 3; k++)
      t = sqrt(t + k);
    s = s * 1.5 + t;
    n++;
  }
  return s / n;
}

/* A switch inside a loop, with continue and fmax. */
double loop_switch(double x) {
  double s = 0;
  for (int i = 0; i < 8; i++) {
    switch (i % 4) {
    case 0:
      s += x * i;
      break;
    case 1:
      s *= cos(x);
      break;
    case 2:
      continue;
    default:
      s = fmax(s, x * x);
    }
    s += 0.01 * exp(s * 0.1);
  }
  return s;
}

int main(void) {
  CHECK1(horner, 0.7, horner_d(0.7), TOL);
  CHECK1(horner, -1.9, horner_d(-1.9), TOL);
  CHECK1(taylor_exp, 0.5, taylor_exp_d(0.5), TOL);
  CHECK1(taylor_exp, -1.3, taylor_exp_d(-1.3), TOL);
  /* Truncation error of the degree-11 series at 0.5 is far below 1e-12. */
  CHECK1(taylor_exp, 0.5, exp(0.5), TOL);
  CHECK1(taylor_sin, 0.9, taylor_sin_d(0.9), TOL);
  CHECK1(taylor_sin, 0.9, cos(0.9), TOL);
  CHECK1(taylor_sin, -2.2, taylor_sin_d(-2.2), TOL);
  CHECKN(power_loop, 1.3, 0, 0.0, TOL);
  CHECKN(power_loop, 1.3, 1, 1.0, TOL);
  CHECKN(power_loop, 1.3, 5, 5 * pow(1.3, 4), TOL);
  CHECKN(power_loop, -0.8, 7, 7 * pow(-0.8, 6), TOL);
  {
    D2 d = product_d(0.4, 0.3);
    CHECK2(product, 0.4, 0.3, d.d0, d.d1, TOL);
    d = product_d(-2.5, 1.1);
    CHECK2(product, -2.5, 1.1, d.d0, d.d1, TOL);
  }
  {
    double x = 1.2;
    CHECK1(recurrence, x, 5 * pow(x, 4) + 12 * x * x + 3, TOL);
    x = -0.6;
    CHECK1(recurrence, x, 5 * pow(x, 4) + 12 * x * x + 3, TOL);
  }
  {
    D2 d = nested_d(0.8, -1.5);
    CHECK2(nested, 0.8, -1.5, d.d0, d.d1, TOL);
  }
  {
    float x = (float)opaque(0.6);
    double want = 0;
    for (int k = 1; k <= 5; k++)
      want += cos(k * (double)x);
    check_close("float loop reverse",
                __enzyme_autodiff_f((void *)float_loop, enzyme_out, x), want,
                1e-5);
    check_close("float loop forward",
                __enzyme_fwddiff_f((void *)float_loop, enzyme_dup, x, 1.0f),
                want, 1e-5);
  }

  /* Newton for sqrt: d/da = 0.5/sqrt(a), d/dy0 = 0. */
  {
    double as[] = {2.0, 0.03, 150.0};
    for (int i = 0; i < 3; i++) {
      double a = opaque(as[i]), y0 = opaque(1.0);
      D2 g = __enzyme_autodiff_2((void *)newton_sqrt, enzyme_out, a, enzyme_out,
                                 y0);
      check_close(LABEL("newton sqrt reverse d/da at %g", as[i]), g.d0,
                  0.5 / sqrt(as[i]), TOL);
      check_close(LABEL("newton sqrt reverse d/dy0 at %g", as[i]), g.d1, 0.0,
                  TOL);
      check_close(LABEL("newton sqrt reverse, const y0, at %g", as[i]),
                  __enzyme_autodiff((void *)newton_sqrt, enzyme_out, a,
                                    enzyme_const, y0),
                  0.5 / sqrt(as[i]), TOL);
      check_close(LABEL("newton sqrt forward d/da at %g", as[i]),
                  __enzyme_fwddiff((void *)newton_sqrt, enzyme_dup, a, 1.0,
                                   enzyme_const, y0),
                  0.5 / sqrt(as[i]), TOL);
      check_close(LABEL("newton sqrt forward d/dy0 at %g", as[i]),
                  __enzyme_fwddiff((void *)newton_sqrt, enzyme_const, a,
                                   enzyme_dup, y0, 1.0),
                  0.0, TOL);
      CHECK1(newton_sqrt_while, as[i], 0.5 / sqrt(as[i]), TOL);
    }
  }

  CHECK1(double_until, 0.3, double_until_d(0.3), TOL);
  CHECK1(double_until, 130.0, 1.0, TOL);
  CHECK1(double_until, 7.0, 16.0, TOL);
  CHECK1(halve_sum, 0.5, 1.0, TOL);
  CHECK1(halve_sum, 9.0, halve_sum_d(9.0), TOL);
  CHECK1(halve_sum, 9.0, 1.0 + 0.5 + 0.25 + 0.125, TOL);

  CHECK1(break_continue, 0.3, break_continue_d(0.3), TOL);
  CHECK1(break_continue, 0.05, break_continue_d(0.05), TOL);
  /* Central differences (the break index does not change within +-h). */
  CHECK1(break_continue, 0.3, CENTRAL_DIFF(break_continue(t_), 0.3, 1e-6),
         FDTOL);
  CHECK1(break_continue, 0.05, CENTRAL_DIFF(break_continue(t_), 0.05, 1e-6),
         FDTOL);
  {
    /* x = 1.5, y = 0.7: acc_k = 1.5 acc_{k-1} + 1 until > 50. */
    double x = 1.5, y = 0.7;
    double wx = (search(x + 1e-6, y) - search(x - 1e-6, y)) / 2e-6;
    double wy = (search(x, y + 1e-6) - search(x, y - 1e-6)) / 2e-6;
    CHECK2(search, x, y, wx, wy, FDTOL);
  }
  {
    double xs[] = {0.3, 1.1, 2.7};
    for (int i = 0; i < 3; i++) {
      double x = xs[i];
      CHECK1(newton_cbrt, x, 1.0 / (3.0 * cbrt(x) * cbrt(x)), TOL);
      CHECK1(nested_exit, x, CENTRAL_DIFF(nested_exit(t_), x, 1e-6), FDTOL);
      CHECK1(while_for, x, CENTRAL_DIFF(while_for(t_), x, 1e-6), FDTOL);
      CHECK1(loop_switch, x, CENTRAL_DIFF(loop_switch(t_), x, 1e-6), FDTOL);
    }
  }
  return check_report();
}
