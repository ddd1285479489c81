// enzyme::autodiff on a function pointer read from a struct (known only at
// run time): the error is at the user's line, and describes the value in
// the user's terms, not by a variable or line of <enzyme/enzyme>'s own
// wrappers (which said "the variable 'rt' (line 434)", a line of
// include/tapestry/detail/lowering.hpp: probe44).
// RUN: not %clangxx -std=c++17 -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clangxx -std=c++17 -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: lowering.hpp
// CHECK-NOT: 'rt'
#include <enzyme/enzyme>

#include <cmath>

struct Model {
  double (*f)(double);
};

double kepler(double E) { return E - 0.3 * std::sin(E) - 1.2; }

double slope(const Model &m, double x) {
  // CHECK: cxx-header-request-runtime-pointer.cpp:[[@LINE+2]]:{{[0-9]+}}: error: tapestry: the first argument of __enzyme_autodiff must be a function, e.g. (void *)f; got a pointer read from memory (line [[#@LINE+2]]), a function pointer whose value is known only at run time
  return enzyme::get<0>(
      enzyme::get<0>(enzyme::autodiff<enzyme::Reverse>(m.f, enzyme::Active(x))));
}
// CHECK: 1 error generated.
// CHECK-NOT: lowering.hpp
