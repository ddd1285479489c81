//===- MirroredCalls.cpp - Library calls repeated on the shadows ----------===//
//
// std::map and std::set keep their nodes in a red-black tree whose
// rebalancing and traversal live in libstdc++.so (std::_Rb_tree_increment,
// std::_Rb_tree_insert_and_rebalance, ...), not in headers; std::list links
// and unlinks its nodes there too (_List_node_base::_M_hook, _M_unhook,
// _M_transfer, _M_reverse, swap). These calls only move pointers and
// colours: a node's value, which may carry a derivative, is neither read
// nor written. Repeating each call on the shadows (pointer
// arguments replaced by their shadows) keeps the shadow tree, built from the
// shadows of the nodes operator new allocated, the same shape as the primal
// one, so that a lookup's pointer traversal finds the shadow of the node it
// finds; a traversal's result has the repeated call's result as its shadow.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/SynthesizerBase.h"

using namespace llvm;

namespace tapestry {

Value *SynthesizerBase::mirrorCall(CallBase &CB) {
  auto *GI = cast<CallBase>(primal(&CB));
  IRBuilder<> B(GI->getNextNode());
  SmallVector<Value *, 4> Shadowed;
  for (Value *A : CB.args())
    Shadowed.push_back(A->getType()->isPointerTy() ? shadowOf(A, &CB)
                                                   : primal(A));
  if (any_of(Shadowed, [](Value *V) { return !V; }))
    return nullptr; // reported by shadowOf
  SmallVector<Value *, 4> Results;
  for (unsigned K = 0; K < W; ++K) {
    SmallVector<Value *, 4> Args;
    for (auto [A, S] : zip(CB.args(), Shadowed))
      Args.push_back(A->getType()->isPointerTy() ? lane(B, S, K) : S);
    CallInst *Call =
        B.CreateCall(CB.getFunctionType(), CB.getCalledOperand(), Args);
    if (!Call->getType()->isVoidTy())
      Call->setName(CB.getName() + "'");
    Results.push_back(Call);
  }
  if (CB.getType()->isVoidTy())
    return nullptr;
  return lanes(B, CB.getType(), [&](unsigned K) { return Results[K]; });
}

} // namespace tapestry
