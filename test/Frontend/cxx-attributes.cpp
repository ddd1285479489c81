// Enzyme's attributes in C++: the [[enzyme::...]] spelling, on functions in a
// namespace, on a static and a non-static member function, on a function
// template (registered per instantiation), on a declaration defined later and
// on a global, and enzyme_function_like on a member of a namespace. Each
// inactive term contributes nothing: E'(x) = 3x^2 - 2 sin(2x).
// RUN: %clangxx_fplugin -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx_fplugin -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx_fplugin -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx_fplugin -O3 %s -o %t3 && %t3 | FileCheck %s
// RUN: %clangxx_enzyme -O2 %s -o %t4 && %t4 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"

extern int enzyme_out, enzyme_dup;
extern "C" double __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);

namespace phys {
[[enzyme::inactive]] double log_energy(double e);

struct Model {
  double k;
  [[enzyme::inactive]] static double trace(double x) { return 100 * x; }
  [[enzyme::inactive]] double report(double x) const { return k * x; }
};

template <typename T> [[enzyme::inactive]] T tmpl_noise(T x) { return 7 * x; }

// cos by a crude series: its derivative is taken from cos's rule, -sin.
[[enzyme_function_like("cos")]] double my_cos(double x) {
  return 1 - x * x / 2;
}
} // namespace phys

[[enzyme::inactive]] double sink;

double energy(double x) {
  phys::Model m{2};
  sink = x;
  return x * x * x + phys::log_energy(x) + phys::Model::trace(x) +
         m.report(x) + phys::tmpl_noise(x) + phys::my_cos(2 * x);
}

double phys::log_energy(double e) { return 5 * e; }

int main() {
  double x = 0.4;
  double want = 3 * x * x - 2 * sin(2 * x);
  check_close("reverse", __enzyme_autodiff((void *)energy, enzyme_out, x),
              want, 1e-12);
  check_close("forward", __enzyme_fwddiff((void *)energy, enzyme_dup, x, 1.0),
              want, 1e-12);
  return check_report();
}
