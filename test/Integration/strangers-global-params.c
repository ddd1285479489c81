// A user's program with its model coefficients in a global array (a
// lookup table of a piecewise-polynomial material law, read but never
// differentiated) and the gradient of the total stress energy with respect
// to the strains. Analytic: d/de_i of sum_k c_k e^k / k over the segment
// e_i falls in.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O3 -march=native -ffast-math %s -lm -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);

// Coefficients c1..c3 of each of 3 strain segments.
double law[3][3] = {{1.0, 0.5, 0.1}, {0.8, 0.2, -0.05}, {1.2, -0.3, 0.02}};
const double breaks[2] = {-0.2, 0.3};

static int segment(double e) { return e < breaks[0] ? 0 : e < breaks[1] ? 1 : 2; }

double stored_energy(const double *strain, int n) {
  double W = 0;
  for (int i = 0; i < n; ++i) {
    const double *c = law[segment(strain[i])];
    double e = strain[i];
    W += c[0] * e + c[1] * e * e / 2 + c[2] * e * e * e / 3;
  }
  return W;
}

int main(void) {
  double e[8], de[8] = {0};
  for (int i = 0; i < 8; ++i)
    e[i] = -0.5 + 0.13 * i;
  __enzyme_autodiff((void *)stored_energy, enzyme_dup, e, de, enzyme_const, 8);
  for (int i = 0; i < 8; ++i) {
    const double *c = law[segment(e[i])];
    check_close("dW/de", de[i], c[0] + c[1] * e[i] + c[2] * e[i] * e[i],
                1e-13);
  }
  return check_report();
}
