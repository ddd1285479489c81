// std::function called with active arguments inside a differentiated
// function: its target (the lambda's invoker) is a function pointer loaded
// from the object, known only at run time. Tapestry dispatches the call
// over the functions of that type whose address escapes in this file, so
// the lambda is differentiated where it is called, through <enzyme/enzyme>
// and the C API, in reverse and forward mode.
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <enzyme/enzyme>

#include <cmath>
#include <functional>

extern "C" int enzyme_const, enzyme_out;
extern "C" double __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);

static const int N = 100;

double integrate(const std::function<double(double)> &f, double a, double b,
                 int n) {
  double h = (b - a) / n, s = 0;
  for (int i = 0; i < n; ++i)
    s += f(a + (i + 0.5) * h) * h;
  return s;
}

// Midpoint rule of sin(k t) over [0, 1].
double objective(double k) {
  std::function<double(double)> f = [k](double t) { return std::sin(k * t); };
  return integrate(f, 0.0, 1.0, N);
}

// The std::function comes from the caller: its lambda is one of several.
double scaled(const std::function<double(double)> *f, double x) {
  return (*f)(x) * x;
}

int main(int argc, char **) {
  double k = 1.7;
  double want = 0, h = 1.0 / N;
  for (int i = 0; i < N; ++i) {
    double t = (i + 0.5) * h;
    want += t * std::cos(k * t) * h;
  }
  check_close("objective' (enzyme::autodiff)",
              enzyme::get<0>(enzyme::get<0>(enzyme::autodiff<enzyme::Reverse>(
                  objective, enzyme::Active(k)))),
              want, 1e-12);
  check_close("objective' (reverse)",
              __enzyme_autodiff((void *)objective, enzyme_out, k), want,
              1e-12);
  check_close("objective' (forward)",
              __enzyme_fwddiff((void *)objective, k, 1.0), want, 1e-12);

  double c = 3.0;
  std::function<double(double)> cube = [c](double x) { return c * x * x * x; };
  std::function<double(double)> ex = [](double x) { return std::exp(x); };
  const std::function<double(double)> *pick = argc > 5 ? &ex : &cube;
  double x = 1.3;
  // d/dx (3 x^3 * x) = 12 x^3
  check_close("scaled' (reverse)",
              __enzyme_autodiff((void *)scaled, enzyme_const, pick, enzyme_out,
                                x),
              12 * x * x * x, 1e-12);
  pick = argc > 5 ? &cube : &ex;
  // d/dx (e^x x) = e^x (1 + x)
  check_close("scaled' (forward)",
              __enzyme_fwddiff((void *)scaled, enzyme_const, pick, x, 1.0),
              std::exp(x) * (1 + x), 1e-12);
  return check_report();
}
