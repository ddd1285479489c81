// __enzyme_error_estimate(f, x, err_x, ...): Enzyme's forward error mode.
// Each floating-point operation v = op(a_1, ..., a_n) of f gets the estimate
//
//   err(v) = max(ulp(v), sum_i |err(a_i) * a_i / v * d op / d a_i|)
//
// with ulp(v) the spacing of the doubles at v (the distance to the number
// whose last bit differs), and no ulp term for operations whose result is
// exact (negation, fabs, fmax, ...). Moves (loads, stores, phis) keep the
// error. The expected values are this model evaluated operation by operation
// in this file, with ulp computed from ilogb, never the program's output;
// Enzyme's own numbers (its ForwardError tests) are checked too.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <float.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_error_estimate(void *, ...);
float __enzyme_error_estimate_f(void *, ...);
void __enzyme_error_estimate_v(void *, ...);

/* The spacing of doubles (floats) at v, from its binary exponent. */
static double ulp(double v) {
  if (v == 0 || fabs(v) < DBL_MIN)
    return 0x1p-1074;
  return ldexp(1.0, ilogb(v) - 52);
}
static float ulpf(float v) {
  if (v == 0 || fabsf(v) < FLT_MIN)
    return 0x1p-149f;
  return ldexpf(1.0f, ilogbf(v) - 23);
}

/* |got - want| <= rtol * want, with want > 0: errors are tiny, so the
 * tolerance must be relative. */
static void check_rel(const char *what, double got, double want,
                      double rtol) {
  int ok = want > 0 && fabs(got - want) <= rtol * want;
  if (!ok)
    check_failures++;
  printf("%s %s: got %.17g want %.17g\n", ok ? "PASS" : "FAIL", what, got,
         want);
}

/* Inputs the optimiser cannot fold. */
static volatile double in[8] = {1e-7, 99.0, 127.0, 0.7, -1.3, 2.0, 0.3, 1.0};

/* Enzyme's example (from https://dl.acm.org/doi/10.1145/3371128). */
double cancel(double x) {
  double v1 = cos(x);
  double v2 = 1 - v1;
  double v3 = x * x;
  double v4 = v2 / v3;
  return v4;
}

double just_cos(double x) { return cos(x); }

double add(double a, double b) { return a + b; }

void add_ptr(double *a, double *b, double *ret) { *ret = *a + *b; }

double mul_sin(double x, double y) {
  double p = x * y;
  double s = sin(x);
  return p + s;
}

double chain(double x, double y) {
  double q = x / y;
  double r = sqrt(q);
  double t = exp(r);
  return pow(t, 1.5);
}

/* Negation, fabs and fmax are exact: no rounding of their own. */
double exact_ops(double x) {
  double a = x - 3.0;
  double b = fabs(a);
  double c = -b;
  double d = fmax(c, -10.0);
  return d * 0.1;
}

float squaref(float x) {
  float y = x * x;
  return y + 1.0f;
}

/* Errors through memory and a loop-carried sum. */
double dot(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double p = a[i] * b[i];
    s += p;
  }
  return s;
}

/* In place: the errors of x are updated through its shadow. */
void scale(double *x, int n, double c) {
  for (int i = 0; i < n; ++i)
    x[i] = x[i] * c;
}

/* Recursive: not inlined, its own error estimate is called. */
double rpow(double x, int n) {
  if (n == 0)
    return 1.0;
  double r = rpow(x, n - 1);
  return x * r;
}

/* Exact from the inputs: no error at all when the inputs have none. */
double negabs_max(double x) { return fmax(-fabs(x), -2.0); }

double constant(double x) {
  (void)x;
  return 2.5;
}

int main(void) {
  {
    double x = in[0], ex = 0.0;
    double v1 = cos(x), v2 = 1 - v1, v3 = x * x, v4 = v2 / v3;
    double e1 = fmax(ulp(v1), fabs(ex * x / v1 * -sin(x)));
    double e2 = fmax(ulp(v2), fabs(e1 * v1 / v2 * -1.0));
    double e3 = fmax(ulp(v3), fabs(ex * x / v3 * x) + fabs(ex * x / v3 * x));
    double e4 = fmax(ulp(v4), fabs(e2 * v2 / v4 * (1 / v3)) +
                                  fabs(e3 * v3 / v4 * -(v4 / v3)));
    double got = __enzyme_error_estimate((void *)cancel, x, ex);
    check_rel("(1-cos x)/x^2 model", got, e4, 1e-12);
    /* Enzyme's test: 2.2222222222e-2 within 1e-4. */
    check_close("(1-cos x)/x^2 Enzyme", got, 2.2222222222e-2, 1e-4);
  }
  {
    double x = in[0];
    double got = __enzyme_error_estimate((void *)just_cos, x, 0.0);
    check_rel("cos model", got, ulp(cos(x)), 0);
    check_rel("cos Enzyme", got, 1.110223e-16, 1e-6);
  }
  {
    double a = in[1], b = in[2], ea = 0.0, eb = 0.0;
    double want = fmax(ulp(a + b), fabs(ea * a / (a + b)) +
                                       fabs(eb * b / (a + b)));
    double got = __enzyme_error_estimate((void *)add, a, ea, b, eb);
    check_rel("a+b model", got, want, 0);
    check_rel("a+b Enzyme", got, 2.84217e-14, 1e-5);
    double ret = 0, eret = 0;
    __enzyme_error_estimate_v((void *)add_ptr, &a, &ea, &b, &eb, &ret, &eret);
    check_rel("a+b through pointers", eret, want, 0);
    check_close("a+b through pointers, value", ret, 226.0, 0);
  }
  {
    double x = in[3], y = in[4], ex = 1e-10, ey = 3e-12;
    double p = x * y, s = sin(x), r = p + s;
    double ep = fmax(ulp(p), fabs(ex * x / p * y) + fabs(ey * y / p * x));
    double es = fmax(ulp(s), fabs(ex * x / s * cos(x)));
    double er = fmax(ulp(r), fabs(ep * p / r * 1.0) + fabs(es * s / r * 1.0));
    double got = __enzyme_error_estimate((void *)mul_sin, x, ex, y, ey);
    check_rel("x*y + sin x", got, er, 1e-12);
    /* Errors are magnitudes: their signs do not matter. */
    got = __enzyme_error_estimate((void *)mul_sin, x, -ex, y, -ey);
    check_rel("x*y + sin x, negative input errors", got, er, 1e-12);
  }
  {
    double x = in[5], y = in[6], ex = 1e-13, ey = 0.0;
    double q = x / y, r = sqrt(q), t = exp(r), w = pow(t, 1.5);
    double eq = fmax(ulp(q), fabs(ex * x / q * (1 / y)) +
                                 fabs(ey * y / q * -(q / y)));
    double er = fmax(ulp(r), fabs(eq * q / r * (0.5 / r)));
    double et = fmax(ulp(t), fabs(er * r / t * t));
    double ew = fmax(ulp(w), fabs(et * t / w * (1.5 * pow(t, 0.5))));
    double got = __enzyme_error_estimate((void *)chain, x, ex, y, ey);
    check_rel("pow(exp(sqrt(x/y)), 1.5)", got, ew, 1e-12);
  }
  {
    double x = in[7], ex = 1e-9;
    double a = x - 3.0, b = fabs(a), c = -b, d = fmax(c, -10.0), e = d * 0.1;
    double ea = fmax(ulp(a), fabs(ex * x / a * 1.0));
    double eb = fabs(ea * a / b * (a < 0 ? -1.0 : 1.0)); /* exact */
    double ec = fabs(eb * b / c * -1.0);                 /* exact */
    double ed = fabs(ec * c / d * 1.0);                  /* exact */
    double ee = fmax(ulp(e), fabs(ed * d / e * 0.1));
    double got = __enzyme_error_estimate((void *)exact_ops, x, ex);
    check_rel("exact operations", got, ee, 1e-12);
  }
  {
    float x = (float)in[6], ex = 1e-8f;
    float y = x * x, r = y + 1.0f;
    float ey = fmaxf(ulpf(y), fabsf(ex * x / y * x) + fabsf(ex * x / y * x));
    float er = fmaxf(ulpf(r), fabsf(ey * y / r * 1.0f));
    float got = __enzyme_error_estimate_f((void *)squaref, x, ex);
    check_rel("float x*x + 1", got, er, 1e-6);
  }
  {
    enum { N = 4 };
    double a[N], b[N], ea[N], eb[N];
    for (int i = 0; i < N; ++i) {
      a[i] = in[i + 3] + 0.25 * i;
      b[i] = 1.0 / (i + in[7] + 2.0);
      ea[i] = 1e-12 * (i + 1);
      eb[i] = 2e-13;
    }
    double s = 0, es = 0;
    for (int i = 0; i < N; ++i) {
      double p = a[i] * b[i], t = s + p;
      double ep = fmax(ulp(p), fabs(ea[i] * a[i] / p * b[i]) +
                                   fabs(eb[i] * b[i] / p * a[i]));
      es = fmax(ulp(t), fabs(es * s / t * 1.0) + fabs(ep * p / t * 1.0));
      s = t;
    }
    double got = __enzyme_error_estimate((void *)dot, enzyme_dup, a, ea,
                                         enzyme_dup, b, eb, enzyme_const, N);
    check_rel("dot product", got, es, 1e-12);

    double x[N], exs[N], want[N], c = in[6], ec = 5e-15;
    for (int i = 0; i < N; ++i) {
      x[i] = in[i + 3] - 0.5;
      exs[i] = 1e-14 * (i + 1);
      double v = x[i] * c;
      want[i] = fmax(ulp(v), fabs(exs[i] * x[i] / v * c) +
                                 fabs(ec * c / v * x[i]));
    }
    __enzyme_error_estimate_v((void *)scale, enzyme_dup, x, exs, enzyme_const,
                              N, c, ec);
    for (int i = 0; i < N; ++i)
      check_rel("scale in place", exs[i], want[i], 1e-12);
  }
  {
    double x = in[3], ex = 1e-11, v = 1.0, e = 0.0;
    for (int k = 1; k <= 5; ++k) {
      double nv = x * v;
      e = fmax(ulp(nv), fabs(ex * x / nv * v) + fabs(e * v / nv * x));
      v = nv;
    }
    double got = __enzyme_error_estimate((void *)rpow, x, ex, 5);
    check_rel("recursive x^5", got, e, 1e-12);
  }
  {
    double x = in[4];
    check_close("exact from the inputs",
                __enzyme_error_estimate((void *)negabs_max, x, 0.0), 0.0, 0);
    check_rel("exact from the inputs, input error",
              __enzyme_error_estimate((void *)negabs_max, x, 1e-9), 1e-9,
              1e-12);
  }
  {
    double got = __enzyme_error_estimate((void *)constant, in[3], 1e-3);
    check_close("constant result", got, 0.0, 0);
  }
  return check_report();
}
