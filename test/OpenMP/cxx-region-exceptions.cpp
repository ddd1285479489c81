// C++ OpenMP regions, where exceptions are on: a call in the region body
// that may throw is an invoke with an exception path, and the body Tapestry
// differentiates (the region's outlined function, copied) needs the
// function's personality for it. Without it clang crashed at every -O level
// (probe28: std::pow(double, int), a std::vector local, a virtual call).
// Reverse and forward mode, several thread counts, against analytic
// derivatives. (A std::function called in a region is refused: the region
// reads the function object's pointer to constant data.)
// RUN: %clangxx -std=c++17 -O0 -fopenmp %s -lm -o %t0
// RUN: env OMP_NUM_THREADS=1 %t0 | FileCheck %s
// RUN: env OMP_NUM_THREADS=3 %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 -fopenmp %s -lm -o %t2
// RUN: env OMP_NUM_THREADS=4 %t2 | FileCheck %s
// RUN: %plain_cxx -std=c++17 -O2 -fopenmp -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.bc
// RUN: %plain_cxx %t.bc -fopenmp -lm -o %to && env OMP_NUM_THREADS=2 %to | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <cmath>
#include <vector>

extern "C" {
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

enum { N = 13 };

// sum u^4 through std::pow(double, int).
double powers(const double *u, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += std::pow(u[i], 4);
  return s;
}

// sum (u^2 + 2u) with a std::vector local in every iteration.
double vectors(const double *u, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) {
    std::vector<double> b(3);
    b[0] = u[i] * u[i];
    b[1] = 2 * u[i];
    b[2] = b[0] + b[1];
    s += b[2];
  }
  return s;
}

struct Shape {
  virtual ~Shape() = default;
  virtual double area(double r) const = 0;
};
struct Square : Shape {
  double area(double r) const override { return r * r; }
};
struct Circle : Shape {
  double area(double r) const override { return 3.0 * r * r; }
};

// sum area_i(u_i) through a virtual call: u^2 or 3 u^2.
double virtuals(const double *u, int n) {
  Square sq;
  Circle ci;
  const Shape *shapes[2] = {&sq, &ci};
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += shapes[i % 2]->area(u[i]);
  return s;
}

static double u[N];

#define CHECK_BOTH(name, f, deriv)                                             \
  do {                                                                         \
    double du[N] = {0};                                                        \
    __enzyme_autodiff((void *)f, enzyme_dup, u, du, enzyme_const, N);          \
    for (int i = 0; i < N; i++) {                                              \
      char what[64];                                                           \
      snprintf(what, sizeof what, "%s reverse d/du[%d]", name, i);             \
      check_close(what, du[i], deriv(u[i], i), 1e-12);                         \
    }                                                                          \
    for (int j = 0; j < N; j += 4) {                                           \
      double t[N] = {0};                                                       \
      t[j] = 1;                                                                \
      double d = __enzyme_fwddiff((void *)f, enzyme_dup, u, t, enzyme_const,   \
                                  N);                                          \
      char what[64];                                                           \
      snprintf(what, sizeof what, "%s forward d/du[%d]", name, j);             \
      check_close(what, d, deriv(u[j], j), 1e-12);                             \
    }                                                                          \
  } while (0)

static double powersD(double v, int) { return 4 * v * v * v; }
static double vectorsD(double v, int) { return 2 * v + 2; }
static double virtualsD(double v, int i) { return (i % 2 ? 6.0 : 2.0) * v; }

int main() {
  for (int i = 0; i < N; i++)
    u[i] = 0.4 + 0.3 * std::sin(1.1 * i);
  CHECK_BOTH("powers", powers, powersD);
  CHECK_BOTH("vectors", vectors, vectorsD);
  CHECK_BOTH("virtuals", virtuals, virtualsD);
  return check_report();
}
