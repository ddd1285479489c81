//===- tapestry/detail/lowering.hpp - Typed calls to the C API --*- C++ -*-===//
//
// Shared implementation of <tapestry/tapestry.hpp> and <enzyme/enzyme>: the
// lowering of one typed C++ call to ONE call of an entry point
// (__enzyme_autodiff / __enzyme_fwddiff) that the Tapestry plugin rewrites.
// The mode tags and the activity wrappers (Active, Duplicated,
// DuplicatedNoNeed, Const and the batch wrappers BatchDuplicated,
// BatchDuplicatedNoNeed) it lowers are in tapestry/detail/activity.hpp.
//
// Why it looks the way it does. The plugin runs at the start of clang's
// pipeline, before any inlining but its own of the wrappers that make
// requests. At that
// point the call to the entry point must itself show
//   * the function to differentiate as a constant (a function, possibly
//     through casts), and
//   * every activity marker as a load of its `enzyme_*` global,
// in the very IR function that contains the call. So:
//   * the entry call is a single call expression whose arguments are a pack
//     expansion over "slots"; a slot is either a marker or a value, and the
//     choice is made by a conditional operator with a constant condition,
//     which clang folds at -O0 too: a marker slot compiles to `load @enzyme_X`
//     right at the call, a value slot to the value;
//   * the function is `(void *)F` with F a template argument (fn<F>, a member
//     function, or the invoker of a lambda/functor type), which is a constant
//     in each instantiation. A function passed as a value (an ordinary
//     function argument, as in enzyme::autodiff(f, ...)) is not a constant
//     inside the wrapper; the plugin inlines the always_inline wrappers
//     that make requests into their callers before decoding, which turns it
//     back into the function.
//   * lambdas and functors are differentiated through an invoker
//     `R invoke(void *self, A... a)` that calls the object's operator(): the
//     object's address is passed enzyme_const, so captures are inactive.
//   * results come back as a plain struct of the result scalars in order
//     (the plugin matches the scalars whatever IR shape the ABI gives it),
//     then are converted to tuples by the public layers.
//
// Nothing here is public API except what tapestry.hpp / enzyme re-export.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_DETAIL_LOWERING_HPP
#define TAPESTRY_DETAIL_LOWERING_HPP

#include <tapestry/detail/activity.hpp>

namespace tapestry {
namespace detail {

//===-- Function signatures -----------------------------------------------===//

template <typename R, typename... P> struct signature {
  using result = R;
  static constexpr std::size_t arity = sizeof...(P);
  template <std::size_t I>
  using param = std::tuple_element_t<I, std::tuple<P...>>;
};

template <typename F> struct fn_signature {
  static constexpr bool valid = false;
};
template <typename R, typename... P>
struct fn_signature<R (*)(P...)> : signature<R, P...> {
  static constexpr bool valid = true;
};
template <typename R, typename... P>
struct fn_signature<R (*)(P...) noexcept> : fn_signature<R (*)(P...)> {};
template <typename R, typename... P>
struct fn_signature<R(P...)> : fn_signature<R (*)(P...)> {};
template <typename R, typename... P>
struct fn_signature<R(P...) noexcept> : fn_signature<R (*)(P...)> {};

//===-- Slots of the entry call -------------------------------------------===//

template <int K> struct marker_global;
enum : int {
  m_const,
  m_dup,
  m_dupnoneed,
  m_out,
  m_primal_return,
  m_const_return,
  m_width
};
template <> struct marker_global<m_const> {
  static constexpr int &ref = enzyme_const;
};
template <> struct marker_global<m_dup> {
  static constexpr int &ref = enzyme_dup;
};
template <> struct marker_global<m_dupnoneed> {
  static constexpr int &ref = enzyme_dupnoneed;
};
template <> struct marker_global<m_out> {
  static constexpr int &ref = enzyme_out;
};
template <> struct marker_global<m_primal_return> {
  static constexpr int &ref = enzyme_primal_return;
};
template <> struct marker_global<m_const_return> {
  static constexpr int &ref = enzyme_const_return;
};
template <> struct marker_global<m_width> {
  static constexpr int &ref = enzyme_width;
};

/// A marker slot: `ref` (the global) is what the call passes.
template <int K> struct marker_slot {
  static constexpr bool is_marker = true;
  using type = int;
  static constexpr int &ref = marker_global<K>::ref;
  template <typename Tup> static TAPESTRY_ALWAYS_INLINE int get(const Tup &) {
    return 0;
  }
};

/// The batch width after enzyme_width: a constant in the call (the
/// conditional in emit() folds to it at -O0 too).
template <int N> struct width_slot {
  static constexpr bool is_marker = true;
  using type = int;
  static constexpr int ref = N;
  template <typename Tup> static TAPESTRY_ALWAYS_INLINE int get(const Tup &) {
    return N;
  }
};

/// Storage for the dead arm of a value slot's conditional; never emitted.
template <typename T> struct unused_slot_storage { static inline T value{}; };

/// A value slot: the value (Role 0) or shadow k (Role 1 + k) of argument
/// J, as parameter type P of the function to differentiate.
template <std::size_t J, int Role, typename Lower> struct value_slot {
  static constexpr bool is_marker = false;
  using type = typename Lower::slot_type;
  static constexpr type &ref = unused_slot_storage<type>::value;
  template <typename Tup> static TAPESTRY_ALWAYS_INLINE type get(const Tup &t) {
    return Lower::template part<Role>(std::get<J>(t));
  }
};

template <typename... S> struct slots {};
template <typename... L> struct cat_slots;
template <> struct cat_slots<> { using type = slots<>; };
template <typename... A> struct cat_slots<slots<A...>> {
  using type = slots<A...>;
};
template <typename... A, typename... B, typename... Rest>
struct cat_slots<slots<A...>, slots<B...>, Rest...> {
  using type = typename cat_slots<slots<A..., B...>, Rest...>::type;
};

template <typename T>
inline constexpr bool is_scalar_slot_v =
    std::is_arithmetic_v<T> || std::is_pointer_v<T> || std::is_enum_v<T> ||
    std::is_null_pointer_v<T>;
/// A struct passed by value: the C ABI splits it into scalars or passes it
/// in memory, and the plugin pairs those pieces with the struct's shadow
/// (or returns its adjoint as the struct). Only structs trivial for calls
/// (trivial copy and move constructors and destructor; assignment does not
/// count, so std::pair<double, double> is one): the ABI passes others by a
/// hidden reference, which has no by-value meaning.
template <typename T>
inline constexpr bool is_trivial_for_calls_v =
    std::is_trivially_copy_constructible_v<T>
        &&std::is_trivially_move_constructible_v<T>
            &&std::is_trivially_destructible_v<T>;
template <typename T>
inline constexpr bool is_struct_value_v =
    std::is_class_v<T> &&is_trivial_for_calls_v<T> && !std::is_empty_v<T>;

/// How wrapper W is passed for parameter type P, in forward or reverse mode.
template <typename W, typename P, bool Forward> struct lower_arg {
  static constexpr act kind = wrapper_traits<W>::kind;
  static_assert(kind != act::none,
                "every argument must be wrapped: Active(x), Duplicated(p, dp), "
                "DuplicatedNoNeed(p, dp) or Const(c)");
  using T = typename wrapper_traits<W>::type; // as the wrapper holds it
  static constexpr bool param_is_ref = std::is_reference_v<P>;
  using P0 = std::remove_reference_t<P>;
  // What crosses the entry call: a reference parameter is a pointer.
  using slot_type =
      std::remove_cv_t<std::conditional_t<param_is_ref, P0 *, P0>>;
  static_assert(is_scalar_slot_v<slot_type> ||
                    (!param_is_ref && is_struct_value_v<slot_type>),
                "only scalar, pointer and reference parameters, and structs "
                "taken by value that the C ABI passes in registers or by copy "
                "(trivial copy constructor and destructor, as "
                "std::pair<double, double>), can be passed through the C++ "
                "API (pass other classes by pointer or reference)");
  static_assert(kind != act::active || !Forward,
                "Active is for reverse mode; in forward mode pass "
                "Duplicated(x, dx) with the tangent dx");
  static_assert(kind != act::active ||
                    (!param_is_ref &&
                     (std::is_floating_point_v<P0> || is_struct_value_v<P0>)),
                // (or a struct of them trivial for calls)
                "Active(x) needs a floating-point parameter taken by value; "
                "for a reference or pointer parameter pass Duplicated(x, dx)");
  static_assert(!(kind == act::dup || kind == act::dupnoneed) || Forward ||
                    param_is_ref || std::is_pointer_v<P0>,
                "in reverse mode Duplicated needs a pointer or reference "
                "parameter; pass a scalar taken by value as Active(x)");
  static_assert(!(kind == act::dup || kind == act::dupnoneed) || Forward ||
                    std::is_reference_v<T> || std::is_pointer_v<T>,
                "in reverse mode Duplicated needs pointers or references "
                "(Duplicated(&x, &dx) or Duplicated<T &>(x, dx)): a copy's "
                "shadow would receive the adjoint and be thrown away");

  static constexpr int marker = kind == act::active      ? m_out
                                : kind == act::dup       ? m_dup
                                : kind == act::dupnoneed ? m_dupnoneed
                                                         : m_const;
  static constexpr bool has_shadow = kind == act::dup || kind == act::dupnoneed;
  /// Shadows passed: one per lane for batch wrappers, else one.
  static constexpr std::size_t lanes =
      is_batch_wrapper<W>::value ? wrapper_traits<W>::width : 1;

  // The wrapper's value (Role 0) or shadow k (Role 1 + k), as the slot type.
  template <typename U> static TAPESTRY_ALWAYS_INLINE slot_type addr(U *u) {
    return const_cast<std::remove_cv_t<U> *>(u);
  }
  template <int Role, typename WW>
  static TAPESTRY_ALWAYS_INLINE auto &member(WW &w) {
    if constexpr (Role == 0)
      return w.value;
    else if constexpr (is_batch_wrapper<W>::value)
      return w.shadow[Role - 1];
    else
      return w.shadow;
  }
  template <int Role, typename WW>
  static TAPESTRY_ALWAYS_INLINE slot_type part(WW &w) {
    auto &m = member<Role>(w);
    if constexpr (std::is_reference_v<T>) {
      // Const<U&> / Duplicated<U&> hold pointers to the objects.
      if constexpr (param_is_ref || std::is_pointer_v<P0>)
        return addr(m);
      else
        return static_cast<slot_type>(*m);
    } else if constexpr (param_is_ref) {
      if constexpr (std::is_pointer_v<T> && !std::is_pointer_v<P0>)
        return addr(m); // a pointer given for a reference parameter
      else
        return addr(&m); // the wrapper's own copy (Const, forward mode)
    } else {
      return static_cast<slot_type>(m);
    }
  }
  /// The adjoint returned in reverse mode (Active only).
  using adjoint_type = std::remove_cv_t<P0>;
};

template <std::size_t J, typename L, typename Lanes> struct shadow_slots;
template <std::size_t J, typename L, std::size_t... K>
struct shadow_slots<J, L, std::index_sequence<K...>> {
  using type = slots<value_slot<J, int(K) + 1, L>...>;
};

template <std::size_t J, typename L>
using arg_slots = std::conditional_t<
    L::has_shadow,
    typename cat_slots<
        slots<marker_slot<L::marker>, value_slot<J, 0, L>>,
        typename shadow_slots<J, L,
                              std::make_index_sequence<L::lanes>>::type>::type,
    slots<marker_slot<L::marker>, value_slot<J, 0, L>>>;

//===-- Results -----------------------------------------------------------===//

/// A flat struct of the result scalars, in order. Bases are laid out in
/// order with their natural alignment, exactly like named members.
template <std::size_t I, typename T> struct pod_leaf { T v; };
template <typename Seq, typename... T> struct pod_impl;
template <std::size_t... I, typename... T>
struct pod_impl<std::index_sequence<I...>, T...> : pod_leaf<I, T>... {};
template <typename... T>
struct pod : pod_impl<std::index_sequence_for<T...>, T...> {};

template <std::size_t I, typename T>
TAPESTRY_ALWAYS_INLINE T pod_get(const pod_leaf<I, T> &l) {
  return l.v;
}

template <typename... T> struct types {};

/// The entry point's declared return type for results T...: nothing, the
/// scalar, or a flat struct.
template <typename... T> struct entry_return { using type = pod<T...>; };
template <> struct entry_return<> { using type = void; };
template <typename T> struct entry_return<T> { using type = T; };

template <std::size_t I, typename R, typename... T>
TAPESTRY_ALWAYS_INLINE auto result_get(const R &r, types<T...>) {
  if constexpr (sizeof...(T) == 1)
    return r;
  else
    return pod_get<I>(r);
}

template <typename... A> struct cat_types;
template <> struct cat_types<> { using type = types<>; };
template <typename... A> struct cat_types<types<A...>> {
  using type = types<A...>;
};
template <typename... A, typename... B, typename... Rest>
struct cat_types<types<A...>, types<B...>, Rest...> {
  using type = typename cat_types<types<A..., B...>, Rest...>::type;
};

//===-- The request -------------------------------------------------------===//

/// Return activity requested by the caller (Enzyme's RetActivity) or the
/// default: active for a floating-point result, constant otherwise.
/// enzyme_deflt is <enzyme/enzyme>'s default, Enzyme's: like deflt, but in
/// Forward mode a class result is constant (its primal is returned, not its
/// tangent).
enum class ret_act { deflt, active, dup, dupnoneed, konst, enzyme_deflt };

/// Results of a request, as the plugin returns them:
///   reverse: [primal], adjoints of the Active args in order
///   forward: [primal], [tangent]
/// `primal` / `tangent` say which are there.
template <typename T, typename Lanes> struct repeat_types;
template <typename T, std::size_t... K>
struct repeat_types<T, std::index_sequence<K...>> {
  template <std::size_t> using same = T;
  using type = types<same<K>...>;
};
/// T once per lane.
template <typename T, std::size_t Width>
using lane_types =
    typename repeat_types<T, std::make_index_sequence<Width>>::type;

template <bool Forward, bool WantPrimal, ret_act RA, std::size_t Width,
          typename R, typename ArgLowers>
struct request_shape;
template <bool Forward, bool WantPrimal, ret_act RA0, std::size_t Width,
          typename R, typename... L>
struct request_shape<Forward, WantPrimal, RA0, Width, R, types<L...>> {
  // Enzyme's default for a class result is Const, in every mode but
  // ForwardWithPrimal (Tapestry's, which returns the tangent).
  static constexpr ret_act RA =
      RA0 != ret_act::enzyme_deflt                       ? RA0
      : (std::is_class_v<R> && !(Forward && WantPrimal)) ? ret_act::konst
                                                         : ret_act::deflt;
  static constexpr std::size_t width = Width;
  /// A struct returned by value: forward mode returns its tangent as the
  /// struct; reverse mode seeds every member with 1 when it is Active
  /// (Enzyme's rule).
  static constexpr bool struct_return = is_struct_value_v<R>;
  /// A class that is not trivial for calls (std::vector<double>, ...):
  /// returned in memory, its tangent is the object the derivative builds.
  static constexpr bool class_return = std::is_class_v<R> && !struct_return;
  static constexpr bool fp_return =
      std::is_floating_point_v<R> ||
      (Forward && (struct_return || class_return));
  static constexpr bool has_value = !std::is_void_v<R>;
  static_assert(RA == ret_act::deflt || RA == ret_act::konst || fp_return ||
                    struct_return || !std::is_class_v<R>,
                "in reverse mode a result of a class that is not trivially "
                "copyable (std::vector, std::string, ...) cannot be Active: "
                "give the function the result as a reference parameter "
                "(Duplicated<std::vector<double> &>) and seed its shadow");
  static_assert(Forward || !struct_return || RA != ret_act::deflt,
                "in reverse mode a function returning a struct needs its "
                "return activity: with <enzyme/enzyme>, "
                "enzyme::autodiff<enzyme::Reverse, enzyme::Active<S>> seeds "
                "every member with 1 (Enzyme's rule) and the default, "
                "Const<S>, seeds none; <tapestry/tapestry.hpp> takes no "
                "return activity: differentiate a function that returns a "
                "scalar (a member, or a weighted sum of them)");
  static_assert(
      RA == ret_act::deflt || RA == ret_act::konst || fp_return ||
          std::is_class_v<R>,
      "a differentiated return activity needs a floating-point result");
  static_assert(Forward || (RA != ret_act::dup && RA != ret_act::dupnoneed),
                "in reverse mode the return activity is Active or Const");
  static_assert(!Forward || RA != ret_act::active,
                "in forward mode the return activity is Duplicated, "
                "DuplicatedNoNeed or Const");
  // Seeded (reverse) or with a tangent (forward).
  static constexpr bool ret_active =
      (fp_return || (!Forward && struct_return && RA == ret_act::active)) &&
      RA != ret_act::konst;
  static constexpr bool primal =
      has_value &&
      (WantPrimal || (Forward && (RA == ret_act::dup || RA == ret_act::konst ||
                                  (RA == ret_act::deflt && !fp_return))));
  static constexpr bool tangent = Forward && ret_active;
  static constexpr bool const_return_marker =
      (fp_return || struct_return) && RA == ret_act::konst;
  using primal_type = std::conditional_t<primal, types<R>, types<>>;
  using derivs = std::conditional_t<
      Forward, std::conditional_t<tangent, lane_types<R, Width>, types<>>,
      typename cat_types<std::conditional_t<
          L::kind == act::active, lane_types<typename L::adjoint_type, Width>,
          types<>>...>::type>;
  using results = typename cat_types<primal_type, derivs>::type;
  using prefix = typename cat_slots<
      std::conditional_t<(Width > 1),
                         slots<marker_slot<m_width>, width_slot<int(Width)>>,
                         slots<>>,
      std::conditional_t<primal, slots<marker_slot<m_primal_return>>, slots<>>,
      std::conditional_t<const_return_marker,
                         slots<marker_slot<m_const_return>>, slots<>>>::type;
};

template <typename T> struct to_entry_return;
template <typename... T> struct to_entry_return<types<T...>> {
  using type = typename entry_return<T...>::type;
};

/// No shadow context: the request uses the implicit shadows of globals.
struct no_context {};

/// THE call. Target::value is the function (a constant) unless
/// Target::is_static is false, in which case `rt` is (see the header
/// comment). Every slot is a marker load or a value. A shadow context \p c
/// (a class with the context pointer as `ptr`, such as enzyme::context)
/// comes first: enzyme_context, c.ptr.
template <bool Forward, typename Ret, typename Target, typename Ctx,
          typename... S, typename Tup>
TAPESTRY_ALWAYS_INLINE Ret emit(slots<S...>, const Ctx &c, void *rt,
                                const Tup &t) {
  (void)t;
  (void)rt;
  (void)c;
  if constexpr (std::is_same_v<Ctx, no_context>) {
    if constexpr (Forward)
      return __enzyme_fwddiff<Ret, typename S::type...>(
          Target::is_static ? (void *)Target::value : rt,
          (S::is_marker ? S::ref : S::template get<Tup>(t))...);
    else
      return __enzyme_autodiff<Ret, typename S::type...>(
          Target::is_static ? (void *)Target::value : rt,
          (S::is_marker ? S::ref : S::template get<Tup>(t))...);
  } else if constexpr (Forward) {
    return __enzyme_fwddiff<Ret, int, void *, typename S::type...>(
        Target::is_static ? (void *)Target::value : rt, enzyme_context, c.ptr,
        (S::is_marker ? S::ref : S::template get<Tup>(t))...);
  } else {
    return __enzyme_autodiff<Ret, int, void *, typename S::type...>(
        Target::is_static ? (void *)Target::value : rt, enzyme_context, c.ptr,
        (S::is_marker ? S::ref : S::template get<Tup>(t))...);
  }
}

//===-- Targets -----------------------------------------------------------===//

/// The invoker of a lambda or functor of type C with arguments A...
template <typename C, typename R, typename... A>
R invoke_callable(void *object, A... a) {
  return (*static_cast<C *>(object))(static_cast<A &&>(a)...);
}
/// The invoker of member function M: the object pointer comes first.
template <auto M, typename S, typename R, typename... A>
R invoke_member(S *object, A... a) {
  return (object->*M)(static_cast<A &&>(a)...);
}

template <typename M> struct member_signature {
  static constexpr bool valid = false;
};
#define TAPESTRY_MEMBER_SIG(CV, NOEXCEPT)                                      \
  template <typename R, typename C, typename... P>                             \
  struct member_signature<R (C::*)(P...) CV NOEXCEPT> {                        \
    static constexpr bool valid = true;                                        \
    using object = CV C;                                                       \
    using sig = signature<R, object *, P...>;                                  \
    template <auto M>                                                          \
    static constexpr auto invoker = &invoke_member<M, object, R, P...>;        \
  };
TAPESTRY_MEMBER_SIG(, )
TAPESTRY_MEMBER_SIG(const, )
TAPESTRY_MEMBER_SIG(, noexcept)
TAPESTRY_MEMBER_SIG(const, noexcept)
#undef TAPESTRY_MEMBER_SIG

/// A target: the function to differentiate (value), whether it is a
/// constant (is_static) and its signature (sig).
template <auto F, typename = void> struct static_target;
template <auto F>
struct static_target<F, std::enable_if_t<fn_signature<decltype(F)>::valid>> {
  static constexpr bool is_static = true;
  static constexpr auto value = F;
  using sig = fn_signature<decltype(F)>;
};
template <auto F>
struct static_target<F,
                     std::enable_if_t<member_signature<decltype(F)>::valid>> {
  static constexpr bool is_static = true;
  static constexpr auto value =
      member_signature<decltype(F)>::template invoker<F>;
  using sig = typename member_signature<decltype(F)>::sig;
};

template <typename FnPtr> struct runtime_target {
  static constexpr bool is_static = false;
  static constexpr void *value = nullptr;
  using sig = fn_signature<FnPtr>;
};

template <typename C, typename... A> struct callable_target {
  using R = std::invoke_result_t<C &, A...>;
  static constexpr bool is_static = true;
  static constexpr auto value = &invoke_callable<C, R, A...>;
  using sig = signature<R, void *, A...>;
};

/// A lambda or functor with one call operator that is not a template: its
/// declared signature (object pointer first, as for member functions).
template <typename C, typename = void> struct declared_call {
  static constexpr bool valid = false;
};
template <typename C>
struct declared_call<C, std::void_t<decltype(&C::operator())>>
    : member_signature<decltype(&C::operator())> {};

/// The target of a lambda or functor through its declared call operator
/// (the object pointer of the signature dropped).
template <typename C, typename Sig> struct declared_target;
template <typename C, typename R, typename O, typename... P>
struct declared_target<C, signature<R, O, P...>> {
  using type = callable_target<C, P...>;
};
template <bool ByWrapped, bool Declared, typename C, typename... W>
struct pick_callable {
  using type = callable_target<C, primal_arg_t<W>...>;
};
template <typename C, typename... W>
struct pick_callable<false, true, C, W...> {
  using type =
      typename declared_target<C, typename declared_call<C>::sig>::type;
};

/// The target of a lambda or functor called with wrappers W...: called with
/// the wrapped types where it accepts them (as Enzyme's header does, which
/// picks an overload by them), else through its declared call operator, so
/// that pointers may be given for reference parameters as for functions.
template <typename C, typename... W> struct callable_for {
  static constexpr bool by_wrapped =
      std::is_invocable_v<C &, primal_arg_t<W>...>;
  static_assert(by_wrapped || declared_call<C>::valid,
                "the lambda or functor cannot be called with the wrapped "
                "types, and it has no single call operator whose parameters "
                "could be read instead: wrap each argument with the type of "
                "its parameter (Duplicated<const T &>(x, dx) for a const T & "
                "parameter)");
  using type = typename pick_callable<by_wrapped, declared_call<C>::valid, C,
                                      W...>::type;
};

template <typename T> struct is_fn_t : std::false_type {};
template <auto F> struct is_fn_t<fn_t<F>> : std::true_type {};

//===-- Putting a request together ----------------------------------------===//

template <bool Forward, typename Sig, typename WTuple, typename Seq>
struct arg_lowers;
template <bool Forward, typename Sig, typename... W, std::size_t... I>
struct arg_lowers<Forward, Sig, std::tuple<W...>, std::index_sequence<I...>> {
  using type = types<lower_arg<W, typename Sig::template param<I>, Forward>...>;
  using slot_list = typename cat_slots<arg_slots<
      I, lower_arg<W, typename Sig::template param<I>, Forward>>...>::type;
};

/// The outcome of a request: the primal (if any) and derivatives, as types
/// and values, for the public layers to repackage.
template <typename Shape, typename Results> struct outcome;
template <typename Shape, typename... T> struct outcome<Shape, types<T...>> {
  typename entry_return<T...>::type raw;
  static constexpr bool has_primal = Shape::primal;
  static constexpr std::size_t first_deriv = Shape::primal ? 1 : 0;
  static constexpr std::size_t count = sizeof...(T);
  /// Lanes of a batched request: each derivative comes as `width` results.
  static constexpr std::size_t width = Shape::width;
  template <std::size_t I> TAPESTRY_ALWAYS_INLINE auto get() const {
    return result_get<I>(raw, types<T...>{});
  }
};
template <typename Shape> struct outcome<Shape, types<>> {
  static constexpr bool has_primal = false;
  static constexpr std::size_t first_deriv = 0;
  static constexpr std::size_t count = 0;
  static constexpr std::size_t width = Shape::width;
};

/// Runs one request for Target with wrappers W... (already decayed). `rt` is
/// the run-time function pointer for runtime targets, else ignored.
template <typename Mode, ret_act RA, typename Target, typename Ctx,
          typename... W>
TAPESTRY_ALWAYS_INLINE auto request_direct(const Ctx &c, void *rt,
                                           const W &...w) {
  using MT = mode_traits<Mode>;
  using Sig = typename Target::sig;
  static_assert(Sig::arity == sizeof...(W),
                "the number of arguments does not match the function's "
                "parameters (wrap each one: Active, Duplicated, "
                "DuplicatedNoNeed or Const)");
  constexpr std::size_t Width = request_width<W...>();
  static_assert(widths_agree<Width, W...>(),
                "in a batched request every shadowed argument is a "
                "BatchDuplicated<T, N> or BatchDuplicatedNoNeed<T, N> with "
                "the same width N (Active and Const arguments take no lanes)");
  using Lowers = arg_lowers<MT::forward, Sig, std::tuple<W...>,
                            std::index_sequence_for<W...>>;
  using Shape = request_shape<MT::forward, MT::with_primal, RA, Width,
                              typename Sig::result, typename Lowers::type>;
  static_assert(!MT::with_primal || Shape::has_value,
                "a ...WithPrimal mode needs a function that returns a value");
  using Results = typename Shape::results;
  using Ret = typename to_entry_return<Results>::type;
  using Slots = typename cat_slots<typename Shape::prefix,
                                   typename Lowers::slot_list>::type;
  std::tuple<const W &...> t(w...);
  using Out = outcome<Shape, Results>;
  if constexpr (std::is_void_v<Ret>) {
    emit<MT::forward, Ret, Target>(Slots{}, c, rt, t);
    return Out{};
  } else {
    return Out{emit<MT::forward, Ret, Target>(Slots{}, c, rt, t)};
  }
}

//===-- Struct results returned in memory ---------------------------------===//
// The ABI returns a large struct through a hidden first parameter (sret),
// which is what the plugin sees; the C API passes that pointer explicitly
// (enzyme_dup &out, &dout). So such a request passes it too: the primal and
// the tangent land in local objects and are returned as the struct.

/// Whether the C ABI returns R in memory. Only decided for x86-64 SysV; on
/// other targets a large struct result is passed as the plugin sees it, and
/// a mismatch is the plugin's error on the parameter types, never a wrong
/// number.
template <typename R> constexpr bool returned_in_memory() {
#if defined(__x86_64__) && !defined(_WIN32)
  if constexpr (is_struct_value_v<R>)
    return sizeof(R) > 16;
  // Not trivial for calls (a non-trivial copy constructor or destructor):
  // always in memory, which the callee constructs.
  if constexpr (std::is_class_v<R> && !is_trivial_for_calls_v<R>)
    return true;
#endif
  return false;
}

template <typename Sig, typename Seq> struct sret_signature;
template <typename Sig, std::size_t... I>
struct sret_signature<Sig, std::index_sequence<I...>> {
  using type = signature<void, typename Sig::result *,
                         typename Sig::template param<I>...>;
};
/// Target with the result pointer as its first parameter.
template <typename Target> struct sret_target : Target {
  using sig = typename sret_signature<
      typename Target::sig, std::make_index_sequence<Target::sig::arity>>::type;
};

template <bool Primal, std::size_t Width> struct shape_flags {
  static constexpr bool primal = Primal;
  static constexpr std::size_t width = Width;
};
/// A home for a result object (value-initialised).
template <typename R> union result_slot {
  R r;
  result_slot() : r() {}
};

template <typename Out, typename Vals, std::size_t... I>
TAPESTRY_ALWAYS_INLINE Out make_outcome(const Vals &v,
                                        std::index_sequence<I...>) {
  Out o;
  if constexpr (sizeof...(I) == 1)
    o.raw = std::get<0>(v);
  else
    ((static_cast<pod_leaf<I, std::tuple_element_t<I, Vals>> &>(o.raw).v =
          std::get<I>(v)),
     ...);
  return o;
}
template <typename Inner, std::size_t... I>
TAPESTRY_ALWAYS_INLINE auto inner_values(const Inner &o,
                                         std::index_sequence<I...>) {
  return std::make_tuple(o.template get<I>()...);
}
template <bool Keep, typename R>
TAPESTRY_ALWAYS_INLINE auto keep_if(const R &r) {
  if constexpr (Keep)
    return std::make_tuple(r);
  else
    return std::tuple<>();
}
template <typename Flags, typename Vals> struct outcome_of;
template <typename Flags, typename... T>
struct outcome_of<Flags, std::tuple<T...>> {
  using type = outcome<Flags, types<T...>>;
};
/// The outcome as if R had been returned: [primal], [tangent], then the
/// inner request's results (the adjoints).
template <typename Shape, typename Inner, typename R>
TAPESTRY_ALWAYS_INLINE auto finish_sret(const Inner &o, const R &p,
                                        const R &t) {
  auto vals =
      std::tuple_cat(keep_if<Shape::primal>(p), keep_if<Shape::tangent>(t),
                     inner_values(o, std::make_index_sequence<Inner::count>{}));
  using Vals = decltype(vals);
  using Out = typename outcome_of<shape_flags<Shape::primal, 1>, Vals>::type;
  if constexpr (std::tuple_size_v<Vals> == 0)
    return Out{};
  else
    return make_outcome<Out>(
        vals, std::make_index_sequence<std::tuple_size_v<Vals>>{});
}

/// Uninitialised storage for a result object that the callee constructs.
template <typename R> struct raw_result {
  alignas(R) unsigned char bytes[sizeof(R)];
  TAPESTRY_ALWAYS_INLINE R *get() { return reinterpret_cast<R *>(bytes); }
  /// The object, moved out; the storage's copy is destroyed.
  TAPESTRY_ALWAYS_INLINE R take() {
    R r(static_cast<R &&>(*get()));
    get()->~R();
    return r;
  }
};

/// A request on a function returning a class that is not trivially
/// copyable (std::vector<double>, ...): the result pointer is passed
/// Duplicated, so that the derivative constructs both the primal object and
/// its tangent (the shadow object, with shadows of what the primal
/// allocates); both are moved out and the one not wanted is destroyed.
template <typename Mode, ret_act RA, typename Target, typename Ctx,
          typename... W>
TAPESTRY_ALWAYS_INLINE auto request_class_result(const Ctx &c, void *rt,
                                                 const W &...w) {
  using MT = mode_traits<Mode>;
  using R = typename Target::sig::result;
  static_assert(request_width<W...>() == 1,
                "a batched request on a function that returns a class is "
                "not supported; return it through a reference parameter");
  using Shape = request_shape<MT::forward, MT::with_primal, RA, 1, R, types<>>;
  using Inner =
      std::conditional_t<MT::forward, ForwardMode, ReverseMode<false>>;
  using T = sret_target<Target>;
  raw_result<R> p, t;
  if constexpr (Shape::tangent) {
    auto o = request_direct<Inner, ret_act::deflt, T>(
        c, rt, Duplicated<R *>(p.get(), t.get()), w...);
    R primal = p.take(), tangent = t.take();
    return finish_sret<Shape>(o, primal, tangent);
  } else {
    auto o = request_direct<Inner, ret_act::deflt, T>(
        c, rt, Const<R *>(p.get()), w...);
    R primal = p.take();
    return finish_sret<Shape>(o, primal, primal);
  }
}

/// Whether every member of aggregate R (nested aggregates and arrays
/// included) is an E, told by initialising R from sizeof(R) / sizeof(E)
/// values of E that are not constants: a member of another type narrows
/// or does not convert, and one too many or too few does not fit.
template <typename R, typename E, typename Seq, typename = void>
struct braces_of : std::false_type {};
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wmissing-braces"
template <typename R, typename E, std::size_t... I>
struct braces_of<R, E, std::index_sequence<I...>,
                 std::void_t<decltype(R{((void)I, std::declval<E &>())...})>>
    : std::true_type {};
template <typename R, typename E, std::size_t... I>
TAPESTRY_ALWAYS_INLINE R filled_with(E v, std::index_sequence<I...>) {
  return R{((void)I, v)...};
}
#pragma clang diagnostic pop
template <typename R, typename E> constexpr bool all_members_are() {
  if constexpr (!std::is_aggregate_v<R> || sizeof(R) % sizeof(E) != 0)
    return false;
  else
    return braces_of<R, E,
                     std::make_index_sequence<sizeof(R) / sizeof(E)>>::value;
}
/// The seed of an Active struct result returned in memory: every member 1,
/// as Enzyme seeds a struct result (the plugin does the same for one
/// returned in registers).
template <typename R> TAPESTRY_ALWAYS_INLINE R ones_seed() {
  if constexpr (all_members_are<R, double>())
    return filled_with<R>(1.0, std::make_index_sequence<sizeof(R) / 8>{});
  else if constexpr (all_members_are<R, float>())
    return filled_with<R>(1.0f, std::make_index_sequence<sizeof(R) / 4>{});
  else
    static_assert(always_false<R>,
                  "an Active struct result returned in memory (larger than "
                  "16 bytes) is seeded with 1 in every member, which needs "
                  "a struct whose members are all double or all float; "
                  "return the struct through a pointer parameter "
                  "(Duplicated<S *>(&out, &seed)) and seed it yourself");
}

/// A request on a function whose struct result is returned in memory: the
/// result pointer goes first, Duplicated (primal and tangent wanted),
/// DuplicatedNoNeed (tangent only) or Const (no tangent); in reverse mode
/// an Active result's shadow is a seed of ones (Duplicated when the primal
/// is wanted, else DuplicatedNoNeed), a Const one's is not passed.
template <typename Mode, ret_act RA, typename Target, typename Ctx,
          typename... W>
TAPESTRY_ALWAYS_INLINE auto request_sret(const Ctx &c, void *rt,
                                         const W &...w) {
  using MT = mode_traits<Mode>;
  using R = typename Target::sig::result;
  static_assert(request_width<W...>() == 1,
                "a batched request on a function that returns a large struct "
                "is not supported; return it through a pointer parameter");
  static_assert(
      std::is_default_constructible_v<R>,
      "a struct result returned in memory must be default-constructible");
  // Which of primal and tangent the caller gets (the arguments do not matter).
  using Shape = request_shape<MT::forward, MT::with_primal, RA, 1, R, types<>>;
  using Inner =
      std::conditional_t<MT::forward, ForwardMode, ReverseMode<false>>;
  using T = sret_target<Target>;
  result_slot<R> p, t;
  if constexpr (!MT::forward && Shape::ret_active) {
    // Reverse mode, Active<R>: the result's shadow is the seed.
    t.r = ones_seed<R>();
    if constexpr (Shape::primal) {
      auto o = request_direct<Inner, ret_act::deflt, T>(
          c, rt, Duplicated<R *>(&p.r, &t.r), w...);
      return finish_sret<Shape>(o, p.r, t.r);
    } else {
      auto o = request_direct<Inner, ret_act::deflt, T>(
          c, rt, DuplicatedNoNeed<R *>(&p.r, &t.r), w...);
      return finish_sret<Shape>(o, p.r, t.r);
    }
  } else if constexpr (Shape::tangent && Shape::primal) {
    auto o = request_direct<Inner, ret_act::deflt, T>(
        c, rt, Duplicated<R *>(&p.r, &t.r), w...);
    return finish_sret<Shape>(o, p.r, t.r);
  } else if constexpr (Shape::tangent) {
    auto o = request_direct<Inner, ret_act::deflt, T>(
        c, rt, DuplicatedNoNeed<R *>(&p.r, &t.r), w...);
    return finish_sret<Shape>(o, p.r, t.r);
  } else {
    auto o =
        request_direct<Inner, ret_act::deflt, T>(c, rt, Const<R *>(&p.r), w...);
    return finish_sret<Shape>(o, p.r, t.r);
  }
}

/// Runs one request, passing a struct result returned in memory explicitly.
template <typename Mode, ret_act RA, typename Target, typename Ctx,
          typename... W>
TAPESTRY_ALWAYS_INLINE auto request(const Ctx &c, void *rt, const W &...w) {
  using R = typename Target::sig::result;
  if constexpr (returned_in_memory<R>() && !is_struct_value_v<R>)
    return request_class_result<Mode, RA, Target>(c, rt, w...);
  else if constexpr (returned_in_memory<R>())
    return request_sret<Mode, RA, Target>(c, rt, w...);
  else
    return request_direct<Mode, RA, Target>(c, rt, w...);
}

/// Dispatches on what the callable is: fn<F> (a constant), a lambda/functor
/// (its invoker, the object passed enzyme_const), or a run-time function
/// pointer/reference (see the header comment). \p c is the shadow context
/// (no_context for none).
template <typename Mode, ret_act RA, typename Ctx, typename F, typename... W>
TAPESTRY_ALWAYS_INLINE auto request_in(const Ctx &c, F &&f, const W &...w) {
  using FD = remove_cvref_t<F>;
  if constexpr (is_fn_t<FD>::value) {
    return request<Mode, RA, static_target<FD::value>>(c, nullptr, w...);
  } else if constexpr (std::is_class_v<FD>) {
    using C = std::remove_reference_t<F>;
    using Target = typename callable_for<C, W...>::type;
    void *self = const_cast<void *>(static_cast<const volatile void *>(&f));
    return request<Mode, RA, Target>(c, nullptr, Const<void *>(self), w...);
  } else {
    using FnPtr = std::decay_t<F>;
    static_assert(fn_signature<FnPtr>::valid,
                  "the first argument must be a function, a lambda/functor "
                  "or tapestry::fn<f>");
    return request<Mode, RA, runtime_target<FnPtr>>(
        c, reinterpret_cast<void *>(static_cast<FnPtr>(f)), w...);
  }
}

/// A request outside any shadow context.
template <typename Mode, ret_act RA, typename F, typename... W>
TAPESTRY_ALWAYS_INLINE auto request_for(F &&f, const W &...w) {
  return request_in<Mode, RA>(no_context{}, static_cast<F &&>(f), w...);
}

template <typename T> struct ret_activity_of {
  static constexpr ret_act value = ret_act::deflt;
};
template <typename T> struct ret_activity_of<Active<T>> {
  static constexpr ret_act value = ret_act::active;
};
template <typename T> struct ret_activity_of<Duplicated<T>> {
  static constexpr ret_act value = ret_act::dup;
};
template <typename T> struct ret_activity_of<DuplicatedNoNeed<T>> {
  static constexpr ret_act value = ret_act::dupnoneed;
};
template <typename T> struct ret_activity_of<Const<T>> {
  static constexpr ret_act value = ret_act::konst;
};

/// The `Width` results from `From` on, as a std::array (one per lane).
template <std::size_t From, std::size_t Width, typename Out, std::size_t... K>
TAPESTRY_ALWAYS_INLINE auto lanes_array(const Out &o,
                                        std::index_sequence<K...>) {
  using T = decltype(o.template get<From>());
  return std::array<T, Width>{o.template get<From + K>()...};
}
/// One derivative: the result at From, or its lanes as a std::array.
template <std::size_t From, typename Out>
TAPESTRY_ALWAYS_INLINE auto lanes(const Out &o) {
  if constexpr (Out::width == 1)
    return o.template get<From>();
  else
    return lanes_array<From, Out::width>(
        o, std::make_index_sequence<Out::width>{});
}
/// std::tuple of the derivatives from From on, each as lanes() gives it.
template <std::size_t From, typename Out, std::size_t... D>
TAPESTRY_ALWAYS_INLINE auto grouped_tuple(const Out &o,
                                          std::index_sequence<D...>) {
  return std::make_tuple(lanes<From + D * Out::width>(o)...);
}

/// std::tuple of the outcome's results [From, From + N).
template <std::size_t From, typename Out, std::size_t... I>
TAPESTRY_ALWAYS_INLINE auto outcome_tuple(const Out &o,
                                          std::index_sequence<I...>) {
  return std::make_tuple(o.template get<From + I>()...);
}
template <typename Out>
TAPESTRY_ALWAYS_INLINE auto derivatives_tuple(const Out &o) {
  return outcome_tuple<Out::first_deriv>(
      o, std::make_index_sequence<Out::count - Out::first_deriv>{});
}

} // namespace detail
} // namespace tapestry

#endif // TAPESTRY_DETAIL_LOWERING_HPP
