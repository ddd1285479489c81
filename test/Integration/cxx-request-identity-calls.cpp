// The function to differentiate passed through C++ functions that return
// their argument unchanged, defined in headers (linkonce_odr: the linker
// keeps one of several identical bodies, so what they return is known):
// a template `pick(f)`, an inline `choose(f)`, std::forward in a helper
// taking F &&f (a call when clang does not fold it, -fno-builtin), and
// captureless lambdas converted with `+` inside an inline member function
// and a template. (Review44b R1, R2: refused for a while, when only exact
// definitions were seen through; a weak one, which the linker may replace
// by another body, still is: test/Errors/request-weak-identity-function.c.)
// Expected values are analytic: sq'(3) = 6, cube'(3) = 27, (y^3)'(2) = 12.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O0 -fno-builtin %s -o %tb0 && %tb0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 -fno-builtin %s -o %tb2 && %tb2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <enzyme/enzyme>

#include <utility>

extern int enzyme_out;
extern "C" double __enzyme_autodiff(void *, ...);

typedef double (*fn_t)(double);

double sq(double x) { return x * x; }
double cube(double x) { return x * x * x; }

template <class F> F pick(F f) { return f; }
inline fn_t choose(fn_t f) { return f; }

template <class F> double forwarded(F &&f, double x) {
  return enzyme::get<0>(enzyme::get<0>(enzyme::autodiff<enzyme::Reverse>(
      std::forward<F>(f), enzyme::Active(x))));
}

struct Model {
  double slope(double x) const {
    return enzyme::get<0>(enzyme::get<0>(enzyme::autodiff<enzyme::Reverse>(
        +[](double y) { return y * y * y; }, enzyme::Active(x))));
  }
};

template <class T> double viaTemplate(T x) {
  return __enzyme_autodiff((void *)+[](double y) { return y * y * y; },
                           enzyme_out, x);
}

int main() {
  check_close("pick(sq)'", __enzyme_autodiff((void *)pick(sq), enzyme_out, 3.0),
              6.0, 1e-12);
  check_close("choose(cube)'",
              __enzyme_autodiff((void *)choose(cube), enzyme_out, 3.0), 27.0,
              1e-12);
  check_close("forwarded cube'", forwarded(cube, 3.0), 27.0, 1e-12);
  check_close("inline member's lambda", Model().slope(2.0), 12.0, 1e-12);
  check_close("template's lambda", viaTemplate(2.0), 12.0, 1e-12);
  return check_report();
}
