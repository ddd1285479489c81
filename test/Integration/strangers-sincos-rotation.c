// A physics user's program that computes sine and cosine together with
// glibc's sincos(theta, &s, &c) (as rotation-heavy codes do for speed):
// a 2-D point cloud rotated by theta and translated, and the squared
// distance to target points. Gradient with respect to theta and the
// translation (enzyme_out, enzyme_dup).
// Analytic: with p' = R(theta) p + t, r = p' - q,
// dL/dt = 2 sum r, dL/dtheta = 2 sum r . (dR/dtheta p),
// dR/dtheta p = (-sin th p_x - cos th p_y, cos th p_x - sin th p_y).
// Once rejected ("no derivative is known for external function
// 'sincos'"); sincos is now lowered to sin and cos stored through its
// pointers before AD (PrimalPreparation.cpp).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#define _GNU_SOURCE
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const, enzyme_out;
extern double __enzyme_autodiff(void *, ...);

#define NPTS 5

double misfit(double theta, const double *t, const double (*p)[2],
              const double (*q)[2]) {
  double s, c;
  sincos(theta, &s, &c);
  double l = 0.0;
  for (int i = 0; i < NPTS; ++i) {
    double x = c * p[i][0] - s * p[i][1] + t[0] - q[i][0];
    double y = s * p[i][0] + c * p[i][1] + t[1] - q[i][1];
    l += x * x + y * y;
  }
  return l;
}

int main(void) {
  double p[NPTS][2], q[NPTS][2];
  for (int i = 0; i < NPTS; ++i) {
    p[i][0] = cos(1.3 * i) + 0.2 * i;
    p[i][1] = sin(0.7 * i) - 0.1 * i;
    q[i][0] = 0.5 * p[i][0] - 0.8 * p[i][1] + 0.3;
    q[i][1] = 0.8 * p[i][0] + 0.5 * p[i][1] - 0.2;
  }
  const double thetas[3] = {0.2, 0.93, -2.4};
  for (int k = 0; k < 3; ++k) {
    double th = thetas[k], t[2] = {0.1, -0.35}, dt[2] = {0, 0};
    double dth = __enzyme_autodiff((void *)misfit, enzyme_out, th, enzyme_dup,
                                   t, dt, enzyme_const, p, enzyme_const, q);
    double s = sin(th), c = cos(th), wth = 0, wt[2] = {0, 0};
    for (int i = 0; i < NPTS; ++i) {
      double rx = c * p[i][0] - s * p[i][1] + t[0] - q[i][0];
      double ry = s * p[i][0] + c * p[i][1] + t[1] - q[i][1];
      wt[0] += 2 * rx;
      wt[1] += 2 * ry;
      wth += 2 * (rx * (-s * p[i][0] - c * p[i][1]) +
                  ry * (c * p[i][0] - s * p[i][1]));
    }
    check_close("dL/dtheta", dth, wth, 1e-12);
    check_close("dL/dt0", dt[0], wt[0], 1e-12);
    check_close("dL/dt1", dt[1], wt[1], 1e-12);
  }
  return check_report();
}
