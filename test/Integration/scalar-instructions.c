// Instructions and control flow in reverse and forward mode, against
// analytic derivatives: + - * /, fmod (frem without errno), unary minus,
// conversions (float <-> double, int -> double of a constant argument, the
// zero derivative of (int)x), the ternary operator (select), if/else, a
// switch on an enzyme_const integer, nested branches and early returns.
// Every branchy function is checked on each of its paths.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O0 -fno-math-errno %s -lm -o %t4 && %t4 | FileCheck %s
// RUN: %clang -O2 -fno-math-errno %s -lm -o %t5 && %t5 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_out, enzyme_dup, enzyme_const;
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

static char buf[160];
#define LABEL(...) (snprintf(buf, sizeof buf, __VA_ARGS__), buf)

/* f(x): reverse and forward (tangent 1 and tangent -0.75), tolerance tol. */
#define CHECK1T(f, x0, want, tol)                                              \
  do {                                                                         \
    double x_ = opaque(x0), w_ = (want);                                       \
    check_close(LABEL("%s reverse at %g", #f, (double)(x0)),                   \
                __enzyme_autodiff((void *)f, enzyme_out, x_), w_, tol);        \
    check_close(LABEL("%s forward at %g", #f, (double)(x0)),                   \
                __enzyme_fwddiff((void *)f, enzyme_dup, x_, 1.0), w_, tol);    \
    check_close(LABEL("%s forward (tangent -0.75) at %g", #f, (double)(x0)),   \
                __enzyme_fwddiff((void *)f, enzyme_dup, x_, -0.75),            \
                -0.75 * w_, tol);                                              \
  } while (0)
#define CHECK1(f, x0, want) CHECK1T(f, x0, want, TOL)

/* f(x, y) with both active: reverse struct, forward per direction. */
#define CHECK2(f, x0, y0, wx, wy)                                              \
  do {                                                                         \
    double x_ = opaque(x0), y_ = opaque(y0), wx_ = (wx), wy_ = (wy);           \
    D2 g_ = __enzyme_autodiff_2((void *)f, enzyme_out, x_, enzyme_out, y_);    \
    check_close(LABEL("%s reverse d/dx at (%g, %g)", #f, x0, y0), g_.d0, wx_,  \
                TOL);                                                          \
    check_close(LABEL("%s reverse d/dy at (%g, %g)", #f, x0, y0), g_.d1, wy_,  \
                TOL);                                                          \
    check_close(                                                               \
        LABEL("%s forward d/dx at (%g, %g)", #f, x0, y0),                      \
        __enzyme_fwddiff((void *)f, enzyme_dup, x_, 1.0, enzyme_dup, y_, 0.0), \
        wx_, TOL);                                                             \
    check_close(                                                               \
        LABEL("%s forward d/dy at (%g, %g)", #f, x0, y0),                      \
        __enzyme_fwddiff((void *)f, enzyme_dup, x_, 0.0, enzyme_dup, y_, 1.0), \
        wy_, TOL);                                                             \
  } while (0)

/* f(x, n) with n an enzyme_const integer. */
#define CHECKN(f, x0, n, want)                                                 \
  do {                                                                         \
    double x_ = opaque(x0), w_ = (want);                                       \
    check_close(LABEL("%s reverse at %g, n=%d", #f, (double)(x0), n),          \
                __enzyme_autodiff((void *)f, enzyme_out, x_, enzyme_const, n), \
                w_, TOL);                                                      \
    check_close(                                                               \
        LABEL("%s forward at %g, n=%d", #f, (double)(x0), n),                  \
        __enzyme_fwddiff((void *)f, enzyme_dup, x_, 1.0, enzyme_const, n), w_, \
        TOL);                                                                  \
  } while (0)

/* ---- Arithmetic ---------------------------------------------------------- */

/* (x + y)(x - y) / (x y + 2) */
double arith(double x, double y) { return (x + y) * (x - y) / (x * y + 2.0); }
static D2 arith_d(double x, double y) {
  double n = x * x - y * y, d = x * y + 2.0;
  D2 r = {(2 * x * d - n * y) / (d * d), (-2 * y * d - n * x) / (d * d)};
  return r;
}
/* Division by the active argument and a reciprocal. */
double recip(double x) { return 1.0 / x - 3.0 / (x * x); }
/* Subtraction order and repeated use of one value. */
double subs(double x, double y) { return (y - x) - (x - y) * x - y * y * y; }
/* fmod(x^2, y) = x^2 - trunc(x^2 / y) y. */
double fmodc(double x, double y) { return fmod(x * x, y) + 0.5 * x; }
/* Unary minus, also of a subexpression and twice. */
double neg(double x) { return -x * sin(-x) + -(-x); }
double neg2(double x, double y) { return -(x * y) - -y; }

/* ---- Conversions --------------------------------------------------------- */

/* float round trip in the middle: d = 2 (float)x + 1, exactly as computed in
 * float then widened. */
double via_float(double x) {
  float t = (float)x;
  return (double)(t * t) + x;
}
/* float function computing in double internally. */
float via_double(float x) {
  double t = x;
  return (float)(t * t * t);
}
/* int -> double of a constant argument. */
double int_to_fp(double x, int n) { return x * (double)n + (double)(n * n); }
/* (int)x has zero derivative: floor-like staircase times x. */
double trunc_int(double x) {
  int k = (int)x;
  return k * x + (double)k;
}
double trunc_only(double x) { return (double)(int)(3.0 * x); }
/* long double in between. */
double via_long(double x) {
  long double t = x;
  return (double)(t * t * 0.5L);
}

/* ---- Select, branches, switch -------------------------------------------- */

double ternary(double x) { return x > 0 ? x * x : -x * x * x; }
/* Select between two active arguments. */
double pick(double x, double y) { return x < y ? x * y : x + y * y; }

double ifelse(double x) {
  double r;
  if (x < 1.0)
    r = sin(x);
  else
    r = exp(x) - x;
  return r * 2.0;
}

double sw(double x, int n) {
  double r = 0.0;
  switch (n) {
  case 0:
    r = sin(x);
    break;
  case 1:
    r = x * x;
    break;
  case 2:
    r = exp(x) / x;
    break;
  case 7:
    r = log(x) * x;
    /* fall through */
  case 8:
    r += 3.0 * x;
    break;
  default:
    r = -x;
  }
  return r + 1.0;
}
static double sw_d(double x, int n) {
  switch (n) {
  case 0:
    return cos(x);
  case 1:
    return 2 * x;
  case 2:
    return exp(x) / x - exp(x) / (x * x);
  case 7:
    return log(x) + 1 + 3.0;
  case 8:
    return 3.0;
  default:
    return -1.0;
  }
}

double nested(double x, double y) {
  double r;
  if (x > 0) {
    if (y > 0)
      r = x * y;
    else
      r = x - y * y;
  } else {
    if (y > x)
      r = sin(x) * y;
    else
      r = cos(y) + x;
  }
  return r * x;
}
static D2 nested_d(double x, double y) {
  D2 d;
  if (x > 0) {
    if (y > 0)
      d = (D2){2 * x * y, x * x}; /* x^2 y */
    else
      d = (D2){2 * x - y * y, -2 * x * y}; /* x^2 - x y^2 */
  } else {
    if (y > x)
      d = (D2){(cos(x) * x + sin(x)) * y, sin(x) * x}; /* x sin(x) y */
    else
      d = (D2){cos(y) + 2 * x, -sin(y) * x}; /* x cos(y) + x^2 */
  }
  return d;
}

double early(double x, double y) {
  if (x < -1.0)
    return x * y;
  double t = x * x;
  if (t > 4.0)
    return t - y;
  if (y < 0.0) {
    double u = exp(y);
    if (u < 0.5)
      return u * x;
    return u + t;
  }
  return t * y * y;
}
static D2 early_d(double x, double y) {
  if (x < -1.0)
    return (D2){y, x};
  if (x * x > 4.0)
    return (D2){2 * x, -1.0};
  if (y < 0.0) {
    if (exp(y) < 0.5)
      return (D2){exp(y), exp(y) * x};
    return (D2){2 * x, exp(y)};
  }
  return (D2){2 * x * y * y, 2 * x * x * y};
}

/* A switch on an integer computed from the active argument: piecewise. */
double sw_active(double x) {
  switch ((int)floor(x)) {
  case 0:
    return x * x;
  case 1:
    return sin(x);
  case 2:
    return 3 * x;
  default:
    return -x;
  }
}
/* unsigned constant argument and an unsigned truncation of x. */
double uns(double x, unsigned n) { return x * n + (unsigned)(x * 10); }

/* A branch on an enzyme_const argument and one on an active value, with
 * the active argument used again after the merge. */
double after_merge(double x, int n) {
  double r = x;
  if (n > 2)
    r = r * r;
  if (r > 10.0)
    r = 10.0;
  return r + x;
}

int main(void) {
  double x, y;
  D2 d;

  /* Arithmetic. */
  x = 0.7, y = -1.6, d = arith_d(x, y);
  CHECK2(arith, x, y, d.d0, d.d1);
  x = -2.0, y = 0.5, d = arith_d(x, y);
  CHECK2(arith, x, y, d.d0, d.d1);
  CHECK1(recip, 0.8, -1.0 / (0.8 * 0.8) + 6.0 / (0.8 * 0.8 * 0.8));
  CHECK1(recip, -3.0, -1.0 / 9.0 + 6.0 / -27.0);
  x = 1.2, y = 0.3;
  CHECK2(subs, x, y, -1.0 - (2 * x - y), 1.0 + x - 3 * y * y);
  x = 1.7, y = 0.9;
  CHECK2(fmodc, x, y, 2 * x + 0.5, -trunc(x * x / y));
  x = -2.3, y = 1.1;
  CHECK2(fmodc, x, y, 2 * x + 0.5, -trunc(x * x / y));
  /* -x sin(-x) + x = x sin(x) + x */
  CHECK1(neg, 0.6, sin(0.6) + 0.6 * cos(0.6) + 1.0);
  CHECK1(neg, -1.4, sin(-1.4) - 1.4 * cos(-1.4) + 1.0);
  CHECK2(neg2, 0.3, 2.0, -2.0, -0.3 + 1.0);

  /* Conversions. */
  /* The tangent goes through float arithmetic: float tolerance. */
  CHECK1T(via_float, 1.3, 2.0 * (double)(float)1.3 + 1.0, 1e-6);
  CHECK1T(via_float, -0.2, 2.0 * (double)(float)-0.2 + 1.0, 1e-6);
  {
    float xf = (float)opaque(1.5);
    check_close("via_double reverse",
                __enzyme_autodiff_f((void *)via_double, enzyme_out, xf),
                3 * 1.5 * 1.5, 1e-5);
    check_close("via_double forward",
                __enzyme_fwddiff_f((void *)via_double, enzyme_dup, xf, 1.0f),
                3 * 1.5 * 1.5, 1e-5);
  }
  CHECKN(int_to_fp, 0.4, 3, 3.0);
  CHECKN(int_to_fp, 0.4, -5, -5.0);
  CHECK1(trunc_int, 2.7, 2.0);
  CHECK1(trunc_int, -1.5, -1.0);
  CHECK1(trunc_only, 0.9, 0.0);
  CHECK1(via_long, 1.9, 1.9);

  /* Select. */
  CHECK1(ternary, 1.5, 3.0);
  CHECK1(ternary, -1.5, -3 * 1.5 * 1.5);
  CHECK2(pick, 0.5, 2.0, 2.0, 0.5);
  CHECK2(pick, 3.0, 2.0, 1.0, 4.0);

  /* if/else. */
  CHECK1(ifelse, 0.4, 2 * cos(0.4));
  CHECK1(ifelse, 1.6, 2 * (exp(1.6) - 1.0));

  /* switch on a constant integer, every case. */
  CHECKN(sw, 0.8, 0, sw_d(0.8, 0));
  CHECKN(sw, 0.8, 1, sw_d(0.8, 1));
  CHECKN(sw, 0.8, 2, sw_d(0.8, 2));
  CHECKN(sw, 0.8, 7, sw_d(0.8, 7));
  CHECKN(sw, 0.8, 8, sw_d(0.8, 8));
  CHECKN(sw, 0.8, 5, sw_d(0.8, 5));
  CHECKN(sw, 0.8, -1, sw_d(0.8, -1));

  /* switch on an integer derived from x, every case. */
  CHECK1(sw_active, 0.5, 1.0);
  CHECK1(sw_active, 1.5, cos(1.5));
  CHECK1(sw_active, 2.5, 3.0);
  CHECK1(sw_active, 3.5, -1.0);
  CHECK1(sw_active, -0.5, -1.0);
  {
    double xu = opaque(0.55);
    check_close(
        "unsigned reverse",
        __enzyme_autodiff((void *)uns, enzyme_out, xu, enzyme_const, 7u), 7.0,
        TOL);
    check_close(
        "unsigned forward",
        __enzyme_fwddiff((void *)uns, enzyme_dup, xu, 1.0, enzyme_const, 7u),
        7.0, TOL);
  }

  /* Nested branches: all four paths. */
  d = nested_d(1.5, 0.5);
  CHECK2(nested, 1.5, 0.5, d.d0, d.d1);
  d = nested_d(1.5, -0.5);
  CHECK2(nested, 1.5, -0.5, d.d0, d.d1);
  d = nested_d(-0.5, 1.2);
  CHECK2(nested, -0.5, 1.2, d.d0, d.d1);
  d = nested_d(-0.5, -2.0);
  CHECK2(nested, -0.5, -2.0, d.d0, d.d1);

  /* Early returns: all five exits. */
  d = early_d(-2.0, 0.7);
  CHECK2(early, -2.0, 0.7, d.d0, d.d1);
  d = early_d(2.5, 0.7);
  CHECK2(early, 2.5, 0.7, d.d0, d.d1);
  d = early_d(0.6, -1.5);
  CHECK2(early, 0.6, -1.5, d.d0, d.d1);
  d = early_d(0.6, -0.2);
  CHECK2(early, 0.6, -0.2, d.d0, d.d1);
  d = early_d(0.6, 0.4);
  CHECK2(early, 0.6, 0.4, d.d0, d.d1);

  /* Branch on a constant, then on an active value. */
  CHECKN(after_merge, 2.0, 1, 2.0);
  CHECKN(after_merge, 2.0, 3, 2 * 2.0 + 1.0);
  CHECKN(after_merge, 5.0, 3, 1.0);
  return check_report();
}
