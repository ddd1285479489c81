// A C99 user's program with double complex: the transfer function of a
// second-order filter H(s) = w^2 / (s^2 + 2 zeta w s + w^2) at s = i f,
// the gain |H|^2 summed over frequencies, differentiated with respect to
// w and zeta (enzyme_out). cabs, complex multiply and divide (which clang
// lowers with calls to __muldc3 / __divdc3 at -O0). Expected values are
// central finite differences.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O3 -march=native -ffast-math %s -lm -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <complex.h>

typedef struct {
  double dw, dzeta;
} G2;
extern int enzyme_out, enzyme_const;
extern G2 __enzyme_autodiff(void *, ...);

double gain(double w, double zeta, int nf) {
  double s = 0;
  for (int k = 0; k < nf; ++k) {
    double complex sv = I * (0.2 + 0.3 * k);
    double complex H = w * w / (sv * sv + 2 * zeta * w * sv + w * w);
    double m = cabs(H);
    s += m * m;
  }
  return s;
}

int main(void) {
  double w = 1.3, zeta = 0.4;
  G2 g = __enzyme_autodiff((void *)gain, enzyme_out, w, enzyme_out, zeta,
                           enzyme_const, 10);
  check_close("d/dw", g.dw, CENTRAL_DIFF(gain(t_, zeta, 10), w, 1e-6), 1e-6);
  check_close("d/dzeta", g.dzeta, CENTRAL_DIFF(gain(w, t_, 10), zeta, 1e-6),
              1e-6);
  return check_report();
}
