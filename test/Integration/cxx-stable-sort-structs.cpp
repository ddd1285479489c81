// std::stable_sort, std::inplace_merge and std::stable_partition move the
// elements through a temporary buffer from operator new(std::nothrow),
// which had no shadow: the adjoints of the moved keys were lost or landed
// on the wrong elements (probe21a W1, silent wrong numbers), and a
// std::pair<double, int> key was freed twice at -O0. The buffer is a heap
// block now (Core/AllocationFunctions). Expected derivatives are analytic:
// f = sum_k (k + 1) key_(k) over the sorted keys (df/dx_i = 1 + rank of
// x_i), g = sum over the 4 largest keys of key * (1 + i). At -O0 only the
// pairs: moves of a plain struct there are refused (cxx-sort-structs-O0.cpp,
// XFAIL).
// RUN: %clangxx -std=c++17 -O0 -Wno-deprecated-declarations %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 -Wno-deprecated-declarations %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 -Wno-deprecated-declarations %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 -Wno-deprecated-declarations %s -o %t3 && %t3 | FileCheck %s
// RUN: %clangxx -std=c++17 -O0 -Wno-deprecated-declarations -fsanitize=address -fno-omit-frame-pointer %s -o %ta && %ta | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

enum { N = 23 };

static bool byKey(const std::pair<double, int> &a,
                  const std::pair<double, int> &b) {
  return a.first < b.first;
}

double ranked(const double *x) {
  std::vector<std::pair<double, int>> v;
  for (int i = 0; i < N; i++)
    v.push_back({x[i], i});
  std::stable_sort(v.begin(), v.end(), byKey);
  double s = 0;
  for (std::size_t k = 0; k < v.size(); k++)
    s += (k + 1.0) * v[k].first;
  return s;
}

#ifdef __OPTIMIZE__
struct Item {
  double key, val;
};

double topk(const double *x) {
  std::vector<Item> v;
  for (int i = 0; i < N; i++)
    v.push_back({x[i], 1.0 + i});
  // Two sorted halves merged in place, then partitioned stably by sign and
  // sorted again: three algorithms with a temporary buffer.
  auto desc = [](const Item &a, const Item &b) { return a.key > b.key; };
  std::stable_sort(v.begin(), v.begin() + N / 2, desc);
  std::stable_sort(v.begin() + N / 2, v.end(), desc);
  std::inplace_merge(v.begin(), v.begin() + N / 2, v.end(), desc);
  std::stable_partition(v.begin(), v.end(),
                        [](const Item &a) { return a.key > 0; });
  double s = 0;
  for (int k = 0; k < 4; k++)
    s += v[k].key * v[k].val;
  return s;
}
#endif

int main() {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++)
    x[i] = std::sin(2.7 * i + 0.5);
  __enzyme_autodiff((void *)ranked, enzyme_dup, x, dx);
  for (int i = 0; i < N; i++) {
    int rank = 0;
    for (int j = 0; j < N; j++)
      rank += x[j] < x[i];
    check_close("stable_sort of pairs", dx[i], rank + 1, 1e-12);
  }
#ifdef __OPTIMIZE__
  double dy[N] = {0}, t[N], want = 0;
  __enzyme_autodiff((void *)topk, enzyme_dup, x, dy);
  for (int i = 0; i < N; i++) {
    int above = 0;
    for (int j = 0; j < N; j++)
      above += x[j] > x[i];
    double d = above < 4 ? 1.0 + i : 0.0;
    check_close("merge and partition of structs", dy[i], d, 1e-12);
    t[i] = 0.1 * i - 1;
    want += t[i] * d;
  }
  check_close("forward", __enzyme_fwddiff((void *)topk, enzyme_dup, x, t),
              want, 1e-12);
#endif
  return check_report();
}
