// tapestry::thunk of a function returning a struct (a point, std::complex)
// by value: the pullbacks take no seed for it, so the plugin's reverse read
// whatever was in the seed's registers and the gradient was garbage
// (probe25a F5, a silent wrong number). Now a compile-time error saying
// what to do instead.
// RUN: not %clangxx -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clangxx -O2 -c %s -o /dev/null -DCOMPLEX 2>&1 | FileCheck %s
// CHECK: tapestry::thunk: a function returning a struct or class (such as std::complex) by value is not supported: return it through a pointer or reference parameter annotated Duplicated<T *> and seed that parameter's shadow
#include <cmath>
#include <complex>
#include <tapestry/tapestry.hpp>

struct V2 {
  double x, y;
};
#ifdef COMPLEX
std::complex<double> f(const double *z) {
  return std::exp(std::complex<double>(z[0], z[1]));
}
#else
V2 f(const double *rt) {
  return {rt[0] * std::cos(rt[1]), rt[0] * std::sin(rt[1])};
}
#endif

double use(double *x, double *dx) {
  auto t = tapestry::thunk<f, tapestry::Duplicated<const double *>>();
  auto [y, pb] = t.pullback(x, dx);
  std::move(pb)();
  return 0;
}
