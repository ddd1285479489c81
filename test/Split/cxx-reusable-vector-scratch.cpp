// std::vector as function-level scratch, the most common C++ shape of
// issue 17's "stack scratch arrays": at -O1..-O3 its buffer is allocated on
// only some paths (`n ? operator new(n * 8) : nullptr`) and freed with the
// sized operator delete, whose size is known only at run time. The tape
// owns the buffer and its shadow (they are recorded as allocated), so the
// reverse is replayable: demanded with tapestry::Reusable, one forward half,
// the inputs overwritten, then three sweeps with different seeds against
// the analytic gradient at the original inputs, and n = 0 (no buffer) too.
// At -O0 every function is noinline and std::vector's constructor stays a
// call with a tape of its own, which is not reusable: the demand is refused
// with a reason that says how to inline it, and with -enzyme-inline=1 the
// same program replays.
// RUN: %clangxx_fplugin -std=c++17 -O0 -mllvm -enzyme-inline=1 %s -o %t0 && %t0 | FileCheck %s
// RUN: not %clangxx -std=c++17 -O0 -g %s -o %t0n 2>&1 | FileCheck %s --check-prefix=O0
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++20 -O3 %s -o %t3 && %t3 | FileCheck %s
// O0: error: tapestry: cannot give 'logrms(double const*, int)' a reusable tape (tapestry_reusable_tape): its reverse sweep runs the reverse of 'std::vector<double, std::allocator<double>>::vector(unsigned long, std::allocator<double> const&)' (line 32), whose own tape is not reusable ({{.*}}); it stays a call because at -O0 every function is noinline: -mllvm -enzyme-inline=1 inlines it, which may make the tape reusable
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <tapestry/tapestry.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

static const double TOL = 1e-12;

// log(1 + sum_i x_i^2 / n), through a vector of squares.
double logrms(const double *x, int n) {
  std::vector<double> sq(n);
  for (int i = 0; i < n; ++i)
    sq[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += sq[i];
  return std::log1p(s / std::max(n, 1));
}

// sum_i w_i sin(w_{i+1}) with w a copy of x scaled by 2: the copy
// constructor's memmove, then an in-place update.
double copied(const double *x, int n) {
  std::vector<double> w(x, x + n);
  for (double &v : w)
    v *= 2;
  double s = 0;
  for (int i = 0; i + 1 < n; ++i)
    s += w[i] * std::sin(w[i + 1]);
  return s;
}

// Two vectors, one of them read by the reverse (products of its values).
double two(const double *x, int n) {
  std::vector<double> e(n), c(n);
  for (int i = 0; i < n; ++i) {
    e[i] = std::exp(x[i]);
    c[i] = std::cos(x[i]);
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += e[i] * c[i] * e[i];
  return s;
}

using tapestry::Const;
using tapestry::Duplicated;

template <class Thunk, class Grad>
static void replay(const char *name, Thunk &t, int n, Grad grad) {
  const double x0[6] = {0.3, -1.1, 0.7, 2.0, -0.4, 1.3};
  const double seeds[3] = {1.0, -2.5, 0.75};
  double x[6], dx[6], g[6] = {0};
  for (int i = 0; i < 6; ++i)
    x[i] = x0[i];
  grad(x0, n, g);
  auto [y, pb] = t.pullback(x, dx, n);
  (void)y;
  for (int i = 0; i < 6; ++i)
    x[i] = 1e3;
  for (double seed : seeds) {
    for (int i = 0; i < 6; ++i)
      dx[i] = 0;
    pb(seed);
    for (int i = 0; i < 6; ++i)
      check_close(name, dx[i], i < n ? seed * g[i] : 0.0, TOL);
  }
}

int main() {
  auto t1 = tapestry::thunk<logrms, tapestry::Reusable,
                            Duplicated<const double *>, Const<int>>();
  auto t2 = tapestry::thunk<copied, tapestry::Reusable,
                            Duplicated<const double *>, Const<int>>();
  auto t3 = tapestry::thunk<two, tapestry::Reusable,
                            Duplicated<const double *>, Const<int>>();
  check_close("logrms: demanded reusable", t1.reusable(), 1, 0);
  check_close("copied: demanded reusable", t2.reusable(), 1, 0);
  check_close("two: demanded reusable", t3.reusable(), 1, 0);
  for (int n : {6, 1, 0}) {
    replay("logrms: replayed dx", t1, n,
           [](const double *x, int n, double *g) {
             double s = 0;
             for (int i = 0; i < n; ++i)
               s += x[i] * x[i];
             int d = std::max(n, 1);
             for (int i = 0; i < n; ++i)
               g[i] = 2 * x[i] / d / (1 + s / d);
           });
    replay("copied: replayed dx", t2, n,
           [](const double *x, int n, double *g) {
             for (int i = 0; i + 1 < n; ++i) {
               g[i] += 2 * std::sin(2 * x[i + 1]);
               g[i + 1] += 4 * x[i] * std::cos(2 * x[i + 1]);
             }
           });
    replay("two: replayed dx", t3, n,
           [](const double *x, int n, double *g) {
             // d/dx exp(2x) cos(x)
             for (int i = 0; i < n; ++i)
               g[i] = std::exp(2 * x[i]) *
                      (2 * std::cos(x[i]) - std::sin(x[i]));
           });
  }
  return check_report();
}
