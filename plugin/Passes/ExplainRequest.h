//===- ExplainRequest.h - What Tapestry made of each request ----*- C++ -*-===//
//
// With -tapestry-explain (what tools/tapestry-explain passes), every
// resolved request is described on standard error in the user's terms: the
// function and each argument's activity with its source type and name, the
// mode, each local variable's activity, for split mode the tape's size and
// whether the reverse may run again on it (and if not, why), and the
// synthesised derivative as a listing of its instructions annotated with source
// lines. The tape plan per loop comes from the -Rpass=tapestry remarks the tool
// also turns on.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_PASSES_EXPLAINREQUEST_H
#define TAPESTRY_PASSES_EXPLAINREQUEST_H

#include "Analysis/VariableActivity.h"
#include "llvm/ADT/ArrayRef.h"

namespace llvm {
class CallBase;
class Function;
} // namespace llvm

namespace tapestry {

struct DecodedCall;
struct SplitDerivative;

/// True when -tapestry-explain is on.
bool explainRequested();

/// Describes the one-shot or forward-split request \p CB, resolved by the
/// derivative \p G; \p Vars are the activities of the differentiated
/// function's local variables.
void explainRequest(const llvm::CallBase &CB, const DecodedCall &D,
                    const llvm::Function &G,
                    llvm::ArrayRef<VariableActivity> Vars);

/// Describes the split-mode request \p CB, resolved by \p S; at the call
/// that makes the tape, also reports its reusability as a
/// -Rpass-analysis=tapestry remark (with or without -tapestry-explain).
void explainSplitRequest(const llvm::CallBase &CB, const DecodedCall &D,
                         const SplitDerivative &S,
                         llvm::ArrayRef<VariableActivity> Vars);

} // namespace tapestry

#endif // TAPESTRY_PASSES_EXPLAINREQUEST_H
