// A C++ simulation keeps its states, struct Stage { int iter; const double
// *coef; double x, v; } (padding after iter, a pointer read through), in a
// std::vector by push_back and copies every fifth into another vector by
// element assignment. From optimised IR the int and its padding move as
// one i64, and std::vector's growth reaches the elements through a byte
// offset (end - begin) that libstdc++ divides exactly by the element size:
// the type analysis took that offset as any multiple of 1 and smeared
// every member's type over every byte, then refused the copy ("cannot tell
// what the memory this instruction copies holds", probe24a R1). The exact
// division now says the offset steps by whole elements. Expected: central
// differences.
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %plain_cxx -O2 -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.bc
// RUN: %plain_cxx -O2 %t.bc -o %to && %to | FileCheck %s
// RUN: %plain_cxx -O3 -S -emit-llvm %s -o %t3.ll
// RUN: %opt -passes=tapestry %t3.ll -o %t3.bc
// RUN: %plain_cxx -O2 %t3.bc -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <cmath>
#include <vector>

extern "C" {
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
}

struct Stage {
  int iter;
  const double *coef;
  double x, v;
};

static Stage advance(const Stage &s) {
  Stage n = s;
  n.v = s.v - 0.1 * s.coef[0] * std::sin(s.x);
  n.x = s.x + 0.1 * n.v;
  n.iter = s.iter + 1;
  return n;
}

double run(const Stage *s0, int steps) {
  std::vector<Stage> hist;
  Stage s = *s0;
  for (int k = 0; k < steps; k++) {
    hist.push_back(s);
    s = advance(s);
  }
  std::vector<Stage> every5(hist.size() / 5 + 1);
  for (size_t k = 0; k < hist.size(); k += 5)
    every5[k / 5] = hist[k];
  double L = s.x * s.x;
  for (const Stage &h : every5)
    L += h.v * h.v;
  return L;
}

int main() {
  double coef[1] = {3.0}, dcoef[1] = {0};
  Stage s{0, coef, 0.6, 0.1}, ds{0, dcoef, 0, 0};
  __enzyme_autodiff((void *)run, enzyme_dup, &s, &ds, enzyme_const, 30);
  const double h = 1e-6;
  Stage a = s, b = s;
  a.x += h;
  b.x -= h;
  check_close("dx", ds.x, (run(&a, 30) - run(&b, 30)) / (2 * h), 1e-7);
  a = s;
  b = s;
  a.v += h;
  b.v -= h;
  check_close("dv", ds.v, (run(&a, 30) - run(&b, 30)) / (2 * h), 1e-7);
  double cp[1] = {3.0 + h}, cm[1] = {3.0 - h};
  a = s;
  b = s;
  a.coef = cp;
  b.coef = cm;
  check_close("dcoef", dcoef[0], (run(&a, 30) - run(&b, 30)) / (2 * h), 1e-7);
  return check_report();
}
