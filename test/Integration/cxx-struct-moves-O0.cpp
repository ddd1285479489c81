// Structs moved by libstdc++'s algorithms in a differentiated function at
// -O0, where each move is a memcpy whose addresses come out of iterator
// calls (operator+, operator*): std::sort with a comparator (heap sort and
// insertion sort), std::partial_sort, std::nth_element, std::reverse,
// std::rotate, std::swap of elements, std::priority_queue of structs,
// vector::insert at the front. Before, -O0 was refused ("cannot tell what
// the memory this instruction copies holds" in std::__adjust_heap): the
// type analysis follows addresses into callees but not out of a callee's
// result; now it also looks at a copy of the function with its small
// callees inlined (plugin/Analysis/InlinedTypes.h). Expected values are
// analytic.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <algorithm>
#include <cmath>
#include <queue>
#include <vector>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

enum { N = 20 };

struct Sample {
  double w, y;
};

struct ByW {
  bool operator()(const Sample &a, const Sample &b) const { return a.w < b.w; }
};

// f1: the 5 smallest weights, each times its own y = x_i^2 / 2, and by
// position k + 1. df/dx_i = (k + 1) (x_i^2 / 2 + x_i^2) = 1.5 (k + 1) x_i^2
// for the element at sorted position k < 5.
double smallestFive(const double *x) {
  std::vector<Sample> v;
  for (int i = 0; i < N; i++)
    v.push_back({x[i], 0.5 * x[i] * x[i]});
  std::partial_sort(v.begin(), v.begin() + 5, v.end(), ByW());
  double s = 0;
  for (int k = 0; k < 5; k++)
    s += (k + 1) * v[k].w * v[k].y;
  return s;
}

// f2: the median element's w * y after nth_element, plus the reversed,
// rotated order weighting: g = sum_k c_k * v'[k].y, v' = rotate(reverse(v), 3)
// with c_k = k + 1. v'[k] = v[(N - 1) - ((k + 3) % N)].
double medianAndOrder(const double *x) {
  std::vector<Sample> v;
  for (int i = 0; i < N; i++)
    v.push_back({x[i], x[i] * x[i] * x[i]});
  std::vector<Sample> u = v;
  std::reverse(u.begin(), u.end());
  std::rotate(u.begin(), u.begin() + 3, u.end());
  std::swap(u[0], u[1]);
  double s = 0;
  for (int k = 0; k < N; k++)
    s += (k + 1) * u[k].y;
  std::nth_element(v.begin(), v.begin() + N / 2, v.end(), ByW());
  return s + v[N / 2].w * v[N / 2].y;
}

// f3: a max-heap of samples by w; pop the 3 largest, sum of w * y with
// y = sin(x_i).
double heapTop(const double *x) {
  std::priority_queue<Sample, std::vector<Sample>, ByW> q;
  for (int i = 0; i < N; i++)
    q.push({x[i], std::sin(x[i])});
  double s = 0;
  for (int k = 0; k < 3; k++) {
    s += q.top().w * q.top().y;
    q.pop();
  }
  return s;
}

// f4: inserting at the front shifts every sample (memmove at -O0):
// sum_i (i + 1) * v[i].w * v[i].w where v is x in reverse order.
double frontInserts(const double *x) {
  std::vector<Sample> v;
  for (int i = 0; i < N; i++)
    v.insert(v.begin(), Sample{x[i], 0.0});
  double s = 0;
  for (int i = 0; i < N; i++)
    s += (i + 1) * v[i].w * v[i].w;
  return s;
}

static int rankOf(const double *x, int i) {
  int r = 0;
  for (int j = 0; j < N; j++)
    r += x[j] < x[i];
  return r;
}

int main() {
  double x[N];
  for (int i = 0; i < N; i++)
    x[i] = 1.0 + 0.5 * std::sin(1.7 * i + 0.3) + 0.01 * i;

  double d1[N] = {0}, d2[N] = {0}, d3[N] = {0}, d4[N] = {0};
  __enzyme_autodiff((void *)smallestFive, enzyme_dup, x, d1);
  __enzyme_autodiff((void *)medianAndOrder, enzyme_dup, x, d2);
  __enzyme_autodiff((void *)heapTop, enzyme_dup, x, d3);
  __enzyme_autodiff((void *)frontInserts, enzyme_dup, x, d4);

  // Where each x_i lands in u = swap01(rotate(reverse(v), 3)).
  int posOf[N];
  for (int k = 0; k < N; k++)
    posOf[(N - 1) - ((k + 3) % N)] = k;
  for (int i = 0; i < N; i++) {
    int r = rankOf(x, i);
    double want1 = r < 5 ? 1.5 * (r + 1) * x[i] * x[i] : 0.0;
    check_close("partial_sort", d1[i], want1, 1e-12);
    int k = posOf[i];
    int kk = k == 0 ? 1 : k == 1 ? 0 : k;
    double want2 = (kk + 1) * 3 * x[i] * x[i];
    if (r == N / 2)
      want2 += 4 * x[i] * x[i] * x[i];
    check_close("reverse, rotate, swap, nth_element", d2[i], want2, 1e-12);
    double want3 =
        r >= N - 3 ? std::sin(x[i]) + x[i] * std::cos(x[i]) : 0.0;
    check_close("priority_queue", d3[i], want3, 1e-12);
    double want4 = 2.0 * (N - i) * x[i];
    check_close("insert at the front", d4[i], want4, 1e-12);
  }
  return check_report();
}
