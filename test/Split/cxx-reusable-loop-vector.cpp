// A std::vector declared in a loop's body, the C++ shape of per-iteration
// scratch: at -O1..-O3 each iteration allocates its buffer on only some
// paths (`m ? operator new(m * 8) : nullptr`) and frees it with the sized
// operator delete under `if (p)`. The free is of that iteration's buffer
// (no phi carries an earlier iteration's), so it waits for the reverse,
// and the tape owns the buffers and their shadows through the list of
// blocks allocated in loops: demanded with tapestry::Reusable, one forward
// half, the inputs overwritten, three sweeps with different seeds against
// the analytic gradient at the original inputs, with m = 0 (no buffers)
// too; and the one-shot gradient (__enzyme_autodiff) of the same function.
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++20 -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <tapestry/tapestry.hpp>

#include <cmath>
#include <vector>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

static const double TOL = 1e-12;
static const int N = 5;

// sum_i x_i sum_{j<m} sin(x_i (j + 1))^2, row i's sines in a vector of
// its own.
double rows(const double *x, int n, int m) {
  double acc = 0;
  for (int i = 0; i < n; ++i) {
    std::vector<double> w(m);
    for (int j = 0; j < m; ++j)
      w[j] = std::sin(x[i] * (j + 1));
    double r = 0;
    for (double v : w)
      r += v * v;
    acc += r * x[i];
  }
  return acc;
}

static void gradient(const double *x, int m, double *g) {
  for (int i = 0; i < N; ++i) {
    double r = 0, dr = 0;
    for (int j = 0; j < m; ++j) {
      double s = std::sin(x[i] * (j + 1)), c = std::cos(x[i] * (j + 1));
      r += s * s;
      dr += 2 * s * c * (j + 1);
    }
    g[i] = r + x[i] * dr;
  }
}

using tapestry::Const;
using tapestry::Duplicated;

int main() {
  const double x0[N] = {0.3, -1.1, 0.7, 0.45, -0.2};
  auto t = tapestry::thunk<rows, tapestry::Reusable, Duplicated<const double *>,
                           Const<int>, Const<int>>();
  check_close("rows: demanded reusable", t.reusable(), 1, 0);
  for (int m : {4, 1, 0}) {
    double x[N], dx[N], g[N];
    for (int i = 0; i < N; ++i)
      x[i] = x0[i];
    gradient(x0, m, g);
    auto [y, pb] = t.pullback(x, dx, N, m);
    (void)y;
    for (int i = 0; i < N; ++i)
      x[i] = 1e3;
    for (double seed : {1.0, -2.5, 0.75}) {
      for (int i = 0; i < N; ++i)
        dx[i] = 0;
      pb(seed);
      for (int i = 0; i < N; ++i)
        check_close("rows: replayed dx", dx[i], seed * g[i], TOL);
    }
    double once[N] = {0};
    __enzyme_autodiff((void *)rows, enzyme_dup, x0, once, enzyme_const, N,
                      enzyme_const, m);
    for (int i = 0; i < N; ++i)
      check_close("rows: one-shot dx", once[i], g[i], TOL);
  }
  return check_report();
}
