// A tape refused as reusable because of a temporary the compiler made (the
// argument slots of a std::function call, from libstdc++'s headers): with
// -g the message says so, instead of asking to compile with -g (probe27
// 35); without -g it asks for -g.
// RUN: not %clangxx -std=c++17 -O2 -g %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clangxx -std=c++17 -O2 %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NODEBUG
// CHECK-NOT: compile with -g
// CHECK: reusable-tape-temporary.cpp:[[@LINE+7]]:8: error: tapestry: cannot give 'f(double const*)' a reusable tape (tapestry_reusable_tape): its reverse sweep updates memory that the tape holds (a temporary object the compiler made)
// CHECK-NOT: compile with -g
// NODEBUG: error: tapestry: cannot give 'f(double const*)' a reusable tape (tapestry_reusable_tape): its reverse sweep updates memory that the tape holds (a local variable (compile with -g to see which))
double f(const double *p);
#include <functional>
#include <tapestry/tapestry.hpp>

double f(const double *p) {
  double a = p[0];
  std::function<void(const double *, double *)> rhs =
      [a](const double *y, double *dy) { dy[0] = -a * y[0]; };
  double y[1] = {p[1]}, k[1];
  for (int s = 0; s < 10; s++) {
    rhs(y, k);
    y[0] += 0.1 * k[0];
  }
  return y[0];
}

int main() {
  double p[2] = {2.0, 0.5}, dp[2] = {0, 0};
  auto t = tapestry::thunk<f, tapestry::Reusable,
                           tapestry::Duplicated<const double *>>();
  auto [y, pb] = t.pullback(p, dp);
  pb(1.0);
  return 0;
}
