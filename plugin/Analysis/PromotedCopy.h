//===- PromotedCopy.h - A function as if its locals were values -*- C++ -*-===//
//
// Code as the front end writes it keeps every local and parameter in a stack
// slot, which hides what a pointer parameter is used for. Analyses that look
// into callees work on a copy with those slots promoted to SSA values.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_ANALYSIS_PROMOTEDCOPY_H
#define TAPESTRY_ANALYSIS_PROMOTEDCOPY_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

namespace llvm {
class CallBase;
class Function;
} // namespace llvm

namespace tapestry {

/// A copy of \p F (in its module) with its promotable stack slots turned
/// into values; the caller erases it when done.
llvm::Function *clonePromoted(llvm::Function &F);
/// The same, and \p VMap maps \p F's instructions that promotion keeps
/// (calls, among others) to the copy's.
llvm::Function *clonePromoted(llvm::Function &F, llvm::ValueToValueMapTy &VMap);
/// The same, with \p BeforePromotion run on the copy first (to inline
/// calls, promoting as it goes with promoteSlots).
llvm::Function *
clonePromoted(llvm::Function &F, llvm::ValueToValueMapTy &VMap,
              llvm::function_ref<void(llvm::Function &)> BeforePromotion);

/// Turns \p F's promotable stack slots of its entry block into values.
void promoteSlots(llvm::Function &F);

/// Inlines into \p Copy, for up to \p Rounds rounds (promoting its slots
/// before each), the direct calls of functions with bodies that \p Pick
/// chooses (never \p Copy itself, nor a callee LLVM cannot inline), until
/// none is chosen or \p Copy has more than \p MaxSize instructions.
void inlineCallsWhere(
    llvm::Function &Copy, unsigned Rounds, unsigned MaxSize,
    llvm::function_ref<bool(llvm::CallBase &, llvm::Function &)> Pick);

} // namespace tapestry

#endif // TAPESTRY_ANALYSIS_PROMOTEDCOPY_H
