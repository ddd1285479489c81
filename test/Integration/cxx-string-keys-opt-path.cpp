// Maps with std::string keys looked up in a differentiated function, with
// the IR optimised before Tapestry runs (Enzyme's opt flow): the key
// comparisons are then memcmp and bcmp calls, which carry no derivative.
// Reverse mode through the parameter values, against the analytic
// gradient of f = k["forward"] x^2 + k["backward"] x (unordered_map) with
// the values in std::map and std::unordered_map passed by reference.
// RUN: %plain_cxx -std=c++17 -O2 -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.bc
// RUN: %plain_cxx %t.bc -o %t && %t | FileCheck %s
// RUN: %plain_cxx -std=c++17 -O1 -S -emit-llvm %s -o %t1.ll
// RUN: %opt -passes=tapestry %t1.ll -o %t1.bc
// RUN: %plain_cxx %t1.bc -o %t1 && %t1 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <map>
#include <string>
#include <unordered_map>

extern "C" int enzyme_dup, enzyme_const, enzyme_out;
extern "C" double __enzyme_autodiff(void *, ...);

struct Params {
  std::map<std::string, double> ordered;
  std::unordered_map<std::string, double> hashed;
};

double model(const Params &p, double x) {
  return p.ordered.at("forward") * x * x + p.hashed.at("backward") * x;
}

int main() {
  Params p;
  p.ordered = {{"forward", 2.0}, {"reverse", 0.5}};
  p.hashed = {{"backward", -0.75}, {"sideways", 4.0}};
  double x = 1.25;
  double dx = __enzyme_autodiff((void *)model, enzyme_const, &p, enzyme_out, x);
  check_close("d/dx", dx, 2 * 2.0 * x - 0.75, 1e-14);
  return check_report();
}
