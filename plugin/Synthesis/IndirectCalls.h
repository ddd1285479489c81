//===- IndirectCalls.h - Calls through function pointers --------*- C++ -*-===//
//
// A call through a function pointer whose value is known only at run time
// (a callback passed as data, a table of functions, a virtual call whose
// dynamic type depends on the input, std::function) is turned, in the
// prepared primal, into a dispatch on the pointer's value: one direct call
// for each function of the module that the pointer may hold (a function of
// the call's type whose address escapes), which the synthesisers then
// differentiate like any direct call, in every mode; the pointer selects
// its derivative at run time. A pointer to none of them (a function of
// another translation unit) reaches the original indirect call, marked so
// that a derivative which needs it stops with a message instead of
// computing a wrong number.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_INDIRECTCALLS_H
#define TAPESTRY_SYNTHESIS_INDIRECTCALLS_H

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include <string>

namespace llvm {
class CallBase;
class Function;
class FunctionType;
class GlobalVariable;
class Module;
} // namespace llvm

namespace tapestry {

/// Metadata kind on the indirect call that remains for pointers to none of
/// the module's candidate functions.
inline constexpr const char *UnknownCalleeMD = "tapestry.unknown_callee";

/// The functions of \p M a pointer of type \p FTy may point to: those of
/// that exact type whose address escapes (is stored, passed, or placed in a
/// table), other than Tapestry's and Enzyme's own.
llvm::SmallVector<llvm::Function *, 8>
indirectCallCandidates(llvm::Module &M, llvm::FunctionType *FTy);

/// The most candidates a call is dispatched over
/// (-tapestry-max-indirect-candidates).
unsigned maxIndirectCandidates();

/// Candidates a dispatch does not call: their branch stops the derivative
/// at run time with a message (the Driver stops there the candidates whose
/// derivative cannot be built, Driver/StoppedCandidates.h).
using StoppedCandidates = llvm::SmallPtrSet<llvm::Function *, 4>;

/// A call dispatched over its candidates.
struct DispatchedCall {
  llvm::SmallVector<llvm::Function *, 8> Candidates;
  /// No fallback: the pointer holds one of the candidates.
  bool Complete = false;
  /// A candidate's branch that stops instead of calling it: the message it
  /// prints (a global string), and that message without why.
  struct Stop {
    llvm::Function *Candidate;
    llvm::GlobalVariable *Message;
    std::string Text;
  };
  llvm::SmallVector<Stop, 2> Stops;
};

/// Completes the message of \p S with why its candidate cannot be
/// differentiated (replacing the global).
void explainStop(DispatchedCall::Stop &S, const llvm::Twine &Why);

/// Rewrites each indirect call of \p F (not inline asm) that has between
/// one and the candidate limit of candidates into a dispatch on the
/// pointer's value; a branch to a candidate in \p Stopped stops there.
/// Each dispatch is added to \p Dispatched. Where the module shows what the
/// pointer can hold (a read-only table of functions, an argument of a function
/// local to the file whose callers all pass such values) the dispatch is over
/// those functions only, and, where the pointer can hold no other function,
/// with no fallback (a static pointer initialised to malloc and never written
/// is a call of malloc). \p Original is the function \p F was cloned from,
/// if any: its callers show what \p F's arguments hold. Returns true if
/// anything changed.
bool dispatchIndirectCalls(
    llvm::Function &F, const llvm::Function *Original = nullptr,
    const StoppedCandidates *Stopped = nullptr,
    llvm::SmallVectorImpl<DispatchedCall> *Dispatched = nullptr);

/// True if \p CB is the fallback call of a dispatch (pointer to a function
/// Tapestry did not see).
bool isUnknownCalleeFallback(const llvm::CallBase &CB);

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_INDIRECTCALLS_H
