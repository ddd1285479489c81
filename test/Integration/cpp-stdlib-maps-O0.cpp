// std::map lookups at -O0: the same program as cpp-stdlib-io-maps.cpp's
// map_at, unoptimised. The node construction helper
// std::__new_allocator<_Rb_tree_node<pair<const int, double>>>::construct
// is differentiated on its own, and the move of std::tuple<int&&> inside it
// is a memcpy of 8 bytes whose content (a pointer) is read with a type only
// six calls down (pair's piecewise constructor, std::get, _M_head, ...):
// once rejected ("cannot tell what the memory this instruction copies
// holds"); the type analysis now looks deeper into callees before giving up.
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <map>

extern "C" double __enzyme_autodiff(void *, ...);

/* m[1] = x, m[2] = x^2 + 3x: x^3 + 3x^2 */
double map_at(double x) {
  std::map<int, double> m;
  m[1] = x;
  m[2] = x * x;
  m.at(2) += 3 * x;
  return m.at(1) * m[2];
}

int main() {
  double x = 1.3;
  check_close("map_at", __enzyme_autodiff((void *)map_at, x),
              3 * x * x + 6 * x, 1e-12);
  return check_report();
}
