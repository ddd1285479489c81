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

// A system header, as the standard library's are: the warnings users turn
// on (-Wreserved-identifier) are about their code, not this header's.
#pragma GCC system_header

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
template <typename _P> double callScalar(const double *__x, void *__context) {
  return static_cast<double>((**static_cast<_P *>(__context))(__x));
}
template <typename _P>
void callVector(const double *__x, double *__y, void *__context) {
  (**static_cast<_P *>(__context))(__x, __y);
}
} // namespace detail

/// Compares grad[0..n) with finite differences of f(const double *x) at x.
template <typename _F>
int check_gradient(_F &&__f, int __n, const double *__x, const double *__grad,
                   const check_options &__options = {},
                   check_result *__result = nullptr) {
  auto *_Callable = std::addressof(__f);
  return tapestry_check_gradient(&detail::callScalar<decltype(_Callable)>,
                                 &_Callable, __n, __x, __grad, &__options,
                                 __result);
}

template <typename _F>
int check_gradient(_F &&__f, const std::vector<double> &__x,
                   const std::vector<double> &__grad,
                   const check_options &__options = {},
                   check_result *__result = nullptr) {
  if (__x.size() != __grad.size())
    throw std::invalid_argument(
        "tapestry::check_gradient: x and grad differ in size");
  return check_gradient(__f, static_cast<int>(__x.size()), __x.data(),
                        __grad.data(), __options, __result);
}

/// Compares the m x n row-major Jacobian jac with finite differences of
/// f(const double *x, double *y) at x.
template <typename _F>
int check_jacobian(_F &&__f, int __n, int __m, const double *__x,
                   const double *__jac, const check_options &__options = {},
                   check_result *__result = nullptr) {
  auto *_Callable = std::addressof(__f);
  return tapestry_check_jacobian(&detail::callVector<decltype(_Callable)>,
                                 &_Callable, __n, __m, __x, __jac, &__options,
                                 __result);
}

} // namespace tapestry

#endif // TAPESTRY_GRADCHECK_HPP
