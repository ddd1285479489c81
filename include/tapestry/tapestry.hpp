//===- tapestry/tapestry.hpp - Tapestry's typed C++ API ---------*- C++ -*-===//
//
// Header-only; every call lowers to one __enzyme_autodiff / __enzyme_fwddiff
// request that the Tapestry plugin resolves at compile time (no library).
// C++17 or later.
//
//   #include <tapestry/tapestry.hpp>
//   double f(double x, double y) { return x * x * y; }
//
//   // Gradient of a scalar function of scalars: std::array (all arguments
//   // of one type) or std::tuple of the partial derivatives.
//   std::array<double, 2> g = tapestry::gradient<f>(x, y);  // {2xy, x^2}
//   auto [fx, g2] = tapestry::value_and_gradient<f>(x, y);   // value too
//
//   // Full control: one wrapper per parameter of f.
//   //   Active(x)            reverse mode: x's adjoint is returned
//   //   Duplicated(p, dp)    pointer/reference with its shadow (reverse:
//   //                        dp += adjoint; forward: dp is the tangent)
//   //   DuplicatedNoNeed(p, dp) the same, primal result not needed
//   //   Const(c)             not differentiated
//   auto [dx] = tapestry::autodiff<tapestry::Reverse, h>(
//       tapestry::Active(x), tapestry::Duplicated(p, dp), tapestry::Const(n));
//   auto [fval, dx2] = tapestry::autodiff<tapestry::ReverseWithPrimal, h>(...);
//   double t = tapestry::autodiff<tapestry::Forward, f>(
//       tapestry::Duplicated(x, 1.0), tapestry::Duplicated(y, 0.0));
//   auto [fv, t2] = tapestry::autodiff<tapestry::ForwardWithPrimal, f>(...);
//
//   // Batch mode: N lanes (directions) in one sweep, N a template argument
//   // of the batch wrappers (it becomes `enzyme_width N`):
//   //   BatchDuplicated<T, N>(x, {dx0, ..., dxN-1})   N shadows (for T&,
//   //                        their addresses); BatchDuplicatedNoNeed alike.
//   std::array<double, 2> t = tapestry::autodiff<tapestry::Forward, f>(
//       tapestry::BatchDuplicated<double, 2>(x, {1.0, 0.0}),
//       tapestry::BatchDuplicated<double, 2>(y, {0.0, 1.0}));  // = gradient
//   // Reverse: every lane's shadows accumulate their own adjoints; a
//   // scalar result is seeded with 1 in every lane; an Active argument's
//   // adjoint comes back as std::array<T, N>.
//   tapestry::autodiff<tapestry::Reverse, g>(
//       tapestry::BatchDuplicated<double *, 4>(p, {d0, d1, d2, d3}),
//       tapestry::Const(n));
//
// Results:
//   Reverse            std::tuple of the adjoints of the Active arguments
//   ReverseWithPrimal  std::tuple<primal, adjoints...>
//   Forward            the tangent of the result (void if f returns no
//                      floating-point value)
//   (batched: each adjoint or tangent is a std::array<T, N> of its lanes)
//   ForwardWithPrimal  std::tuple<primal, tangent>
//
// THE FUNCTION. The plugin differentiates requests before any inlining, so
// the function must be a compile-time constant where the request is made:
//   * tapestry::autodiff<Mode, f>(...), tapestry::gradient<f>(...): f as a
//     template argument (a function, g<float>, +constexpr_lambda, or a
//     member function &S::m whose object pointer is the first argument:
//     Const(&obj) or Duplicated(&obj, &dobj));
//   * tapestry::autodiff<Mode>(tapestry::fn<f>, ...), gradient(fn<f>, ...):
//     the same, as a value;
//   * a lambda or functor object: autodiff<Mode>(lambda, ...) works; the
//     object (its captures) is treated as constant;
//   * a plain function passed by name or address, autodiff<Mode>(f, ...)
//     or gradient(&f, ...): the plugin inlines the always-inline wrappers
//     that make the request into the caller first, which turns the
//     parameter back into the function. A pointer whose value is only
//     known at run time (chosen by a condition, read from a table) is
//     rejected: "the first argument of __enzyme_autodiff must be a
//     function".
//
// Arguments are converted to f's parameter types (a float for a double
// parameter is fine); reference parameters are passed as pointers.
// Trivially copyable structs taken by value work like scalars: Active(v)
// returns v's adjoint as a struct of the same type (reverse mode),
// Duplicated(v, dv) takes the tangent dv as one (forward mode), Const(v);
// a function returning such a struct gives its tangent as the struct in
// forward mode (reverse mode has no seed for it). Other classes: pass them
// by pointer or reference.
//
// Split mode (forward now, reverse later: typed thunks, Tape, pullbacks) is
// in <tapestry/split.hpp>, included here.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_TAPESTRY_HPP
#define TAPESTRY_TAPESTRY_HPP

// A system header, as the standard library's are: the warnings users turn
// on (-Wreserved-identifier) are about their code, not this header's.
#pragma GCC system_header

#include <tapestry/detail/lowering.hpp>
#include <tapestry/split.hpp>

#include <array>

namespace tapestry {

namespace detail {
/// [primal], then each derivative (its lanes as a std::array when batched).
template <typename _Out>
TAPESTRY_ALWAYS_INLINE auto all_results(const _Out &__o) {
  constexpr std::size_t _D = _Out::first_deriv;
  auto __derivs = grouped_tuple<_D>(
      __o, std::make_index_sequence<(_Out::count - _D) / _Out::__width>{});
  if constexpr (_Out::has_primal)
    return std::tuple_cat(std::make_tuple(__o.template get<0>()), __derivs);
  else
    return __derivs;
}

template <typename _Mode, typename _Fn, typename... _W>
TAPESTRY_ALWAYS_INLINE auto tapestry_autodiff(_Fn &&__f, const _W &...__w) {
  using _MT = mode_traits<_Mode>;
  auto __o =
      request_for<_Mode, ret_act::deflt>(static_cast<_Fn &&>(__f), __w...);
  using _O = decltype(__o);
  if constexpr (_MT::forward && !_MT::with_primal) {
    // The tangent alone (the primal, if the plugin computed one for a
    // non-floating-point result, is dropped).
    if constexpr (_O::count == 0 || (_O::has_primal && _O::count == 1))
      return;
    else
      return lanes<_O::count - _O::__width>(__o);
  } else {
    return all_results(__o);
  }
}

template <typename... _X> struct all_same : std::true_type {};
template <typename _X, typename... _Y>
struct all_same<_X, _Y...>
    : std::bool_constant<(std::is_same_v<_X, _Y> && ...)> {};

template <bool _WithPrimal, typename _Fn, typename... _X, std::size_t... _I>
TAPESTRY_ALWAYS_INLINE auto gradient_impl(_Fn &&__f, std::index_sequence<_I...>,
                                          _X... __x) {
  static_assert(sizeof...(_X) > 0, "gradient needs at least one argument");
  static_assert((std::is_floating_point_v<_X> && ...),
                "gradient differentiates with respect to floating-point "
                "arguments; use tapestry::autodiff with Const/Duplicated "
                "for other parameters");
  using _Mode = std::conditional_t<_WithPrimal, ReverseWithPrimal, Reverse>;
  auto __o = request_for<_Mode, ret_act::deflt>(static_cast<_Fn &&>(__f),
                                                Active<_X>(__x)...);
  using _O = decltype(__o);
  constexpr std::size_t _D = _O::first_deriv;
  auto __grads = [&] {
    if constexpr (all_same<_X...>::value) {
      using _X0 = std::tuple_element_t<0, std::tuple<_X...>>;
      return std::array<_X0, sizeof...(_X)>{
          static_cast<_X0>(__o.template get<_D + _I>())...};
    } else {
      return std::tuple<_X...>(static_cast<_X>(__o.template get<_D + _I>())...);
    }
  }();
  if constexpr (_WithPrimal)
    return std::make_pair(__o.template get<0>(), __grads);
  else
    return __grads;
}
} // namespace detail

/// Reverse or forward mode with f given as a value: tapestry::fn<f>, a
/// lambda or a functor (see the header comment for plain function pointers).
template <typename _Mode, typename _Fn, typename... _W>
TAPESTRY_ALWAYS_INLINE auto autodiff(_Fn &&__f, _W &&...__w) {
  return detail::tapestry_autodiff<_Mode>(
      static_cast<_Fn &&>(__f),
      static_cast<const detail::remove_cvref_t<_W> &>(__w)...);
}

/// Reverse or forward mode with f as a template argument.
template <typename _Mode, auto _F, typename... _W>
TAPESTRY_ALWAYS_INLINE auto autodiff(_W &&...__w) {
  return detail::tapestry_autodiff<_Mode>(
      fn<_F>, static_cast<const detail::remove_cvref_t<_W> &>(__w)...);
}

/// The partial derivatives of a scalar function of floating-point scalars:
/// std::array<X, N> if all arguments have type X, else std::tuple<X...>.
template <typename _Fn, typename... _X>
TAPESTRY_ALWAYS_INLINE auto gradient(_Fn &&__f, _X... __x) {
  return detail::gradient_impl<false>(static_cast<_Fn &&>(__f),
                                      std::index_sequence_for<_X...>{}, __x...);
}
template <auto _F, typename... _X>
TAPESTRY_ALWAYS_INLINE auto gradient(_X... __x) {
  return detail::gradient_impl<false>(fn<_F>, std::index_sequence_for<_X...>{},
                                      __x...);
}

/// std::pair of f(x...) and its gradient (as gradient returns it).
template <typename _Fn, typename... _X>
TAPESTRY_ALWAYS_INLINE auto value_and_gradient(_Fn &&__f, _X... __x) {
  return detail::gradient_impl<true>(static_cast<_Fn &&>(__f),
                                     std::index_sequence_for<_X...>{}, __x...);
}
template <auto _F, typename... _X>
TAPESTRY_ALWAYS_INLINE auto value_and_gradient(_X... __x) {
  return detail::gradient_impl<true>(fn<_F>, std::index_sequence_for<_X...>{},
                                     __x...);
}

} // namespace tapestry

#endif // TAPESTRY_TAPESTRY_HPP
