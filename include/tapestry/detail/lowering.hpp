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

// A system header, as the standard library's are: the warnings users turn
// on (-Wreserved-identifier) are about their code, not this header's.
#pragma GCC system_header

#include <tapestry/detail/activity.hpp>

namespace tapestry {
namespace detail {

//===-- Function signatures -----------------------------------------------===//

template <typename _R, typename... _P> struct signature {
  using __result = _R;
  static constexpr std::size_t arity = sizeof...(_P);
  template <std::size_t _I>
  using param = std::tuple_element_t<_I, std::tuple<_P...>>;
};

template <typename _F> struct fn_signature {
  static constexpr bool valid = false;
};
template <typename _R, typename... _P>
struct fn_signature<_R (*)(_P...)> : signature<_R, _P...> {
  static constexpr bool valid = true;
};
template <typename _R, typename... _P>
struct fn_signature<_R (*)(_P...) noexcept> : fn_signature<_R (*)(_P...)> {};
template <typename _R, typename... _P>
struct fn_signature<_R(_P...)> : fn_signature<_R (*)(_P...)> {};
template <typename _R, typename... _P>
struct fn_signature<_R(_P...) noexcept> : fn_signature<_R (*)(_P...)> {};

//===-- Slots of the entry call -------------------------------------------===//

template <int _K> struct marker_global;
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
  static constexpr int &__ref = enzyme_const;
};
template <> struct marker_global<m_dup> {
  static constexpr int &__ref = enzyme_dup;
};
template <> struct marker_global<m_dupnoneed> {
  static constexpr int &__ref = enzyme_dupnoneed;
};
template <> struct marker_global<m_out> {
  static constexpr int &__ref = enzyme_out;
};
template <> struct marker_global<m_primal_return> {
  static constexpr int &__ref = enzyme_primal_return;
};
template <> struct marker_global<m_const_return> {
  static constexpr int &__ref = enzyme_const_return;
};
template <> struct marker_global<m_width> {
  static constexpr int &__ref = enzyme_width;
};

/// A marker slot: `ref` (the global) is what the call passes.
template <int _K> struct marker_slot {
  static constexpr bool is_marker = true;
  using type = int;
  static constexpr int &__ref = marker_global<_K>::__ref;
  template <typename _Tup> static TAPESTRY_ALWAYS_INLINE int get(const _Tup &) {
    return 0;
  }
};

/// The batch width after enzyme_width: a constant in the call (the
/// conditional in emit() folds to it at -O0 too).
template <int _N> struct width_slot {
  static constexpr bool is_marker = true;
  using type = int;
  static constexpr int __ref = _N;
  template <typename _Tup> static TAPESTRY_ALWAYS_INLINE int get(const _Tup &) {
    return _N;
  }
};

/// Storage for the dead arm of a value slot's conditional; never emitted.
template <typename _T> struct unused_slot_storage { static inline _T value{}; };

/// A value slot: the value (Role 0) or shadow k (Role 1 + k) of argument
/// J, as parameter type P of the function to differentiate.
template <std::size_t _J, int _Role, typename _Lower> struct value_slot {
  static constexpr bool is_marker = false;
  using type = typename _Lower::slot_type;
  static constexpr type &__ref = unused_slot_storage<type>::value;
  template <typename _Tup>
  static TAPESTRY_ALWAYS_INLINE type get(const _Tup &__t) {
    return _Lower::template part<_Role>(std::get<_J>(__t));
  }
};

template <typename... _S> struct slots {};
template <typename... _L> struct cat_slots;
template <> struct cat_slots<> { using type = slots<>; };
template <typename... _A> struct cat_slots<slots<_A...>> {
  using type = slots<_A...>;
};
template <typename... _A, typename... _B, typename... _Rest>
struct cat_slots<slots<_A...>, slots<_B...>, _Rest...> {
  using type = typename cat_slots<slots<_A..., _B...>, _Rest...>::type;
};

template <typename _T>
inline constexpr bool is_scalar_slot_v =
    std::is_arithmetic_v<_T> || std::is_pointer_v<_T> || std::is_enum_v<_T> ||
    std::is_null_pointer_v<_T>;
/// A struct passed by value: the C ABI splits it into scalars or passes it
/// in memory, and the plugin pairs those pieces with the struct's shadow
/// (or returns its adjoint as the struct). Only structs trivial for calls
/// (trivial copy and move constructors and destructor; assignment does not
/// count, so std::pair<double, double> is one): the ABI passes others by a
/// hidden reference, which has no by-value meaning.
template <typename _T>
inline constexpr bool is_trivial_for_calls_v =
    std::is_trivially_copy_constructible_v<_T>
        &&std::is_trivially_move_constructible_v<_T>
            &&std::is_trivially_destructible_v<_T>;
template <typename _T>
inline constexpr bool is_struct_value_v =
    std::is_class_v<_T> &&is_trivial_for_calls_v<_T> && !std::is_empty_v<_T>;

/// How wrapper W is passed for parameter type P, in forward or reverse mode.
template <typename _W, typename _P, bool _Forward> struct lower_arg {
  static constexpr __act kind = wrapper_traits<_W>::kind;
  static_assert(kind != __act::none,
                "every argument must be wrapped: Active(x), Duplicated(p, dp), "
                "DuplicatedNoNeed(p, dp) or Const(c)");
  using _T = typename wrapper_traits<_W>::type; // as the wrapper holds it
  static constexpr bool param_is_ref = std::is_reference_v<_P>;
  using _P0 = std::remove_reference_t<_P>;
  // What crosses the entry call: a reference parameter is a pointer.
  using slot_type =
      std::remove_cv_t<std::conditional_t<param_is_ref, _P0 *, _P0>>;
  static_assert(is_scalar_slot_v<slot_type> ||
                    (!param_is_ref && is_struct_value_v<slot_type>),
                "only scalar, pointer and reference parameters, and structs "
                "taken by value that the C ABI passes in registers or by copy "
                "(trivial copy constructor and destructor, as "
                "std::pair<double, double>), can be passed through the C++ "
                "API (pass other classes by pointer or reference)");
  static_assert(kind != __act::active || !_Forward,
                "Active is for reverse mode; in forward mode pass "
                "Duplicated(x, dx) with the tangent dx");
  static_assert(kind != __act::active ||
                    (!param_is_ref &&
                     (std::is_floating_point_v<_P0> || is_struct_value_v<_P0>)),
                // (or a struct of them trivial for calls)
                "Active(x) needs a floating-point parameter taken by value; "
                "for a reference or pointer parameter pass Duplicated(x, dx)");
  static_assert(!(kind == __act::__dup || kind == __act::dupnoneed) ||
                    _Forward || param_is_ref || std::is_pointer_v<_P0>,
                "in reverse mode Duplicated needs a pointer or reference "
                "parameter; pass a scalar taken by value as Active(x)");
  static_assert(!(kind == __act::__dup || kind == __act::dupnoneed) ||
                    _Forward || std::is_reference_v<_T> ||
                    std::is_pointer_v<_T>,
                "in reverse mode Duplicated needs pointers or references "
                "(Duplicated(&x, &dx) or Duplicated<T &>(x, dx)): a copy's "
                "shadow would receive the adjoint and be thrown away");

  static constexpr int marker = kind == __act::active      ? m_out
                                : kind == __act::__dup     ? m_dup
                                : kind == __act::dupnoneed ? m_dupnoneed
                                                           : m_const;
  static constexpr bool has_shadow =
      kind == __act::__dup || kind == __act::dupnoneed;
  /// Shadows passed: one per lane for batch wrappers, else one.
  static constexpr std::size_t lanes =
      is_batch_wrapper<_W>::value ? wrapper_traits<_W>::__width : 1;

  // The wrapper's value (Role 0) or shadow k (Role 1 + k), as the slot type.
  template <typename _U> static TAPESTRY_ALWAYS_INLINE slot_type addr(_U *__u) {
    return const_cast<std::remove_cv_t<_U> *>(__u);
  }
  template <int _Role, typename _WW>
  static TAPESTRY_ALWAYS_INLINE auto &member(_WW &__w) {
    if constexpr (_Role == 0)
      return __w.value;
    else if constexpr (is_batch_wrapper<_W>::value)
      return __w.shadow[_Role - 1];
    else
      return __w.shadow;
  }
  template <int _Role, typename _WW>
  static TAPESTRY_ALWAYS_INLINE slot_type part(_WW &__w) {
    auto &__m = member<_Role>(__w);
    if constexpr (std::is_reference_v<_T>) {
      // Const<U&> / Duplicated<U&> hold pointers to the objects.
      if constexpr (param_is_ref || std::is_pointer_v<_P0>)
        return addr(__m);
      else
        return static_cast<slot_type>(*__m);
    } else if constexpr (param_is_ref) {
      if constexpr (std::is_pointer_v<_T> && !std::is_pointer_v<_P0>)
        return addr(__m); // a pointer given for a reference parameter
      else
        return addr(&__m); // the wrapper's own copy (Const, forward mode)
    } else {
      return static_cast<slot_type>(__m);
    }
  }
  /// The adjoint returned in reverse mode (Active only).
  using adjoint_type = std::remove_cv_t<_P0>;
};

template <std::size_t _J, typename _L, typename _Lanes> struct shadow_slots;
template <std::size_t _J, typename _L, std::size_t... _K>
struct shadow_slots<_J, _L, std::index_sequence<_K...>> {
  using type = slots<value_slot<_J, int(_K) + 1, _L>...>;
};

template <std::size_t _J, typename _L>
using arg_slots = std::conditional_t<
    _L::has_shadow,
    typename cat_slots<
        slots<marker_slot<_L::marker>, value_slot<_J, 0, _L>>,
        typename shadow_slots<_J, _L,
                              std::make_index_sequence<_L::lanes>>::type>::type,
    slots<marker_slot<_L::marker>, value_slot<_J, 0, _L>>>;

//===-- Results -----------------------------------------------------------===//

/// A flat struct of the result scalars, in order. Bases are laid out in
/// order with their natural alignment, exactly like named members.
template <std::size_t _I, typename _T> struct pod_leaf { _T __v; };
template <typename _Seq, typename... _T> struct pod_impl;
template <std::size_t... _I, typename... _T>
struct pod_impl<std::index_sequence<_I...>, _T...> : pod_leaf<_I, _T>... {};
template <typename... _T>
struct __pod : pod_impl<std::index_sequence_for<_T...>, _T...> {};

template <std::size_t _I, typename _T>
TAPESTRY_ALWAYS_INLINE _T pod_get(const pod_leaf<_I, _T> &__l) {
  return __l.__v;
}

template <typename... _T> struct types {};

/// The entry point's declared return type for results T...: nothing, the
/// scalar, or a flat struct.
template <typename... _T> struct entry_return { using type = __pod<_T...>; };
template <> struct entry_return<> { using type = void; };
template <typename _T> struct entry_return<_T> { using type = _T; };

template <std::size_t _I, typename _R, typename... _T>
TAPESTRY_ALWAYS_INLINE auto result_get(const _R &__r, types<_T...>) {
  if constexpr (sizeof...(_T) == 1)
    return __r;
  else
    return pod_get<_I>(__r);
}

template <typename... _A> struct cat_types;
template <> struct cat_types<> { using type = types<>; };
template <typename... _A> struct cat_types<types<_A...>> {
  using type = types<_A...>;
};
template <typename... _A, typename... _B, typename... _Rest>
struct cat_types<types<_A...>, types<_B...>, _Rest...> {
  using type = typename cat_types<types<_A..., _B...>, _Rest...>::type;
};

//===-- The request -------------------------------------------------------===//

/// Return activity requested by the caller (Enzyme's RetActivity) or the
/// default: active for a floating-point result, constant otherwise.
/// enzyme_deflt is <enzyme/enzyme>'s default, Enzyme's: like deflt, but in
/// Forward mode a class result is constant (its primal is returned, not its
/// tangent).
enum class ret_act { deflt, active, __dup, dupnoneed, konst, enzyme_deflt };

/// Results of a request, as the plugin returns them:
///   reverse: [primal], adjoints of the Active args in order
///   forward: [primal], [tangent]
/// `primal` / `tangent` say which are there.
template <typename _T, typename _Lanes> struct repeat_types;
template <typename _T, std::size_t... _K>
struct repeat_types<_T, std::index_sequence<_K...>> {
  template <std::size_t> using same = _T;
  using type = types<same<_K>...>;
};
/// T once per lane.
template <typename _T, std::size_t _Width>
using lane_types =
    typename repeat_types<_T, std::make_index_sequence<_Width>>::type;

template <bool _Forward, bool _WantPrimal, ret_act _RA, std::size_t _Width,
          typename _R, typename _ArgLowers>
struct request_shape;
template <bool _Forward, bool _WantPrimal, ret_act _RA0, std::size_t _Width,
          typename _R, typename... _L>
struct request_shape<_Forward, _WantPrimal, _RA0, _Width, _R, types<_L...>> {
  // Enzyme's default for a class result is Const, in every mode but
  // ForwardWithPrimal (Tapestry's, which returns the tangent).
  static constexpr ret_act _RA =
      _RA0 != ret_act::enzyme_deflt                         ? _RA0
      : (std::is_class_v<_R> && !(_Forward && _WantPrimal)) ? ret_act::konst
                                                            : ret_act::deflt;
  static constexpr std::size_t __width = _Width;
  /// A struct returned by value: forward mode returns its tangent as the
  /// struct; reverse mode seeds every member with 1 when it is Active
  /// (Enzyme's rule).
  static constexpr bool struct_return = is_struct_value_v<_R>;
  /// A class that is not trivial for calls (std::vector<double>, ...):
  /// returned in memory, its tangent is the object the derivative builds.
  static constexpr bool class_return = std::is_class_v<_R> && !struct_return;
  static constexpr bool fp_return =
      std::is_floating_point_v<_R> ||
      (_Forward && (struct_return || class_return));
  static constexpr bool has_value = !std::is_void_v<_R>;
  static_assert(_RA == ret_act::deflt || _RA == ret_act::konst || fp_return ||
                    struct_return || !std::is_class_v<_R>,
                "in reverse mode a result of a class that is not trivially "
                "copyable (std::vector, std::string, ...) cannot be Active: "
                "give the function the result as a reference parameter "
                "(Duplicated<std::vector<double> &>) and seed its shadow");
  static_assert(_Forward || !struct_return || _RA != ret_act::deflt,
                "in reverse mode a function returning a struct needs its "
                "return activity: with <enzyme/enzyme>, "
                "enzyme::autodiff<enzyme::Reverse, enzyme::Active<S>> seeds "
                "every member with 1 (Enzyme's rule) and the default, "
                "Const<S>, seeds none; <tapestry/tapestry.hpp> takes no "
                "return activity: differentiate a function that returns a "
                "scalar (a member, or a weighted sum of them)");
  static_assert(
      _RA == ret_act::deflt || _RA == ret_act::konst || fp_return ||
          std::is_class_v<_R>,
      "a differentiated return activity needs a floating-point result");
  static_assert(_Forward ||
                    (_RA != ret_act::__dup && _RA != ret_act::dupnoneed),
                "in reverse mode the return activity is Active or Const");
  static_assert(!_Forward || _RA != ret_act::active,
                "in forward mode the return activity is Duplicated, "
                "DuplicatedNoNeed or Const");
  // Seeded (reverse) or with a tangent (forward).
  static constexpr bool ret_active =
      (fp_return || (!_Forward && struct_return && _RA == ret_act::active)) &&
      _RA != ret_act::konst;
  static constexpr bool primal =
      has_value &&
      (_WantPrimal ||
       (_Forward && (_RA == ret_act::__dup || _RA == ret_act::konst ||
                     (_RA == ret_act::deflt && !fp_return))));
  static constexpr bool tangent = _Forward && ret_active;
  static constexpr bool const_return_marker =
      (fp_return || struct_return) && _RA == ret_act::konst;
  using primal_type = std::conditional_t<primal, types<_R>, types<>>;
  using __derivs = std::conditional_t<
      _Forward, std::conditional_t<tangent, lane_types<_R, _Width>, types<>>,
      typename cat_types<std::conditional_t<
          _L::kind == __act::active,
          lane_types<typename _L::adjoint_type, _Width>, types<>>...>::type>;
  using results = typename cat_types<primal_type, __derivs>::type;
  using prefix = typename cat_slots<
      std::conditional_t<(_Width > 1),
                         slots<marker_slot<m_width>, width_slot<int(_Width)>>,
                         slots<>>,
      std::conditional_t<primal, slots<marker_slot<m_primal_return>>, slots<>>,
      std::conditional_t<const_return_marker,
                         slots<marker_slot<m_const_return>>, slots<>>>::type;
};

template <typename _T> struct to_entry_return;
template <typename... _T> struct to_entry_return<types<_T...>> {
  using type = typename entry_return<_T...>::type;
};

/// No shadow context: the request uses the implicit shadows of globals.
struct no_context {};

/// THE call. Target::value is the function (a constant) unless
/// Target::is_static is false, in which case `rt` is (see the header
/// comment). Every slot is a marker load or a value. A shadow context \p c
/// (a class with the context pointer as `ptr`, such as enzyme::context)
/// comes first: enzyme_context, c.ptr.
template <bool _Forward, typename _Ret, typename _Target, typename _Ctx,
          typename... _S, typename _Tup>
TAPESTRY_ALWAYS_INLINE _Ret emit(slots<_S...>, const _Ctx &__c, void *__rt,
                                 const _Tup &__t) {
  (void)__t;
  (void)__rt;
  (void)__c;
  if constexpr (std::is_same_v<_Ctx, no_context>) {
    if constexpr (_Forward)
      return __enzyme_fwddiff<_Ret, typename _S::type...>(
          _Target::is_static ? (void *)_Target::value : __rt,
          (_S::is_marker ? _S::__ref : _S::template get<_Tup>(__t))...);
    else
      return __enzyme_autodiff<_Ret, typename _S::type...>(
          _Target::is_static ? (void *)_Target::value : __rt,
          (_S::is_marker ? _S::__ref : _S::template get<_Tup>(__t))...);
  } else if constexpr (_Forward) {
    return __enzyme_fwddiff<_Ret, int, void *, typename _S::type...>(
        _Target::is_static ? (void *)_Target::value : __rt, enzyme_context,
        __c.ptr, (_S::is_marker ? _S::__ref : _S::template get<_Tup>(__t))...);
  } else {
    return __enzyme_autodiff<_Ret, int, void *, typename _S::type...>(
        _Target::is_static ? (void *)_Target::value : __rt, enzyme_context,
        __c.ptr, (_S::is_marker ? _S::__ref : _S::template get<_Tup>(__t))...);
  }
}

//===-- Targets -----------------------------------------------------------===//

/// The invoker of a lambda or functor of type C with arguments A...
template <typename _C, typename _R, typename... _A>
_R invoke_callable(void *__object, _A... __a) {
  return (*static_cast<_C *>(__object))(static_cast<_A &&>(__a)...);
}
/// The invoker of member function M: the object pointer comes first.
template <auto _M, typename _S, typename _R, typename... _A>
_R invoke_member(_S *__object, _A... __a) {
  return (__object->*_M)(static_cast<_A &&>(__a)...);
}

template <typename _M> struct member_signature {
  static constexpr bool valid = false;
};
#define TAPESTRY_MEMBER_SIG(_CV, _NOEXCEPT)                                    \
  template <typename _R, typename _C, typename... _P>                          \
  struct member_signature<_R (_C::*)(_P...) _CV _NOEXCEPT> {                   \
    static constexpr bool valid = true;                                        \
    using __object = _CV _C;                                                   \
    using __sig = signature<_R, __object *, _P...>;                            \
    template <auto _M>                                                         \
    static constexpr auto invoker = &invoke_member<_M, __object, _R, _P...>;   \
  };
TAPESTRY_MEMBER_SIG(, )
TAPESTRY_MEMBER_SIG(const, )
TAPESTRY_MEMBER_SIG(, noexcept)
TAPESTRY_MEMBER_SIG(const, noexcept)
#undef TAPESTRY_MEMBER_SIG

/// A target: the function to differentiate (value), whether it is a
/// constant (is_static) and its signature (sig).
template <auto _F, typename = void> struct static_target;
template <auto _F>
struct static_target<_F, std::enable_if_t<fn_signature<decltype(_F)>::valid>> {
  static constexpr bool is_static = true;
  static constexpr auto value = _F;
  using __sig = fn_signature<decltype(_F)>;
};
template <auto _F>
struct static_target<_F,
                     std::enable_if_t<member_signature<decltype(_F)>::valid>> {
  static constexpr bool is_static = true;
  static constexpr auto value =
      member_signature<decltype(_F)>::template invoker<_F>;
  using __sig = typename member_signature<decltype(_F)>::__sig;
};

template <typename _FnPtr> struct runtime_target {
  static constexpr bool is_static = false;
  static constexpr void *value = nullptr;
  using __sig = fn_signature<_FnPtr>;
};

template <typename _C, typename... _A> struct callable_target {
  using _R = std::invoke_result_t<_C &, _A...>;
  static constexpr bool is_static = true;
  static constexpr auto value = &invoke_callable<_C, _R, _A...>;
  using __sig = signature<_R, void *, _A...>;
};

/// A lambda or functor with one call operator that is not a template: its
/// declared signature (object pointer first, as for member functions).
template <typename _C, typename = void> struct declared_call {
  static constexpr bool valid = false;
};
template <typename _C>
struct declared_call<_C, std::void_t<decltype(&_C::operator())>>
    : member_signature<decltype(&_C::operator())> {};

/// The target of a lambda or functor through its declared call operator
/// (the object pointer of the signature dropped).
template <typename _C, typename _Sig> struct declared_target;
template <typename _C, typename _R, typename _O, typename... _P>
struct declared_target<_C, signature<_R, _O, _P...>> {
  using type = callable_target<_C, _P...>;
};
template <bool _ByWrapped, bool _Declared, typename _C, typename... _W>
struct pick_callable {
  using type = callable_target<_C, primal_arg_t<_W>...>;
};
template <typename _C, typename... _W>
struct pick_callable<false, true, _C, _W...> {
  using type =
      typename declared_target<_C, typename declared_call<_C>::__sig>::type;
};

/// The target of a lambda or functor called with wrappers W...: called with
/// the wrapped types where it accepts them (as Enzyme's header does, which
/// picks an overload by them), else through its declared call operator, so
/// that pointers may be given for reference parameters as for functions.
template <typename _C, typename... _W> struct callable_for {
  static constexpr bool by_wrapped =
      std::is_invocable_v<_C &, primal_arg_t<_W>...>;
  static_assert(by_wrapped || declared_call<_C>::valid,
                "the lambda or functor cannot be called with the wrapped "
                "types, and it has no single call operator whose parameters "
                "could be read instead: wrap each argument with the type of "
                "its parameter (Duplicated<const T &>(x, dx) for a const T & "
                "parameter)");
  using type = typename pick_callable<by_wrapped, declared_call<_C>::valid, _C,
                                      _W...>::type;
};

template <typename _T> struct is_fn_t : std::false_type {};
template <auto _F> struct is_fn_t<fn_t<_F>> : std::true_type {};

//===-- Putting a request together ----------------------------------------===//

template <bool _Forward, typename _Sig, typename _WTuple, typename _Seq>
struct arg_lowers;
template <bool _Forward, typename _Sig, typename... _W, std::size_t... _I>
struct arg_lowers<_Forward, _Sig, std::tuple<_W...>,
                  std::index_sequence<_I...>> {
  using type =
      types<lower_arg<_W, typename _Sig::template param<_I>, _Forward>...>;
  using slot_list = typename cat_slots<arg_slots<
      _I, lower_arg<_W, typename _Sig::template param<_I>, _Forward>>...>::type;
};

/// The outcome of a request: the primal (if any) and derivatives, as types
/// and values, for the public layers to repackage.
template <typename _Shape, typename _Results> struct outcome;
template <typename _Shape, typename... _T>
struct outcome<_Shape, types<_T...>> {
  typename entry_return<_T...>::type __raw;
  static constexpr bool has_primal = _Shape::primal;
  static constexpr std::size_t first_deriv = _Shape::primal ? 1 : 0;
  static constexpr std::size_t count = sizeof...(_T);
  /// Lanes of a batched request: each derivative comes as `width` results.
  static constexpr std::size_t __width = _Shape::__width;
  template <std::size_t _I> TAPESTRY_ALWAYS_INLINE auto get() const {
    return result_get<_I>(__raw, types<_T...>{});
  }
};
template <typename _Shape> struct outcome<_Shape, types<>> {
  static constexpr bool has_primal = false;
  static constexpr std::size_t first_deriv = 0;
  static constexpr std::size_t count = 0;
  static constexpr std::size_t __width = _Shape::__width;
};

/// Runs one request for Target with wrappers W... (already decayed). `rt` is
/// the run-time function pointer for runtime targets, else ignored.
template <typename _Mode, ret_act _RA, typename _Target, typename _Ctx,
          typename... _W>
TAPESTRY_ALWAYS_INLINE auto request_direct(const _Ctx &__c, void *__rt,
                                           const _W &...__w) {
  using _MT = mode_traits<_Mode>;
  using _Sig = typename _Target::__sig;
  static_assert(_Sig::arity == sizeof...(_W),
                "the number of arguments does not match the function's "
                "parameters (wrap each one: Active, Duplicated, "
                "DuplicatedNoNeed or Const)");
  constexpr std::size_t _Width = request_width<_W...>();
  static_assert(widths_agree<_Width, _W...>(),
                "in a batched request every shadowed argument is a "
                "BatchDuplicated<T, N> or BatchDuplicatedNoNeed<T, N> with "
                "the same width N (Active and Const arguments take no lanes)");
  using _Lowers = arg_lowers<_MT::forward, _Sig, std::tuple<_W...>,
                             std::index_sequence_for<_W...>>;
  using _Shape = request_shape<_MT::forward, _MT::with_primal, _RA, _Width,
                               typename _Sig::__result, typename _Lowers::type>;
  static_assert(!_MT::with_primal || _Shape::has_value,
                "a ...WithPrimal mode needs a function that returns a value");
  using _Results = typename _Shape::results;
  using _Ret = typename to_entry_return<_Results>::type;
  using _Slots = typename cat_slots<typename _Shape::prefix,
                                    typename _Lowers::slot_list>::type;
  std::tuple<const _W &...> __t(__w...);
  using _Out = outcome<_Shape, _Results>;
  if constexpr (std::is_void_v<_Ret>) {
    emit<_MT::forward, _Ret, _Target>(_Slots{}, __c, __rt, __t);
    return _Out{};
  } else {
    return _Out{emit<_MT::forward, _Ret, _Target>(_Slots{}, __c, __rt, __t)};
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
template <typename _R> constexpr bool returned_in_memory() {
#if defined(__x86_64__) && !defined(_WIN32)
  if constexpr (is_struct_value_v<_R>)
    return sizeof(_R) > 16;
  // Not trivial for calls (a non-trivial copy constructor or destructor):
  // always in memory, which the callee constructs.
  if constexpr (std::is_class_v<_R> && !is_trivial_for_calls_v<_R>)
    return true;
#endif
  return false;
}

template <typename _Sig, typename _Seq> struct sret_signature;
template <typename _Sig, std::size_t... _I>
struct sret_signature<_Sig, std::index_sequence<_I...>> {
  using type = signature<void, typename _Sig::__result *,
                         typename _Sig::template param<_I>...>;
};
/// Target with the result pointer as its first parameter.
template <typename _Target> struct sret_target : _Target {
  using __sig = typename sret_signature<
      typename _Target::__sig,
      std::make_index_sequence<_Target::__sig::arity>>::type;
};

template <bool _Primal, std::size_t _Width> struct shape_flags {
  static constexpr bool primal = _Primal;
  static constexpr std::size_t __width = _Width;
};
/// A home for a result object (value-initialised).
template <typename _R> union result_slot {
  _R __r;
  result_slot() : __r() {}
};

template <typename _Out, typename _Vals, std::size_t... _I>
TAPESTRY_ALWAYS_INLINE _Out make_outcome(const _Vals &__v,
                                         std::index_sequence<_I...>) {
  _Out __o;
  if constexpr (sizeof...(_I) == 1)
    __o.__raw = std::get<0>(__v);
  else
    ((static_cast<pod_leaf<_I, std::tuple_element_t<_I, _Vals>> &>(__o.__raw)
          .__v = std::get<_I>(__v)),
     ...);
  return __o;
}
template <typename _Inner, std::size_t... _I>
TAPESTRY_ALWAYS_INLINE auto inner_values(const _Inner &__o,
                                         std::index_sequence<_I...>) {
  return std::make_tuple(__o.template get<_I>()...);
}
template <bool _Keep, typename _R>
TAPESTRY_ALWAYS_INLINE auto keep_if(const _R &__r) {
  if constexpr (_Keep)
    return std::make_tuple(__r);
  else
    return std::tuple<>();
}
template <typename _Flags, typename _Vals> struct outcome_of;
template <typename _Flags, typename... _T>
struct outcome_of<_Flags, std::tuple<_T...>> {
  using type = outcome<_Flags, types<_T...>>;
};
/// The outcome as if R had been returned: [primal], [tangent], then the
/// inner request's results (the adjoints).
template <typename _Shape, typename _Inner, typename _R>
TAPESTRY_ALWAYS_INLINE auto finish_sret(const _Inner &__o, const _R &__p,
                                        const _R &__t) {
  auto __vals = std::tuple_cat(
      keep_if<_Shape::primal>(__p), keep_if<_Shape::tangent>(__t),
      inner_values(__o, std::make_index_sequence<_Inner::count>{}));
  using _Vals = decltype(__vals);
  using _Out = typename outcome_of<shape_flags<_Shape::primal, 1>, _Vals>::type;
  if constexpr (std::tuple_size_v<_Vals> == 0)
    return _Out{};
  else
    return make_outcome<_Out>(
        __vals, std::make_index_sequence<std::tuple_size_v<_Vals>>{});
}

/// Uninitialised storage for a result object that the callee constructs.
template <typename _R> struct raw_result {
  alignas(_R) unsigned char bytes[sizeof(_R)];
  TAPESTRY_ALWAYS_INLINE _R *get() { return reinterpret_cast<_R *>(bytes); }
  /// The object, moved out; the storage's copy is destroyed.
  TAPESTRY_ALWAYS_INLINE _R take() {
    _R __r(static_cast<_R &&>(*get()));
    get()->~_R();
    return __r;
  }
};

/// A request on a function returning a class that is not trivially
/// copyable (std::vector<double>, ...): the result pointer is passed
/// Duplicated, so that the derivative constructs both the primal object and
/// its tangent (the shadow object, with shadows of what the primal
/// allocates); both are moved out and the one not wanted is destroyed.
template <typename _Mode, ret_act _RA, typename _Target, typename _Ctx,
          typename... _W>
TAPESTRY_ALWAYS_INLINE auto request_class_result(const _Ctx &__c, void *__rt,
                                                 const _W &...__w) {
  using _MT = mode_traits<_Mode>;
  using _R = typename _Target::__sig::__result;
  static_assert(request_width<_W...>() == 1,
                "a batched request on a function that returns a class is "
                "not supported; return it through a reference parameter");
  using _Shape =
      request_shape<_MT::forward, _MT::with_primal, _RA, 1, _R, types<>>;
  using _Inner =
      std::conditional_t<_MT::forward, ForwardMode, ReverseMode<false>>;
  using _T = sret_target<_Target>;
  raw_result<_R> __p, __t;
  if constexpr (_Shape::tangent) {
    auto __o = request_direct<_Inner, ret_act::deflt, _T>(
        __c, __rt, Duplicated<_R *>(__p.get(), __t.get()), __w...);
    _R __primal = __p.take(), __tangent = __t.take();
    return finish_sret<_Shape>(__o, __primal, __tangent);
  } else {
    auto __o = request_direct<_Inner, ret_act::deflt, _T>(
        __c, __rt, Const<_R *>(__p.get()), __w...);
    _R __primal = __p.take();
    return finish_sret<_Shape>(__o, __primal, __primal);
  }
}

/// Whether every member of aggregate R (nested aggregates and arrays
/// included) is an E, told by initialising R from sizeof(R) / sizeof(E)
/// values of E that are not constants: a member of another type narrows
/// or does not convert, and one too many or too few does not fit.
template <typename _R, typename _E, typename _Seq, typename = void>
struct braces_of : std::false_type {};
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wmissing-braces"
template <typename _R, typename _E, std::size_t... _I>
struct braces_of<_R, _E, std::index_sequence<_I...>,
                 std::void_t<decltype(_R{((void)_I, std::declval<_E &>())...})>>
    : std::true_type {};
template <typename _R, typename _E, std::size_t... _I>
TAPESTRY_ALWAYS_INLINE _R filled_with(_E __v, std::index_sequence<_I...>) {
  return _R{((void)_I, __v)...};
}
#pragma clang diagnostic pop
template <typename _R, typename _E> constexpr bool all_members_are() {
  if constexpr (!std::is_aggregate_v<_R> || sizeof(_R) % sizeof(_E) != 0)
    return false;
  else
    return braces_of<_R, _E,
                     std::make_index_sequence<sizeof(_R) / sizeof(_E)>>::value;
}
/// The seed of an Active struct result returned in memory: every member 1,
/// as Enzyme seeds a struct result (the plugin does the same for one
/// returned in registers).
template <typename _R> TAPESTRY_ALWAYS_INLINE _R ones_seed() {
  if constexpr (all_members_are<_R, double>())
    return filled_with<_R>(1.0, std::make_index_sequence<sizeof(_R) / 8>{});
  else if constexpr (all_members_are<_R, float>())
    return filled_with<_R>(1.0f, std::make_index_sequence<sizeof(_R) / 4>{});
  else
    static_assert(always_false<_R>,
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
template <typename _Mode, ret_act _RA, typename _Target, typename _Ctx,
          typename... _W>
TAPESTRY_ALWAYS_INLINE auto request_sret(const _Ctx &__c, void *__rt,
                                         const _W &...__w) {
  using _MT = mode_traits<_Mode>;
  using _R = typename _Target::__sig::__result;
  static_assert(request_width<_W...>() == 1,
                "a batched request on a function that returns a large struct "
                "is not supported; return it through a pointer parameter");
  static_assert(
      std::is_default_constructible_v<_R>,
      "a struct result returned in memory must be default-constructible");
  // Which of primal and tangent the caller gets (the arguments do not matter).
  using _Shape =
      request_shape<_MT::forward, _MT::with_primal, _RA, 1, _R, types<>>;
  using _Inner =
      std::conditional_t<_MT::forward, ForwardMode, ReverseMode<false>>;
  using _T = sret_target<_Target>;
  result_slot<_R> __p, __t;
  if constexpr (!_MT::forward && _Shape::ret_active) {
    // Reverse mode, Active<R>: the result's shadow is the seed.
    __t.__r = ones_seed<_R>();
    if constexpr (_Shape::primal) {
      auto __o = request_direct<_Inner, ret_act::deflt, _T>(
          __c, __rt, Duplicated<_R *>(&__p.__r, &__t.__r), __w...);
      return finish_sret<_Shape>(__o, __p.__r, __t.__r);
    } else {
      auto __o = request_direct<_Inner, ret_act::deflt, _T>(
          __c, __rt, DuplicatedNoNeed<_R *>(&__p.__r, &__t.__r), __w...);
      return finish_sret<_Shape>(__o, __p.__r, __t.__r);
    }
  } else if constexpr (_Shape::tangent && _Shape::primal) {
    auto __o = request_direct<_Inner, ret_act::deflt, _T>(
        __c, __rt, Duplicated<_R *>(&__p.__r, &__t.__r), __w...);
    return finish_sret<_Shape>(__o, __p.__r, __t.__r);
  } else if constexpr (_Shape::tangent) {
    auto __o = request_direct<_Inner, ret_act::deflt, _T>(
        __c, __rt, DuplicatedNoNeed<_R *>(&__p.__r, &__t.__r), __w...);
    return finish_sret<_Shape>(__o, __p.__r, __t.__r);
  } else {
    auto __o = request_direct<_Inner, ret_act::deflt, _T>(
        __c, __rt, Const<_R *>(&__p.__r), __w...);
    return finish_sret<_Shape>(__o, __p.__r, __t.__r);
  }
}

/// Runs one request, passing a struct result returned in memory explicitly.
template <typename _Mode, ret_act _RA, typename _Target, typename _Ctx,
          typename... _W>
TAPESTRY_ALWAYS_INLINE auto request(const _Ctx &__c, void *__rt,
                                    const _W &...__w) {
  using _R = typename _Target::__sig::__result;
  if constexpr (returned_in_memory<_R>() && !is_struct_value_v<_R>)
    return request_class_result<_Mode, _RA, _Target>(__c, __rt, __w...);
  else if constexpr (returned_in_memory<_R>())
    return request_sret<_Mode, _RA, _Target>(__c, __rt, __w...);
  else
    return request_direct<_Mode, _RA, _Target>(__c, __rt, __w...);
}

/// Dispatches on what the callable is: fn<F> (a constant), a lambda/functor
/// (its invoker, the object passed enzyme_const), or a run-time function
/// pointer/reference (see the header comment). \p c is the shadow context
/// (no_context for none).
template <typename _Mode, ret_act _RA, typename _Ctx, typename _F,
          typename... _W>
TAPESTRY_ALWAYS_INLINE auto request_in(const _Ctx &__c, _F &&__f,
                                       const _W &...__w) {
  using _FD = remove_cvref_t<_F>;
  if constexpr (is_fn_t<_FD>::value) {
    return request<_Mode, _RA, static_target<_FD::value>>(__c, nullptr, __w...);
  } else if constexpr (std::is_class_v<_FD>) {
    using _C = std::remove_reference_t<_F>;
    using _Target = typename callable_for<_C, _W...>::type;
    void *__self = const_cast<void *>(static_cast<const volatile void *>(&__f));
    return request<_Mode, _RA, _Target>(__c, nullptr, Const<void *>(__self),
                                        __w...);
  } else {
    using _FnPtr = std::decay_t<_F>;
    static_assert(fn_signature<_FnPtr>::valid,
                  "the first argument must be a function, a lambda/functor "
                  "or tapestry::fn<f>");
    return request<_Mode, _RA, runtime_target<_FnPtr>>(
        __c, reinterpret_cast<void *>(static_cast<_FnPtr>(__f)), __w...);
  }
}

/// A request outside any shadow context.
template <typename _Mode, ret_act _RA, typename _F, typename... _W>
TAPESTRY_ALWAYS_INLINE auto request_for(_F &&__f, const _W &...__w) {
  return request_in<_Mode, _RA>(no_context{}, static_cast<_F &&>(__f), __w...);
}

template <typename _T> struct ret_activity_of {
  static constexpr ret_act value = ret_act::deflt;
};
template <typename _T> struct ret_activity_of<Active<_T>> {
  static constexpr ret_act value = ret_act::active;
};
template <typename _T> struct ret_activity_of<Duplicated<_T>> {
  static constexpr ret_act value = ret_act::__dup;
};
template <typename _T> struct ret_activity_of<DuplicatedNoNeed<_T>> {
  static constexpr ret_act value = ret_act::dupnoneed;
};
template <typename _T> struct ret_activity_of<Const<_T>> {
  static constexpr ret_act value = ret_act::konst;
};

/// The `Width` results from `From` on, as a std::array (one per lane).
template <std::size_t _From, std::size_t _Width, typename _Out,
          std::size_t... _K>
TAPESTRY_ALWAYS_INLINE auto lanes_array(const _Out &__o,
                                        std::index_sequence<_K...>) {
  using _T = decltype(__o.template get<_From>());
  return std::array<_T, _Width>{__o.template get<_From + _K>()...};
}
/// One derivative: the result at From, or its lanes as a std::array.
template <std::size_t _From, typename _Out>
TAPESTRY_ALWAYS_INLINE auto lanes(const _Out &__o) {
  if constexpr (_Out::__width == 1)
    return __o.template get<_From>();
  else
    return lanes_array<_From, _Out::__width>(
        __o, std::make_index_sequence<_Out::__width>{});
}
/// std::tuple of the derivatives from From on, each as lanes() gives it.
template <std::size_t _From, typename _Out, std::size_t... _D>
TAPESTRY_ALWAYS_INLINE auto grouped_tuple(const _Out &__o,
                                          std::index_sequence<_D...>) {
  return std::make_tuple(lanes<_From + _D * _Out::__width>(__o)...);
}

/// std::tuple of the outcome's results [From, From + N).
template <std::size_t _From, typename _Out, std::size_t... _I>
TAPESTRY_ALWAYS_INLINE auto outcome_tuple(const _Out &__o,
                                          std::index_sequence<_I...>) {
  return std::make_tuple(__o.template get<_From + _I>()...);
}
template <typename _Out>
TAPESTRY_ALWAYS_INLINE auto derivatives_tuple(const _Out &__o) {
  return outcome_tuple<_Out::first_deriv>(
      __o, std::make_index_sequence<_Out::count - _Out::first_deriv>{});
}

} // namespace detail
} // namespace tapestry

#endif // TAPESTRY_DETAIL_LOWERING_HPP
