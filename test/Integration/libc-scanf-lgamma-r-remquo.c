// C library calls that store numbers through pointers, as programs reading
// parameters from text and special-function code write them: sscanf and
// fscanf reading doubles, floats and ints (into locals and into the
// differentiated array itself, whose derivative there becomes zero),
// lgamma_r (the sign of gamma through a pointer), remquo and remainder.
// Each was rejected ("no derivative is known for external function").
// Expected values: analytic where closed-form (sscanf, remquo, remainder),
// central finite differences for lgamma_r (digamma has no libm function).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#define _GNU_SOURCE
#include "Inputs/check.h"
#include <stdio.h>
#include <string.h>

extern int enzyme_out, enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

// v, n, w read from text: f = v x + n x + w x^2.
double from_text(double x, const char *text) {
  double v;
  int n;
  float w;
  sscanf(text, "%lf %d %f", &v, &n, &w);
  return v * x + n * x + w * x * x;
}

// a[1] is overwritten by a number read from text (v = 1.5):
// f = a0 a1 v + a2 in the input values.
double overwrite(double *a, const char *text) {
  a[0] = a[0] * a[1];
  sscanf(text, "%*s %lf", &a[1]);
  return a[0] * a[1] + a[2];
}

// The same through a stream: f = a0 a1 v with v read by fscanf.
double overwrite_stream(double *a, FILE *in) {
  a[0] = a[0] * a[1];
  fscanf(in, "%lf", &a[1]);
  return a[0] * a[1];
}

double log_abs_gamma_signed(double x) {
  int sign;
  double l = lgamma_r(x, &sign);
  return l * sign;
}

// remquo(x, y) = x - n y with n = round(x / y): f = 2 r + q.
double rem(double x, double y) {
  int q;
  return 2 * remquo(x, y, &q) + (q & 7) * 0.0 + remainder(x, y);
}

int main(void) {
  {
    double x = 0.75;
    double d = __enzyme_autodiff((void *)from_text, enzyme_out, x,
                                 enzyme_const, "2.5 3 0.5");
    check_close("sscanf d/dx", d, 2.5 + 3 + 2 * 0.5 * x, 1e-15);
    double t = __enzyme_fwddiff((void *)from_text, x, 1.0, enzyme_const,
                                "2.5 3 0.5");
    check_close("sscanf tangent", t, 2.5 + 3 + 2 * 0.5 * x, 1e-15);
  }
  {
    double a[3] = {0.5, 2.0, 3.0}, da[3] = {0};
    __enzyme_autodiff((void *)overwrite, enzyme_dup, a, da, enzyme_const,
                      "v= 1.5");
    check_close("overwrite d/da0", da[0], 2.0 * 1.5, 1e-15);
    check_close("overwrite d/da1", da[1], 0.5 * 1.5, 1e-15);
    check_close("overwrite d/da2", da[2], 1, 1e-15);
    check_close("overwrite read", a[1], 1.5, 0);
    double b[3] = {0.5, 2.0, 3.0}, tb[3] = {0, 1, 0};
    double t = __enzyme_fwddiff((void *)overwrite, enzyme_dup, b, tb,
                                enzyme_const, "v= 1.5");
    check_close("overwrite tangent along a1", t, 0.5 * 1.5, 1e-15);
    check_close("overwrite tangent of a1 after", tb[1], 0, 0);
  }
  {
    char text[] = "1.25";
    FILE *in = fmemopen(text, strlen(text), "r");
    double a[2] = {0.5, 2.0}, da[2] = {0};
    __enzyme_autodiff((void *)overwrite_stream, enzyme_dup, a, da,
                      enzyme_const, in);
    fclose(in);
    check_close("fscanf d/da0", da[0], 2.0 * 1.25, 1e-15);
    check_close("fscanf d/da1", da[1], 0.5 * 1.25, 1e-15);
  }
  {
    double xs[3] = {2.5, 0.3, -0.5}; // gamma(-0.5) < 0: sign -1
    for (int i = 0; i < 3; i++) {
      double x = xs[i], h = 1e-6;
      double fd = (log_abs_gamma_signed(x + h) -
                   log_abs_gamma_signed(x - h)) / (2 * h);
      double d = __enzyme_autodiff((void *)log_abs_gamma_signed, enzyme_out,
                                   x);
      check_close("lgamma_r d/dx", d, fd, 1e-7);
    }
  }
  {
    // 7.3 / 2 = 3.65: n = 4, r = -0.7.
    double d[2];
    struct {
      double dx, dy;
    } g;
    typedef __typeof__(g) (*grad2)(void *, ...);
    g = ((grad2)__enzyme_autodiff)((void *)rem, enzyme_out, 7.3, enzyme_out,
                                   2.0);
    d[0] = g.dx;
    d[1] = g.dy;
    check_close("remquo+remainder d/dx", d[0], 3, 1e-15);
    check_close("remquo+remainder d/dy", d[1], -3 * 4.0, 1e-14);
  }
  return check_report();
}
