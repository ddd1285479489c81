// A C++ user's program with std::complex<double>: a polynomial with real
// coefficients evaluated at a complex point by Horner's rule, and the
// squared modulus |p(z)|^2 differentiated with respect to the coefficients
// and the real and imaginary parts of z. Analytic: with w = p(z),
// d/dc_k = 2 Re(conj(w) z^k), d/dx = 2 Re(conj(w) p'(z)),
// d/dy = 2 Re(conj(w) i p'(z)).
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 -march=native -ffast-math %s -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <complex>

using cd = std::complex<double>;
extern "C" int enzyme_dup, enzyme_out, enzyme_const;
struct G2 {
  double dx, dy;
};
extern "C" G2 __enzyme_autodiff(void *, ...);

static cd horner(const double *c, int n, cd z) {
  cd r = c[n - 1];
  for (int k = n - 2; k >= 0; --k)
    r = r * z + c[k];
  return r;
}

double modulus2(const double *c, int n, double x, double y) {
  return std::norm(horner(c, n, cd(x, y)));
}

int main() {
  const int n = 6;
  double c[n], dc[n] = {0};
  for (int k = 0; k < n; ++k)
    c[k] = 1.0 / (k + 1) - 0.3 * (k % 2);
  double x = 0.6, y = -0.8;
  G2 g = __enzyme_autodiff((void *)modulus2, enzyme_dup, c, dc, enzyme_const,
                           n, enzyme_out, x, enzyme_out, y);
  cd z(x, y), w = horner(c, n, z), dp = 0, zk = 1;
  for (int k = 1; k < n; ++k)
    dp += double(k) * c[k] * std::pow(z, k - 1);
  for (int k = 0; k < n; ++k, zk *= z)
    check_close("d/dc", dc[k], 2 * std::real(std::conj(w) * zk), 1e-12);
  check_close("d/dx", g.dx, 2 * std::real(std::conj(w) * dp), 1e-12);
  check_close("d/dy", g.dy, 2 * std::real(std::conj(w) * cd(0, 1) * dp),
              1e-12);
  return check_report();
}
