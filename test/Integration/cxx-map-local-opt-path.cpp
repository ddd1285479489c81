// A local std::map<int, double> filled and read in a differentiated
// function, with the IR optimised before Tapestry runs (Enzyme's opt flow,
// or -flto). Found by the recursive-data-structures probe (Dec 2026).
// The gradient aborted with "free(): double free detected" (every snapshot
// from Nov 2026 to session 21): -O2 inlines _M_emplace_hint_unique into f,
// and with it the free of a new node when its key already exists; the
// derivative deferred that free to its reverse sweep, which frees the
// block where it undoes the allocation, whichever path the forward sweep
// took, while the node linked into the tree on the other path was freed
// by the kept call of the destructor (_M_erase). A free is deferred only
// if the block is freed on every path or nothing else can free it
// (Integration/block-freed-on-some-paths.c). With -fplugin (Tapestry before
// the optimiser) it was right at every -O level (cpp-stdlib-maps tests).
// Expected: d/dx [x * 3] = 3, and a map with std::string keys:
// d/dx [x^2 + 2x] = 2x + 2.
// RUN: %plain_cxx -std=c++17 -O2 -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.bc
// RUN: %plain_cxx %t.bc -o %t && %t | FileCheck %s
// RUN: %plain_cxx -std=c++17 -O3 -S -emit-llvm %s -o %t3.ll
// RUN: %opt -passes=tapestry %t3.ll -o %t3.bc
// RUN: %plain_cxx -fsanitize=address %t3.bc -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <map>
#include <string>

extern "C" int enzyme_out;
extern "C" double __enzyme_autodiff(void *, ...);

double f(double x) {
  std::map<int, double> c;
  c[1] = x;
  c[2] = 3.0;
  return c[1] * c[2];
}

double h(double x) {
  std::map<std::string, double> terms;
  terms["square"] = x * x;
  terms["linear"] = 2 * x;
  terms["square"] *= 1; // found: no new node
  double s = 0;
  for (const auto &t : terms)
    s += t.second;
  return s;
}

int main() {
  check_close("df/dx", __enzyme_autodiff((void *)f, enzyme_out, 2.0), 3.0, 0);
  check_close("dh/dx", __enzyme_autodiff((void *)h, enzyme_out, 1.5), 5.0,
              1e-15);
  return check_report();
}
