// Shadow contexts from C++: the entry points declared with C++ linkage (the
// mangled names) or taken from <tapestry/enzyme.h>, the request a template
// as Enzyme's C++ users declare it, globals in a namespace and a member of
// an array in a struct, calls inside a try block (invokes), a context of
// width 2 in reverse mode (each lane seeded with 1), and one made in a
// function template. Expected values are analytic.
// RUN: %clangxx -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clangxx -O2 -DC_HEADER %s -lm -o %t4 && %t4 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <stdexcept>

#ifdef C_HEADER
#define TAPESTRY_NO_ENTRY_POINTS
#include <tapestry/enzyme.h>
extern "C" void *__enzyme_context(int);
extern "C" void *__enzyme_shadow(void *, void *, int);
extern "C" void __enzyme_zero_shadows(void *);
#else
extern int enzyme_context;
void *__enzyme_context(int);
void *__enzyme_shadow(void *, void *, int);
void __enzyme_zero_shadows(void *);
#endif
template <typename R, typename... T> R __enzyme_autodiff(void *, T...);
template <typename R, typename... T> R __enzyme_fwddiff(void *, T...);
struct Lanes {
  double l0, l1;
};

namespace model {
double weight = 0.25;
}
struct Layer {
  double w[2];
} layer = {{1.5, -2.0}};

// loss = sin(weight x) + w[1] x^2
double loss(double x) {
  if (x > 1e9)
    throw std::runtime_error("out of range");
  return std::sin(model::weight * x) + layer.w[1] * x * x;
}

template <typename T> T dloss_dweight(T x) {
  void *ctx = __enzyme_context(1);
  T *dw = static_cast<T *>(__enzyme_shadow(ctx, &model::weight, 0));
  *dw = 1;
  return __enzyme_fwddiff<T>((void *)loss, enzyme_context, ctx, x, T(0));
}

int main() {
  double x = 1.25, w = model::weight, w1 = layer.w[1];
  void *ctx = __enzyme_context(1);
  double *dw = static_cast<double *>(__enzyme_shadow(ctx, &model::weight, 0));
  double *dl = static_cast<double *>(__enzyme_shadow(ctx, &layer.w[1], 0));
  try {
    __enzyme_zero_shadows(ctx);
    double dx =
        __enzyme_autodiff<double>((void *)loss, enzyme_context, ctx, x);
    check_close("d/dx", dx, w * std::cos(w * x) + 2 * w1 * x, 1e-12);
    check_close("d/dweight", *dw, x * std::cos(w * x), 1e-12);
    check_close("d/dlayer.w[1]", *dl, x * x, 1e-12);
  } catch (...) {
    check_close("no exception", 1, 0, 0);
  }
  check_close("forward in a template", dloss_dweight(x), x * std::cos(w * x),
              1e-12);

  void *ctx2 = __enzyme_context(2);
  double *dw0 = static_cast<double *>(__enzyme_shadow(ctx2, &model::weight, 0));
  double *dw1 = static_cast<double *>(__enzyme_shadow(ctx2, &model::weight, 1));
  Lanes r = __enzyme_autodiff<Lanes>((void *)loss, enzyme_context, ctx2, x);
  check_close("width 2 lane 0 d/dx", r.l0, w * std::cos(w * x) + 2 * w1 * x,
              1e-12);
  check_close("width 2 lane 1 d/dx", r.l1, w * std::cos(w * x) + 2 * w1 * x,
              1e-12);
  check_close("width 2 lane 0 d/dweight", *dw0, x * std::cos(w * x), 1e-12);
  check_close("width 2 lane 1 d/dweight", *dw1, x * std::cos(w * x), 1e-12);
  return check_report();
}
