//===- DiffRequest.h - What a derivative request asks for -------*- C++ -*-===//
//
// A DiffRequest is the decoded meaning of one __enzyme_* call: which function,
// which mode, and the activity of every parameter and of the return value.
// It is also the key under which synthesised functions are memoised.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_CORE_DIFFREQUEST_H
#define TAPESTRY_CORE_DIFFREQUEST_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <string>

namespace llvm {
class Function;
class raw_ostream;
} // namespace llvm

namespace tapestry {

enum class DiffMode { Reverse, Forward };

/// Activity of one parameter, as Enzyme's markers spell it.
enum class Activity {
  Const,     ///< enzyme_const: no derivative.
  Dup,       ///< enzyme_dup: primal and shadow (tangent in forward mode).
  DupNoNeed, ///< enzyme_dupnoneed: like Dup; the primal result is not needed.
  Active,    ///< enzyme_out: active scalar; reverse mode returns its adjoint.
};

llvm::StringRef activityName(Activity A);
llvm::StringRef modeName(DiffMode M);

struct DiffRequest {
  llvm::Function *Fn = nullptr;
  DiffMode Mode = DiffMode::Reverse;
  llvm::SmallVector<Activity, 8> Args;
  /// The primal return value is also returned (enzyme_primal_return).
  bool ReturnPrimal = false;
  /// The return value carries a derivative: seeded in reverse mode, its
  /// tangent returned in forward mode.
  bool ReturnActive = false;
  unsigned Width = 1;
  /// Split reverse mode: an augmented forward that fills a tape and a
  /// reverse that reads it (__enzyme_augmentfwd / __enzyme_reverse).
  bool Split = false;
  /// Split mode whose reverse must be replayable on one tape
  /// (tapestry_reusable_tape).
  bool ReusableTape = false;
  /// Forward mode that propagates round-off error estimates instead of
  /// tangents (__enzyme_error_estimate; Synthesis/ErrorModel.cpp).
  bool ErrorEstimate = false;
  /// The function runs on every thread of an OpenMP team at once (a
  /// parallel region's body): adjoints are added to memory atomically.
  bool Parallel = false;
  /// A reverse-mode callee reached from a one-shot request on one thread
  /// (not an OpenMP region's body, nor from a split request the user
  /// holds): its tapes live exactly as long as the one-shot call that
  /// created them, allocated in pre-order and released in its reverse, so
  /// its split's tapes come from the thread's tape arena (TapeCache.h).
  bool LifoTapes = false;
  /// The list in which the derivative keeps the shadows of blocks its
  /// forward sweep frees (Synthesis/FreedShadows.h): one deeper than the
  /// lists of the derivatives nested in the differentiated code (0 when it
  /// runs none), so that an inner request's call site, which releases its
  /// own list, never releases what this derivative still needs.
  unsigned FreedListDepth = 0;
  /// The shadow context (__enzyme_context, marker enzyme_context) whose
  /// shadows of global variables the derivative uses instead of the
  /// implicit ones: 0 for none, else the context's number
  /// (Passes/ShadowContexts.h). Callee derivatives inherit it.
  unsigned Context = 0;
  /// The implicit shadows of globals the derivative uses (Analysis/
  /// GlobalShadows.h): one deeper than those of the derivatives nested in
  /// the differentiated code (0 when it runs none), so that an outer
  /// derivative's tangents or adjoints of a global never share memory with
  /// the inner derivative's. Callee derivatives inherit it.
  unsigned GlobalDepth = 0;
  /// Run-time activity given by the caller (Analysis/RuntimeActivity.h),
  /// one bit per parameter: the parameter's shadow may be the parameter
  /// itself (a constant pointer) ...
  uint64_t MaybeConstantArgs = 0;
  /// ... or the memory it points to may hold such pointers ...
  uint64_t MarkedMemoryArgs = 0;
  /// ... or memory reached through pointers read from there may. The
  /// derivative tests those pointers at run time.
  uint64_t MarkedDeepArgs = 0;
  /// Parameters past this index cannot carry run-time activity.
  static constexpr unsigned MaxRuntimeActivityArgs = 64;

  bool operator==(const DiffRequest &O) const {
    return Fn == O.Fn && Mode == O.Mode && Args == O.Args &&
           ReturnPrimal == O.ReturnPrimal && ReturnActive == O.ReturnActive &&
           Width == O.Width && Split == O.Split &&
           ReusableTape == O.ReusableTape && ErrorEstimate == O.ErrorEstimate &&
           Parallel == O.Parallel && LifoTapes == O.LifoTapes &&
           FreedListDepth == O.FreedListDepth && Context == O.Context &&
           GlobalDepth == O.GlobalDepth &&
           MaybeConstantArgs == O.MaybeConstantArgs &&
           MarkedMemoryArgs == O.MarkedMemoryArgs &&
           MarkedDeepArgs == O.MarkedDeepArgs;
  }
  bool operator<(const DiffRequest &O) const;

  /// A reverse-mode request with an active pointer result: its augmented
  /// forward returns the result's shadow too (the call of a recursive
  /// function returning a tree node it allocated stays a call), and its
  /// reverse takes no seed.
  bool returnsShadow() const;

  /// A short mangled suffix naming the activities, e.g. "rev_dc_a".
  std::string suffix() const;
  void print(llvm::raw_ostream &OS) const;
};

} // namespace tapestry

#endif // TAPESTRY_CORE_DIFFREQUEST_H
