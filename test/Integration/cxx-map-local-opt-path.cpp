// A local std::map<int, double> filled and read in a differentiated
// function, with the IR optimised before Tapestry runs (Enzyme's opt flow,
// or -flto). Found by the recursive-data-structures probe (Dec 2026).
// XFAIL: *
// Known bug: the gradient aborts with "free(): double free detected" (the
// same with std::string keys, and in every snapshot since at least Nov
// 2026). The map's destructor, _Rb_tree::_M_erase, is recursive: -O2
// inlines one level of it into f, whose frees of the left spine's nodes the
// derivative defers to the end of its reverse sweep, while the kept call of
// _M_erase frees nodes in its augmented forward; a node is freed by both.
// With -fplugin (Tapestry before the optimiser) it is right at every -O
// level (cpp-stdlib-maps tests). Expected: d/dx [x * 3] = 3.
// RUN: %plain_cxx -std=c++17 -O2 -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.bc
// RUN: %plain_cxx %t.bc -o %t && %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <map>

extern "C" int enzyme_out;
extern "C" double __enzyme_autodiff(void *, ...);

double f(double x) {
  std::map<int, double> c;
  c[1] = x;
  c[2] = 3.0;
  return c[1] * c[2];
}

int main() {
  check_close("df/dx", __enzyme_autodiff((void *)f, enzyme_out, 2.0), 3.0, 0);
  return check_report();
}
