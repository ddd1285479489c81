// C++17 over-aligned and nothrow operator new: a std::vector of an
// alignas(32) type allocates with operator new(size_t, std::align_val_t),
// `new Vec4[n]` with its array form, `new (std::nothrow)` with the nothrow
// forms. Each block's shadow comes from the same call (the same
// alignment: the shadow is read with the primal's aligned accesses) and is
// released with it. Gradient, split mode, forward mode and ASan. Expected derivatives
// are analytic: f(x) = sum_i x_i^2 sin(x_i) + 3 x_i cos(x_i).
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 %s -o %t3 && %t3 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 -fsanitize=address -fno-omit-frame-pointer %s -o %ta && %ta | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cmath>
#include <cstdint>
#include <new>
#include <vector>

extern int enzyme_dup, enzyme_dupnoneed;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
struct aug_t {
  void *tape;
  double primal;
};
aug_t __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

struct alignas(32) Vec4 {
  double v[4];
};

static int misaligned;

static void noteAlignment(const void *P) {
  if (reinterpret_cast<std::uintptr_t>(P) % 32)
    ++misaligned;
}

double f(const double *x) {
  std::vector<Vec4> tmp(2); // operator new(size_t, align_val_t)
  noteAlignment(tmp.data());
  for (int i = 0; i < 4; i++) {
    tmp[0].v[i] = x[i] * x[i];
    tmp[1].v[i] = std::sin(x[i]);
  }
  Vec4 *c = new Vec4[1]; // operator new[](size_t, align_val_t)
  noteAlignment(c);
  double *k = new (std::nothrow) double[4]; // operator new[](nothrow)
  for (int i = 0; i < 4; i++) {
    c->v[i] = std::cos(x[i]);
    k[i] = 3 * x[i];
  }
  double s = 0;
  for (int i = 0; i < 4; i++)
    s += tmp[0].v[i] * tmp[1].v[i] + k[i] * c->v[i];
  delete[] c;
  delete[] k;
  return s;
}

static double df(double x) {
  return 2 * x * std::sin(x) + x * x * std::cos(x) + 3 * std::cos(x) -
         3 * x * std::sin(x);
}

int main() {
  double x[4] = {0.1, 0.2, 0.3, 0.4}, dx[4] = {0, 0, 0, 0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  for (int i = 0; i < 4; i++)
    check_close("gradient", dx[i], df(x[i]), 1e-12);
  double t[4] = {1, -2, 0.5, 3}, want = 0, fx = 0;
  for (int i = 0; i < 4; i++)
    fx += x[i] * x[i] * std::sin(x[i]) + 3 * x[i] * std::cos(x[i]);
  for (int i = 0; i < 4; i++)
    want += t[i] * df(x[i]);
  check_close("forward", __enzyme_fwddiff((void *)f, enzyme_dup, x, t), want,
              1e-12);
  // Split: the blocks' frees wait for the reverse, which releases them
  // and their shadows.
  double sx[4] = {0, 0, 0, 0};
  aug_t a = __enzyme_augmentfwd((void *)f, enzyme_dup, x, sx);
  check_close("split primal", a.primal, fx, 1e-12);
  __enzyme_reverse((void *)f, enzyme_dup, x, sx, 2.0, a.tape);
  for (int i = 0; i < 4; i++)
    check_close("split gradient", sx[i], 2 * df(x[i]), 1e-12);
  check_close("shadows as aligned as the primal", misaligned, 0, 0);
  return check_report();
}
