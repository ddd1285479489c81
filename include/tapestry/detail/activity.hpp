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
template <bool ReturnPrimal = false> struct ReverseMode {};
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
template <typename T> struct Active {
  static_assert(!std::is_reference_v<T> && !std::is_pointer_v<T>,
                "Active<T> takes a floating-point value; pass pointers and "
                "references as Duplicated(value, shadow)");
  T value;
  Active(const T &v) : value(v) {}
  Active(T &&v) : value(std::move(v)) {}
  operator T &() { return value; }
};

namespace detail {
/// A value and its shadow (reverse: the adjoint accumulator; forward: the
/// tangent). For T& both are kept as pointers.
template <typename T> struct DupArg {
  T value;
  T shadow;
  DupArg(const T &v, const T &s) : value(v), shadow(s) {}
  DupArg(T &&v, T &&s) : value(std::move(v)), shadow(std::move(s)) {}
};
template <typename T> struct DupArg<T &> {
  T *value;
  T *shadow;
  DupArg(T &v, T &s) : value(&v), shadow(&s) {}
};
} // namespace detail

/// A pointer/reference (or, in forward mode, a scalar) with its shadow.
template <typename T> struct Duplicated : detail::DupArg<T> {
  using detail::DupArg<T>::DupArg;
};
/// Like Duplicated, but the primal result need not be computed.
template <typename T> struct DuplicatedNoNeed : detail::DupArg<T> {
  using detail::DupArg<T>::DupArg;
};

/// A value that is not differentiated.
template <typename T> struct Const {
  T value;
  Const(const T &v) : value(v) {}
  Const(T &&v) : value(std::move(v)) {}
  operator T &() { return value; }
};
template <typename T> struct Const<T &> {
  T *value;
  Const(T &v) : value(&v) {}
  operator T &() { return *value; }
};

namespace detail {
/// A value and N shadows, one per lane of a batched request. For T& both
/// are kept as pointers (the shadows are given by address).
template <typename T, std::size_t N> struct BatchDupArg {
  static_assert(N >= 1 && N <= 64, "the batch width must be 1..64");
  T value;
  std::array<T, N> shadow;
  BatchDupArg(const T &v, const std::array<T, N> &s) : value(v), shadow(s) {}
};
template <typename T, std::size_t N> struct BatchDupArg<T &, N> {
  static_assert(N >= 1 && N <= 64, "the batch width must be 1..64");
  T *value;
  std::array<T *, N> shadow;
  BatchDupArg(T &v, const std::array<T *, N> &s) : value(&v), shadow(s) {}
};
} // namespace detail

/// Batch mode: an argument with N shadows, one per lane; N is the request's
/// width (enzyme_width N). Forward mode: N tangents of a scalar, or N
/// tangent arrays of a pointer; reverse mode: N adjoint accumulators of a
/// pointer or reference (for T&, the shadows' addresses).
template <typename T, std::size_t N>
struct BatchDuplicated : detail::BatchDupArg<T, N> {
  using detail::BatchDupArg<T, N>::BatchDupArg;
};
/// Like BatchDuplicated, but the primal result need not be computed.
template <typename T, std::size_t N>
struct BatchDuplicatedNoNeed : detail::BatchDupArg<T, N> {
  using detail::BatchDupArg<T, N>::BatchDupArg;
};

template <typename T> Active(T) -> Active<T>;
template <typename T> Const(T) -> Const<T>;
template <typename T> Duplicated(T, T) -> Duplicated<T>;
template <typename T> DuplicatedNoNeed(T, T) -> DuplicatedNoNeed<T>;

//===-- A function as a compile-time constant -----------------------------===//

/// `tapestry::fn<f>`: the function f carried in a type, so that the request
/// names it as a constant. Works for free functions, function template
/// specialisations (fn<g<float>>), captureless lambdas converted to a
/// pointer (fn<+lambda>, lambda a constexpr variable) and member functions
/// (fn<&S::m>; the object pointer is then the first argument).
template <auto F> struct fn_t { static constexpr auto value = F; };
template <auto F> inline constexpr fn_t<F> fn{};

namespace detail {

//===-- Entry points ------------------------------------------------------===//
// Never defined: the plugin replaces every call. Their mangled names contain
// the entry name, which is how the plugin finds them.
template <typename R, typename... T> R __enzyme_autodiff(void *, T...);
template <typename R, typename... T> R __enzyme_fwddiff(void *, T...);

template <typename...> inline constexpr bool always_false = false;
template <typename T>
using remove_cvref_t = std::remove_cv_t<std::remove_reference_t<T>>;

//===-- Modes -------------------------------------------------------------===//

template <typename M> struct mode_traits {
  static_assert(always_false<M>,
                "the mode must be Reverse, ReverseWithPrimal, Forward or "
                "ForwardWithPrimal");
};
template <bool P> struct mode_traits<ReverseMode<P>> {
  static constexpr bool forward = false, with_primal = P;
};
template <> struct mode_traits<ForwardMode> {
  static constexpr bool forward = true, with_primal = false;
};
template <> struct mode_traits<ForwardWithPrimalMode> {
  static constexpr bool forward = true, with_primal = true;
};

//===-- Wrappers ----------------------------------------------------------===//

enum class act { active, dup, dupnoneed, konst, none };

/// `width` is the lane count a wrapper fixes (0: any, it has no shadows
/// per lane) and `lanes` the shadows it passes.
template <typename W> struct wrapper_traits {
  static constexpr act kind = act::none;
  static constexpr std::size_t width = 0;
};
template <typename T> struct wrapper_traits<Active<T>> {
  static constexpr act kind = act::active;
  static constexpr std::size_t width = 0;
  using type = T;
};
template <typename T> struct wrapper_traits<Duplicated<T>> {
  static constexpr act kind = act::dup;
  static constexpr std::size_t width = 1;
  using type = T;
};
template <typename T> struct wrapper_traits<DuplicatedNoNeed<T>> {
  static constexpr act kind = act::dupnoneed;
  static constexpr std::size_t width = 1;
  using type = T;
};
template <typename T, std::size_t N>
struct wrapper_traits<BatchDuplicated<T, N>> {
  static constexpr act kind = act::dup;
  static constexpr std::size_t width = N;
  static constexpr bool batch = true;
  using type = T;
};
template <typename T, std::size_t N>
struct wrapper_traits<BatchDuplicatedNoNeed<T, N>> {
  static constexpr act kind = act::dupnoneed;
  static constexpr std::size_t width = N;
  static constexpr bool batch = true;
  using type = T;
};
template <typename T> struct wrapper_traits<Const<T>> {
  static constexpr act kind = act::konst;
  static constexpr std::size_t width = 0;
  using type = T;
};

template <typename W, typename = void>
struct is_batch_wrapper : std::false_type {};
template <typename W>
struct is_batch_wrapper<W, std::void_t<decltype(wrapper_traits<W>::batch)>>
    : std::true_type {};

/// The width of a request with wrappers W...: the lane count of its batch
/// wrappers, 1 if it has none.
template <typename... W> constexpr std::size_t request_width() {
  std::size_t N = 1;
  ((N = is_batch_wrapper<W>::value ? wrapper_traits<W>::width : N), ...);
  return N;
}
template <std::size_t N, typename... W> constexpr bool widths_agree() {
  return ((wrapper_traits<W>::width == 0 || wrapper_traits<W>::width == N) &&
          ...);
}

/// The type a wrapper hands to the primal function (used to deduce the
/// signature of lambdas and functors).
template <typename W> using primal_arg_t = typename wrapper_traits<W>::type;

} // namespace detail
} // namespace tapestry

#endif // TAPESTRY_DETAIL_ACTIVITY_HPP
