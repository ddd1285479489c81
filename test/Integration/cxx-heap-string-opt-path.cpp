// A std::string longer than 15 characters made and freed inside the
// differentiated function, on optimised IR (the opt path; -flto is the
// same): its characters are written by calls that get no derivative code
// (basic_string::_M_construct, _M_append), which store the string's heap
// block into the object but write nothing into the shadow object, so the
// shadow's data pointer still pointed at the shadow's small-string buffer.
// When the primal freed its heap block, the freed-shadow list freed that
// stack address ("free(): invalid pointer", probe21a C1). A pointer loaded
// from bytes such a call may write now has no shadow. In `weighted` a
// named record keeps a pointer to active data beside its std::string: that
// pointer keeps its shadow.
// Expected derivatives: E(k) = sum 1/k_i, dE/dk_i = -1/k_i^2;
// W(x) = sum w_i x_i^2 with w = {1, 2, 3}, dW/dx_i = 2 w_i x_i.
// RUN: %plain_cxx -std=c++17 -O2 -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.bc
// RUN: %plain_cxx %t.bc -o %t && %t | FileCheck %s
// RUN: %plain_cxx -std=c++17 -O1 -S -emit-llvm %s -o %t1.ll
// RUN: %opt -passes=tapestry %t1.ll -o %t1.bc
// RUN: %plain_cxx %t1.bc -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cstdio>
#include <string>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

double compliance(const double *k, int n) {
  double e = 0;
  for (int i = 0; i < n; i++)
    e += 1 / k[i];
  std::string rep(n * 10, '#');
  rep += " done";
  if (rep.size() > 100)
    std::puts(rep.c_str());
  return e;
}

struct Named {
  std::string name;
  const double *values;
};

__attribute__((noinline)) double weightedSum(const Named &r, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += (i + 1) * r.values[i] * r.values[i];
  return s;
}

double weighted(const double *x, int n) {
  Named r{std::string(n * 8, 'x'), x};
  r.name += " weights";
  double s = weightedSum(r, n);
  if (r.name.size() > 100)
    std::puts(r.name.c_str());
  return s;
}

int main() {
  double k[3] = {1, 2, 4}, dk[3] = {0, 0, 0};
  __enzyme_autodiff((void *)compliance, enzyme_dup, k, dk, enzyme_const, 3);
  for (int i = 0; i < 3; i++)
    check_close("dE/dk", dk[i], -1 / (k[i] * k[i]), 1e-12);
  double x[3] = {0.5, -1.5, 2.0}, dx[3] = {0, 0, 0};
  __enzyme_autodiff((void *)weighted, enzyme_dup, x, dx, enzyme_const, 3);
  for (int i = 0; i < 3; i++)
    check_close("dW/dx", dx[i], 2 * (i + 1) * x[i], 1e-12);
  return check_report();
}
