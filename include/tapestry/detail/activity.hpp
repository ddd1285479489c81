//===- tapestry/detail/activity.hpp - Activity wrappers ---------*- C++ -*-===//
//
// The first half of the C++ lowering (tapestry/detail/lowering.hpp, which
// includes this file and says why it is built the way it is): the C
// markers as extern "C" objects, the mode tags, the activity wrappers
// (Active, Duplicated, DuplicatedNoNeed, Const and the batch wrappers
// BatchDuplicated, BatchDuplicatedNoNeed), tapestry::fn<f>, the never
// defined entry-point templates the plugin rewrites, and the traits that
// read a mode or a wrapper. Nothing here is public API except what
// tapestry.hpp / enzyme re-export.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_DETAIL_ACTIVITY_HPP
#define TAPESTRY_DETAIL_ACTIVITY_HPP

// A system header, as the standard library's are: the warnings users turn
// on (-Wreserved-identifier) are about their code, not this header's.
#pragma GCC system_header

#if __cplusplus < 201703L
#error "the Tapestry C++ API needs C++17 or later"
#endif

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

// Activity markers, as Enzyme's C API spells them. Declared extern "C" so a
// later `extern int enzyme_dup;` or `extern "C" int enzyme_dup;` in user
// code (or <tapestry/enzyme.h>) redeclares the same object.
extern "C" {
extern int enzyme_const;
extern int enzyme_dup;
extern int enzyme_dupnoneed;
extern int enzyme_out;
extern int enzyme_primal_return;
extern int enzyme_const_return;
extern int enzyme_active_return;
extern int enzyme_dup_return;
extern int enzyme_noret;
extern int enzyme_width;
extern int enzyme_context;
}

#define TAPESTRY_ALWAYS_INLINE __attribute__((always_inline)) inline

namespace tapestry {

//===-- Modes -------------------------------------------------------------===//

/// Reverse mode; ReverseMode<true> also returns the primal result.
template <bool _ReturnPrimal = false> struct ReverseMode {};
/// Forward mode, returning the tangent of the result.
struct ForwardMode {};
/// Forward mode, returning the tangent and the primal result.
struct ForwardWithPrimalMode {};

using Reverse = ReverseMode<false>;
using ReverseWithPrimal = ReverseMode<true>;
using Forward = ForwardMode;
using ForwardWithPrimal = ForwardWithPrimalMode;

//===-- Activity wrappers -------------------------------------------------===//

/// An active scalar (reverse mode): its adjoint is returned.
template <typename _T> struct Active {
  static_assert(!std::is_reference_v<_T> && !std::is_pointer_v<_T>,
                "Active<T> takes a floating-point value; pass pointers and "
                "references as Duplicated(value, shadow)");
  _T value;
  Active(const _T &__v) : value(__v) {}
  Active(_T &&__v) : value(std::move(__v)) {}
  operator _T &() { return value; }
};

namespace detail {
/// A value and its shadow (reverse: the adjoint accumulator; forward: the
/// tangent). For T& both are kept as pointers.
template <typename _T> struct DupArg {
  _T value;
  _T shadow;
  DupArg(const _T &__v, const _T &__s) : value(__v), shadow(__s) {}
  DupArg(_T &&__v, _T &&__s) : value(std::move(__v)), shadow(std::move(__s)) {}
};
template <typename _T> struct DupArg<_T &> {
  _T *value;
  _T *shadow;
  DupArg(_T &__v, _T &__s) : value(&__v), shadow(&__s) {}
};
} // namespace detail

/// A pointer/reference (or, in forward mode, a scalar) with its shadow.
template <typename _T> struct Duplicated : detail::DupArg<_T> {
  using detail::DupArg<_T>::DupArg;
};
/// Like Duplicated, but the primal result need not be computed.
template <typename _T> struct DuplicatedNoNeed : detail::DupArg<_T> {
  using detail::DupArg<_T>::DupArg;
};

/// A value that is not differentiated.
template <typename _T> struct Const {
  _T value;
  Const(const _T &__v) : value(__v) {}
  Const(_T &&__v) : value(std::move(__v)) {}
  operator _T &() { return value; }
};
template <typename _T> struct Const<_T &> {
  _T *value;
  Const(_T &__v) : value(&__v) {}
  operator _T &() { return *value; }
};

namespace detail {
/// A value and N shadows, one per lane of a batched request. For T& both
/// are kept as pointers (the shadows are given by address).
template <typename _T, std::size_t _N> struct BatchDupArg {
  static_assert(_N >= 1 && _N <= 64, "the batch width must be 1..64");
  _T value;
  std::array<_T, _N> shadow;
  BatchDupArg(const _T &__v, const std::array<_T, _N> &__s)
      : value(__v), shadow(__s) {}
};
template <typename _T, std::size_t _N> struct BatchDupArg<_T &, _N> {
  static_assert(_N >= 1 && _N <= 64, "the batch width must be 1..64");
  _T *value;
  std::array<_T *, _N> shadow;
  BatchDupArg(_T &__v, const std::array<_T *, _N> &__s)
      : value(&__v), shadow(__s) {}
};
} // namespace detail

/// Batch mode: an argument with N shadows, one per lane; N is the request's
/// width (enzyme_width N). Forward mode: N tangents of a scalar, or N
/// tangent arrays of a pointer; reverse mode: N adjoint accumulators of a
/// pointer or reference (for T&, the shadows' addresses).
template <typename _T, std::size_t _N>
struct BatchDuplicated : detail::BatchDupArg<_T, _N> {
  using detail::BatchDupArg<_T, _N>::BatchDupArg;
};
/// Like BatchDuplicated, but the primal result need not be computed.
template <typename _T, std::size_t _N>
struct BatchDuplicatedNoNeed : detail::BatchDupArg<_T, _N> {
  using detail::BatchDupArg<_T, _N>::BatchDupArg;
};

template <typename _T> Active(_T) -> Active<_T>;
template <typename _T> Const(_T) -> Const<_T>;
template <typename _T> Duplicated(_T, _T) -> Duplicated<_T>;
template <typename _T> DuplicatedNoNeed(_T, _T) -> DuplicatedNoNeed<_T>;

//===-- A function as a compile-time constant -----------------------------===//

/// `tapestry::fn<f>`: the function f carried in a type, so that the request
/// names it as a constant. Works for free functions, function template
/// specialisations (fn<g<float>>), captureless lambdas converted to a
/// pointer (fn<+lambda>, lambda a constexpr variable) and member functions
/// (fn<&S::m>; the object pointer is then the first argument).
template <auto _F> struct fn_t { static constexpr auto value = _F; };
template <auto _F> inline constexpr fn_t<_F> fn{};

namespace detail {

//===-- Entry points ------------------------------------------------------===//
// Never defined: the plugin replaces every call. Their mangled names contain
// the entry name, which is how the plugin finds them.
template <typename _R, typename... _T> _R __enzyme_autodiff(void *, _T...);
template <typename _R, typename... _T> _R __enzyme_fwddiff(void *, _T...);

template <typename...> inline constexpr bool always_false = false;
template <typename _T>
using remove_cvref_t = std::remove_cv_t<std::remove_reference_t<_T>>;

//===-- Modes -------------------------------------------------------------===//

template <typename _M> struct mode_traits {
  static_assert(always_false<_M>,
                "the mode must be Reverse, ReverseWithPrimal, Forward or "
                "ForwardWithPrimal");
};
template <bool _P> struct mode_traits<ReverseMode<_P>> {
  static constexpr bool forward = false, with_primal = _P;
};
template <> struct mode_traits<ForwardMode> {
  static constexpr bool forward = true, with_primal = false;
};
template <> struct mode_traits<ForwardWithPrimalMode> {
  static constexpr bool forward = true, with_primal = true;
};

//===-- Wrappers ----------------------------------------------------------===//

enum class __act { active, __dup, dupnoneed, konst, none };

/// `width` is the lane count a wrapper fixes (0: any, it has no shadows
/// per lane) and `lanes` the shadows it passes.
template <typename _W> struct wrapper_traits {
  static constexpr __act kind = __act::none;
  static constexpr std::size_t __width = 0;
};
template <typename _T> struct wrapper_traits<Active<_T>> {
  static constexpr __act kind = __act::active;
  static constexpr std::size_t __width = 0;
  using type = _T;
};
template <typename _T> struct wrapper_traits<Duplicated<_T>> {
  static constexpr __act kind = __act::__dup;
  static constexpr std::size_t __width = 1;
  using type = _T;
};
template <typename _T> struct wrapper_traits<DuplicatedNoNeed<_T>> {
  static constexpr __act kind = __act::dupnoneed;
  static constexpr std::size_t __width = 1;
  using type = _T;
};
template <typename _T, std::size_t _N>
struct wrapper_traits<BatchDuplicated<_T, _N>> {
  static constexpr __act kind = __act::__dup;
  static constexpr std::size_t __width = _N;
  static constexpr bool batch = true;
  using type = _T;
};
template <typename _T, std::size_t _N>
struct wrapper_traits<BatchDuplicatedNoNeed<_T, _N>> {
  static constexpr __act kind = __act::dupnoneed;
  static constexpr std::size_t __width = _N;
  static constexpr bool batch = true;
  using type = _T;
};
template <typename _T> struct wrapper_traits<Const<_T>> {
  static constexpr __act kind = __act::konst;
  static constexpr std::size_t __width = 0;
  using type = _T;
};

template <typename _W, typename = void>
struct is_batch_wrapper : std::false_type {};
template <typename _W>
struct is_batch_wrapper<_W, std::void_t<decltype(wrapper_traits<_W>::batch)>>
    : std::true_type {};

/// The width of a request with wrappers W...: the lane count of its batch
/// wrappers, 1 if it has none.
template <typename... _W> constexpr std::size_t request_width() {
  std::size_t _N = 1;
  ((_N = is_batch_wrapper<_W>::value ? wrapper_traits<_W>::__width : _N), ...);
  return _N;
}
template <std::size_t _N, typename... _W> constexpr bool widths_agree() {
  return (
      (wrapper_traits<_W>::__width == 0 || wrapper_traits<_W>::__width == _N) &&
      ...);
}

/// The type a wrapper hands to the primal function (used to deduce the
/// signature of lambdas and functors).
template <typename _W> using primal_arg_t = typename wrapper_traits<_W>::type;

} // namespace detail
} // namespace tapestry

#endif // TAPESTRY_DETAIL_ACTIVITY_HPP
