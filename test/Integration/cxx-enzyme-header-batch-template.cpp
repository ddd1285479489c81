// Batch (vector) mode from a C++ program written for Enzyme: Enzyme's
// <enzyme/enzyme> has no batch wrappers, so its users call the C API
// templates the header declares, __enzyme_fwddiff<R> and
// __enzyme_autodiff<R>, with enzyme_width N and N shadows per argument, or
// enzyme_dupv with a byte stride between the shadows (as MFEM's dfem
// does); the N results come back in a struct or an enzyme::tuple. Expected
// values are analytic partial derivatives.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

#include <enzyme/enzyme>

#include <cmath>

extern int enzyme_width, enzyme_dupv;

double f(double x, double y) { return x * x * y; }
void vf(const double *x, double *y) {
  y[0] = x[0] * x[1];
  y[1] = std::sin(x[0]);
}
struct Two {
  double a, b;
};

int main() {
  const double TOL = 1e-12;
  /* Forward, width 2: both partials of f in one call. */
  Two t = __enzyme_fwddiff<Two>((void *)f, enzyme_width, 2, enzyme_dup, 3.0,
                                1.0, 0.0, enzyme_dup, 2.0, 0.0, 1.0);
  check_close("fwd lane 0: df/dx", t.a, 2 * 3.0 * 2.0, TOL);
  check_close("fwd lane 1: df/dy", t.b, 3.0 * 3.0, TOL);
  auto e = __enzyme_fwddiff<enzyme::tuple<double, double>>(
      (void *)f, enzyme_width, 2, enzyme_dup, 3.0, 1.0, 0.0, enzyme_dup, 2.0,
      0.0, 1.0);
  check_close("fwd into enzyme::tuple, lane 1", enzyme::get<1>(e), 9.0, TOL);
  /* enzyme_dupv: lane k's shadow at byte offset k * stride. */
  double x[2] = {0.5, 2.0}, dx[2][2] = {{1, 0}, {0, 1}}, y[2], dy[2][2];
  __enzyme_fwddiff<void>((void *)vf, enzyme_width, 2, enzyme_dupv,
                         sizeof(dx[0]), x, &dx[0][0], enzyme_dupv,
                         sizeof(dy[0]), y, &dy[0][0]);
  check_close("dupv lane 0: dy0/dx0", dy[0][0], x[1], TOL);
  check_close("dupv lane 0: dy1/dx0", dy[0][1], std::cos(x[0]), TOL);
  check_close("dupv lane 1: dy0/dx1", dy[1][0], x[0], TOL);
  check_close("dupv lane 1: dy1/dx1", dy[1][1], 0.0, TOL);
  /* Reverse, width 2: both rows of the Jacobian of vf. */
  double g0[2] = {0, 0}, g1[2] = {0, 0}, yv[2], s0[2] = {1, 0}, s1[2] = {0, 1};
  __enzyme_autodiff<void>((void *)vf, enzyme_width, 2, enzyme_dup, x, g0, g1,
                          enzyme_dup, yv, s0, s1);
  check_close("rev lane 0: dy0/dx0", g0[0], x[1], TOL);
  check_close("rev lane 0: dy0/dx1", g0[1], x[0], TOL);
  check_close("rev lane 1: dy1/dx0", g1[0], std::cos(x[0]), TOL);
  check_close("rev lane 1: dy1/dx1", g1[1], 0.0, TOL);
  return check_report();
}
