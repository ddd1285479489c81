//===- RequestDecoder.h - Decode __enzyme_* calls into requests -*- C++ -*-===//
//
// A request call names the function to differentiate, then its arguments
// in Enzyme's calling convention: each parameter's value after an optional
// activity marker (enzyme_dup, enzyme_const, enzyme_out...), its shadow
// after it if it has one, and markers for the whole request (enzyme_width,
// split mode's tape and buffer). Decoding turns that into a DiffRequest and
// the call-site values, or errors at the call in the user's terms.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_PASSES_REQUESTDECODER_H
#define TAPESTRY_PASSES_REQUESTDECODER_H

#include "Core/DiffRequest.h"
#include "Core/EntryPoints.h"
#include "Passes/RequestArguments.h"
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

/// The primal value \p CB passes for each parameter of the function it
/// differentiates, as peekRequest decodes them, leaving nothing in the IR:
/// a value decoding had to build (a batch's lanes) is null. Nullopt if the
/// request is malformed. With \p Shadowed, also whether each parameter
/// has a shadow (not enzyme_const).
std::optional<llvm::SmallVector<llvm::Value *, 8>>
peekRequestPrimals(llvm::CallBase &CB, EntryPoint Kind,
                   llvm::SmallVectorImpl<bool> *Shadowed = nullptr);

/// True if \p W is the function a request for \p F differentiates when \p F
/// has a registered derivative: an internal caller of \p F, which the
/// request's rule then serves (peekRequest names \p F itself).
bool isCallerOfRegistered(const llvm::Function &W, const llvm::Function &F);

} // namespace tapestry

#endif // TAPESTRY_PASSES_REQUESTDECODER_H
