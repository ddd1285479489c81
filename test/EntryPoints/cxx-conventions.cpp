// The new entry points and markers as C++ programs write them: MFEM's
// interleaved forward call through <enzyme/enzyme>'s __enzyme_fwddiff<R>
// template (one sticky enzyme_dup, the values, enzyme_interleave, the
// shadows, then enzyme_runtime_activity), and __enzyme_fwdsplit declared as
// a template, its tape from __enzyme_augmentfwd. Checked against analytic
// derivatives.
// RUN: %clangxx -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <enzyme/enzyme>

template <typename R, typename... T> R __enzyme_fwdsplit(T...);
template <typename R, typename... T> R __enzyme_augmentfwd(T...);

struct QFunction {
  double k;
  // out = k * u * v^2
  void operator()(const double &u, const double &v, double &out) const {
    out = k * u * v * v;
  }
};

template <typename Q>
static void wrapper(const Q *q, const double &u, const double &v,
                    double &out) {
  (*q)(u, v, out);
}

static double poly(double x, double y) { return x * x * y + 3 * y; }

struct Aug {
  void *tape;
  double primal;
};

int main() {
  QFunction q{2.5};
  double u = 1.5, v = -0.5, out = 0, du = 1.0, dv = 0.25, dout = 0;
  __enzyme_fwddiff<void>((void (*)(const QFunction *, const double &,
                                   const double &, double &))wrapper<QFunction>,
                         enzyme_const, &q, enzyme_dup, &u, &v, &out,
                         enzyme_interleave, &du, &dv, &dout,
                         enzyme_runtime_activity);
  check_close("qfunction primal", out, q.k * u * v * v, 1e-14);
  check_close("qfunction tangent", dout,
              q.k * (du * v * v + 2 * u * v * dv), 1e-14);

  double x = 0.8, y = -1.2;
  Aug a = __enzyme_augmentfwd<Aug>((void *)poly, x, y);
  check_close("poly primal", a.primal, x * x * y + 3 * y, 1e-14);
  double t = __enzyme_fwdsplit<double>((void *)poly, x, 0.5, y, 2.0, a.tape);
  check_close("poly tangent", t, 2 * x * y * 0.5 + (x * x + 3) * 2.0, 1e-14);
  return check_report();
}
