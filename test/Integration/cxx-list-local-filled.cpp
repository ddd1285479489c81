// A local std::list<double> filled from the input (push_back, the range
// constructor), scaled through iterators and summed, in reverse mode;
// df/dx_i = x_i + w_i, analytic. Refused at every -O level before (probe39b
// F5: "an active floating-point value is reinterpreted as a long here"):
// libstdc++'s list header keeps its element count at offset 16, where a
// node keeps its value, and the header is the sentinel the nodes link to;
// the type analysis took them for one object (the header's link to itself
// unified it with the nodes loaded from the same slot, and a walk that
// stops at the header was taken to reach it).
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

#include <list>

extern "C" int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff(void *, ...);

double sum_squares(const double *x, const double *w, int n) {
  std::list<double> l;
  for (int i = 0; i < n; i++)
    l.push_back(x[i]);
  std::list<double> weighted(x, x + n);
  const double *wi = w;
  for (auto it = weighted.begin(); it != weighted.end(); ++it)
    *it *= *wi++;
  std::list<double> copy(l);
  double s = 0;
  for (double v : l)
    s += v * v;
  for (double v : weighted)
    s += v;
  for (double v : copy)
    s -= 0.5 * v * v;
  return s;
}

int main() {
  double x[3] = {0.5, 0.9, -0.2}, w[3] = {1.5, -2.0, 0.25},
         dx[3] = {0, 0, 0};
  __enzyme_autodiff((void *)sum_squares, enzyme_dup, x, dx, enzyme_const, w,
                    enzyme_const, 3);
  // d/dx_i [x_i^2 + w_i x_i - x_i^2 / 2] = x_i + w_i
  for (int i = 0; i < 3; i++)
    check_close("list", dx[i], x[i] + w[i], 1e-12);
  return check_report();
}
