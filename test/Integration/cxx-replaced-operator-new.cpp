// A program whose global operator new and delete are defined in another
// file (a tracker putting a header before each malloc'd block), and a
// differentiated function that grows a caller's vector without reading its
// old values. The check for adjoints lost with a caller's freed block asks
// malloc the size of the block's shadow; with this operator new the
// pointer is not malloc's, and asking crashed (review26b C1). The check now
// asks only when operator new is the C++ library's, so this program runs
// and its gradient matches the analytic one.
// RUN: %plain_cxx -O2 -c %S/Inputs/tracking-new.cpp -o %t.new.o
// RUN: %clangxx -std=c++17 -O0 -c %s -o %t0.o && %plain_cxx %t0.o %t.new.o -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 -c %s -o %t2.o && %plain_cxx %t2.o %t.new.o -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <vector>

extern int enzyme_dup, enzyme_out;
extern "C" double __enzyme_autodiff(void *, ...);

// sum_i (x (i + 1))^2 over 8 elements, the caller's 3 replaced.
__attribute__((noinline)) double fill(double x, std::vector<double> &v) {
  v.assign(8, 0.0);
  double s = 0;
  for (int i = 0; i < 8; i++) {
    v[i] = x * (i + 1);
    s += v[i] * v[i];
  }
  return s;
}

int main() {
  std::vector<double> v = {1, 2, 3}, dv(3, 0.0);
  double x = 0.6;
  double d = __enzyme_autodiff((void *)fill, enzyme_out, x, enzyme_dup, &v, &dv);
  double want = 0;
  for (int i = 1; i <= 8; i++)
    want += 2 * x * i * i;
  check_close("d/dx", d, want, 1e-12);
  return check_report();
}
