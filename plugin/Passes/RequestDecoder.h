//===- RequestDecoder.h - Decode __enzyme_* calls into requests -*- C++ -*-===//
#ifndef TAPESTRY_PASSES_REQUESTDECODER_H
#define TAPESTRY_PASSES_REQUESTDECODER_H

#include "Core/DiffRequest.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace llvm {
class CallBase;
class Function;
class Value;
} // namespace llvm

namespace tapestry {

/// Which entry point a called function's name denotes.
enum class EntryPoint {
  None,
  Autodiff,    ///< __enzyme_autodiff*
  ForwardDiff, ///< __enzyme_fwddiff*
  Unsupported, ///< Another __enzyme_* entry point not implemented yet.
};

EntryPoint classifyEntryPoint(llvm::StringRef Name);

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
};

/// Decodes \p CB, reporting every problem as an error at the call and
/// returning nullopt if there was any. Conversions of argument values are
/// inserted before \p CB.
std::optional<DecodedCall> decodeRequest(llvm::CallBase &CB, DiffMode Mode);

/// The function a request call differentiates (its first argument, through
/// casts, aliases and constant globals), or null.
llvm::Function *requestTarget(llvm::CallBase &CB);

/// The name of the entry point a request call calls (also when the call's
/// type differs from the declaration's, as with `double f();` in C).
llvm::StringRef entryPointName(const llvm::CallBase &CB);

/// The marker a value passes (e.g. "enzyme_dup"), or "" if it is not one.
llvm::StringRef markerName(const llvm::Value *V);

} // namespace tapestry

#endif // TAPESTRY_PASSES_REQUESTDECODER_H
