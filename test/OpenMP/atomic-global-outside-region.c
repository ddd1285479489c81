// Globals written only by atomic updates, outside any parallel region:
// '#pragma omp atomic' += and C11 _Atomic double +=. An atomic update
// writes a float like a store, so the global gets a shadow; before, it was
// taken for a constant and the gradient was a silent 0 (review40 F1).
// Reverse and forward mode against the analytic d/dx (x^2 + x y) = 2x + y.
// RUN: %clang -O0 -fopenmp %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 -fopenmp %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

double energy;
double omp_atomic(double x, double y) {
#pragma omp atomic
  energy += x * x;
#pragma omp atomic
  energy += x * y;
  return energy;
}

_Atomic double total;
double c11_atomic(double x, double y) {
  total += x * x;
  total += x * y;
  return total;
}

int main(void) {
  double x = 0.7, y = -1.3;
  energy = 0.5;
  check_close("omp atomic reverse",
              __enzyme_autodiff((void *)omp_atomic, enzyme_out, x,
                                enzyme_const, y),
              2 * x + y, 1e-12);
  energy = 0.5;
  check_close("omp atomic forward",
              __enzyme_fwddiff((void *)omp_atomic, enzyme_dup, x, 1.0,
                               enzyme_const, y),
              2 * x + y, 1e-12);
  total = 0.25;
  check_close("C11 _Atomic reverse",
              __enzyme_autodiff((void *)c11_atomic, enzyme_out, x,
                                enzyme_const, y),
              2 * x + y, 1e-12);
  total = 0.25;
  check_close("C11 _Atomic forward",
              __enzyme_fwddiff((void *)c11_atomic, enzyme_dup, x, 1.0,
                               enzyme_const, y),
              2 * x + y, 1e-12);
  return check_report();
}
