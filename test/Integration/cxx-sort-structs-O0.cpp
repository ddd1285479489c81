// std::sort of a plain struct {double key, val;} at -O0: libstdc++'s
// sorting algorithms move it with memcpy in functions that never read it
// with its type (std::__adjust_heap, std::__insertion_sort), with the
// element's address coming out of iterator calls. Refused before (probe21a
// R5, "cannot tell what the memory this instruction copies holds"); the
// type analysis now also looks at a copy with the small callees inlined
// (plugin/Analysis/InlinedTypes.h). -O1 and above: cxx-stable-sort-structs.cpp.
// Expected derivative: f = sum over the 4 largest keys of key * (1 + i).
// RUN: %clangxx -std=c++17 -O0 -Wno-deprecated-declarations %s -o %t0 && %t0 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <algorithm>
#include <cmath>
#include <vector>

extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);

enum { N = 9 };

struct Item {
  double key, val;
};

double topk(const double *x) {
  std::vector<Item> v;
  for (int i = 0; i < N; i++)
    v.push_back({x[i], 1.0 + i});
  std::sort(v.begin(), v.end(),
            [](const Item &a, const Item &b) { return a.key > b.key; });
  double s = 0;
  for (int k = 0; k < 4; k++)
    s += v[k].key * v[k].val;
  return s;
}

int main() {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++)
    x[i] = std::sin(2.7 * i + 0.5);
  __enzyme_autodiff((void *)topk, enzyme_dup, x, dx);
  for (int i = 0; i < N; i++) {
    int above = 0;
    for (int j = 0; j < N; j++)
      above += x[j] > x[i];
    check_close("sort of structs at -O0", dx[i], above < 4 ? 1.0 + i : 0.0,
                1e-12);
  }
  return check_report();
}
