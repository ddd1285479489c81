// Optimised IR (the opt path; -flto is the same): std::vector of structs
// grown by push_back, then erase(remove_if(...)), inside the differentiated
// function. push_back writes the new element at begin + (end - begin)
// bytes, an offset the type analysis knows only as a multiple of 1; it took
// every byte of the vector's storage for a double's start, and the moved
// elements' adjoints came back as garbage (probe21a W2, W3: silent wrong
// numbers). A type at a stride shorter than itself now says nothing about
// where it is (Analysis/TypeAnalysis). Expected derivatives are analytic:
// f = sum_k (k + 1) key_k + sum over x_i >= 0 of x_i^2,
// g(t) = sum_i |p_i(t)|^2 over points {t_i, 2 t_i, t_i^2}.
// RUN: %plain_cxx -std=c++17 -O2 -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.bc
// RUN: %plain_cxx %t.bc -o %t && %t | FileCheck %s
// RUN: %plain_cxx -std=c++17 -O1 -S -emit-llvm %s -o %t1.ll
// RUN: %opt -passes=tapestry %t1.ll -o %t1.bc
// RUN: %plain_cxx %t1.bc -o %t1 && %t1 | FileCheck %s
// RUN: %plain_cxx -std=c++17 -O3 -S -emit-llvm %s -o %t3.ll
// RUN: %opt -passes=tapestry %t3.ll -o %t3.bc
// RUN: %plain_cxx %t3.bc -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <algorithm>
#include <array>
#include <vector>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

struct Item {
  double key;
  int id;
};
struct P {
  double x, w;
};

double f(const double *xs, int n) {
  std::vector<Item> v;
  for (int i = 0; i < n; i++)
    v.push_back({xs[i], i});
  double s = 0;
  for (std::size_t k = 0; k < v.size(); k++)
    s += (k + 1.0) * v[k].key;
  std::vector<P> ps;
  for (int i = 0; i < n; i++)
    ps.push_back({xs[i], xs[i] * xs[i]});
  ps.erase(std::remove_if(ps.begin(), ps.end(),
                          [](const P &p) { return p.x < 0; }),
           ps.end());
  for (const auto &p : ps)
    s += p.w;
  return s;
}

double g(const double *t, int n) {
  std::vector<std::array<double, 3>> pts;
  for (int i = 0; i < n; i++)
    pts.push_back({t[i], 2 * t[i], t[i] * t[i]});
  double s = 0;
  for (const auto &p : pts)
    s += p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
  return s;
}

int main() {
  enum { N = 11 };
  double x[N], dx[N] = {0}, dt[N] = {0};
  for (int i = 0; i < N; i++)
    x[i] = 0.7 * i - 3.2;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, (int)N);
  __enzyme_autodiff((void *)g, enzyme_dup, x, dt, enzyme_const, (int)N);
  for (int i = 0; i < N; i++) {
    check_close("push_back and remove_if", dx[i],
                (i + 1.0) + (x[i] >= 0 ? 2 * x[i] : 0.0), 1e-12);
    check_close("push_back of std::array", dt[i],
                10 * x[i] + 4 * x[i] * x[i] * x[i], 1e-12);
  }
  return check_report();
}
