//===- RequestDecoder.h - Decode __enzyme_* calls into requests -*- C++ -*-===//
#ifndef TAPESTRY_PASSES_REQUESTDECODER_H
#define TAPESTRY_PASSES_REQUESTDECODER_H

#include "Core/DiffRequest.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <optional>
#include <string>

namespace llvm {
class CallBase;
class Function;
class Type;
class Value;
} // namespace llvm

namespace tapestry {

class CustomRules;

/// Which entry point a called function's name denotes.
enum class EntryPoint {
  None,
  Autodiff,         ///< __enzyme_autodiff*
  ForwardDiff,      ///< __enzyme_fwddiff*
  AugmentedForward, ///< __enzyme_augmentfwd*: split mode, forward half
  SplitReverse,     ///< __enzyme_reverse*: split mode, reverse half
  AugmentSize,      ///< __enzyme_augmentsize*: the tape's byte size
  Thunk,            ///< __tapestry_thunk*: a split-mode descriptor
  ForwardSplit,     ///< __enzyme_fwdsplit*: forward mode after augmentfwd
  Batch,            ///< __enzyme_batch*: the primal over a width of lanes
  Truncate,         ///< __enzyme_truncate_*, __enzyme_expand_mem_value
  TypeHint,         ///< __enzyme_float/double/integer/pointer: no effect
  VirtualReverse,   ///< __enzyme_virtualreverse*: a function's shadow
  ErrorEstimate,    ///< __enzyme_error_estimate*: forward round-off errors
  IterationCounter, ///< __enzyme_iter: the derivative-order counter
  ToDense,          ///< __enzyme_todense*, __enzyme_post_sparse_todense*:
                    ///< lowered last (Passes/ToDense.h)
  Unsupported,      ///< Another __enzyme_* entry point not implemented yet.
};

/// True for the entry points of split mode.
bool isSplitEntryPoint(EntryPoint E);

EntryPoint classifyEntryPoint(llvm::StringRef Name);

/// For an Unsupported entry point: what the feature is and that Tapestry
/// does not support it (yet), for the error at the call.
std::string unsupportedEntryPointMessage(llvm::StringRef Name);

/// The value of a compile-time constant integer argument, as -O0 code
/// passes it too (through a local stored once or a constant global).
std::optional<int64_t> constantIntegerArgument(llvm::Value *V);

/// A decoded request and the call-site values it passes.
struct DecodedCall {
  DiffRequest Request;
  /// Per parameter of the function: the primal value and the shadow (null
  /// when the parameter has none), already converted to the parameter type;
  /// in batch mode the shadows of all lanes as one batch value (batchType).
  llvm::SmallVector<llvm::Value *, 8> Primals;
  llvm::SmallVector<llvm::Value *, 8> Shadows;
  /// The call returns its results through this sret pointer, if not null.
  llvm::Value *SRet = nullptr;
  /// Split mode: the caller's tape buffer and its size (enzyme_allocated N,
  /// enzyme_tape buf), the reverse's seed of an active return and its tape
  /// argument, and enzyme_nofree.
  llvm::Value *TapeBuffer = nullptr;
  llvm::Value *AllocatedBytes = nullptr;
  llvm::Value *Seed = nullptr;
  llvm::Value *Tape = nullptr;
  bool NoFree = false;
  /// enzyme_runtime_activity was given.
  bool RuntimeActivity = false;
  /// Reverse mode, `enzyme_out, v` with v a struct the ABI passes in memory
  /// (byval): the parameter is decoded as enzyme_dup with a zeroed shadow
  /// \p Shadow of type \p Ty, whose adjoint the call returns in v's place
  /// among the adjoints.
  struct ByValAdjoint {
    unsigned Param;
    llvm::Value *Shadow;
    llvm::Type *Ty;
  };
  llvm::SmallVector<ByValAdjoint, 2> ByValAdjoints;
};

/// Decodes \p CB, reporting every problem as an error at the call and
/// returning nullopt if there was any. Conversions of argument values are
/// inserted before \p CB.
std::optional<DecodedCall> decodeRequest(llvm::CallBase &CB, EntryPoint Kind,
                                         const CustomRules *Rules = nullptr);

/// Decodes \p CB without changing the IR or reporting anything: the
/// request it makes (values unconverted), or nullopt if it is malformed.
std::optional<DecodedCall> peekRequest(llvm::CallBase &CB, EntryPoint Kind);

/// The function a request call differentiates (its first argument, through
/// casts, aliases and constant globals), or null.
llvm::Function *requestTarget(llvm::CallBase &CB);

/// The name of the entry point a request call calls (also when the call's
/// type differs from the declaration's, as with `double f();` in C).
llvm::StringRef entryPointName(const llvm::CallBase &CB);

/// The marker a value passes (e.g. "enzyme_dup", or one of Tapestry's own
/// such as "tapestry_reusable_tape"), or "" if it is not one.
llvm::StringRef markerName(const llvm::Value *V);

} // namespace tapestry

#endif // TAPESTRY_PASSES_REQUESTDECODER_H
