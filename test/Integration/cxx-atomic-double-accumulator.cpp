// std::atomic<double> as an accumulator (C++20 fetch_add, +=, fetch_sub,
// -=, load, store) inside a differentiated function. libstdc++ makes each
// update a compare-exchange loop on the double's bits and load() an integer
// load; the loops that add are atomic adds, which differentiate in reverse
// and forward mode. Before, every -O level was refused with a message about
// OpenMP ("an atomic update of a floating-point value other than += and
// -="). Also: a global atomic (which needs a shadow like any global
// written with active values: it was taken for a constant, a silent 0 in
// review40), the pre-C++20 idiom of a compare_exchange_weak loop written by
// hand, and an update whose value is an earlier update's result. Expected
// values are analytic.
// RUN: %clangxx -std=c++20 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++20 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++20 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++20 -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

#include <atomic>
#include <cmath>

extern "C" int enzyme_dup, enzyme_const, enzyme_out;
extern "C" double __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);

// sum x_i^2 - sum sin(x_i) / 2, through fetch_add and -=.
double energy(const double *x, int n) {
  std::atomic<double> acc{0.0};
  for (int i = 0; i < n; i++) {
    acc.fetch_add(x[i] * x[i]);
    acc -= 0.5 * std::sin(x[i]);
  }
  return acc.load();
}

// A float accumulator stored, updated with += and fetch_sub, then loaded.
double mixed(double a, double b) {
  std::atomic<float> f;
  f.store(static_cast<float>(a));
  f += static_cast<float>(a * b);
  f.fetch_sub(static_cast<float>(b));
  return static_cast<double>(f.load()) * 2.0;
}

std::atomic<double> global_energy{0.0};
// x^2 + x y, in a global atomic.
double global_sum(double x, double y) {
  global_energy.store(0.0);
  global_energy.fetch_add(x * x);
  global_energy += x * y;
  return global_energy.load();
}

std::atomic<double> global_value{0.0};
// 3 x y, a global atomic only stored.
double global_store(double x, double y) {
  global_value.store(3 * x * y);
  return global_value.load();
}

// The pre-C++20 idiom.
static void atomic_add(std::atomic<double> &a, double v) {
  double old = a.load(std::memory_order_relaxed);
  while (!a.compare_exchange_weak(old, old + v, std::memory_order_relaxed)) {
  }
}
// x^2 + x y + (y + x^2) y: the second update adds the first one's result.
double chained(double x, double y) {
  std::atomic<double> a{0.0}, b{0.0};
  atomic_add(a, x * x);
  atomic_add(a, x * y);
  double prev = b.fetch_add(y);
  b.fetch_add((prev + x * x) * y);
  return a.load() + b.load();
}

int main() {
  const int n = 4;
  double x[n] = {0.5, -0.3, 1.2, 2.0}, dx[n] = {0, 0, 0, 0};
  __enzyme_autodiff((void *)energy, enzyme_dup, x, dx, enzyme_const, n);
  for (int i = 0; i < n; i++)
    check_close("energy reverse", dx[i], 2 * x[i] - 0.5 * std::cos(x[i]),
                1e-12);
  double tx[n] = {1, 0, 0, 0};
  double t = __enzyme_fwddiff((void *)energy, enzyme_dup, x, tx,
                              enzyme_const, n);
  check_close("energy forward", t, 2 * x[0] - 0.5 * std::cos(x[0]), 1e-12);

  double a = 0.75, b = 1.5;
  double da = __enzyme_autodiff((void *)mixed, enzyme_out, a, enzyme_const, b);
  check_close("float atomic d/da", da, 2.0 * (1 + b), 1e-6);
  double db = __enzyme_fwddiff((void *)mixed, enzyme_const, a, enzyme_dup, b,
                               1.0);
  check_close("float atomic d/db", db, 2.0 * (a - 1), 1e-6);
  double gx = 0.7, gy = -1.3;
  check_close("global atomic reverse",
              __enzyme_autodiff((void *)global_sum, enzyme_out, gx,
                                enzyme_const, gy),
              2 * gx + gy, 1e-12);
  check_close("global atomic forward",
              __enzyme_fwddiff((void *)global_sum, enzyme_dup, gx, 1.0,
                               enzyme_const, gy),
              2 * gx + gy, 1e-12);
  check_close("global atomic store",
              __enzyme_autodiff((void *)global_store, enzyme_out, gx,
                                enzyme_const, gy),
              3 * gy, 1e-12);
  // d/dx [x^2 + x y + y + x^2 y] = 2x + y + 2 x y
  check_close("compare_exchange loop and chained updates",
              __enzyme_autodiff((void *)chained, enzyme_out, gx, enzyme_const,
                                gy),
              2 * gx + gy + 2 * gx * gy, 1e-12);
  return check_report();
}
