// __enzyme_error_estimate from C++: <cmath>, a member function reading a
// constant object through a reference, and a loop (Horner's rule). The
// expected errors are Enzyme's model evaluated operation by operation here:
//   err(v) = max(ulp(v), sum_i |err(a_i) * a_i / v * d op / d a_i|).
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <cfloat>
#include <cstdio>
#include <cmath>

extern "C" double __enzyme_error_estimate(void *, ...);
extern int enzyme_const;

static double ulp(double v) {
  if (v == 0 || std::fabs(v) < DBL_MIN)
    return 0x1p-1074;
  return std::ldexp(1.0, std::ilogb(v) - 52);
}

static void check_rel(const char *what, double got, double want,
                      double rtol) {
  bool ok = want > 0 && std::fabs(got - want) <= rtol * want;
  if (!ok)
    check_failures++;
  std::printf("%s %s: got %.17g want %.17g\n", ok ? "PASS" : "FAIL", what,
              got, want);
}

// Enzyme's example, with <cmath>.
double cancel(double x) {
  double v1 = std::cos(x);
  double v2 = 1 - v1;
  double v3 = x * x;
  double v4 = v2 / v3;
  return v4;
}

struct Poly {
  double c[4];
  // Horner's rule, one rounding per statement.
  double eval(double x) const {
    double r = c[3];
    for (int i = 2; i >= 0; --i) {
      double t = r * x;
      r = t + c[i];
    }
    return r;
  }
};

double evalPoly(const Poly &p, double x) { return p.eval(x); }

static volatile double in[2] = {1e-7, 0.8};

int main() {
  {
    double x = in[0];
    double v1 = std::cos(x), v2 = 1 - v1, v3 = x * x, v4 = v2 / v3;
    double e1 = ulp(v1);
    double e2 = std::fmax(ulp(v2), std::fabs(e1 * v1 / v2 * -1.0));
    double e3 = ulp(v3);
    double e4 = std::fmax(ulp(v4), std::fabs(e2 * v2 / v4 * (1 / v3)) +
                                       std::fabs(e3 * v3 / v4 * -(v4 / v3)));
    double got = __enzyme_error_estimate((void *)cancel, x, 0.0);
    check_rel("(1-cos x)/x^2", got, e4, 1e-12);
    check_close("(1-cos x)/x^2 Enzyme", got, 2.2222222222e-2, 1e-4);
  }
  {
    Poly p = {{0.5, -1.25, 3.0, 0.75}};
    double x = in[1], ex = 1e-12;
    double r = p.c[3], er = 0; // the coefficients are exact constants
    for (int i = 2; i >= 0; --i) {
      double t = r * x;
      double et = std::fmax(ulp(t), std::fabs(er * r / t * x) +
                                        std::fabs(ex * x / t * r));
      double nr = t + p.c[i];
      er = std::fmax(ulp(nr), std::fabs(et * t / nr * 1.0));
      r = nr;
    }
    double got =
        __enzyme_error_estimate((void *)evalPoly, enzyme_const, &p, x, ex);
    check_rel("Horner", got, er, 1e-12);
  }
  return check_report();
}
