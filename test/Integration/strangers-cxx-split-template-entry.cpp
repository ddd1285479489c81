// A C++ training loop in Enzyme's split mode with the entry points declared
// as never-defined templates, the way Enzyme's C++ users declare the C API:
//   template <typename R, typename... Args> R __enzyme_augmentfwd(void *, Args...);
// The model is a struct holding its weights in a std::vector<double>, passed
// with a shadow model of the same shape (enzyme_dup). The forward half
// returns {tape, loss}; the caller looks at the loss and scales the seed of
// the reverse half (loss-dependent weighting, as a robust loss or gradient
// clipping does); a second step uses a caller-owned tape of the size
// __enzyme_augmentsize reports (enzyme_allocated, enzyme_tape). Expected:
// the analytic gradient of (sum_i tanh(w_i x_i) + b)^2 times the seed.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// RUN: %clangxx_enzyme -std=c++17 -O2 %s -S -emit-llvm -o - | lli - | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cmath>
#include <vector>

extern int enzyme_dup, enzyme_const, enzyme_allocated, enzyme_tape;
template <typename R, typename... Args> R __enzyme_augmentfwd(void *, Args...);
template <typename R, typename... Args> R __enzyme_reverse(void *, Args...);
template <typename R, typename... Args>
R __enzyme_augmentsize(void *, Args...);

struct Model {
  std::vector<double> w;
  double b;
};

double loss(const Model *m, const double *x, int n) {
  double s = m->b;
  for (int i = 0; i < n; i++)
    s += std::tanh(m->w[i] * x[i]);
  return s * s;
}

struct Augmented {
  void *tape;
  double primal;
};

static void expected(const Model &m, const double *x, int n, double seed,
                     std::vector<double> &gw, double &gb) {
  double s = m.b;
  for (int i = 0; i < n; i++)
    s += std::tanh(m.w[i] * x[i]);
  gw.assign(n, 0.0);
  for (int i = 0; i < n; i++) {
    double t = std::tanh(m.w[i] * x[i]);
    gw[i] = seed * 2 * s * (1 - t * t) * x[i];
  }
  gb = seed * 2 * s;
}

int main() {
  const int n = 4;
  double x[n] = {1.0, 2.0, -1.5, 0.5};
  Model m{{0.3, -0.2, 0.5, 0.9}, 0.1};
  Model dm{std::vector<double>(n, 0.0), 0.0};

  Augmented a = __enzyme_augmentfwd<Augmented>(
      (void *)loss, enzyme_dup, &m, &dm, enzyme_const, x, enzyme_const, n);
  check_close("primal loss", a.primal, loss(&m, x, n), 1e-15);
  double seed = a.primal > 1.0 ? 1.0 / a.primal : 1.0;
  __enzyme_reverse<void>((void *)loss, enzyme_dup, &m, &dm, enzyme_const, x,
                         enzyme_const, n, seed, a.tape);
  std::vector<double> gw;
  double gb;
  expected(m, x, n, seed, gw, gb);
  for (int i = 0; i < n; i++) {
    char name[32];
    snprintf(name, sizeof name, "step 1 dL/dw%d", i);
    check_close(name, dm.w[i], gw[i], 1e-12);
  }
  check_close("step 1 dL/db", dm.b, gb, 1e-12);

  // One SGD step, then a caller-owned tape.
  for (int i = 0; i < n; i++)
    m.w[i] -= 0.1 * dm.w[i];
  m.b -= 0.1 * dm.b;
  unsigned long size = __enzyme_augmentsize<unsigned long>(
      (void *)loss, enzyme_dup, enzyme_const, enzyme_const);
  std::vector<char> buffer(size);
  Model dm2{std::vector<double>(n, 0.0), 0.0};
  double l2 = __enzyme_augmentfwd<double>(
      (void *)loss, enzyme_allocated, size, enzyme_tape, buffer.data(),
      enzyme_dup, &m, &dm2, enzyme_const, x, enzyme_const, n);
  check_close("step 2 loss decreased", l2 < a.primal, 1, 0);
  __enzyme_reverse<void>((void *)loss, enzyme_allocated, size, enzyme_tape,
                         buffer.data(), enzyme_dup, &m, &dm2, enzyme_const, x,
                         enzyme_const, n, 0.5);
  expected(m, x, n, 0.5, gw, gb);
  for (int i = 0; i < n; i++) {
    char name[32];
    snprintf(name, sizeof name, "step 2 dL/dw%d", i);
    check_close(name, dm2.w[i], gw[i], 1e-12);
  }
  check_close("step 2 dL/db", dm2.b, gb, 1e-12);
  return check_report();
}
