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

#include <tapestry/detail/lowering.hpp>
#include <tapestry/split.hpp>

#include <array>

namespace tapestry {

namespace detail {
/// [primal], then each derivative (its lanes as a std::array when batched).
template <typename Out> TAPESTRY_ALWAYS_INLINE auto all_results(const Out &o) {
  constexpr std::size_t D = Out::first_deriv;
  auto derivs = grouped_tuple<D>(
      o, std::make_index_sequence<(Out::count - D) / Out::width>{});
  if constexpr (Out::has_primal)
    return std::tuple_cat(std::make_tuple(o.template get<0>()), derivs);
  else
    return derivs;
}

template <typename Mode, typename Fn, typename... W>
TAPESTRY_ALWAYS_INLINE auto tapestry_autodiff(Fn &&f, const W &...w) {
  using MT = mode_traits<Mode>;
  auto o = request_for<Mode, ret_act::deflt>(static_cast<Fn &&>(f), w...);
  using O = decltype(o);
  if constexpr (MT::forward && !MT::with_primal) {
    // The tangent alone (the primal, if the plugin computed one for a
    // non-floating-point result, is dropped).
    if constexpr (O::count == 0 || (O::has_primal && O::count == 1))
      return;
    else
      return lanes<O::count - O::width>(o);
  } else {
    return all_results(o);
  }
}

template <typename... X> struct all_same : std::true_type {};
template <typename X, typename... Y>
struct all_same<X, Y...> : std::bool_constant<(std::is_same_v<X, Y> && ...)> {};

template <bool WithPrimal, typename Fn, typename... X, std::size_t... I>
TAPESTRY_ALWAYS_INLINE auto gradient_impl(Fn &&f, std::index_sequence<I...>,
                                          X... x) {
  static_assert(sizeof...(X) > 0, "gradient needs at least one argument");
  static_assert((std::is_floating_point_v<X> && ...),
                "gradient differentiates with respect to floating-point "
                "arguments; use tapestry::autodiff with Const/Duplicated "
                "for other parameters");
  using Mode = std::conditional_t<WithPrimal, ReverseWithPrimal, Reverse>;
  auto o =
      request_for<Mode, ret_act::deflt>(static_cast<Fn &&>(f), Active<X>(x)...);
  using O = decltype(o);
  constexpr std::size_t D = O::first_deriv;
  auto grads = [&] {
    if constexpr (all_same<X...>::value) {
      using X0 = std::tuple_element_t<0, std::tuple<X...>>;
      return std::array<X0, sizeof...(X)>{
          static_cast<X0>(o.template get<D + I>())...};
    } else {
      return std::tuple<X...>(static_cast<X>(o.template get<D + I>())...);
    }
  }();
  if constexpr (WithPrimal)
    return std::make_pair(o.template get<0>(), grads);
  else
    return grads;
}
} // namespace detail

/// Reverse or forward mode with f given as a value: tapestry::fn<f>, a
/// lambda or a functor (see the header comment for plain function pointers).
template <typename Mode, typename Fn, typename... W>
TAPESTRY_ALWAYS_INLINE auto autodiff(Fn &&f, W &&...w) {
  return detail::tapestry_autodiff<Mode>(
      static_cast<Fn &&>(f),
      static_cast<const detail::remove_cvref_t<W> &>(w)...);
}

/// Reverse or forward mode with f as a template argument.
template <typename Mode, auto F, typename... W>
TAPESTRY_ALWAYS_INLINE auto autodiff(W &&...w) {
  return detail::tapestry_autodiff<Mode>(
      fn<F>, static_cast<const detail::remove_cvref_t<W> &>(w)...);
}

/// The partial derivatives of a scalar function of floating-point scalars:
/// std::array<X, N> if all arguments have type X, else std::tuple<X...>.
template <typename Fn, typename... X>
TAPESTRY_ALWAYS_INLINE auto gradient(Fn &&f, X... x) {
  return detail::gradient_impl<false>(static_cast<Fn &&>(f),
                                      std::index_sequence_for<X...>{}, x...);
}
template <auto F, typename... X> TAPESTRY_ALWAYS_INLINE auto gradient(X... x) {
  return detail::gradient_impl<false>(fn<F>, std::index_sequence_for<X...>{},
                                      x...);
}

/// std::pair of f(x...) and its gradient (as gradient returns it).
template <typename Fn, typename... X>
TAPESTRY_ALWAYS_INLINE auto value_and_gradient(Fn &&f, X... x) {
  return detail::gradient_impl<true>(static_cast<Fn &&>(f),
                                     std::index_sequence_for<X...>{}, x...);
}
template <auto F, typename... X>
TAPESTRY_ALWAYS_INLINE auto value_and_gradient(X... x) {
  return detail::gradient_impl<true>(fn<F>, std::index_sequence_for<X...>{},
                                     x...);
}

} // namespace tapestry

#endif // TAPESTRY_TAPESTRY_HPP
