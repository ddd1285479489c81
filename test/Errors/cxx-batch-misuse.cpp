// The C++ batch wrappers reject at compile time a request whose lanes do
// not agree: a plain Duplicated (one shadow) beside a BatchDuplicated, two
// different widths, a width outside 1..64, a by-value scalar given lanes of
// shadows in reverse mode.
// RUN: not %clangxx -std=c++17 -fsyntax-only %s -DMIXED 2>&1 | FileCheck %s --check-prefix=LANES
// RUN: not %clangxx -std=c++17 -fsyntax-only %s -DWIDTHS 2>&1 | FileCheck %s --check-prefix=LANES
// RUN: not %clangxx -std=c++17 -fsyntax-only %s -DZERO 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not %clangxx -std=c++17 -fsyntax-only %s -DREVERSE_SCALAR 2>&1 | FileCheck %s --check-prefix=SCALAR
// CHECK-NOT: PLEASE submit a bug report
#include <tapestry/tapestry.hpp>

double f(const double *x, const double *y) { return x[0] * y[0]; }
double g(double x) { return x * x; }

int main() {
  double x = 1, y = 2, d0 = 0, d1 = 0, d2 = 0;
#ifdef MIXED
  // LANES: error: static assertion failed {{.*}}in a batched request every shadowed argument is a BatchDuplicated<T, N> or BatchDuplicatedNoNeed<T, N> with the same width N
  tapestry::autodiff<tapestry::Reverse, f>(
      tapestry::BatchDuplicated<const double *, 2>(&x, {&d0, &d1}),
      tapestry::Duplicated<const double *>(&y, &d2));
#endif
#ifdef WIDTHS
  tapestry::autodiff<tapestry::Forward, f>(
      tapestry::BatchDuplicated<const double *, 2>(&x, {&d0, &d1}),
      tapestry::BatchDuplicated<const double *, 3>(&y, {&d0, &d1, &d2}));
#endif
#ifdef ZERO
  // ZERO: error: static assertion failed {{.*}}the batch width must be 1..64
  tapestry::autodiff<tapestry::Forward, g>(tapestry::BatchDuplicated<double, 0>(x, {}));
#endif
#ifdef REVERSE_SCALAR
  // SCALAR: error: static assertion failed {{.*}}in reverse mode Duplicated needs a pointer or reference parameter
  tapestry::autodiff<tapestry::Reverse, g>(tapestry::BatchDuplicated<double, 2>(x, {d0, d1}));
#endif
  return (int)(d0 + d1 + d2 + y);
}
