// XFAIL: *
// Known bug (probe21a C2, a crash): on optimised IR (the opt path; -flto is
// the same), a std::vector<std::function<double(const double *)>> holding
// two lambdas that capture locals by reference, built and called inside
// the differentiated function, segfaults in the vector's destroy loop
// (stl_construct.h). Cause not found yet. With -fpass-plugin (clang's
// pipeline) the same program is right. Expected derivative:
// J(x) = w x0^2 + exp(x1 - c), dJ/dx0 = 2 w x0, dJ/dx1 = exp(x1 - c).
// RUN: %plain_cxx -std=c++17 -O2 -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.bc
// RUN: %plain_cxx %t.bc -o %t && %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cmath>
#include <functional>
#include <vector>

extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);

double cost(const double *x) {
  double w = 3.0, c = 0.5;
  std::vector<std::function<double(const double *)>> terms;
  terms.emplace_back([&](const double *p) { return w * p[0] * p[0]; });
  terms.emplace_back([&](const double *p) { return std::exp(p[1] - c); });
  double J = 0;
  for (const auto &t : terms)
    J += t(x);
  return J;
}

int main() {
  double x[2] = {0.7, 1.2}, dx[2] = {0, 0};
  __enzyme_autodiff((void *)cost, enzyme_dup, x, dx);
  check_close("dJ/dx0", dx[0], 2 * 3.0 * x[0], 1e-12);
  check_close("dJ/dx1", dx[1], std::exp(x[1] - 0.5), 1e-12);
  return check_report();
}
