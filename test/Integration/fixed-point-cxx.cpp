// Enzyme's fixed point in C++: a small "deep equilibrium" layer,
// z = tanh(W z + b) iterated to its fixed point in a std::vector, loss =
// sum of z. The call is an invoke there (the vector's destructor must run
// if the step throws), which the lowering missed: "__enzyme_fixed_point is
// not an Enzyme entry point Tapestry knows". The step is now invoked with
// the same unwind destination: a step that throws (n > 8) reaches the
// caller's handler. Gradient with respect to b and W in reverse mode, and a
// directional derivative in forward mode, checked against central
// differences of the loss.
// RUN: %clangxx_fplugin -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx_fplugin -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx_fplugin -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx_fplugin -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK: caught: state too large
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cmath>
#include <cstdint>
#include <enzyme/fixed_point.h>
#include <stdexcept>
#include <vector>

extern "C" {
extern int enzyme_dup, enzyme_const;
}
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

enum { N = 4 };

static int step(int64_t it, double *z, const double *W, const double *b,
                int n) {
  if (n > 8)
    throw std::runtime_error("state too large");
  double next[8], change = 0;
  for (int i = 0; i < n; i++) {
    double s = b[i];
    for (int j = 0; j < n; j++)
      s += W[i * n + j] * z[j];
    next[i] = std::tanh(s);
  }
  for (int i = 0; i < n; i++) {
    change += std::fabs(next[i] - z[i]);
    z[i] = next[i];
  }
  return change > 1e-15 && it < 500;
}

static double loss(const double *W, const double *b, int n) {
  std::vector<double> z(n, 0.0);
  __enzyme_fixed_point((void *)step, enzyme_fp_state, z.data(),
                       (int64_t)(n * sizeof(double)), z.data(), W, b, n);
  double s = 0;
  for (double v : z)
    s += v;
  return s;
}

int main() {
  double W[N * N], b[N];
  for (int i = 0; i < N * N; i++)
    W[i] = 0.1 * std::sin(1.0 + i);
  for (int i = 0; i < N; i++)
    b[i] = 0.3 * std::cos(2.0 * i);
  try {
    loss(W, b, 9);
  } catch (const std::runtime_error &e) {
    std::printf("caught: %s\n", e.what());
  }
  double dW[N * N] = {0}, db[N] = {0};
  __enzyme_autodiff((void *)loss, enzyme_dup, W, dW, enzyme_dup, b, db,
                    enzyme_const, (int)N);
  const double h = 1e-6;
  for (int i = 0; i < N; i++) {
    double bp[N], bm[N];
    for (int k = 0; k < N; k++)
      bp[k] = bm[k] = b[k];
    bp[i] += h;
    bm[i] -= h;
    check_close("dloss/db", db[i], (loss(W, bp, N) - loss(W, bm, N)) / (2 * h),
                1e-7);
  }
  for (int i = 0; i < N * N; i += 5) {
    double Wp[N * N], Wm[N * N];
    for (int k = 0; k < N * N; k++)
      Wp[k] = Wm[k] = W[k];
    Wp[i] += h;
    Wm[i] -= h;
    check_close("dloss/dW", dW[i], (loss(Wp, b, N) - loss(Wm, b, N)) / (2 * h),
                1e-7);
  }
  // Forward: direction e_1 in b.
  double tW[N * N] = {0}, tb[N] = {0, 1, 0, 0};
  check_close("forward", __enzyme_fwddiff((void *)loss, enzyme_dup, W, tW,
                                          enzyme_dup, b, tb, enzyme_const,
                                          (int)N),
              db[1], 1e-10);
  return check_report();
}
