// tapestry::Reusable, demanded at compile time, on functions that used to be
// refused (issue 17 item 1): heap scratch the tape now owns, and a noinline
// helper called in a loop whose own split is reusable. One forward half,
// the inputs overwritten, then three sweeps of a ReusablePullback with
// different seeds against the analytic gradient at the original inputs;
// the Tape's release frees the scratch and the helper's tapes (ASan/valgrind
// by hand: no leak, no double free).
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++20 -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <tapestry/tapestry.hpp>

#include <cmath>
#include <cstdlib>
#include <functional>
#include <vector>

static const double TOL = 1e-12;

// s = sum_j sin(a_j) a_j through malloc'd scratch.
double scratch(double *a, int m) {
  double *g = static_cast<double *>(std::malloc(m * sizeof(double)));
  for (int j = 0; j < m; j++)
    g[j] = std::sin(a[j]);
  double s = 0;
  for (int j = 0; j < m; j++)
    s += g[j] * a[j];
  std::free(g);
  return s;
}

__attribute__((noinline)) double helper(double x) { return std::sin(x) * x; }

// s = sum_j helper(a_j) a_{j+1 mod m}
double looped(double *a, int m) {
  double s = 0;
  for (int j = 0; j < m; j++)
    s += helper(a[j]) * a[(j + 1) % m];
  return s;
}

using tapestry::Const;
using tapestry::Duplicated;

static double hv(double x) { return std::sin(x) * x; }
static double dh(double x) { return std::cos(x) * x + std::sin(x); }

int main() {
  const int M = 5;
  const double a0[M] = {0.3, -1.1, 0.7, 2.0, -0.4};
  const double seeds[3] = {1.0, -2.5, 0.75};

  auto ts = tapestry::thunk<scratch, tapestry::Reusable, Duplicated<double *>,
                            Const<int>>();
  auto tl = tapestry::thunk<looped, tapestry::Reusable, Duplicated<double *>,
                            Const<int>>();
  check_close("scratch: demanded reusable", ts.reusable(), 1, 0);
  check_close("looped: demanded reusable", tl.reusable(), 1, 0);

  {
    double a[M], da[M] = {0};
    for (int j = 0; j < M; j++)
      a[j] = a0[j];
    auto [y, pb] = ts.pullback(a, da, M);
    double s = 0;
    for (int j = 0; j < M; j++)
      s += std::sin(a0[j]) * a0[j];
    check_close("scratch: primal", y, s, TOL);
    for (int j = 0; j < M; j++)
      a[j] = 1e3;
    std::function<std::tuple<>(double)> vjp = pb;
    for (double seed : seeds) {
      for (int j = 0; j < M; j++)
        da[j] = 0;
      vjp(seed);
      for (int j = 0; j < M; j++)
        check_close("scratch: replayed da", da[j], seed * dh(a0[j]), TOL);
    }
  }
  {
    double a[M], da[M] = {0};
    for (int j = 0; j < M; j++)
      a[j] = a0[j];
    auto [y, pb] = tl.pullback(a, da, M);
    for (int j = 0; j < M; j++)
      a[j] = -2;
    std::vector<double> g(M, 0.0);
    for (int j = 0; j < M; j++) {
      g[j] += dh(a0[j]) * a0[(j + 1) % M];
      g[(j + 1) % M] += hv(a0[j]);
    }
    auto copy = pb; // copies share the tape
    for (int k = 0; k < 3; k++) {
      for (int j = 0; j < M; j++)
        da[j] = 0;
      (k % 2 ? copy : pb)(seeds[k]);
      for (int j = 0; j < M; j++)
        check_close("looped: replayed da", da[j], seeds[k] * g[j], TOL);
    }
  }
  return check_report();
}
