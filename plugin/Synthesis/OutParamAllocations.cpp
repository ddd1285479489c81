//===- OutParamAllocations.cpp - posix_memalign's shadow ------------------===//
//
// posix_memalign(&p, align, size) allocates through an out-parameter: the
// block's address is stored into p, whose memory has a shadow. The shadow
// block is allocated the same way (same alignment and size) into the shadow
// of p, and zeroed; a later load of p then finds the shadow block beside it,
// as for any pointer stored in shadowed memory.
//
// Reverse mode frees the shadow block at the call's place in the reverse
// sweep if the forward sweep freed the primal block (FreedShadows.h), like a
// malloc'd block that was stored somewhere; otherwise the block outlives the
// call and its shadow stays with the caller's shadow memory.
//
//===----------------------------------------------------------------------===//
#include "Core/AllocationFunctions.h"
#include "Synthesis/FreedShadows.h"
#include "Synthesis/ReverseModeSynthesizer.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tapestry {

SmallVector<Value *, 4> SynthesizerBase::allocateOutParamShadow(CallBase &CB) {
  SmallVector<Value *, 4> Blocks;
  Value *Out = CB.getArgOperand(0);
  if (!AI.hasShadow(Out))
    return Blocks;
  Value *S = shadowOf(Out, &CB);
  if (!S)
    return Blocks;
  auto *GI = cast<CallBase>(primal(&CB));
  IRBuilder<> B(GI->getNextNode());
  Value *Align = primal(CB.getArgOperand(1)),
        *Size = primal(CB.getArgOperand(2));
  for (unsigned K = 0; K < W; ++K) {
    Value *SK = lane(B, S, K);
    Value *Ret = B.CreateCall(CB.getFunctionType(), CB.getCalledOperand(),
                              {SK, Align, Size});
    Value *Block = B.CreateLoad(B.getPtrTy(), SK, "memalign.shadow");
    // Zeroed where the allocation succeeded (a failed one wrote nothing).
    B.CreateMemSet(Block, B.getInt8(0),
                   B.CreateSelect(B.CreateIsNull(Ret), Size,
                                  ConstantInt::get(Size->getType(), 0)),
                   MaybeAlign());
    Blocks.push_back(Block);
  }
  return Blocks;
}

void ReverseModeSynthesizer::reverseOutParamAllocation(CallBase &CB,
                                                       IRBuilderBase &B) {
  FunctionCallee Free = getFreeFn(module());
  for (Value *Block : OutParamShadows.lookup(&CB)) {
    Value *SK = lookup(Block, CB.getParent(), B);
    Value *Freed =
        B.CreateCall(getFreedShadowTakeFn(module(), R.FreedListDepth), {SK});
    B.CreateCall(Free, {B.CreateSelect(
                           Freed, SK, ConstantPointerNull::get(B.getPtrTy()))});
  }
}

} // namespace tapestry
