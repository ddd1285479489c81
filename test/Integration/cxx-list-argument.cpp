// A caller's std::list<double>, passed enzyme_dup with a shadow list of the
// same length, relinked inside the function: push_front/push_back, splice
// of a local list, reverse, sort (a permutation by value), erase, pop.
// std::list links its nodes in libstdc++.so (_M_hook, _M_unhook,
// _M_transfer, _M_reverse), which the derivative repeats on the shadow
// nodes: those calls were refused as "no derivative is known for external
// function 'std::__detail::_List_node_base::_M_hook(...)'". Each caller
// element's node keeps its value (nodes are moved, not copied), so walking
// the two lists side by side after the call pairs each element with its
// adjoint. Checked against central finite differences, and in forward mode.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cmath>
#include <iterator>
#include <list>

extern int enzyme_dup, enzyme_const;
extern "C" double __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);

// The elements' weights depend on where they end up.
double relink(std::list<double> &c, double x) {
  c.push_front(x * x);
  c.push_back(std::sin(x));
  std::list<double> local{2 * x, x + 0.25};
  auto mid = c.begin();
  std::advance(mid, 2);
  c.splice(mid, local);
  c.reverse();
  c.sort();
  c.erase(std::next(c.begin())); // the second smallest
  c.pop_back();                  // the largest
  double s = 0, w = 1;
  for (double v : c) {
    s += w * v * v;
    w += 0.5;
  }
  return s;
}

static const double Init[] = {0.9, -0.3, 1.7, 0.4, -1.2, 2.6};
enum { N = sizeof(Init) / sizeof(Init[0]) };

static double primal(const double *v, double x) {
  std::list<double> c(v, v + N);
  return relink(c, x);
}

int main() {
  double x = 0.6, h = 1e-6;
  std::list<double> c(Init, Init + N), dc(N, 0.0);
  // x is active: its adjoint is the result.
  double dx = __enzyme_autodiff((void *)relink, enzyme_dup, &c, &dc, x);
  {
    double v[N];
    for (int k = 0; k < N; ++k)
      v[k] = Init[k];
    double fd = (primal(v, x + h) - primal(v, x - h)) / (2 * h);
    check_close("reverse d/dx", dx, fd, 1e-6);
  }
  check_close("primal list length", c.size(), N + 4 - 2, 0);
  // Walk both lists side by side: each caller element is found by value.
  auto s = dc.begin();
  int found = 0;
  for (auto p = c.begin(); p != c.end() && s != dc.end(); ++p, ++s)
    for (int i = 0; i < N; ++i)
      if (*p == Init[i]) {
        double vp[N], vm[N];
        for (int k = 0; k < N; ++k)
          vp[k] = vm[k] = Init[k];
        vp[i] += h;
        vm[i] -= h;
        double fd = (primal(vp, x) - primal(vm, x)) / (2 * h);
        check_close("d/dc[i] beside its element", *s, fd, 1e-6);
        ++found;
      }
  check_close("caller elements kept", found, N - 2, 0);
  {
    double v[N];
    for (int k = 0; k < N; ++k)
      v[k] = Init[k];
    double fd = (primal(v, x + h) - primal(v, x - h)) / (2 * h);
    std::list<double> c2(Init, Init + N), t2(N, 0.0);
    double d = __enzyme_fwddiff((void *)relink, enzyme_dup, &c2, &t2, x, 1.0);
    check_close("forward d/dx", d, fd, 1e-6);
  }
  return check_report();
}
