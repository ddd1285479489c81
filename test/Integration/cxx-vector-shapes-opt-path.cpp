// Local std::vector shapes in IR optimised before Tapestry runs (the opt
// flow, -flto): a std::vector<std::complex<double>> built from a range and
// transformed by a recursive FFT (the empty vector's end pointer is null + n,
// an address computed from null), and a ragged table built row by row with
// rows.push_back(std::move(row)) (the moved-from row is reset by a store of
// <2 x ptr> zeroinitializer), and std::minmax_element whose pair of
// iterators the simplifier chooses as integers (a select of two ptrtoint,
// then inttoptr: probe21a R11). All were refused in the opt flow with "the
// pointer ... may point to differentiable memory but has no shadow" and
// right with the plugin at compile time (probe25b R2). Gradients against
// the analytic ones; -O3 -mavx2 IR runs on any x86-64 (%any_x86_cpu).
// RUN: %clangxx -std=c++20 -O2 %s -o %t0 && %t0 | FileCheck %s
// RUN: %plain_cxx -std=c++20 -O2 -S -emit-llvm %s -o %t2.ll
// RUN: %opt -passes=tapestry %t2.ll -o %t2.bc
// RUN: %plain_cxx %t2.bc -o %t2 && %t2 | FileCheck %s
// RUN: %plain_cxx -std=c++20 -O3 -mavx2 -mfma -S -emit-llvm %s -o - | %any_x86_cpu > %t3.ll
// RUN: %opt -passes=tapestry %t3.ll -o %t3.bc
// RUN: %plain_cxx %t3.bc -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <utility>
#include <vector>

static char label_[64];
#define LABEL(...) (std::snprintf(label_, sizeof label_, __VA_ARGS__), label_)

extern "C" {
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
}

using cd = std::complex<double>;

static void fft(std::vector<cd> &a) {
  std::size_t n = a.size();
  if (n == 1)
    return;
  std::vector<cd> ev(n / 2), od(n / 2);
  for (std::size_t i = 0; i < n / 2; i++) {
    ev[i] = a[2 * i];
    od[i] = a[2 * i + 1];
  }
  fft(ev);
  fft(od);
  for (std::size_t k = 0; k < n / 2; k++) {
    cd t = std::polar(1.0, -2 * M_PI * k / n) * od[k];
    a[k] = ev[k] + t;
    a[k + n / 2] = ev[k] - t;
  }
}

// |X_k|^2 of the real signal x.
double power(const double *x, int n, int k) {
  std::vector<cd> a(x, x + n);
  fft(a);
  return std::norm(a[k]);
}

// sum over rows r of (r + 1) * row[0] * row[last], row r = x[r .. r + len)
double ragged(const double *x, int n) {
  std::vector<std::vector<double>> rows;
  for (int r = 0; r < n; r++) {
    std::vector<double> row;
    for (int j = 0; j <= r % 3; j++)
      row.push_back(x[r + j]);
    rows.push_back(std::move(row));
  }
  double s = 0;
  for (std::size_t r = 0; r < rows.size(); r++)
    s += (r + 1) * rows[r].front() * rows[r].back();
  return s;
}

// f = sum_i (i+1) v_i over v = x and then its range appended.
double range_appended(const double *x, int n) {
  std::vector<double> v(x, x + n);
  auto mm = std::minmax_element(v.begin(), v.end());
  v.push_back(*mm.second - *mm.first);
  double s = 0;
  for (std::size_t i = 0; i < v.size(); i++)
    s += (i + 1) * v[i];
  return s;
}

int main() {
  {
    const int n = 8, k = 3;
    double x[n], g[n] = {0};
    for (int j = 0; j < n; j++)
      x[j] = std::sin(0.7 * j + 0.2) + 0.1 * j;
    __enzyme_autodiff((void *)power, enzyme_dup, x, g, enzyme_const, n,
                      enzyme_const, k);
    // X_k = sum_j x_j e^{-2 pi i j k / n}; d|X_k|^2/dx_j
    //     = 2 (Re X_k cos(theta_j) - Im X_k sin(theta_j)), theta_j = 2 pi j k/n
    double re = 0, im = 0;
    for (int j = 0; j < n; j++) {
      double th = 2 * M_PI * j * k / n;
      re += x[j] * std::cos(th);
      im -= x[j] * std::sin(th);
    }
    for (int j = 0; j < n; j++) {
      double th = 2 * M_PI * j * k / n;
      check_close(LABEL("power d/dx[%d]", j), g[j],
                  2 * (re * std::cos(th) - im * std::sin(th)), 1e-10);
    }
  }
  {
    const int n = 6;
    double x[n + 2], g[n + 2] = {0};
    for (int j = 0; j < n + 2; j++)
      x[j] = 0.5 + 0.25 * j;
    __enzyme_autodiff((void *)ragged, enzyme_dup, x, g, enzyme_const, n);
    double want[n + 2] = {0};
    for (int r = 0; r < n; r++) {
      int last = r + r % 3;
      want[r] += (r + 1) * x[last];
      want[last] += (r + 1) * x[r];
    }
    for (int j = 0; j < n + 2; j++)
      check_close(LABEL("ragged d/dx[%d]", j), g[j], want[j], 1e-12);
  }
  {
    const int n = 6;
    double x[n] = {0.3, -0.9, 0.7, 0.1, -0.2, 0.8}, g[n] = {0};
    __enzyme_autodiff((void *)range_appended, enzyme_dup, x, g, enzyme_const,
                      n);
    // + (n+1) (x_max - x_min), x_max = x[5], x_min = x[1]
    double want[n] = {1, 2 - (n + 1), 3, 4, 5, 6 + (n + 1)};
    for (int j = 0; j < n; j++)
      check_close(LABEL("range_appended d/dx[%d]", j), g[j], want[j], 1e-12);
  }
  return check_report();
}
