// A chemistry user's C++ program: Arrhenius rate constants whose
// parameters live in a std::map<std::string, double> inside a Params
// struct, and the helper takes the struct by value (so the map is copied
// on every call, as careless C++ often does). The objective sums the
// rates k0 exp(-Ea / T) over a set of temperatures; gradient with respect
// to (k0, Ea) stored in the map.
// Analytic: d/dk0 = sum_T exp(-Ea/T), d/dEa = -sum_T k0/T exp(-Ea/T).
// The map's copy is libstdc++'s recursive _Rb_tree::_M_copy, which stays a
// call and returns the root of the new tree: its split returns the root's
// shadow too (DiffRequest::returnsShadow). Until then this program was
// refused with 9 errors at every -O level.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cmath>
#include <map>
#include <string>
extern "C" int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff(void *, ...);

struct Params {
  std::map<std::string, double> v;
};

static double rate(Params p, double temp) {
  return p.v["k0"] * std::exp(-p.v["ea"] / temp);
}

double total_rate(const double *theta, const double *temps, int n) {
  Params p;
  p.v["k0"] = theta[0];
  p.v["ea"] = theta[1];
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += rate(p, temps[i]);
  return s;
}

int main() {
  const int n = 4;
  double theta[2] = {2.5e3, 1.2e3}, dtheta[2] = {0, 0};
  double temps[n] = {300.0, 350.0, 420.0, 510.0};
  __enzyme_autodiff((void *)total_rate, enzyme_dup, theta, dtheta,
                    enzyme_const, temps, enzyme_const, n);
  double wk = 0, we = 0;
  for (int i = 0; i < n; ++i) {
    double e = std::exp(-theta[1] / temps[i]);
    wk += e;
    we -= theta[0] / temps[i] * e;
  }
  check_close("d/dk0", dtheta[0], wk, 1e-12);
  check_close("d/dEa", dtheta[1], we, 1e-12);
  return check_report();
}
