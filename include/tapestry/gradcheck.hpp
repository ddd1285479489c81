//===- tapestry/gradcheck.hpp - Checks by finite differences ----*- C++ -*-===//
//
// The C++ face of tapestry/gradcheck.h: any callable, std::vector or a
// pointer and a size. For users' own tests.
//
//   double f(const double *x) { return x[0] * x[0] * x[1]; }
//   std::vector<double> x = {1.5, 2.0}, g(2);
//   __enzyme_autodiff((void *)f, enzyme_dup, x.data(), g.data());
//   assert(tapestry::check_gradient(f, x, g) == 0);
//
//   // any callable; a function of n values into m with its m x n Jacobian
//   // (row-major):
//   auto F = [&](const double *x, double *y) { y[0] = ...; y[1] = ...; };
//   tapestry::check_jacobian(F, n, m, x.data(), J.data());
//
// Each returns the number of entries that disagree with central finite
// differences (0 when the derivative is right), prints a report to stderr
// unless options.quiet is set, and fills *result if given. Needs the
// Tapestry runtime (CMake target Tapestry::Tapestry, or -ltapestry-rt).
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_GRADCHECK_HPP
#define TAPESTRY_GRADCHECK_HPP

#include "tapestry/gradcheck.h"

#include <memory>
#include <stdexcept>
#include <vector>

namespace tapestry {

using check_options = tapestry_check_options;
using check_result = tapestry_check_result;

namespace detail {
// The context is the address of a pointer to the callable (a function
// pointer for a function), so functions, lambdas and functors all fit.
template <typename P> double callScalar(const double *x, void *ctx) {
  return static_cast<double>((**static_cast<P *>(ctx))(x));
}
template <typename P> void callVector(const double *x, double *y, void *ctx) {
  (**static_cast<P *>(ctx))(x, y);
}
} // namespace detail

/// Compares grad[0..n) with finite differences of f(const double *x) at x.
template <typename F>
int check_gradient(F &&f, int n, const double *x, const double *grad,
                   const check_options &options = {},
                   check_result *result = nullptr) {
  auto *Callable = std::addressof(f);
  return tapestry_check_gradient(&detail::callScalar<decltype(Callable)>,
                                 &Callable, n, x, grad, &options, result);
}

template <typename F>
int check_gradient(F &&f, const std::vector<double> &x,
                   const std::vector<double> &grad,
                   const check_options &options = {},
                   check_result *result = nullptr) {
  if (x.size() != grad.size())
    throw std::invalid_argument(
        "tapestry::check_gradient: x and grad differ in size");
  return check_gradient(f, static_cast<int>(x.size()), x.data(), grad.data(),
                        options, result);
}

/// Compares the m x n row-major Jacobian jac with finite differences of
/// f(const double *x, double *y) at x.
template <typename F>
int check_jacobian(F &&f, int n, int m, const double *x, const double *jac,
                   const check_options &options = {},
                   check_result *result = nullptr) {
  auto *Callable = std::addressof(f);
  return tapestry_check_jacobian(&detail::callVector<decltype(Callable)>,
                                 &Callable, n, m, x, jac, &options, result);
}

} // namespace tapestry

#endif // TAPESTRY_GRADCHECK_HPP
