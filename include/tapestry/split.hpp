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
template <std::size_t N> class TapeBuffer {
  static_assert(N > 0, "tapestry::TapeBuffer: N must be positive");

public:
  TapeBuffer() noexcept = default;
  TapeBuffer(const TapeBuffer &) = delete;
  TapeBuffer &operator=(const TapeBuffer &) = delete;
  TapeMemory memory() noexcept { return TapeMemory{bytes_, N}; }
  operator TapeMemory() noexcept { return memory(); }
  static constexpr std::size_t capacity() noexcept { return N; }

private:
  alignas(std::max_align_t) unsigned char bytes_[N];
};

/// One tape of a thunk, for one forward call; released (the thunk's
/// release, which frees what the tape owns) by the destructor. Its memory
/// is calloc'd and freed with it, or the caller's (TapeMemory, TapeBuffer),
/// which it zeroes first and never frees. Move-only.
class Tape {
public:
  Tape() noexcept = default;
  explicit Tape(const tapestry_thunk *t) : t_(t), mem_(tapestry_tape_new(t)) {
    if (!mem_) {
      std::fflush(nullptr); // what the program printed before, first
      std::fputs("tapestry: out of memory allocating a tape\n", stderr);
      std::abort();
    }
  }
  /// A tape in the caller's memory \p m; stops the program with the sizes
  /// if \p m is too small or misaligned for the thunk's tape.
  Tape(const tapestry_thunk *t, TapeMemory m)
      : t_(t), mem_(m.data), owned_(false) {
    std::size_t need = t->tape_bytes ? std::size_t(t->tape_bytes) : 1;
    if (!m.data || m.bytes < need) {
      std::fflush(nullptr);
      std::fprintf(stderr,
                   "tapestry: the caller's tape memory holds %zu bytes, but "
                   "this thunk's tape needs %zu (Thunk::tape_bytes()); give "
                   "it a larger TapeBuffer or TapeMemory\n",
                   m.data ? m.bytes : std::size_t(0), need);
      std::abort();
    }
    if (reinterpret_cast<std::uintptr_t>(m.data) % alignof(std::max_align_t)) {
      std::fflush(nullptr);
      std::fprintf(stderr,
                   "tapestry: the caller's tape memory at %p is not aligned "
                   "to %zu bytes (alignof(std::max_align_t)); allocate it "
                   "aligned, or use a TapeBuffer\n",
                   m.data, alignof(std::max_align_t));
      std::abort();
    }
    std::memset(m.data, 0, need);
  }
  Tape(Tape &&o) noexcept : t_(o.t_), mem_(o.mem_), owned_(o.owned_) {
    o.mem_ = nullptr;
  }
  Tape &operator=(Tape &&o) noexcept {
    if (this != &o) {
      reset();
      t_ = o.t_;
      mem_ = o.mem_;
      owned_ = o.owned_;
      o.mem_ = nullptr;
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
        tapestry_tape_delete(t_, mem_);
      else
        ((void (*)(void *))t_->release)(mem_);
    }
    mem_ = nullptr;
  }
  /// Whether the memory is the caller's (TapeMemory, TapeBuffer).
  bool in_caller_memory() const noexcept { return mem_ && !owned_; }
  /// The tape's memory (nullptr if empty).
  void *get() const noexcept { return mem_; }
  explicit operator bool() const noexcept { return mem_ != nullptr; }
  /// The thunk it belongs to.
  const tapestry_thunk *thunk() const noexcept { return t_; }
  /// Whether the reverse may run again on it (the compiler's finding).
  bool reusable() const noexcept { return t_ && t_->reusable; }
  std::size_t size() const noexcept {
    return t_ ? std::size_t(t_->tape_bytes) : 0;
  }

private:
  const tapestry_thunk *t_ = nullptr;
  void *mem_ = nullptr;
  bool owned_ = true;
};

/// What forward returns: the primal result and the tape.
template <typename R> struct ForwardResult {
  R primal;
  Tape tape;
};
template <> struct ForwardResult<void> { Tape tape; };

/// What pullback returns: the primal result and the pullback.
template <typename R, typename PB> struct PullbackResult {
  R primal;
  PB pullback;
};
template <typename PB> struct PullbackResult<void, PB> { PB pullback; };

namespace detail {

// The thunk entry point. Never defined: the plugin replaces every call (its
// mangled name contains __tapestry_thunk).
template <typename... T>
const tapestry_thunk *__tapestry_thunk(void *, T...) noexcept;

[[noreturn]] inline void split_fail(const char *msg) {
  std::fflush(nullptr);
  std::fputs(msg, stderr);
  std::abort();
}

template <typename T>
using shadow_param_t =
    std::conditional_t<std::is_reference_v<T>,
                       std::remove_const_t<std::remove_reference_t<T>> &, T>;

/// Whether the reverse's IR return (a literal struct of the adjoints) is
/// returned like the C struct of them: none or one; on x86-64 also two that
/// are not both float and not long double
/// (test/Split/thunk-struct-abi.c).
template <typename... T> struct adjoints_abi_ok : std::false_type {};
template <> struct adjoints_abi_ok<> : std::true_type {};
template <typename T> struct adjoints_abi_ok<T> : std::true_type {};
#if defined(__x86_64__)
template <typename T, typename U>
struct adjoints_abi_ok<T, U>
    : std::bool_constant<
          !(std::is_same_v<T, float> &&
            std::is_same_v<U, float>)&&!std::is_same_v<T, long double> &&
          !std::is_same_v<U, long double>> {};
#endif

/// A value slot of the split reverse entry call: flat argument K (a
/// reference is passed as a pointer).
template <std::size_t K, typename P> struct flat_slot {
  static constexpr bool is_marker = false;
  using type = std::conditional_t<std::is_reference_v<P>,
                                  std::remove_reference_t<P> *, P>;
  static constexpr type &ref = unused_slot_storage<type>::value;
  template <typename Tup> static TAPESTRY_ALWAYS_INLINE type get(const Tup &t) {
    if constexpr (std::is_reference_v<P>)
      return &std::get<K>(t);
    else
      return std::get<K>(t);
  }
};

/// Parameter P of f with annotation A: its marker, what forward/reverse take
/// for it and its adjoint (Active only). lower_arg checks the annotation.
template <typename A, typename P> struct split_param {
  using L = lower_arg<A, P, /*Forward=*/false>;
  static_assert(L::kind != act::active ||
                    !is_struct_value_v<std::remove_cv_t<P>>,
                "tapestry::thunk: Active<S> for a struct S taken by value is "
                "not supported in split mode (the thunk's reverse cannot "
                "return the struct's adjoint); take the parameter as const S & "
                "and annotate it Duplicated<const S &> (its adjoint is "
                "accumulated into the shadow S you pass), or use "
                "tapestry::autodiff, whose one-shot reverse returns it");
  static constexpr int marker = L::marker;
  static constexpr std::size_t width = L::has_shadow ? 2 : 1;
  using flat =
      std::conditional_t<L::has_shadow, types<P, shadow_param_t<P>>, types<P>>;
  using adjoint = std::conditional_t<L::kind == act::active,
                                     types<typename L::adjoint_type>, types<>>;
  template <std::size_t K>
  using slot_list =
      std::conditional_t<L::has_shadow,
                         slots<marker_slot<L::marker>, flat_slot<K, P>,
                               flat_slot<K + 1, shadow_param_t<P>>>,
                         slots<marker_slot<L::marker>, flat_slot<K, P>>>;
};

template <std::size_t K, typename... SP> struct split_slots {
  using type = slots<>;
};
template <std::size_t K, typename SP, typename... Rest>
struct split_slots<K, SP, Rest...> {
  using type = typename cat_slots<
      typename SP::template slot_list<K>,
      typename split_slots<K + SP::width, Rest...>::type>::type;
};

// Split-mode entry point, for the reverse halves whose results the C ABI
// cannot return from the thunk's reverse (see adjoints_abi_ok): the plugin
// rewrites this call into a call of the same reverse, adapting the result.
template <typename R, typename... T> R __enzyme_reverse(void *, T...) noexcept;

/// Everything about one thunk, from f and the annotations.
template <auto F, bool Reuse, typename... A> struct split_spec {
  using Target = static_target<F>;
  using Sig = typename Target::sig;
  static_assert(Sig::arity == sizeof...(A),
                "tapestry::thunk needs one annotation per parameter of the "
                "function (Active<T>, Duplicated<T>, DuplicatedNoNeed<T> or "
                "Const<T>), optionally preceded by tapestry::Reusable");
  using R = typename Sig::result;
  static_assert(!std::is_reference_v<R>,
                "tapestry::thunk: a function returning a reference is not "
                "supported");
  // A struct result (std::complex, a point) would need a seed of its own
  // type, which the pullbacks do not take: its derivative would be garbage.
  static_assert(std::is_void_v<R> || std::is_arithmetic_v<R> ||
                    std::is_pointer_v<R> || std::is_enum_v<R>,
                "tapestry::thunk: a function returning a struct or class (such "
                "as std::complex) by value is not supported: return it through "
                "a pointer or reference parameter annotated Duplicated<T *> "
                "and seed that parameter's shadow");

  template <std::size_t... I>
  static auto params(std::index_sequence<I...>)
      -> types<split_param<A, typename Sig::template param<I>>...>;
  using Params = decltype(params(std::index_sequence_for<A...>{}));
  static constexpr bool seeded = std::is_floating_point_v<R>;
  static constexpr bool reusable = Reuse;
  using Seeds = std::conditional_t<seeded, types<R>, types<>>;

  template <typename, typename = Seeds> struct unpack;
  template <typename... SP, typename... S>
  struct unpack<types<SP...>, types<S...>> {
    using flat = typename cat_types<typename SP::flat...>::type;
    using adjoints = typename cat_types<typename SP::adjoint...>::type;
    using slot_list = typename split_slots<0, SP...>::type;

    static TAPESTRY_ALWAYS_INLINE const tapestry_thunk *make() {
      if constexpr (Reuse)
        return detail::__tapestry_thunk((void *)Target::value,
                                        tapestry_reusable_tape,
                                        marker_global<SP::marker>::ref...);
      else
        return detail::__tapestry_thunk((void *)Target::value,
                                        marker_global<SP::marker>::ref...);
    }

    /// The reverse through the split entry point: the same request as the
    /// thunk's (so the same reverse and tape layout), enzyme_nofree.
    template <typename Ret, typename... Sl, typename Tup>
    static TAPESTRY_ALWAYS_INLINE Ret entry(slots<Sl...>, const Tup &t, S... s,
                                            void *tape) {
      if constexpr (Reuse)
        return detail::__enzyme_reverse<Ret, int, int, typename Sl::type...,
                                        S..., void *>(
            (void *)Target::value, tapestry_reusable_tape, enzyme_nofree,
            (Sl::is_marker ? Sl::ref : Sl::template get<Tup>(t))..., s...,
            tape);
      else
        return detail::__enzyme_reverse<Ret, int, typename Sl::type..., S...,
                                        void *>(
            (void *)Target::value, enzyme_nofree,
            (Sl::is_marker ? Sl::ref : Sl::template get<Tup>(t))..., s...,
            tape);
    }
  };
  using Flat = typename unpack<Params>::flat;
  using Adjoints = typename unpack<Params>::adjoints;

  template <typename, typename = Flat, typename = Seeds, typename = Adjoints>
  struct fn;
  template <typename Dummy, typename... P, typename... S, typename... D>
  struct fn<Dummy, types<P...>, types<S...>, types<D...>> {
    using ret = typename entry_return<D...>::type;
    using adjoints = std::tuple<D...>;
    using args = std::tuple<P...>;
    using augmented = R (*)(P..., void *);
    using reverse = void (*)(P..., S..., void *, void *);
    /// The thunk's reverse writes the adjoints to memory, so any shape of
    /// them comes back through it.
    static constexpr bool direct = true;

    template <typename Ret, std::size_t... I>
    static TAPESTRY_ALWAYS_INLINE adjoints to_tuple(const Ret &r,
                                                    std::index_sequence<I...>) {
      return adjoints(result_get<I>(r, types<D...>{})...);
    }

    /// The reverse half on `tape` for flat arguments `a` and seeds s...
    static TAPESTRY_ALWAYS_INLINE adjoints run_reverse(const tapestry_thunk *t,
                                                       const args &a, S... s,
                                                       void *tape) {
      if constexpr (direct) {
        return call_direct(t, a, s..., tape, std::index_sequence_for<P...>{});
      } else {
        return to_tuple(
            unpack<Params>::template entry<ret>(
                typename unpack<Params>::slot_list{}, a, s..., tape),
            std::index_sequence_for<D...>{});
      }
    }
    template <std::size_t... I>
    static TAPESTRY_ALWAYS_INLINE adjoints
    call_direct(const tapestry_thunk *t, const args &a, S... s, void *tape,
                std::index_sequence<I...>) {
      auto rev = reinterpret_cast<reverse>(t->reverse);
      if constexpr (sizeof...(D) == 0) {
        rev(std::get<I>(a)..., s..., tape, nullptr);
        return adjoints();
      } else {
        ret r;
        rev(std::get<I>(a)..., s..., tape, &r);
        return to_tuple(r, std::index_sequence_for<D...>{});
      }
    }
  };
  using Fn = fn<void>;

  static TAPESTRY_ALWAYS_INLINE const tapestry_thunk *make() {
    return unpack<Params>::make();
  }
};

template <typename Spec, typename Seeds = typename Spec::Seeds>
class ReusablePullbackImpl;
template <typename Spec, typename Seeds = typename Spec::Seeds>
class PullbackImpl;

} // namespace detail

/// A pullback whose tape is reusable: copyable (copies share the tape, which
/// is released with the last copy) and callable any number of times.
template <typename Spec>
using ReusablePullback = detail::ReusablePullbackImpl<Spec>;
/// A one-shot pullback: move-only; `std::move(pb)(seed)` runs the reverse
/// once and releases the tape.
template <typename Spec> using Pullback = detail::PullbackImpl<Spec>;

namespace detail {

template <typename Spec, typename... S>
class ReusablePullbackImpl<Spec, types<S...>> {
  using Fn = typename Spec::Fn;

public:
  using result_type = typename Fn::adjoints;

  ReusablePullbackImpl(const tapestry_thunk *t, typename Fn::args args,
                       Tape tape)
      : t_(t), args_(std::move(args)),
        tape_(std::make_shared<Tape>(std::move(tape))) {
    if (!t_->reusable)
      split_fail("tapestry: a ReusablePullback was made from a tape that is "
                 "not reusable\n");
  }

  /// Runs the reverse with seed s... (the seed of f's floating-point result,
  /// if any); the tape is left intact. Shadows accumulate.
  TAPESTRY_ALWAYS_INLINE result_type operator()(S... s) const {
    return Fn::run_reverse(t_, args_, s..., tape_->get());
  }

  bool reusable() const noexcept { return true; }
  const Tape &tape() const noexcept { return *tape_; }

private:
  const tapestry_thunk *t_;
  typename Fn::args args_;
  std::shared_ptr<Tape> tape_;
};

template <typename Spec, typename... S> class PullbackImpl<Spec, types<S...>> {
  using Fn = typename Spec::Fn;

public:
  using result_type = typename Fn::adjoints;

  PullbackImpl(const tapestry_thunk *t, typename Fn::args args, Tape tape)
      : t_(t), args_(std::move(args)), tape_(std::move(tape)) {}
  PullbackImpl(PullbackImpl &&) noexcept = default;
  PullbackImpl &operator=(PullbackImpl &&) noexcept = default;
  PullbackImpl(const PullbackImpl &) = delete;
  PullbackImpl &operator=(const PullbackImpl &) = delete;

  /// Runs the reverse once with seed s... and releases the tape:
  /// `std::move(pb)(seed)`. A second call stops the program.
  TAPESTRY_ALWAYS_INLINE result_type operator()(S... s) && {
    if (!tape_)
      split_fail("tapestry: a one-shot pullback was called a second time (or "
                 "after it was moved from); run the forward half again, or "
                 "request a reusable tape with tapestry::Reusable\n");
    Tape tape = std::move(tape_); // released when the call returns
    return Fn::run_reverse(t_, args_, s..., tape.get());
  }

  /// Calling a one-shot pullback as an lvalue (so, possibly again) is
  /// rejected at compile time.
  result_type operator()(S...) & {
    static_assert(
        always_false<Spec>,
        "tapestry: this pullback is one-shot (its tape is not known at "
        "compile time to be reusable): call it once, as "
        "std::move(pb)(seed); to call it repeatedly, request the "
        "thunk with tapestry::Reusable, or convert it with "
        "std::move(pb).share() (checked at run time)");
    return result_type();
  }
  result_type operator()(S... s) const & {
    return const_cast<PullbackImpl &>(*this)(s...); // the same diagnostic
  }

  /// Whether the tape is reusable (the compiler's finding, at run time).
  bool reusable() const noexcept { return tape_.reusable(); }
  /// Whether the pullback can still be called.
  explicit operator bool() const noexcept { return bool(tape_); }

  /// A ReusablePullback with the same arguments and tape, if the tape is
  /// reusable; stops the program otherwise (check reusable() first).
  ReusablePullbackImpl<Spec> share() && {
    if (!tape_)
      split_fail("tapestry: share() on a pullback that was already called or "
                 "moved from\n");
    if (!tape_.reusable())
      split_fail("tapestry: share(): this pullback's tape is not reusable (the "
                 "compiler found that its reverse sweep changes or frees the "
                 "tape, or reads memory the caller may change); call it once, "
                 "or request the thunk with tapestry::Reusable to be told why "
                 "at compile time\n");
    return ReusablePullbackImpl<Spec>(t_, std::move(args_), std::move(tape_));
  }

private:
  const tapestry_thunk *t_;
  typename Fn::args args_;
  Tape tape_;
};

template <typename Self, typename Spec, typename Flat = typename Spec::Flat,
          typename Seeds = typename Spec::Seeds>
struct thunk_calls;
template <typename Self, typename Spec, typename... P, typename... S>
struct thunk_calls<Self, Spec, types<P...>, types<S...>> {
  using Fn = typename Spec::Fn;
  using R = typename Spec::R;
  using PB = std::conditional_t<Spec::reusable, ReusablePullbackImpl<Spec>,
                                PullbackImpl<Spec>>;

  /// The forward half: f(args...) with each Duplicated argument followed by
  /// its shadow. Returns {primal, tape} ({tape} for a void f).
  TAPESTRY_ALWAYS_INLINE ForwardResult<R> forward(P... p) const {
    const tapestry_thunk *t = self().descriptor();
    return run_forward(Tape(t), p...);
  }

  /// forward, with the tape in the caller's memory \p m (a TapeBuffer on
  /// the stack, or TapeMemory from the caller's allocator); the returned
  /// Tape releases what the tape owns but leaves \p m to the caller.
  TAPESTRY_ALWAYS_INLINE ForwardResult<R> forward_in(TapeMemory m,
                                                     P... p) const {
    const tapestry_thunk *t = self().descriptor();
    return run_forward(Tape(t, m), p...);
  }

  /// The reverse half: the same arguments as forward, then the seed of f's
  /// floating-point result (if any), then the tape. Returns the adjoints of
  /// the Active parameters as a std::tuple; shadows accumulate.
  TAPESTRY_ALWAYS_INLINE typename Fn::adjoints reverse(P... p, S... s,
                                                       Tape &tape) const {
    const tapestry_thunk *t = self().descriptor();
    if (!tape || tape.thunk() != t)
      split_fail("tapestry: Thunk::reverse: the tape is empty or belongs to "
                 "another thunk\n");
    return Fn::run_reverse(t, typename Fn::args(p...), s..., tape.get());
  }

  /// The forward half, and a pullback that captures the arguments and owns
  /// the tape: {primal, pullback} ({pullback} for a void f). A
  /// ReusablePullback for a thunk made with tapestry::Reusable, else a
  /// one-shot Pullback.
  TAPESTRY_ALWAYS_INLINE PullbackResult<R, PB> pullback(P... p) const {
    return make_pullback(forward(p...), p...);
  }

  /// pullback, with the tape in the caller's memory \p m, which must
  /// outlive the pullback and its copies.
  TAPESTRY_ALWAYS_INLINE PullbackResult<R, PB> pullback_in(TapeMemory m,
                                                           P... p) const {
    return make_pullback(forward_in(m, p...), p...);
  }

private:
  TAPESTRY_ALWAYS_INLINE ForwardResult<R> run_forward(Tape tape, P... p) const {
    const tapestry_thunk *t = self().descriptor();
    auto aug = reinterpret_cast<typename Fn::augmented>(t->augmented);
    if constexpr (std::is_void_v<R>) {
      aug(p..., tape.get());
      return ForwardResult<R>{std::move(tape)};
    } else {
      R y = aug(p..., tape.get());
      return ForwardResult<R>{y, std::move(tape)};
    }
  }

  TAPESTRY_ALWAYS_INLINE PullbackResult<R, PB>
  make_pullback(ForwardResult<R> fwd, P... p) const {
    const tapestry_thunk *t = self().descriptor();
    if constexpr (std::is_void_v<R>)
      return PullbackResult<R, PB>{
          PB(t, typename Fn::args(p...), std::move(fwd.tape))};
    else
      return PullbackResult<R, PB>{
          fwd.primal, PB(t, typename Fn::args(p...), std::move(fwd.tape))};
  }

  TAPESTRY_ALWAYS_INLINE const Self &self() const {
    return static_cast<const Self &>(*this);
  }
};

} // namespace detail

/// A typed thunk (see the header comment); made by tapestry::thunk<f, ...>().
template <typename Spec>
class Thunk : public detail::thunk_calls<Thunk<Spec>, Spec> {
public:
  using spec = Spec;
  /// Whether a tape of this thunk is reusable was demanded at compile time
  /// (tapestry::Reusable).
  static constexpr bool reusable_by_request = Spec::reusable;

  explicit Thunk(const tapestry_thunk *t) noexcept : t_(t) {}
  /// The constant descriptor (struct tapestry_thunk, <tapestry/thunk.h>).
  const tapestry_thunk *descriptor() const noexcept { return t_; }
  /// Whether the reverse may run many times on one tape.
  bool reusable() const noexcept { return t_->reusable; }
  std::size_t tape_bytes() const noexcept {
    return std::size_t(t_->tape_bytes);
  }
  /// A fresh, empty tape for one forward call.
  Tape new_tape() const { return Tape(t_); }

private:
  const tapestry_thunk *t_;
};

namespace detail {
template <auto F, typename... A> struct thunk_of {
  using spec = split_spec<F, false, A...>;
};
template <auto F, typename... A> struct thunk_of<F, Reusable, A...> {
  using spec = split_spec<F, true, A...>;
};
} // namespace detail

/// The thunk of f (a function, a member function &S::m, or +constexpr
/// lambda, as a template argument) for annotations A... (one per parameter,
/// optionally preceded by tapestry::Reusable).
template <auto F, typename... A> TAPESTRY_ALWAYS_INLINE auto thunk() {
  using Spec = typename detail::thunk_of<F, A...>::spec;
  return Thunk<Spec>(Spec::make());
}

} // namespace tapestry

#endif // TAPESTRY_SPLIT_HPP
