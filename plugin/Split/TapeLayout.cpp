//===- TapeLayout.cpp - What crosses to the reverse, and where ------------===//
//
// The tape's contents (Split/Splitter.h): which stack slots of the one-shot
// derivative both sweeps use (classifySlot), which forward values the
// reverse can recompute from its arguments instead of reading them from
// the tape (rematerializable), and the tape's fields, each at the alignment
// its slot demands, with the tape's start realigned when a field needs more
// than the 8 bytes tape memory is guaranteed (layoutTape, alignedTape).
//
//===----------------------------------------------------------------------===//
#include "Split/Splitter.h"

#include "Core/AllocationFunctions.h"
#include "Synthesis/LoopBlockLists.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"

#include "llvm/IR/IntrinsicInst.h"

namespace tapestry {
namespace split_detail {

void Splitter::classifySlot(AllocaInst *Slot) {
  SlotUse &U = Slots[Slot];
  SmallVector<Value *, 8> Work{Slot};
  SmallPtrSet<Value *, 8> Seen{Slot};
  auto Mark = [&](Instruction *I) {
    (inReverse(I) ? U.InReverse : U.InForward) = true;
  };
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    for (User *Usr : V->users()) {
      auto *I = dyn_cast<Instruction>(Usr);
      if (!I)
        continue;
      bool Rev = inReverse(I);
      if (auto *SI = dyn_cast<StoreInst>(I)) {
        if (SI->getValueOperand() == V) {
          U.Escapes = true;
          Mark(I);
          continue;
        }
        if (V == Slot && !Rev && I->getParent() == &G.getEntryBlock() &&
            isa<Constant>(SI->getValueOperand())) {
          U.Inits.push_back(SI);
          continue;
        }
        Mark(I);
        U.WrittenInReverse |= Rev;
        continue;
      }
      // Values that carry the address on: address arithmetic, choices, and
      // the aggregates batch mode keeps its shadows in.
      if (isa<GetElementPtrInst>(I) || isa<BitCastInst>(I) ||
          isa<AddrSpaceCastInst>(I) || isa<PHINode>(I) || isa<SelectInst>(I) ||
          isa<InsertValueInst>(I) || isa<ExtractValueInst>(I)) {
        Mark(I);
        if (Seen.insert(I).second)
          Work.push_back(I);
        continue;
      }
      Mark(I);
      if (isa<LoadInst>(I) || isa<ICmpInst>(I) || isa<PtrToIntInst>(I))
        continue;
      if (auto *II = dyn_cast<IntrinsicInst>(I))
        if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II))
          continue;
      if (auto *CB = dyn_cast<CallBase>(I)) {
        bool Writes = !CB->onlyReadsMemory();
        for (unsigned A = 0; A < CB->arg_size(); ++A)
          if (CB->getArgOperand(A) == V) {
            Writes &= !CB->onlyReadsMemory(A);
            U.Escapes |= !isa<MemIntrinsic>(CB) && !CB->doesNotCapture(A);
          }
        U.WrittenInReverse |= Rev && Writes;
        continue;
      }
      U.Escapes = true;
      U.WrittenInReverse |= Rev;
    }
  }
}

bool Splitter::rematerializable(Value *V, unsigned Depth) {
  if (isa<Constant>(V) || isa<Argument>(V))
    return true;
  if (auto *Slot = dyn_cast<AllocaInst>(V))
    return Slots.count(Slot);
  auto It = Remat.find(V);
  if (It != Remat.end())
    return It->second;
  auto *I = cast<Instruction>(V);
  bool Ok = Depth < 12 && !inReverse(I) &&
            (isa<GetElementPtrInst>(I) || isa<CastInst>(I) ||
             isa<ICmpInst>(I) || isa<FreezeInst>(I) ||
             (isa<BinaryOperator>(I) && I->getType()->isIntOrIntVectorTy()) ||
             (isa<SelectInst>(I) && !I->getType()->isFPOrFPVectorTy()));
  for (unsigned Op = 0; Ok && Op < I->getNumOperands(); ++Op)
    Ok = rematerializable(I->getOperand(Op), Depth + 1);
  Remat[V] = Ok;
  return Ok;
}

void Splitter::moveVariableArraysToHeap() {
  // Those whose contents the reverse needs (the others die with the
  // forward half, as on the stack).
  SmallVector<AllocaInst *, 2> Arrays;
  for (Instruction &I : instructions(G))
    if (auto *A = dyn_cast<AllocaInst>(&I);
        A && !ReverseBlocks.count(A->getParent()) &&
        (!isa<ConstantInt>(A->getArraySize()) ||
         A->getParent() != &G.getEntryBlock())) {
      classifySlot(A);
      const SlotUse &U = Slots[A];
      if (U.InForward && (U.InReverse || U.Escapes))
        Arrays.push_back(A);
    }
  Slots.clear();
  if (Arrays.empty())
    return;
  // Each array becomes a heap block, whatever path or loop iteration made
  // it (Eigen's stack buffers: alloca below a size limit, malloc above it,
  // in the blocked loops of its solvers), linked into a list of loop blocks
  // (LoopBlockLists.h) whose head, a local of the entry block, the reverse
  // reads to free them as it returns (being read in the reverse half, the
  // local is a tape field).
  IRBuilder<> EB(&G.getEntryBlock(), G.getEntryBlock().begin());
  AllocaInst *List = EB.CreateAlloca(EB.getPtrTy(), nullptr, "heap.arrays");
  EB.CreateStore(ConstantPointerNull::get(EB.getPtrTy()), List);
  for (AllocaInst *A : Arrays) {
    IRBuilder<> B(A);
    Value *N = B.CreateZExtOrTrunc(A->getArraySize(), B.getInt64Ty());
    Value *Bytes = B.CreateMul(
        N,
        B.getInt64(DL.getTypeAllocSize(A->getAllocatedType()).getFixedValue()));
    // Over-aligned arrays (Eigen's aligned stack buffers: 64 bytes for
    // AVX-512 packets) keep their alignment.
    uint64_t Alignment = A->getAlign().value();
    CallInst *Block =
        Alignment <= 16
            ? B.CreateCall(getMallocFn(M), {Bytes}, A->getName() + ".heap")
            : B.CreateCall(
                  getAlignedAllocFn(M),
                  {B.getInt64(Alignment),
                   B.CreateAnd(B.CreateAdd(Bytes, B.getInt64(Alignment - 1)),
                               B.getInt64(~(Alignment - 1)))},
                  A->getName() + ".heap");
    B.CreateCall(
        getLoopBlockLinkFn(M),
        {List, Block, ConstantPointerNull::get(B.getPtrTy()), B.getInt64(0)});
    // The alloca stays, unused, until the derivative is simplified: the
    // sweep boundary's sets name it.
    A->replaceAllUsesWith(Block);
  }
  for (BasicBlock &BB : G)
    if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator())) {
      IRBuilder<> RB(Ret);
      RB.CreateCall(getLoopBlockReleaseFn(M, HeapFunction::Free),
                    {RB.CreateLoad(RB.getPtrTy(), List)});
    }
}

void Splitter::findShadowDerived() {
  SmallVector<Value *, 16> Work(SB.ShadowValues.begin(), SB.ShadowValues.end());
  ShadowDerived.insert(SB.ShadowValues.begin(), SB.ShadowValues.end());
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    for (User *U : V->users())
      if (isa<GetElementPtrInst>(U) || isa<CastInst>(U) || isa<PHINode>(U) ||
          isa<SelectInst>(U))
        if (U->getType()->isPointerTy() && ShadowDerived.insert(U).second)
          Work.push_back(U);
  }
}

void Splitter::layoutTape() {
  SmallVector<Type *, 16> Fields{Type::getInt64Ty(C)};
  uint64_t Offset = 8;
  // A field at the next offset its type allows and \p Want demands (a
  // stack slot's own alignment, which may exceed its type's: Eigen's
  // fixed-size matrices, _Alignas, SIMD buffers); padding bytes before it
  // where the type alone would place it lower.
  auto AddField = [&](Type *T, Align Want) {
    Align Natural = DL.getABITypeAlign(T);
    Want = std::max(Want, Natural);
    uint64_t At = alignTo(Offset, Want);
    if (alignTo(Offset, Natural) != At) {
      Fields.push_back(ArrayType::get(Type::getInt8Ty(C), At - Offset));
      Offset = At;
    }
    TapeAlign = std::max(TapeAlign, Want);
    Fields.push_back(T);
    Offset = At + DL.getTypeAllocSize(T).getFixedValue();
    return int(Fields.size() - 1);
  };
  for (auto &[Slot, U] : Slots)
    if (U.InForward &&
        (U.InReverse || isCalleeTapeList(Slot) || isBlockRecord(Slot)))
      U.Field = AddField(slotType(Slot), Slot->getAlign());
  for (auto &[V, Field] : Crossing)
    if (!rematerializable(V, 0))
      Field = AddField(V->getType(), Align(1));
  // A tape that keeps addresses into the shadows is right only with the
  // shadows the forward half was given: it keeps them to compare.
  findKeptShadow();
  if (KeptShadow)
    for (int ArgNo : Sig.ShadowArg)
      if (ArgNo >= 0 && G.getArg(ArgNo)->getType()->isPointerTy())
        ShadowArgFields.push_back(
            {unsigned(ArgNo), AddField(G.getArg(ArgNo)->getType(), Align(1))});
  TapeTy = StructType::create(C, Fields, (R.Fn->getName() + ".tape").str());
  assert(DL.getTypeAllocSize(TapeTy).getFixedValue() >= Offset &&
         "the tape's fields are where AddField placed them");
  // Tape memory is 8-byte aligned (a caller's buffer need not have more):
  // a tape with more-aligned fields starts at the first address aligned
  // enough, within TapeAlign - 8 bytes of the memory's start.
  uint64_t Slack = TapeAlign.value() - 8;
  Out.TapeBytes =
      alignTo(DL.getTypeAllocSize(TapeTy).getFixedValue() + Slack, 16);
}

Value *Splitter::alignedTape(IRBuilderBase &B, Value *Memory) {
  if (TapeAlign <= Align(8))
    return Memory;
  // The same address in the augmented forward, the reverse and the release:
  // all three are given the same memory.
  Value *Address = B.CreatePtrToInt(Memory, B.getInt64Ty());
  Value *Pad = B.CreateAnd(B.CreateNeg(Address), TapeAlign.value() - 1);
  return B.CreateGEP(B.getInt8Ty(), Memory, Pad, "tape.aligned");
}

void clampTapeAlignment(Value *TapePtr, Align Max) {
  SmallVector<Value *, 16> Work{TapePtr};
  SmallPtrSet<Value *, 16> Seen{TapePtr};
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    for (User *U : V->users()) {
      if (auto *LI = dyn_cast<LoadInst>(U)) {
        LI->setAlignment(std::min(LI->getAlign(), Max));
      } else if (auto *SI = dyn_cast<StoreInst>(U)) {
        if (SI->getPointerOperand() == V)
          SI->setAlignment(std::min(SI->getAlign(), Max));
      } else if (auto *MI = dyn_cast<MemIntrinsic>(U)) {
        if (MI->getRawDest() == V && MI->getDestAlign())
          MI->setDestAlignment(std::min(*MI->getDestAlign(), Max));
        if (auto *MT = dyn_cast<MemTransferInst>(MI))
          if (MT->getRawSource() == V && MT->getSourceAlign())
            MT->setSourceAlignment(std::min(*MT->getSourceAlign(), Max));
      } else if (isa<GetElementPtrInst>(U) || isa<BitCastInst>(U) ||
                 isa<PHINode>(U) || isa<SelectInst>(U)) {
        if (Seen.insert(U).second)
          Work.push_back(U);
      }
    }
  }
}

} // namespace split_detail
} // namespace tapestry
