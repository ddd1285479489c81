//===- EntryPoints.h - Enzyme's entry points by name ------------*- C++ -*-===//
//
// A request is a call to one of Enzyme's entry points (__enzyme_autodiff,
// __enzyme_fwddiff, split mode's halves...) or Tapestry's own
// (__tapestry_thunk), recognised by the called function's name, also when
// a C++ declaration mangles it or a suffix distinguishes declarations of
// other types (__enzyme_autodiff_f).
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_CORE_ENTRYPOINTS_H
#define TAPESTRY_CORE_ENTRYPOINTS_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace llvm {
class CallBase;
} // namespace llvm

namespace tapestry {

/// Which entry point a called function's name denotes.
enum class EntryPoint {
  None,
  Autodiff,          ///< __enzyme_autodiff*
  ForwardDiff,       ///< __enzyme_fwddiff*
  AugmentedForward,  ///< __enzyme_augmentfwd*: split mode, forward half
  SplitReverse,      ///< __enzyme_reverse*: split mode, reverse half
  AugmentSize,       ///< __enzyme_augmentsize*: the tape's byte size
  Thunk,             ///< __tapestry_thunk*: a split-mode descriptor
  ForwardSplit,      ///< __enzyme_fwdsplit*: forward mode after augmentfwd
  Batch,             ///< __enzyme_batch*: the primal over a width of lanes
  Truncate,          ///< __enzyme_truncate_*, __enzyme_expand_mem_value
  TypeHint,          ///< __enzyme_float/double/integer/pointer,
                     ///< __enzyme_ptr_size_hint: no effect
  VirtualReverse,    ///< __enzyme_virtualreverse*: a function's shadow
  ErrorEstimate,     ///< __enzyme_error_estimate*: forward round-off errors
  IterationCounter,  ///< __enzyme_iter: the derivative-order counter
  IgnoreDerivatives, ///< __enzyme_ignore_derivatives: a stop-gradient
  ShadowContext,     ///< __enzyme_context, __enzyme_shadow,
                     ///< __enzyme_zero_shadows: lowered first
                     ///< (Passes/ShadowContexts.h)
  ToDense,           ///< __enzyme_todense*, __enzyme_post_sparse_todense*:
                     ///< lowered last (Passes/ToDense.h)
  Unsupported,       ///< Another __enzyme_* entry point not implemented yet.
};

/// True for the entry points of split mode.
bool isSplitEntryPoint(EntryPoint E);

EntryPoint classifyEntryPoint(llvm::StringRef Name);

/// For an Unsupported entry point: what the feature is and that Tapestry
/// does not support it (yet), for the error at the call.
std::string unsupportedEntryPointMessage(llvm::StringRef Name);

/// The name of the entry point a request call calls (also when the call's
/// type differs from the declaration's, as with `double f();` in C).
llvm::StringRef entryPointName(const llvm::CallBase &CB);

} // namespace tapestry

#endif // TAPESTRY_CORE_ENTRYPOINTS_H
