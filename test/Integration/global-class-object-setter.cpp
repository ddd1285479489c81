// A class object kept in a global that holds a pointer to differentiated
// data, set and read by its member functions (a setter and an accessor),
// with a call the analysis cannot see through in between. The member
// functions get the global's address; the analysis follows it into them
// (as the differentiated code inlines them), sees that every read follows
// the store, and gives the global a shadow. Was an error ("... its address
// is given to 'Holder::set' ..."), and before that a silent gradient of 0
// (review30 m4). f(x) = sum_i x_i^2 w_i + x_0 x_{n-1}: df/dx_i = 2 x_i w_i
// (+ x_{n-1} for i = 0, + x_0 for i = n - 1); reverse and forward.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cstdio>

extern "C" int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);

class Holder {
public:
  void set(const double *q, int m) {
    p = q;
    n = m;
  }
  double at(int i) const { return p[i]; }
  int size() const { return n; }

private:
  const double *p = nullptr;
  int n = 0;
};
static Holder holder;

double weightedSum(const double *x, const double *w, int n) {
  holder.set(x, n);
  std::fflush(stdout);
  double s = 0;
  for (int i = 0; i < holder.size(); i++)
    s += holder.at(i) * holder.at(i) * w[i];
  return s + holder.at(0) * holder.at(holder.size() - 1);
}

int main() {
  enum { N = 4 };
  double x[N] = {0.5, -1.25, 2.0, 0.75}, w[N] = {1.5, 0.5, -2.0, 3.0};
  double dx[N] = {0};
  __enzyme_autodiff((void *)weightedSum, enzyme_dup, x, dx, enzyme_const, w,
                    enzyme_const, N);
  double want[N];
  for (int i = 0; i < N; i++)
    want[i] = 2 * x[i] * w[i];
  want[0] += x[N - 1];
  want[N - 1] += x[0];
  for (int i = 0; i < N; i++) {
    char what[32];
    std::snprintf(what, sizeof what, "reverse df/dx[%d]", i);
    check_close(what, dx[i], want[i], 1e-12);
    double t[N] = {0};
    t[i] = 1;
    std::snprintf(what, sizeof what, "forward df/dx[%d]", i);
    check_close(what,
                __enzyme_fwddiff((void *)weightedSum, enzyme_dup, x, t,
                                 enzyme_const, w, enzyme_const, N),
                want[i], 1e-12);
  }
  return check_report();
}
