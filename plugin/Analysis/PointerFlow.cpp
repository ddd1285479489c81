//===- PointerFlow.cpp - Where functions store the pointers given ---------===//
//
// Implements PointerFlow.h: PointerFlowSummary summarises each function with a
// body, on demand and memoised, as bit masks over its parameters (where a
// pointer it was given may be stored, whether it may return one), iterating
// call cycles to a fixed point. It sees through -O0 stack slots
// (Analysis/StackSlots.h) and treats a function's own locals, fresh allocations
// and Tapestry's own lists and tapes as reached through no parameter. Its only
// client is Analysis/RuntimeActivity.cpp.
//
//===----------------------------------------------------------------------===//
#include "Analysis/PointerFlow.h"

#include "Analysis/StackSlots.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

#include <algorithm>

using namespace llvm;

namespace tapestry {

uint64_t PointerFlowSummary::bit(unsigned I) {
  return uint64_t(1) << std::min(I, Unknown);
}

bool PointerFlowSummary::holds(uint64_t Mask, unsigned I) {
  return (Mask & bit(I)) != 0 || (Mask & bit(Unknown)) != 0;
}

/// Where \p F, or a function it calls, may store a pointer it was given
/// (or read from memory it was given): both empty if nowhere outside its
/// own locals and fresh allocations. Functions on a call cycle are
/// summarized again until no summary grows: a recursive call may pass its
/// parameters in another order, and a function summarized while a caller
/// of it on the cycle was unfinished would otherwise keep a partial one.
PointerFlowSummary::Flow PointerFlowSummary::storesOut(const Function &F) {
  if (FlowDone.contains(&F) || !FlowVisiting.empty())
    return summarize(F);
  do {
    FlowGrew = false;
    FlowVisiting.clear();
    summarize(F);
  } while (FlowGrew);
  FlowDone.insert(FlowVisiting.begin(), FlowVisiting.end());
  FlowVisiting.clear();
  return Summaries.lookup(&F);
}

/// One round of \p F's summary: a function already visited this round
/// (a cycle) gives what it has so far.
PointerFlowSummary::Flow PointerFlowSummary::summarize(const Function &F) {
  if (F.getName().starts_with("tapestry."))
    return {}; // Tapestry's own pieces keep tapes and lists
  if (FlowDone.contains(&F) || !FlowVisiting.insert(&F).second)
    return Summaries.lookup(&F);
  Flow Sum;
  for (const Instruction &I : instructions(F)) {
    Flow IF = instructionFlow(I);
    if (IF.Dest && IF.Src) {
      Sum.Dest |= IF.Dest;
      Sum.Src |= IF.Src;
    }
  }
  Flow &Old = Summaries[&F];
  if ((Sum.Dest | Old.Dest) != Old.Dest || (Sum.Src | Old.Src) != Old.Src) {
    Old.Dest |= Sum.Dest;
    Old.Src |= Sum.Src;
    FlowGrew = true;
  }
  return Old;
}

/// True if \p F may return a pointer it was given (to a fixed point over
/// call cycles, as storesOut).
bool PointerFlowSummary::returnsIncoming(const Function &F) {
  if (!F.getReturnType()->isPointerTy())
    return false;
  if (RetDone.contains(&F) || !RetVisiting.empty())
    return returnsIncomingRound(F);
  do {
    RetGrew = false;
    RetVisiting.clear();
    returnsIncomingRound(F);
  } while (RetGrew);
  RetDone.insert(RetVisiting.begin(), RetVisiting.end());
  RetVisiting.clear();
  return ReturnsIn.lookup(&F);
}

bool PointerFlowSummary::returnsIncomingRound(const Function &F) {
  if (RetDone.contains(&F) || !RetVisiting.insert(&F).second)
    return ReturnsIn.lookup(&F);
  bool Found = false;
  for (const Instruction &I : instructions(F))
    if (auto *RI = dyn_cast<ReturnInst>(&I))
      if (RI->getReturnValue() && incoming(RI->getReturnValue(), {}))
        Found = true;
  bool &Old = ReturnsIn[&F];
  if (Found && !Old) {
    Old = true;
    RetGrew = true;
  }
  return Old;
}

/// The arguments \p Val may be, or be read through, other than memory in
/// \p Dest (an object's own address stored into it, or a pointer read
/// from the object it is stored back into, as an iterator's increment
/// does, was already there).
uint64_t PointerFlowSummary::incoming(const Value *Val,
                                      ArrayRef<const Value *> Dest,
                                      unsigned Depth) {
  SmallVector<const Value *, 4> Roots;
  stackSlotRoots(Val, Roots);
  uint64_t Bits = 0;
  for (const Value *R : Roots) {
    if (is_contained(Dest, R) || isa<ConstantPointerNull>(R) ||
        isa<UndefValue>(R) || isa<Function>(R) || isa<AllocaInst>(R) ||
        isNoAliasCall(R))
      continue; // no pointer from outside
    if (auto *A = dyn_cast<Argument>(R)) {
      Bits |= bit(A->getArgNo());
    } else if (auto *GV = dyn_cast<GlobalVariable>(R)) {
      if (!GV->isConstant())
        Bits |= bit(Unknown);
    } else if (auto *L = dyn_cast<LoadInst>(R)) {
      SmallVector<const Value *, 4> From;
      stackSlotRoots(L->getPointerOperand(), From);
      if (Dest.empty() || !all_of(From, [&](const Value *O) {
            return is_contained(Dest, O);
          })) {
        // Read through an argument, or from memory of unknown origin
        // (one of the function's own objects may hold a given pointer).
        uint64_t Through =
            Depth >= 3 ? 0
                       : argsReachingPointer(L->getPointerOperand(), Depth + 1);
        Bits |= Through ? Through : bit(Unknown);
      }
    } else if (auto *CB = dyn_cast<CallBase>(R)) {
      const Function *Callee = CB->getCalledFunction();
      if (!Callee || Callee->isDeclaration() || Depth >= 3) {
        Bits |= bit(Unknown);
      } else if (returnsIncoming(*Callee)) {
        // A callee returning what it was given returns one of these.
        for (const Value *A : CB->args())
          if (A->getType()->isPointerTy())
            Bits |= incoming(A, Dest, Depth + 1);
      }
    } else {
      Bits |= bit(Unknown);
    }
  }
  return Bits;
}

/// The arguments through which the memory \p Obj points into is reached.
/// A function's own locals and fresh allocations, and Tapestry's own
/// lists and tapes, which no user code reads, are reached through none.
uint64_t PointerFlowSummary::argsReaching(const Value *Obj, unsigned Depth) {
  if (isa<AllocaInst>(Obj) || isNoAliasCall(Obj) ||
      isa<ConstantPointerNull>(Obj) || isa<UndefValue>(Obj))
    return 0;
  if (auto *A = dyn_cast<Argument>(Obj))
    return bit(A->getArgNo());
  if (auto *GV = dyn_cast<GlobalVariable>(Obj))
    return GV->getName().starts_with("tapestry.") ||
                   GV->getName().starts_with("__tapestry")
               ? 0
               : bit(Unknown);
  if (auto *L = dyn_cast<LoadInst>(Obj))
    return Depth >= 3 ? bit(Unknown)
                      : argsReachingPointer(L->getPointerOperand(), Depth + 1);
  if (auto *CB = dyn_cast<CallBase>(Obj)) {
    const Function *Callee = CB->getCalledFunction();
    if (Callee && Callee->getName().starts_with("tapestry"))
      return 0; // Tapestry's run-time library: tapes
    if (!Callee || Callee->isDeclaration() || Depth >= 3)
      return bit(Unknown);
    if (!returnsIncoming(*Callee))
      return 0;
    uint64_t Bits = 0;
    for (const Value *A : CB->args())
      if (A->getType()->isPointerTy())
        Bits |= argsReachingPointer(A, Depth + 1);
    return Bits;
  }
  return bit(Unknown);
}

uint64_t PointerFlowSummary::argsReachingPointer(const Value *Ptr,
                                                 unsigned Depth) {
  SmallVector<const Value *, 4> Roots;
  stackSlotRoots(Ptr, Roots);
  uint64_t Bits = 0;
  for (const Value *R : Roots)
    Bits |= argsReaching(R, Depth);
  return Bits;
}

PointerFlowSummary::Flow
PointerFlowSummary::instructionFlow(const Instruction &I) {
  SmallVector<const Value *, 4> Dest;
  if (auto *SI = dyn_cast<StoreInst>(&I)) {
    const Value *Val = SI->getValueOperand();
    if (!Val->getType()->isPtrOrPtrVectorTy())
      return {};
    stackSlotRoots(SI->getPointerOperand(), Dest);
    Flow IF;
    for (const Value *D : Dest)
      IF.Dest |= argsReaching(D);
    IF.Src = IF.Dest ? incoming(Val, Dest) : 0;
    return IF;
  }
  // A copy may move pointers; one aligned below a pointer copies bytes.
  if (auto *MT = dyn_cast<AnyMemTransferInst>(&I)) {
    const DataLayout &DL = I.getModule()->getDataLayout();
    Align PtrAlign = DL.getPointerABIAlignment(0);
    if (MT->getDestAlign().valueOrOne() < PtrAlign ||
        MT->getSourceAlign().valueOrOne() < PtrAlign)
      return {};
    stackSlotRoots(MT->getRawDest(), Dest);
    Flow IF;
    for (const Value *D : Dest)
      IF.Dest |= argsReaching(D);
    IF.Src = IF.Dest ? incoming(MT->getRawSource(), Dest) : 0;
    return IF;
  }
  auto *CB = dyn_cast<CallBase>(&I);
  const Function *Callee = CB ? CB->getCalledFunction() : nullptr;
  if (!Callee || Callee->isDeclaration())
    return {};
  Flow CF = summarize(*Callee), IF;
  if (!CF.Dest)
    return {};
  if (CF.Dest & bit(Unknown))
    IF.Dest |= bit(Unknown);
  for (unsigned A = 0; A < CB->arg_size() && A < Unknown; ++A)
    if (CF.Dest & bit(A))
      stackSlotRoots(CB->getArgOperand(A), Dest);
  for (const Value *D : Dest)
    IF.Dest |= argsReaching(D);
  if (CF.Src & bit(Unknown))
    IF.Src |= bit(Unknown);
  for (unsigned A = 0; A < CB->arg_size() && A < Unknown; ++A)
    if (CF.Src & bit(A) && CB->getArgOperand(A)->getType()->isPointerTy())
      IF.Src |= incoming(CB->getArgOperand(A), Dest);
  return IF;
}

} // namespace tapestry
