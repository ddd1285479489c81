//===- tapestry/split.hpp - Typed thunks, tapes and pullbacks ---*- C++ -*-===//
//
// Split-mode reverse differentiation in C++: run the forward half now, keep
// the tape, run the reverse half later. Header-only; every thunk lowers to
// ONE call `__tapestry_thunk((void *)f, markers...)` (see
// <tapestry/thunk.h>) that the Tapestry plugin replaces at compile time by a
// constant descriptor. C++17 or later; included by <tapestry/tapestry.hpp>.
//
//   double sinsum(const double *x, int n, double a);
//
//   // One annotation per parameter (the annotation types of tapestry.hpp
//   // used as types): Active<T> (a floating-point value; its adjoint is
//   // returned), Duplicated<T> / DuplicatedNoNeed<T> (a pointer or
//   // reference, followed by its shadow), Const<T>.
//   auto t = tapestry::thunk<sinsum, tapestry::Duplicated<const double *>,
//                            tapestry::Const<int>, tapestry::Active<double>>();
//
//   // Raw halves, typed from f's signature: forward takes f's arguments,
//   // each Duplicated one followed by its shadow; reverse takes the same,
//   // then the seed of a floating-point result, then the tape.
//   auto [y, tape] = t.forward(x, dx, n, a);          // y = sinsum(x, n, a)
//   std::tuple<double> da = t.reverse(x, dx, n, a, 1.0, tape);  // dx += ...
//
//   // Pullbacks capture the arguments and own the tape.
//   auto [y2, pb] = t.pullback(x, dx, n, a);
//   auto [da2] = std::move(pb)(1.0);   // one-shot: only on an rvalue, once
//
//   // A reusable tape, demanded at compile time (the compiler makes the
//   // reverse replayable or rejects the request with the reason):
//   auto r = tapestry::thunk<sinsum, tapestry::Reusable, ...same...>();
//   auto [y3, rpb] = r.pullback(x, dx, n, a);
//   std::function<std::tuple<double>(double)> vjp = rpb;  // copyable
//   for (double s : seeds) vjp(s);                         // any number
//
// Results. forward: {primal, tape} (just {tape} if f returns void);
// pullback: {primal, pullback} (just {pullback}); reverse and the pullbacks'
// call: a std::tuple of the adjoints of the Active parameters in order (as
// tapestry::autodiff<Reverse> returns them), std::tuple<> if there are
// none. Duplicated shadows accumulate (dx += adjoint), as in one-shot mode.
// The seed argument exists only if f returns float/double; for a void
// function the seeds are the shadows of its outputs.
//
// Repeated reverse sweeps on one tape:
//   * tapestry::Reusable: ReusablePullback, copyable (the copies share the
//     tape) and callable any number of times; usable as std::function.
//   * otherwise the tape's reusability is the compiler's finding, known at
//     run time only (Thunk::reusable(), Tape::reusable()). The default
//     Pullback is therefore one-shot: move-only (so not a std::function),
//     callable only as an rvalue (`std::move(pb)(seed)`; calling an lvalue is
//     a compile error), and a second call stops the program with a message.
//     `std::move(pb).share()` turns it into a ReusablePullback after checking
//     the reusable flag at run time (it stops the program if the flag is 0).
//   * Thunk::reverse on a Tape may run again only if the tape is reusable;
//     the reverse itself checks and stops with the reason otherwise.
//
// Tape: move-only RAII owner of one tape (tape_bytes, calloc'd); its
// destructor runs the thunk's release and frees the memory. The tape may
// also live in the caller's memory, as Enzyme's enzyme_allocated buffers
// do: forward_in(buf, args...) and pullback_in(buf, args...) take a
// tapestry::TapeBuffer<N> (N bytes on the stack) or a TapeMemory{p, bytes}
// (the caller's allocator); the size and alignment are checked at run
// time against Thunk::tape_bytes(), the Tape releases what the tape owns
// and never frees the caller's memory, and a reusable tape there may be
// replayed like any other.
//
// Arguments captured by a pullback (pointers, references, shadows) must
// stay valid until its last call, as with a lambda capturing by reference.
//
// The function: f as a template argument (a function, g<float>, a member
// function &S::m whose object pointer is the first parameter, e.g.
// Const<const S *>, or +constexpr_lambda). Parameters are scalars, pointers
// or references (references stay references in forward/reverse; the
// shadow of a const T& is a T&).
//
// Lowering. thunk<f, ...>() makes one call __tapestry_thunk((void *)f,
// enzyme_*...) with f and every marker a constant in the call's own
// function, so it needs no inlining (-O0 included); forward and reverse
// call the descriptor's function pointers. One exception: when the reverse
// returns adjoints that the C ABI returns differently from the plugin's IR
// struct (three or more, two floats, long double among two:
// test/Split/thunk-struct-abi.c), the reverse is called through
// __enzyme_reverse(f, [tapestry_reusable_tape,] enzyme_nofree, same
// markers..., tape) instead, which the plugin resolves to the same reverse
// on the same tape and whose result it adapts. The entry points are
// declared noexcept (test/Split/entry-points-in-invokes.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SPLIT_HPP
#define TAPESTRY_SPLIT_HPP

// A system header, as the standard library's are: the warnings users turn
// on (-Wreserved-identifier) are about their code, not this header's.
#pragma GCC system_header

#include <tapestry/detail/lowering.hpp>

#include <tapestry/thunk.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

extern "C" {
extern int enzyme_nofree;
}

namespace tapestry {

/// Annotation tag: demand a reusable tape, `thunk<f, Reusable, ...>()`.
struct Reusable {};

/// Memory the caller owns, to hold one tape: from the caller's allocator
/// (`TapeMemory{p, bytes}`) or on the stack (tapestry::TapeBuffer<N>). It
/// must hold Thunk::tape_bytes() bytes, aligned for any scalar
/// (alignof(std::max_align_t)), and outlive every use of the tape.
struct TapeMemory {
  void *data;
  std::size_t bytes;
};

/// A tape's memory on the stack (or inside any object): N bytes, aligned
/// for any scalar. `TapeBuffer<512> buf; t.forward_in(buf, args...)`. N is
/// checked against the thunk's tape size when the forward half runs (the
/// size is the compiler's, known only after C++ is compiled: print
/// Thunk::tape_bytes() once to choose N).
template <std::size_t _N> class TapeBuffer {
  static_assert(_N > 0, "tapestry::TapeBuffer: N must be positive");

public:
  TapeBuffer() noexcept = default;
  TapeBuffer(const TapeBuffer &) = delete;
  TapeBuffer &operator=(const TapeBuffer &) = delete;
  TapeMemory memory() noexcept { return TapeMemory{bytes_, _N}; }
  operator TapeMemory() noexcept { return memory(); }
  static constexpr std::size_t capacity() noexcept { return _N; }

private:
  alignas(std::max_align_t) unsigned char bytes_[_N];
};

/// One tape of a thunk, for one forward call; released (the thunk's
/// release, which frees what the tape owns) by the destructor. Its memory
/// is calloc'd and freed with it, or the caller's (TapeMemory, TapeBuffer),
/// which it zeroes first and never frees. Move-only.
class Tape {
public:
  Tape() noexcept = default;
  explicit Tape(const tapestry_thunk *__t)
      : thunk_(__t), mem_(tapestry_tape_new(__t)) {
    if (!mem_) {
      std::fflush(nullptr); // what the program printed before, first
      std::fputs("tapestry: out of memory allocating a tape\n", stderr);
      std::abort();
    }
  }
  /// A tape in the caller's memory \p m; stops the program with the sizes
  /// if \p m is too small or misaligned for the thunk's tape.
  Tape(const tapestry_thunk *__t, TapeMemory __m)
      : thunk_(__t), mem_(__m.data), owned_(false) {
    std::size_t __need = __t->tape_bytes ? std::size_t(__t->tape_bytes) : 1;
    if (!__m.data || __m.bytes < __need) {
      std::fflush(nullptr);
      std::fprintf(stderr,
                   "tapestry: the caller's tape memory holds %zu bytes, but "
                   "this thunk's tape needs %zu (Thunk::tape_bytes()); give "
                   "it a larger TapeBuffer or TapeMemory\n",
                   __m.data ? __m.bytes : std::size_t(0), __need);
      std::abort();
    }
    if (reinterpret_cast<std::uintptr_t>(__m.data) %
        alignof(std::max_align_t)) {
      std::fflush(nullptr);
      std::fprintf(stderr,
                   "tapestry: the caller's tape memory at %p is not aligned "
                   "to %zu bytes (alignof(std::max_align_t)); allocate it "
                   "aligned, or use a TapeBuffer\n",
                   __m.data, alignof(std::max_align_t));
      std::abort();
    }
    std::memset(__m.data, 0, __need);
  }
  Tape(Tape &&__o) noexcept
      : thunk_(__o.thunk_), mem_(__o.mem_), owned_(__o.owned_) {
    __o.mem_ = nullptr;
  }
  Tape &operator=(Tape &&__o) noexcept {
    if (this != &__o) {
      reset();
      thunk_ = __o.thunk_;
      mem_ = __o.mem_;
      owned_ = __o.owned_;
      __o.mem_ = nullptr;
    }
    return *this;
  }
  Tape(const Tape &) = delete;
  Tape &operator=(const Tape &) = delete;
  ~Tape() { reset(); }

  /// Releases what the tape owns and frees its memory if it is not the
  /// caller's (the tape is then empty).
  void reset() noexcept {
    if (mem_) {
      if (owned_)
        tapestry_tape_delete(thunk_, mem_);
      else
        ((void (*)(void *))thunk_->release)(mem_);
    }
    mem_ = nullptr;
  }
  /// Whether the memory is the caller's (TapeMemory, TapeBuffer).
  bool in_caller_memory() const noexcept { return mem_ && !owned_; }
  /// The tape's memory (nullptr if empty).
  void *get() const noexcept { return mem_; }
  explicit operator bool() const noexcept { return mem_ != nullptr; }
  /// The thunk it belongs to.
  const tapestry_thunk *thunk() const noexcept { return thunk_; }
  /// Whether the reverse may run again on it (the compiler's finding).
  bool reusable() const noexcept { return thunk_ && thunk_->reusable; }
  std::size_t size() const noexcept {
    return thunk_ ? std::size_t(thunk_->tape_bytes) : 0;
  }

private:
  const tapestry_thunk *thunk_ = nullptr;
  void *mem_ = nullptr;
  bool owned_ = true;
};

/// What forward returns: the primal result and the tape.
template <typename _R> struct ForwardResult {
  _R primal;
  Tape tape;
};
template <> struct ForwardResult<void> { Tape tape; };

/// What pullback returns: the primal result and the pullback.
template <typename _R, typename _PB> struct PullbackResult {
  _R primal;
  _PB pullback;
};
template <typename _PB> struct PullbackResult<void, _PB> { _PB pullback; };

namespace detail {

// The thunk entry point. Never defined: the plugin replaces every call (its
// mangled name contains __tapestry_thunk).
template <typename... _T>
const tapestry_thunk *__tapestry_thunk(void *, _T...) noexcept;

[[noreturn]] inline void split_fail(const char *__msg) {
  std::fflush(nullptr);
  std::fputs(__msg, stderr);
  std::abort();
}

template <typename _T>
using shadow_param_t =
    std::conditional_t<std::is_reference_v<_T>,
                       std::remove_const_t<std::remove_reference_t<_T>> &, _T>;

/// Whether the reverse's IR return (a literal struct of the adjoints) is
/// returned like the C struct of them: none or one; on x86-64 also two that
/// are not both float and not long double
/// (test/Split/thunk-struct-abi.c).
template <typename... _T> struct adjoints_abi_ok : std::false_type {};
template <> struct adjoints_abi_ok<> : std::true_type {};
template <typename _T> struct adjoints_abi_ok<_T> : std::true_type {};
#if defined(__x86_64__)
template <typename _T, typename _U>
struct adjoints_abi_ok<_T, _U>
    : std::bool_constant<
          !(std::is_same_v<_T, float> &&
            std::is_same_v<_U, float>)&&!std::is_same_v<_T, long double> &&
          !std::is_same_v<_U, long double>> {};
#endif

/// A value slot of the split reverse entry call: flat argument K (a
/// reference is passed as a pointer).
template <std::size_t _K, typename _P> struct flat_slot {
  static constexpr bool is_marker = false;
  using type = std::conditional_t<std::is_reference_v<_P>,
                                  std::remove_reference_t<_P> *, _P>;
  static constexpr type &__ref = unused_slot_storage<type>::value;
  template <typename _Tup>
  static TAPESTRY_ALWAYS_INLINE type get(const _Tup &__t) {
    if constexpr (std::is_reference_v<_P>)
      return &std::get<_K>(__t);
    else
      return std::get<_K>(__t);
  }
};

/// Parameter P of f with annotation A: its marker, what forward/reverse take
/// for it and its adjoint (Active only). lower_arg checks the annotation.
template <typename _A, typename _P> struct split_param {
  using _L = lower_arg<_A, _P, /*Forward=*/false>;
  static_assert(_L::kind != __act::active ||
                    !is_struct_value_v<std::remove_cv_t<_P>>,
                "tapestry::thunk: Active<S> for a struct S taken by value is "
                "not supported in split mode (the thunk's reverse cannot "
                "return the struct's adjoint); take the parameter as const S & "
                "and annotate it Duplicated<const S &> (its adjoint is "
                "accumulated into the shadow S you pass), or use "
                "tapestry::autodiff, whose one-shot reverse returns it");
  static constexpr int marker = _L::marker;
  static constexpr std::size_t __width = _L::has_shadow ? 2 : 1;
  using flat = std::conditional_t<_L::has_shadow, types<_P, shadow_param_t<_P>>,
                                  types<_P>>;
  using adjoint = std::conditional_t<_L::kind == __act::active,
                                     types<typename _L::adjoint_type>, types<>>;
  template <std::size_t _K>
  using slot_list =
      std::conditional_t<_L::has_shadow,
                         slots<marker_slot<_L::marker>, flat_slot<_K, _P>,
                               flat_slot<_K + 1, shadow_param_t<_P>>>,
                         slots<marker_slot<_L::marker>, flat_slot<_K, _P>>>;
};

template <std::size_t _K, typename... _SP> struct split_slots {
  using type = slots<>;
};
template <std::size_t _K, typename _SP, typename... _Rest>
struct split_slots<_K, _SP, _Rest...> {
  using type = typename cat_slots<
      typename _SP::template slot_list<_K>,
      typename split_slots<_K + _SP::__width, _Rest...>::type>::type;
};

// Split-mode entry point, for the reverse halves whose results the C ABI
// cannot return from the thunk's reverse (see adjoints_abi_ok): the plugin
// rewrites this call into a call of the same reverse, adapting the result.
template <typename _R, typename... _T>
_R __enzyme_reverse(void *, _T...) noexcept;

/// Everything about one thunk, from f and the annotations.
template <auto _F, bool _Reuse, typename... _A> struct split_spec {
  using _Target = static_target<_F>;
  using _Sig = typename _Target::__sig;
  static_assert(_Sig::arity == sizeof...(_A),
                "tapestry::thunk needs one annotation per parameter of the "
                "function (Active<T>, Duplicated<T>, DuplicatedNoNeed<T> or "
                "Const<T>), optionally preceded by tapestry::Reusable");
  using _R = typename _Sig::__result;
  static_assert(!std::is_reference_v<_R>,
                "tapestry::thunk: a function returning a reference is not "
                "supported");
  // A struct result (std::complex, a point) would need a seed of its own
  // type, which the pullbacks do not take: its derivative would be garbage.
  static_assert(std::is_void_v<_R> || std::is_arithmetic_v<_R> ||
                    std::is_pointer_v<_R> || std::is_enum_v<_R>,
                "tapestry::thunk: a function returning a struct or class (such "
                "as std::complex) by value is not supported: return it through "
                "a pointer or reference parameter annotated Duplicated<T *> "
                "and seed that parameter's shadow");

  template <std::size_t... _I>
  static auto params(std::index_sequence<_I...>)
      -> types<split_param<_A, typename _Sig::template param<_I>>...>;
  using _Params = decltype(params(std::index_sequence_for<_A...>{}));
  static constexpr bool seeded = std::is_floating_point_v<_R>;
  static constexpr bool reusable = _Reuse;
  using _Seeds = std::conditional_t<seeded, types<_R>, types<>>;

  template <typename, typename = _Seeds> struct unpack;
  template <typename... _SP, typename... _S>
  struct unpack<types<_SP...>, types<_S...>> {
    using flat = typename cat_types<typename _SP::flat...>::type;
    using adjoints = typename cat_types<typename _SP::adjoint...>::type;
    using slot_list = typename split_slots<0, _SP...>::type;

    static TAPESTRY_ALWAYS_INLINE const tapestry_thunk *make() {
      if constexpr (_Reuse)
        return detail::__tapestry_thunk((void *)_Target::value,
                                        tapestry_reusable_tape,
                                        marker_global<_SP::marker>::__ref...);
      else
        return detail::__tapestry_thunk((void *)_Target::value,
                                        marker_global<_SP::marker>::__ref...);
    }

    /// The reverse through the split entry point: the same request as the
    /// thunk's (so the same reverse and tape layout), enzyme_nofree.
    template <typename _Ret, typename... _Sl, typename _Tup>
    static TAPESTRY_ALWAYS_INLINE _Ret entry(slots<_Sl...>, const _Tup &__t,
                                             _S... __s, void *__tape) {
      if constexpr (_Reuse)
        return detail::__enzyme_reverse<_Ret, int, int, typename _Sl::type...,
                                        _S..., void *>(
            (void *)_Target::value, tapestry_reusable_tape, enzyme_nofree,
            (_Sl::is_marker ? _Sl::__ref : _Sl::template get<_Tup>(__t))...,
            __s..., __tape);
      else
        return detail::__enzyme_reverse<_Ret, int, typename _Sl::type..., _S...,
                                        void *>(
            (void *)_Target::value, enzyme_nofree,
            (_Sl::is_marker ? _Sl::__ref : _Sl::template get<_Tup>(__t))...,
            __s..., __tape);
    }
  };
  using _Flat = typename unpack<_Params>::flat;
  using _Adjoints = typename unpack<_Params>::adjoints;

  template <typename, typename = _Flat, typename = _Seeds, typename = _Adjoints>
  struct __fn;
  template <typename _Dummy, typename... _P, typename... _S, typename... _D>
  struct __fn<_Dummy, types<_P...>, types<_S...>, types<_D...>> {
    using __ret = typename entry_return<_D...>::type;
    using adjoints = std::tuple<_D...>;
    using __args = std::tuple<_P...>;
    using augmented = _R (*)(_P..., void *);
    using reverse = void (*)(_P..., _S..., void *, void *);
    /// The thunk's reverse writes the adjoints to memory, so any shape of
    /// them comes back through it.
    static constexpr bool direct = true;

    template <typename _Ret, std::size_t... _I>
    static TAPESTRY_ALWAYS_INLINE adjoints
    to_tuple(const _Ret &__r, std::index_sequence<_I...>) {
      return adjoints(result_get<_I>(__r, types<_D...>{})...);
    }

    /// The reverse half on `tape` for flat arguments `a` and seeds s...
    static TAPESTRY_ALWAYS_INLINE adjoints run_reverse(
        const tapestry_thunk *__t, const __args &__a, _S... __s, void *__tape) {
      if constexpr (direct) {
        return call_direct(__t, __a, __s..., __tape,
                           std::index_sequence_for<_P...>{});
      } else {
        return to_tuple(
            unpack<_Params>::template entry<__ret>(
                typename unpack<_Params>::slot_list{}, __a, __s..., __tape),
            std::index_sequence_for<_D...>{});
      }
    }
    template <std::size_t... _I>
    static TAPESTRY_ALWAYS_INLINE adjoints
    call_direct(const tapestry_thunk *__t, const __args &__a, _S... __s,
                void *__tape, std::index_sequence<_I...>) {
      auto __rev = reinterpret_cast<reverse>(__t->reverse);
      if constexpr (sizeof...(_D) == 0) {
        __rev(std::get<_I>(__a)..., __s..., __tape, nullptr);
        return adjoints();
      } else {
        __ret __r;
        __rev(std::get<_I>(__a)..., __s..., __tape, &__r);
        return to_tuple(__r, std::index_sequence_for<_D...>{});
      }
    }
  };
  using _Fn = __fn<void>;

  static TAPESTRY_ALWAYS_INLINE const tapestry_thunk *make() {
    return unpack<_Params>::make();
  }
};

template <typename _Spec, typename _Seeds = typename _Spec::_Seeds>
class ReusablePullbackImpl;
template <typename _Spec, typename _Seeds = typename _Spec::_Seeds>
class PullbackImpl;

} // namespace detail

/// A pullback whose tape is reusable: copyable (copies share the tape, which
/// is released with the last copy) and callable any number of times.
template <typename _Spec>
using ReusablePullback = detail::ReusablePullbackImpl<_Spec>;
/// A one-shot pullback: move-only; `std::move(pb)(seed)` runs the reverse
/// once and releases the tape.
template <typename _Spec> using Pullback = detail::PullbackImpl<_Spec>;

namespace detail {

template <typename _Spec, typename... _S>
class ReusablePullbackImpl<_Spec, types<_S...>> {
  using _Fn = typename _Spec::_Fn;

public:
  using result_type = typename _Fn::adjoints;

  ReusablePullbackImpl(const tapestry_thunk *__t, typename _Fn::__args __args,
                       Tape __tape)
      : thunk_(__t), args_(std::move(__args)),
        tape_(std::make_shared<Tape>(std::move(__tape))) {
    if (!thunk_->reusable)
      split_fail("tapestry: a ReusablePullback was made from a tape that is "
                 "not reusable\n");
  }

  /// Runs the reverse with seed s... (the seed of f's floating-point result,
  /// if any); the tape is left intact. Shadows accumulate.
  TAPESTRY_ALWAYS_INLINE result_type operator()(_S... __s) const {
    return _Fn::run_reverse(thunk_, args_, __s..., tape_->get());
  }

  bool reusable() const noexcept { return true; }
  const Tape &tape() const noexcept { return *tape_; }

private:
  const tapestry_thunk *thunk_;
  typename _Fn::__args args_;
  std::shared_ptr<Tape> tape_;
};

template <typename _Spec, typename... _S>
class PullbackImpl<_Spec, types<_S...>> {
  using _Fn = typename _Spec::_Fn;

public:
  using result_type = typename _Fn::adjoints;

  PullbackImpl(const tapestry_thunk *__t, typename _Fn::__args __args,
               Tape __tape)
      : thunk_(__t), args_(std::move(__args)), tape_(std::move(__tape)) {}
  PullbackImpl(PullbackImpl &&) noexcept = default;
  PullbackImpl &operator=(PullbackImpl &&) noexcept = default;
  PullbackImpl(const PullbackImpl &) = delete;
  PullbackImpl &operator=(const PullbackImpl &) = delete;

  /// Runs the reverse once with seed s... and releases the tape:
  /// `std::move(pb)(seed)`. A second call stops the program.
  TAPESTRY_ALWAYS_INLINE result_type operator()(_S... __s) && {
    if (!tape_)
      split_fail("tapestry: a one-shot pullback was called a second time (or "
                 "after it was moved from); run the forward half again, or "
                 "request a reusable tape with tapestry::Reusable\n");
    Tape __tape = std::move(tape_); // released when the call returns
    return _Fn::run_reverse(thunk_, args_, __s..., __tape.get());
  }

  /// Calling a one-shot pullback as an lvalue (so, possibly again) is
  /// rejected at compile time.
  result_type operator()(_S...) & {
    static_assert(
        always_false<_Spec>,
        "tapestry: this pullback is one-shot (its tape is not known at "
        "compile time to be reusable): call it once, as "
        "std::move(pb)(seed); to call it repeatedly, request the "
        "thunk with tapestry::Reusable, or convert it with "
        "std::move(pb).share() (checked at run time)");
    return result_type();
  }
  result_type operator()(_S... __s) const & {
    return const_cast<PullbackImpl &>(*this)(__s...); // the same diagnostic
  }

  /// Whether the tape is reusable (the compiler's finding, at run time).
  bool reusable() const noexcept { return tape_.reusable(); }
  /// Whether the pullback can still be called.
  explicit operator bool() const noexcept { return bool(tape_); }

  /// A ReusablePullback with the same arguments and tape, if the tape is
  /// reusable; stops the program otherwise (check reusable() first).
  ReusablePullbackImpl<_Spec> share() && {
    if (!tape_)
      split_fail("tapestry: share() on a pullback that was already called or "
                 "moved from\n");
    if (!tape_.reusable())
      split_fail("tapestry: share(): this pullback's tape is not reusable (the "
                 "compiler found that its reverse sweep changes or frees the "
                 "tape, or reads memory the caller may change); call it once, "
                 "or request the thunk with tapestry::Reusable to be told why "
                 "at compile time\n");
    return ReusablePullbackImpl<_Spec>(thunk_, std::move(args_),
                                       std::move(tape_));
  }

private:
  const tapestry_thunk *thunk_;
  typename _Fn::__args args_;
  Tape tape_;
};

template <typename _Self, typename _Spec,
          typename _Flat = typename _Spec::_Flat,
          typename _Seeds = typename _Spec::_Seeds>
struct thunk_calls;
template <typename _Self, typename _Spec, typename... _P, typename... _S>
struct thunk_calls<_Self, _Spec, types<_P...>, types<_S...>> {
  using _Fn = typename _Spec::_Fn;
  using _R = typename _Spec::_R;
  using _PB = std::conditional_t<_Spec::reusable, ReusablePullbackImpl<_Spec>,
                                 PullbackImpl<_Spec>>;

  /// The forward half: f(args...) with each Duplicated argument followed by
  /// its shadow. Returns {primal, tape} ({tape} for a void f).
  TAPESTRY_ALWAYS_INLINE ForwardResult<_R> forward(_P... __p) const {
    const tapestry_thunk *__t = __self().descriptor();
    return run_forward(Tape(__t), __p...);
  }

  /// forward, with the tape in the caller's memory \p m (a TapeBuffer on
  /// the stack, or TapeMemory from the caller's allocator); the returned
  /// Tape releases what the tape owns but leaves \p m to the caller.
  TAPESTRY_ALWAYS_INLINE ForwardResult<_R> forward_in(TapeMemory __m,
                                                      _P... __p) const {
    const tapestry_thunk *__t = __self().descriptor();
    return run_forward(Tape(__t, __m), __p...);
  }

  /// The reverse half: the same arguments as forward, then the seed of f's
  /// floating-point result (if any), then the tape. Returns the adjoints of
  /// the Active parameters as a std::tuple; shadows accumulate.
  TAPESTRY_ALWAYS_INLINE typename _Fn::adjoints reverse(_P... __p, _S... __s,
                                                        Tape &__tape) const {
    const tapestry_thunk *__t = __self().descriptor();
    if (!__tape || __tape.thunk() != __t)
      split_fail("tapestry: Thunk::reverse: the tape is empty or belongs to "
                 "another thunk\n");
    return _Fn::run_reverse(__t, typename _Fn::__args(__p...), __s...,
                            __tape.get());
  }

  /// The forward half, and a pullback that captures the arguments and owns
  /// the tape: {primal, pullback} ({pullback} for a void f). A
  /// ReusablePullback for a thunk made with tapestry::Reusable, else a
  /// one-shot Pullback.
  TAPESTRY_ALWAYS_INLINE PullbackResult<_R, _PB> pullback(_P... __p) const {
    return make_pullback(forward(__p...), __p...);
  }

  /// pullback, with the tape in the caller's memory \p m, which must
  /// outlive the pullback and its copies.
  TAPESTRY_ALWAYS_INLINE PullbackResult<_R, _PB> pullback_in(TapeMemory __m,
                                                             _P... __p) const {
    return make_pullback(forward_in(__m, __p...), __p...);
  }

private:
  TAPESTRY_ALWAYS_INLINE ForwardResult<_R> run_forward(Tape __tape,
                                                       _P... __p) const {
    const tapestry_thunk *__t = __self().descriptor();
    auto __aug = reinterpret_cast<typename _Fn::augmented>(__t->augmented);
    if constexpr (std::is_void_v<_R>) {
      __aug(__p..., __tape.get());
      return ForwardResult<_R>{std::move(__tape)};
    } else {
      _R __y = __aug(__p..., __tape.get());
      return ForwardResult<_R>{__y, std::move(__tape)};
    }
  }

  TAPESTRY_ALWAYS_INLINE PullbackResult<_R, _PB>
  make_pullback(ForwardResult<_R> __fwd, _P... __p) const {
    const tapestry_thunk *__t = __self().descriptor();
    if constexpr (std::is_void_v<_R>)
      return PullbackResult<_R, _PB>{
          _PB(__t, typename _Fn::__args(__p...), std::move(__fwd.tape))};
    else
      return PullbackResult<_R, _PB>{
          __fwd.primal,
          _PB(__t, typename _Fn::__args(__p...), std::move(__fwd.tape))};
  }

  TAPESTRY_ALWAYS_INLINE const _Self &__self() const {
    return static_cast<const _Self &>(*this);
  }
};

} // namespace detail

/// A typed thunk (see the header comment); made by tapestry::thunk<f, ...>().
template <typename _Spec>
class Thunk : public detail::thunk_calls<Thunk<_Spec>, _Spec> {
public:
  using spec = _Spec;
  /// Whether a tape of this thunk is reusable was demanded at compile time
  /// (tapestry::Reusable).
  static constexpr bool reusable_by_request = _Spec::reusable;

  explicit Thunk(const tapestry_thunk *__t) noexcept : thunk_(__t) {}
  /// The constant descriptor (struct tapestry_thunk, <tapestry/thunk.h>).
  const tapestry_thunk *descriptor() const noexcept { return thunk_; }
  /// Whether the reverse may run many times on one tape.
  bool reusable() const noexcept { return thunk_->reusable; }
  std::size_t tape_bytes() const noexcept {
    return std::size_t(thunk_->tape_bytes);
  }
  /// A fresh, empty tape for one forward call.
  Tape new_tape() const { return Tape(thunk_); }

private:
  const tapestry_thunk *thunk_;
};

namespace detail {
template <auto _F, typename... _A> struct thunk_of {
  using spec = split_spec<_F, false, _A...>;
};
template <auto _F, typename... _A> struct thunk_of<_F, Reusable, _A...> {
  using spec = split_spec<_F, true, _A...>;
};
} // namespace detail

/// The thunk of f (a function, a member function &S::m, or +constexpr
/// lambda, as a template argument) for annotations A... (one per parameter,
/// optionally preceded by tapestry::Reusable).
template <auto _F, typename... _A> TAPESTRY_ALWAYS_INLINE auto thunk() {
  using _Spec = typename detail::thunk_of<_F, _A...>::spec;
  return Thunk<_Spec>(_Spec::make());
}

} // namespace tapestry

#endif // TAPESTRY_SPLIT_HPP
