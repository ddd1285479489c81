//===- ScratchGuard.cpp - Reverse sweeps sharing a tape's shadows ---------===//
//
// A replayable reverse whose tape owns heap blocks (ScratchBlocks.cpp) adds
// into the blocks' shadows, which the tape keeps. Two sweeps on one tape at
// once (threads reversing a thunk's tape with their own seeds) would add
// into the same shadows and give each other wrong adjoints. The first
// sweep marks the tape's header busy with an atomic exchange and uses the
// tape's shadows; a sweep that finds the tape busy uses zeroed shadows of
// its own and frees them as it returns, so that concurrent sweeps are
// right and a single sweep costs one atomic operation more.
//
//===----------------------------------------------------------------------===//
#include "Split/Splitter.h"

#include "Core/AllocationFunctions.h"
#include "Core/Diagnostics.h"
#include "Synthesis/InlineHelpers.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

namespace tapestry {
namespace split_detail {

bool Splitter::guardsScratchShadows() const {
  return Out.Replayable && !OwnedBlocks.empty();
}

Splitter::ScratchGuard Splitter::guardScratchShadows(IRBuilderBase &B,
                                                     Value *Tape) {
  ScratchGuard G;
  G.Header = fieldAddress(B, Tape, 0);
  AtomicCmpXchgInst *Mark = B.CreateAtomicCmpXchg(
      G.Header, B.getInt64(Magic), B.getInt64(~Magic), Align(8),
      AtomicOrdering::Acquire, AtomicOrdering::Monotonic);
  G.Owner = B.CreateExtractValue(Mark, 1, "tape.owned");
  return G;
}

Value *Splitter::privateShadow(IRBuilderBase &B, ScratchGuard &G, Value *Shared,
                               Value *Bytes) {
  Function *Rev = B.GetInsertBlock()->getParent();
  BasicBlock *Zero = BasicBlock::Create(C, "shadow.shared", Rev);
  BasicBlock *Own = BasicBlock::Create(C, "shadow.own", Rev);
  BasicBlock *Join = BasicBlock::Create(C, "shadow.ready", Rev);
  B.CreateCondBr(G.Owner, Zero, Own);
  B.SetInsertPoint(Zero);
  B.CreateMemSet(Shared, B.getInt8(0), Bytes, MaybeAlign());
  B.CreateBr(Join);
  B.SetInsertPoint(Own);
  Value *Fresh = B.CreateCall(getCallocFn(M), {Bytes, B.getInt64(1)},
                              Shared->getName() + ".own");
  B.CreateBr(Join);
  B.SetInsertPoint(Join);
  PHINode *Phi = B.CreatePHI(B.getPtrTy(), 2, Shared->getName() + ".sweep");
  Phi->addIncoming(Shared, Zero);
  Phi->addIncoming(Fresh, Own);
  G.Privates.push_back(Phi);
  return Phi;
}

void Splitter::requireOwnership(IRBuilderBase &B, const ScratchGuard &G) {
  std::string Msg =
      "tapestry: two reverse sweeps of '" + sourceName(*R.Fn) +
      "' ran on the same tape at once (from two threads): the tape keeps "
      "the derivatives of its scratch blocks (allocated in a loop, or "
      "reached through addresses it keeps), which each sweep accumulates "
      "into; run the sweeps on one tape one after another, or give each "
      "thread its own tape.\n";
  B.CreateCall(getFailIfFn(M),
               {B.CreateNot(G.Owner), B.CreateGlobalStringPtr(Msg),
                B.getInt64(Msg.size())});
}

void Splitter::endScratchGuard(ReturnInst *Ret, const ScratchGuard &G) {
  IRBuilder<> B(Ret);
  for (Value *Shadow : G.Privates)
    B.CreateCall(getFreeFn(M),
                 {B.CreateSelect(
                     G.Owner, ConstantPointerNull::get(B.getPtrTy()), Shadow)});
  // The owner gives the tape back live; another sweep leaves the header
  // alone (it writes a local of its own instead).
  Function *Rev = Ret->getFunction();
  IRBuilder<> EB(&Rev->getEntryBlock(), Rev->getEntryBlock().begin());
  AllocaInst *Unused = EB.CreateAlloca(B.getInt64Ty(), nullptr, "tape.unused");
  B.CreateAlignedStore(B.getInt64(Magic),
                       B.CreateSelect(G.Owner, G.Header, Unused), Align(8))
      ->setAtomic(AtomicOrdering::Release);
}

} // namespace split_detail
} // namespace tapestry
