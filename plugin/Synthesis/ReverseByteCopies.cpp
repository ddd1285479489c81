//===- ReverseByteCopies.cpp - Bytes moved without a type, reverse mode ---===//
//
// Aggregate copies reach the IR as memcpy/memmove or as integer loads and
// stores (i64, i128, <2 x i64>) that only move bytes, and doubles moved
// through a union's uint64_t member look the same. The shadow of such bytes
// holds whatever they are: adjoints for the floating-point parts, shadow
// pointers for pointers, nothing of use for integers. So:
//  - the forward sweep copies the shadows of the pointer parts (the shadow
//    memory holds a pointer's shadow beside it) and nothing else: copying a
//    floating-point part's shadow forward would overwrite an adjoint;
//  - the reverse sweep moves the adjoints of the floating-point parts only
//    (src' += dst'; dst' = 0) and never "adds" a pointer or an integer.
// Which parts are which comes from TypeAnalysis (per object and offset);
// SynthesizerBase::copyLayout says what is done where nothing tells.
// An integer copy is a load and its stores, possibly far apart with other
// writes between them (a swap): the bytes' adjoint waits in a slot of the
// load, filled by the stores' reverse and emptied into the source memory by
// the load's reverse.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/InlineHelpers.h"
#include "Synthesis/ReverseModeSynthesizer.h"

#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tapestry {

static bool isFloat(Type *T) { return T->isFloatingPointTy(); }
static bool isPointer(Type *T) { return T->isPointerTy(); }

const ByteLayout *ReverseModeSynthesizer::copyLoadLayout(LoadInst &LI) {
  auto It = CopyLoadLayouts.find(&LI);
  if (It != CopyLoadLayouts.end())
    return It->second.get();
  uint64_t Size = module().getDataLayout().getTypeStoreSize(LI.getType());
  auto Merged = std::make_unique<ByteLayout>();
  for (User *U : LI.users()) {
    auto *SI = cast<StoreInst>(U);
    if (!AI.hasShadow(SI->getPointerOperand()))
      continue;
    ByteLayout One;
    if (!copyLayout(SI->getPointerOperand(), LI.getPointerOperand(), Size, SI,
                    One)) {
      Merged.reset();
      break;
    }
    if (Merged->empty())
      *Merged = One;
    else if (One.Period == Merged->Period)
      for (const ByteLayout::Part &P : One.Parts)
        if (none_of(Merged->Parts, [&](const ByteLayout::Part &Q) {
              return Q.Offset == P.Offset && Q.T == P.T;
            }))
          Merged->Parts.push_back(P);
  }
  return (CopyLoadLayouts[&LI] = std::move(Merged)).get();
}

Value *ReverseModeSynthesizer::copySlotLane(LoadInst &LI, unsigned K,
                                            IRBuilderBase &B) {
  AllocaInst *Slot = adjointSlot(&LI);
  if (W == 1)
    return Slot;
  return B.CreateConstInBoundsGEP2_32(Slot->getAllocatedType(), Slot, 0, K);
}

/// The store wrote the bytes: their adjoint (the floating-point parts)
/// moves to the load's slot.
void ReverseModeSynthesizer::reverseCopyStore(StoreInst &SI, LoadInst &From,
                                              IRBuilderBase &B) {
  const ByteLayout *L = copyLoadLayout(From);
  if (!L)
    return;
  auto FP = partsOf(*L, isFloat);
  if (FP.empty())
    return;
  Value *S = shadowOf(SI.getPointerOperand(), &SI);
  if (!S)
    return;
  S = lookup(S, SI.getParent(), B);
  Function *Fn = getPartsFn(module(), FP, L->Period, PartsOp::Accumulate);
  Value *Bytes =
      B.getInt64(module().getDataLayout().getTypeStoreSize(From.getType()));
  for (unsigned K = 0; K < W; ++K)
    B.CreateCall(Fn, {lane(B, S, K), copySlotLane(From, K, B), Bytes});
}

/// The load read the bytes: the adjoint its stores gathered goes to the
/// memory it read.
void ReverseModeSynthesizer::reverseCopyLoad(LoadInst &LI, IRBuilderBase &B) {
  const ByteLayout *L = copyLoadLayout(LI);
  if (!L)
    return;
  auto FP = partsOf(*L, isFloat);
  if (FP.empty())
    return;
  Value *Bytes =
      B.getInt64(module().getDataLayout().getTypeStoreSize(LI.getType()));
  if (!AI.hasShadow(LI.getPointerOperand())) {
    // Constant memory: what was gathered is dropped.
    AllocaInst *Slot = adjointSlot(&LI);
    B.CreateStore(Constant::getNullValue(Slot->getAllocatedType()), Slot);
    return;
  }
  Value *S = shadowOf(LI.getPointerOperand(), &LI);
  if (!S)
    return;
  S = lookup(S, LI.getParent(), B);
  Function *Fn = getPartsFn(module(), FP, L->Period, PartsOp::Accumulate);
  for (unsigned K = 0; K < W; ++K)
    B.CreateCall(Fn, {copySlotLane(LI, K, B), lane(B, S, K), Bytes});
}

/// Forward sweep: the shadows of the pointers among copied bytes are
/// copied beside them.
void ReverseModeSynthesizer::copyPointerShadows(Instruction &PI) {
  if (!Types)
    Types = std::make_unique<TypeInfo>(computeTypes(P));
  const DataLayout &DL = module().getDataLayout();
  if (auto *MT = dyn_cast<MemTransferInst>(&PI)) {
    if (!AI.hasShadow(MT->getDest()) || !AI.hasShadow(MT->getSource()))
      return;
    auto *Len = dyn_cast<ConstantInt>(MT->getLength());
    ByteLayout L = Types->layoutAt(MT->getDest(), Len ? Len->getZExtValue() : 0,
                                   MT->getSource());
    auto Ptrs = partsOf(L, isPointer);
    if (Ptrs.empty())
      return;
    IRBuilder<> B(primal(MT)->getNextNode());
    Value *D = shadowOf(MT->getDest(), MT), *S = shadowOf(MT->getSource(), MT);
    if (!D || !S)
      return;
    Function *Fn = getPartsFn(module(), Ptrs, L.Period, PartsOp::Copy);
    Value *Bytes = B.CreateZExtOrTrunc(primal(MT->getLength()), B.getInt64Ty());
    // Nothing goes into a destination whose shadow marks it constant (it
    // is the memory itself); from such a source, the pointers themselves
    // are their shadows, as a copy of its shadow gives them.
    Value *GD =
        RA.mayBeConstant(MT->getDest()) ? primal(MT->getDest()) : nullptr;
    for (unsigned K = 0; K < W; ++K) {
      Value *DK = lane(B, D, K);
      B.CreateCall(Fn,
                   {DK, lane(B, S, K), bytesUnlessConstant(B, Bytes, DK, GD)});
    }
    return;
  }
  auto *SI = dyn_cast<StoreInst>(&PI);
  auto *From = SI ? dyn_cast<LoadInst>(SI->getValueOperand()) : nullptr;
  if (!From || !isCopyLoad(*From) || !AI.hasShadow(SI->getPointerOperand()) ||
      !AI.hasShadow(From->getPointerOperand()))
    return;
  uint64_t Size = DL.getTypeStoreSize(From->getType());
  ByteLayout L =
      Types->layoutAt(SI->getPointerOperand(), Size, From->getPointerOperand());
  auto Ptrs = partsOf(L, isPointer);
  if (Ptrs.empty())
    return;
  Value *SrcS = shadowOf(From->getPointerOperand(), From);
  Value *DstS = shadowOf(SI->getPointerOperand(), SI);
  if (!SrcS || !DstS)
    return;
  // The pointer bytes of the source's shadow as the load read them, over
  // the other bytes of the destination's shadow.
  APInt Mask(Size * 8, 0);
  for (auto [Off, T] : Ptrs)
    for (uint64_t O = Off; O + DL.getTypeStoreSize(T) <= Size;
         O += L.Period ? L.Period : Size)
      Mask.setBits(O * 8, (O + DL.getTypeStoreSize(T)) * 8);
  IntegerType *IntTy = IntegerType::get(P.getContext(), Size * 8);
  IRBuilder<> LB(primal(From)->getNextNode());
  SmallVector<Value *, 4> Read;
  for (unsigned K = 0; K < W; ++K)
    Read.push_back(
        LB.CreateAlignedLoad(IntTy, lane(LB, SrcS, K), From->getAlign()));
  IRBuilder<> SB(primal(SI)->getNextNode());
  for (unsigned K = 0; K < W; ++K) {
    Value *Ptr = lane(SB, DstS, K);
    Value *Old = SB.CreateAlignedLoad(IntTy, Ptr, SI->getAlign());
    Value *New = SB.CreateOr(SB.CreateAnd(Read[K], SB.getInt(Mask)),
                             SB.CreateAnd(Old, SB.getInt(~Mask)));
    SB.CreateAlignedStore(New, Ptr, SI->getAlign());
  }
}

} // namespace tapestry
