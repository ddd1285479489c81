// A std::vector<std::function<double(const double *)>> of lambdas that
// capture locals by reference, built and called inside the differentiated
// function, on optimised IR (the opt path; -flto is the same). std::function
// keeps a small lambda in its own storage, and optimised code stores the
// captured reference there as an integer (store i64 ptrtoint(&w)); the
// shadow storage got nothing, the lambda's shadow reference was null, and
// the gradient segfaulted (probe21a C2). An address stored as an integer
// into shadowed memory now has its shadow stored beside it, in reverse and
// forward mode. `pulled` captures the active pointer itself by reference.
// Expected derivatives: J(x) = w x0^2 + exp(x1 - c), dJ/dx0 = 2 w x0,
// dJ/dx1 = exp(x1 - c); K(x) = x0 x1 + sin(x0), dK/dx0 = x1 + cos(x0),
// dK/dx1 = x0.
// RUN: %plain_cxx -std=c++17 -O2 -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.bc
// RUN: %plain_cxx %t.bc -o %t && %t | FileCheck %s
// RUN: %plain_cxx -std=c++17 -O1 -S -emit-llvm %s -o %t1.ll
// RUN: %opt -passes=tapestry %t1.ll -o %t1.bc
// RUN: %plain_cxx %t1.bc -o %t1 && %t1 | FileCheck %s
// RUN: %plain_cxx -std=c++17 -O3 -S -emit-llvm %s -o %t3.ll
// RUN: %opt -passes=tapestry %t3.ll -o %t3.bc
// RUN: %plain_cxx %t3.bc -o %t3 && %t3 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t4 && %t4 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cmath>
#include <functional>
#include <vector>

extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

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

double pulled(const double *x) {
  std::vector<std::function<double()>> terms;
  terms.emplace_back([&] { return x[0] * x[1]; });
  terms.emplace_back([&] { return std::sin(x[0]); });
  double K = 0;
  for (const auto &t : terms)
    K += t();
  return K;
}

int main() {
  double x[2] = {0.7, 1.2}, dx[2] = {0, 0};
  __enzyme_autodiff((void *)cost, enzyme_dup, x, dx);
  check_close("dJ/dx0", dx[0], 2 * 3.0 * x[0], 1e-12);
  check_close("dJ/dx1", dx[1], std::exp(x[1] - 0.5), 1e-12);
  double e0[2] = {1, 0}, e1[2] = {0, 1};
  check_close("tangent J x0", __enzyme_fwddiff((void *)cost, enzyme_dup, x, e0),
              2 * 3.0 * x[0], 1e-12);
  check_close("tangent J x1", __enzyme_fwddiff((void *)cost, enzyme_dup, x, e1),
              std::exp(x[1] - 0.5), 1e-12);
  double dk[2] = {0, 0};
  __enzyme_autodiff((void *)pulled, enzyme_dup, x, dk);
  check_close("dK/dx0", dk[0], x[1] + std::cos(x[0]), 1e-12);
  check_close("dK/dx1", dk[1], x[0], 1e-12);
  check_close("tangent K x0",
              __enzyme_fwddiff((void *)pulled, enzyme_dup, x, e0),
              x[1] + std::cos(x[0]), 1e-12);
  return check_report();
}
