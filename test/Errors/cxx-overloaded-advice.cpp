// Advice that names a C++ function's address casts it to the function's
// exact type first, because the name alone does not compile when the
// function is overloaded ("address of overloaded function"). The advice
// is checked word for word, then pasted into the program (PASTED): it
// compiles, and the registered derivative gives the analytic derivative.
// RUN: not %clangxx -O1 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clangxx -O0 -DPASTED %s -o %t0 && %t0 | FileCheck %s --check-prefix=OUT
// RUN: %clangxx -O2 -DPASTED %s -o %t2 && %t2 | FileCheck %s --check-prefix=OUT
// CHECK: error: tapestry: cannot differentiate 'energy(double)': no derivative is known for external function 'phys::force(double)'
// CHECK-SAME: 'void *__enzyme_register_derivative_phys__force[2] = {(void*)(double (*)(double))phys::force, (void*)fwd};'
// CHECK-SAME: 'void *__enzyme_inactivefn[] = {(void*)(double (*)(double))phys::force};'
// A function template is named with its arguments, without its result
// type: the suffix of the registration, too.
// CHECK: no derivative is known for external function 'double phys::damp<double>(double, int)'
// CHECK-SAME: 'void *__enzyme_register_gradient_phys__damp_double[3] = {(void*)(double (*)(double, int))phys::damp<double>, (void*)aug, (void*)rev};'
// OUT-NOT: FAIL
// OUT: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <tapestry/enzyme.h>

namespace phys {
double force(double x);
float force(float x);
template <class T> T damp(T x, int k);
} // namespace phys

double energy(double x) { return phys::force(x) + phys::damp<double>(x, 2); }

#ifdef PASTED
namespace phys {
double force(double x) { return x * x * x; }
float force(float x) { return x * x; }
template <class T> T damp(T x, int k) { return k * x; }
} // namespace phys
static double force_fwd(double x, double dx) { return 3 * x * x * dx; }
void *__enzyme_register_derivative_phys__force[2] = {
    (void *)(double (*)(double))phys::force, (void *)force_fwd};
#endif

int main() {
  double x = 1.5;
  double d = __enzyme_fwddiff((void *)energy, enzyme_dup, x, 1.0);
  check_close("d energy/dx = 3x^2 + 2", d, 3 * x * x + 2, 1e-12);
  return check_report();
}
