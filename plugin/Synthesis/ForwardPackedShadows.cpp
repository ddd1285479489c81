//===- ForwardPackedShadows.cpp - Packed shadow lanes in forward mode -----===//
//
// The ForwardModeSynthesizer members for allocations whose shadow lanes are
// packed side by side (Synthesis/PackedShadows.h): the shadow blocks, W
// times the primal's size; pointers into them, at W times the primal's
// offset; and their accesses, one vector of W lanes each.
//
//===----------------------------------------------------------------------===//
#include "Core/AllocationFunctions.h"
#include "Core/Diagnostics.h"
#include "Synthesis/ForwardModeSynthesizer.h"
#include "Synthesis/TapeCache.h"
#include "llvm/Analysis/Utils/Local.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tapestry {

Value *ForwardModeSynthesizer::packedShadow(Value *PV) {
  if (Value *S = PackedShadows.lookup(PV))
    return S;
  if (isa<ConstantPointerNull>(PV))
    return PV;
  if (isa<UndefValue>(PV))
    return PoisonValue::get(PV->getType());
  fail(nullptr, "internal error: the packed shadow of '" + describe(PV) +
                    "' is used before it is made");
  return nullptr;
}

Value *ForwardModeSynthesizer::loadPacked(IRBuilderBase &B, Type *T,
                                          Value *SPtr) {
  unsigned S = module().getDataLayout().getTypeAllocSize(T);
  Type *VT = FixedVectorType::get(T, W);
  Value *L = B.CreateAlignedLoad(VT, SPtr, Align(S));
  if (batchTy(T) == VT)
    return L;
  return lanes(B, T, [&](unsigned K) { return B.CreateExtractElement(L, K); });
}

void ForwardModeSynthesizer::storePacked(IRBuilderBase &B, Value *V, Type *T,
                                         Value *SPtr) {
  unsigned S = module().getDataLayout().getTypeAllocSize(T);
  Type *VT = FixedVectorType::get(T, W);
  Value *Vec = V;
  if (V->getType() != VT) {
    Vec = PoisonValue::get(VT);
    for (unsigned K = 0; K < W; ++K)
      Vec = B.CreateInsertElement(Vec, lane(B, V, K), K);
  }
  B.CreateAlignedStore(Vec, SPtr, Align(S));
}

static Value *scaled(IRBuilderBase &B, Value *Bytes, unsigned W) {
  return B.CreateMul(Bytes, ConstantInt::get(Bytes->getType(), W), "",
                     /*HasNUW=*/true);
}

bool ForwardModeSynthesizer::createPackedShadow(Instruction &PI) {
  // A pointer read from packed memory has per-lane shadows, side by side.
  if (auto *LI = dyn_cast<LoadInst>(&PI);
      LI && Packed.isPacked(LI->getPointerOperand())) {
    Value *SPtr = packedShadow(LI->getPointerOperand());
    if (!SPtr || !AI.hasShadow(LI))
      return true;
    IRBuilder<> B(primal(&PI)->getNextNode());
    Shadows[&PI] = loadPacked(B, PI.getType(), SPtr);
    return true;
  }
  if (!Packed.isPacked(&PI))
    return false;
  Instruction *GI = primal(&PI);
  IRBuilder<> B(GI->getNextNode());
  const DataLayout &DL = module().getDataLayout();
  unsigned S = Packed.elementSize(&PI);
  Value *SV = nullptr;
  if (auto *A = dyn_cast<AllocaInst>(&PI)) {
    auto *GA = cast<AllocaInst>(GI);
    Value *Bytes = B.CreateMul(
        B.CreateZExtOrTrunc(GA->getArraySize(), B.getInt64Ty()),
        B.getInt64(DL.getTypeAllocSize(GA->getAllocatedType()) * W));
    AllocaInst *SA = B.CreateAlloca(B.getInt8Ty(), Bytes, A->getName() + "'");
    SA->setAlignment(std::max(GA->getAlign(), Align(S)));
    B.CreateMemSet(SA, B.getInt8(0), Bytes, SA->getAlign());
    SV = SA;
  } else if (auto *CB = dyn_cast<CallBase>(&PI)) {
    // malloc, operator new, calloc: W times the bytes, zeroed, from the
    // thread's tape cache when a block fits (freePackedShadow gives it
    // back).
    Value *Bytes = scaled(B, primal(CB->getArgOperand(0)), W);
    if (CB->getCalledFunction()->getName() == "calloc")
      Bytes = B.CreateMul(Bytes, primal(CB->getArgOperand(1)));
    SV = B.CreateCall(getShadowTakeFn(module()), {Bytes});
    SV->setName(PI.getName() + "'");
  } else if (auto *GEP = dyn_cast<GetElementPtrInst>(&PI)) {
    Value *Base = packedShadow(GEP->getPointerOperand());
    if (!Base)
      return true;
    Value *Offset = emitGEPOffset(&B, DL, GI);
    SV = B.CreateGEP(B.getInt8Ty(), Base, scaled(B, Offset, W),
                     PI.getName() + "'",
                     GEP->isInBounds() ? GEPNoWrapFlags::inBounds()
                                       : GEPNoWrapFlags::none());
  } else if (auto *Phi = dyn_cast<PHINode>(&PI)) {
    B.SetInsertPoint(GI->getParent(), GI->getParent()->getFirstNonPHIIt());
    SV = B.CreatePHI(PI.getType(), Phi->getNumIncomingValues(),
                     PI.getName() + "'");
  } else if (auto *Sel = dyn_cast<SelectInst>(&PI)) {
    Value *T = packedShadow(Sel->getTrueValue());
    Value *F = packedShadow(Sel->getFalseValue());
    if (!T || !F)
      return true;
    SV = B.CreateSelect(primal(Sel->getCondition()), T, F, PI.getName() + "'");
  } else {
    fail(&PI, "internal error: no packed shadow for '" + describe(&PI) + "'");
    return true;
  }
  PackedShadows[&PI] = SV;
  return true;
}

void ForwardModeSynthesizer::finishPackedPhis() {
  for (Instruction &PI : instructions(P)) {
    auto *Phi = dyn_cast<PHINode>(&PI);
    if (!Phi || !Packed.isPacked(Phi))
      continue;
    auto *SP = dyn_cast_or_null<PHINode>(PackedShadows.lookup(Phi));
    if (!SP)
      continue;
    for (unsigned I = 0; I < Phi->getNumIncomingValues(); ++I) {
      Value *S = packedShadow(Phi->getIncomingValue(I));
      SP->addIncoming(S ? S : PoisonValue::get(Phi->getType()),
                      primal(Phi->getIncomingBlock(I)));
    }
  }
}

void ForwardModeSynthesizer::packedMemIntrinsic(MemIntrinsic &MI,
                                                IRBuilderBase &B) {
  Value *Dst = packedShadow(MI.getDest());
  if (!Dst)
    return;
  Value *Len = scaled(B, primal(MI.getLength()), W);
  auto *MT = dyn_cast<MemTransferInst>(&MI);
  // memset writes constants: their tangents are zero.
  if (!MT) {
    B.CreateMemSet(Dst, B.getInt8(0), Len, MaybeAlign());
    return;
  }
  Value *Src = packedShadow(MT->getSource());
  if (!Src)
    return;
  if (isa<MemMoveInst>(MT))
    B.CreateMemMove(Dst, MaybeAlign(), Src, MaybeAlign(), Len);
  else
    B.CreateMemCpy(Dst, MaybeAlign(), Src, MaybeAlign(), Len);
}

void ForwardModeSynthesizer::freePackedShadow(CallBase &CB, IRBuilderBase &B) {
  // Whatever the primal's deallocator, the shadow block came from
  // tapestry.shadow.take.
  if (Value *S = packedShadow(CB.getArgOperand(0)))
    B.CreateCall(getShadowGiveFn(module()), {S});
}

} // namespace tapestry
