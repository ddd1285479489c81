// A caller's std::unordered_map<int, double>, empty, passed enzyme_dup with
// an empty shadow map and filled inside the function past several rehashes.
// The gradient is right, and so is the shadow map's list of nodes: before,
// a rehash's reset of the list head to null was not repeated on the
// shadow, the shadow's node list ended in a node pointing to itself, and
// destroying the shadow map failed with "double free or corruption"
// (review26 C2; with 13 entries, one rehash, it passed).
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 40 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 40 | FileCheck %s
// RUN: %t2 14 | FileCheck %s
// RUN: %t2 500 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 40 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 40 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cstdlib>
#include <unordered_map>

extern int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff(void *, ...);

double f(std::unordered_map<int, double> &c, const double *x, int k) {
  for (int i = 0; i < k; ++i)
    c[i] = x[0] * (i + 1);
  double s = 0;
  for (int i = 0; i < k; ++i)
    s += c[i] * c[i];
  return s;
}

int main(int argc, char **argv) {
  int k = argc > 1 ? std::atoi(argv[1]) : 40;
  double x[1] = {0.3}, dx[1] = {0};
  {
    std::unordered_map<int, double> c, dc;
    __enzyme_autodiff((void *)f, enzyme_dup, &c, &dc, enzyme_dup, x, dx,
                      enzyme_const, k);
    double want = 0;
    for (int i = 0; i < k; ++i)
      want += 2 * x[0] * (i + 1) * (i + 1);
    check_close("d/dx", dx[0], want, 1e-12);
  }
  return check_report(); // after the shadow map is destroyed
}
