// libstdc++ functions that carry no floating-point data (strings, streams,
// std::to_string, clocks, random devices) inside differentiated functions:
// they run in the derivative as in the primal and are not differentiated,
// like printf, although most are declarations (extern templates) or have
// bodies full of varargs. Printing an active value with operator<< is fine.
// Expected values are analytic.
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -g -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK: log: x = 0.5
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <enzyme/enzyme>

#include <chrono>
#include <cmath>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

// A local std::string that outgrows its small buffer.
double labelled(double x) {
  std::string name = "abc";
  name += "defghijklmnopqrstuvwxyz0123456789";
  return x * x * name.size();
}

// Logging an active value, a string stream, std::to_string and a clock.
double logged(double x) {
  std::cout << "log: x = " << x << std::endl;
  std::ostringstream os;
  os << "value " << std::sin(x);
  std::string s = os.str() + std::to_string(x);
  auto t0 = std::chrono::steady_clock::now();
  double y = std::sin(x) * (s.empty() ? 0.0 : 1.0);
  auto t1 = std::chrono::steady_clock::now();
  if (t1 < t0)
    y = 0;
  return y * x;
}

// Named terms kept in a vector of strings beside the data.
double named_sum(const double *w, int n) {
  std::vector<std::string> names;
  double s = 0;
  for (int i = 0; i < n; ++i) {
    names.push_back("w" + std::to_string(i));
    s += w[i] * w[i] * (double)names.back().size();
  }
  return s;
}

int main() {
  const double x = 0.5;
  check_close("local std::string",
              enzyme::get<0>(enzyme::get<0>(
                  enzyme::autodiff<enzyme::Reverse>(labelled, enzyme::Active(x)))),
              2 * x * 36, 1e-12);
  double want = std::sin(x) + x * std::cos(x);
  check_close("streams, to_string, clock, reverse",
              enzyme::get<0>(enzyme::get<0>(
                  enzyme::autodiff<enzyme::Reverse>(logged, enzyme::Active(x)))),
              want, 1e-12);
  check_close("streams, to_string, clock, forward",
              enzyme::get<0>(
                  enzyme::autodiff<enzyme::Forward>(logged, enzyme::Duplicated(x, 1.0))),
              want, 1e-12);
  double w[12], dw[12] = {0};
  for (int i = 0; i < 12; ++i)
    w[i] = 0.1 * (i + 1);
  enzyme::autodiff<enzyme::Reverse>(named_sum, enzyme::Duplicated<const double *>(w, dw),
                                    enzyme::Const(12));
  for (int i = 0; i < 12; ++i)
    check_close("vector of strings", dw[i], 2 * w[i] * (i < 10 ? 2 : 3), 1e-12);
  return check_report();
}
