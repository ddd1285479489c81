//===- CustomAllocations.cpp - Registered allocators in reverse mode ------===//
//
// A call to an allocator registered with __enzyme_allocation_like
// (Core/AllocationLike.h) is a malloc whose free is the registered
// deallocator: its shadow is allocated by calling the allocator again with
// the same arguments and zeroed (Synthesis/ShadowMemory.cpp), and freed in
// the reverse sweep at the allocation's place by calling the deallocator as
// the registration says (-1 the shadow, k the allocation's argument k), on
// the same conditions as malloc's shadow. Where the forward sweep frees a
// block with the deallocator, the shadow is listed for later (FreedShadows.h)
// with the deallocator itself as its kind.
//
//===----------------------------------------------------------------------===//
#include "Core/AllocationFunctions.h"
#include "Core/AllocationLike.h"
#include "Core/Diagnostics.h"
#include "Synthesis/FreedShadows.h"
#include "Synthesis/ReverseModeSynthesizer.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tapestry {

void ReverseModeSynthesizer::reverseCustomAllocation(CallBase &CB,
                                                     const CustomAllocator &CA,
                                                     IRBuilderBase &B) {
  BasicBlock *PB = CB.getParent();
  if (AI.hasShadow(&CB) && Shadows.count(&CB)) {
    // A block whose free the reverse sweep replays has its shadow freed
    // here; any other only if the forward sweep freed the block, which
    // listed its shadow (FreedShadows.h). (Unlike malloc's, a block that is
    // never captured is not assumed leaked: the deallocator's own code may
    // have been inlined and freed it, shadow included, at another address.)
    bool Owned = DeferredFrees.lookup(&CB);
    Value *S = lookup(Shadows[&CB], PB, B);
    for (unsigned K = 0; K < W; ++K) {
      Value *SK = lane(B, S, K);
      Value *Freed =
          B.CreateCall(getFreedShadowTakeFn(module(), R.FreedListDepth), {SK});
      BasicBlock *Cont = nullptr;
      if (!Owned) {
        // The deallocator need not accept a null pointer as free does.
        Function *G = B.GetInsertBlock()->getParent();
        auto *Then = BasicBlock::Create(G->getContext(), "shadow.free", G);
        Cont = BasicBlock::Create(G->getContext(), "shadow.free.done", G);
        B.CreateCondBr(Freed, Then, Cont);
        B.SetInsertPoint(Then);
      }
      SmallVector<Value *, 4> Args;
      for (int A : CA.DeallocArgs)
        Args.push_back(A < 0 ? SK : lookup(primal(CB.getArgOperand(A)), PB, B));
      B.CreateCall(CA.Dealloc, Args);
      if (Cont) {
        B.CreateBr(Cont);
        B.SetInsertPoint(Cont);
      }
    }
  }
  replayDeferredFree(CB, B);
}

CallInst *ReverseModeSynthesizer::replayDeferredFree(CallBase &Alloc,
                                                     IRBuilderBase &B,
                                                     Value *Block) {
  CallBase *Dealloc = DeferredFrees.lookup(&Alloc);
  if (!Dealloc)
    return nullptr;
  BasicBlock *PB = Alloc.getParent();
  SmallVector<Value *, 4> Args;
  for (unsigned I = 0; I < Dealloc->arg_size(); ++I)
    Args.push_back(I == freedOperandIndex(*Dealloc)
                       ? (Block ? Block : lookup(primal(&Alloc), PB, B))
                       : lookup(primal(Dealloc->getArgOperand(I)), PB, B));
  CallInst *Free = B.CreateCall(Dealloc->getFunctionType(),
                                Dealloc->getCalledOperand(), Args);
  // The free of a lowered realloc stays marked so (split mode's reasons).
  if (MDNode *Realloc = Dealloc->getMetadata("tapestry.realloc"))
    Free->setMetadata("tapestry.realloc", Realloc);
  return Free;
}

static bool allocatedIn(const Value *Ptr, const Function &F,
                        unsigned Depth = 4);

/// True if every pointer stored into the local variable \p Slot comes from
/// an allocation call in \p F, and nothing else writes it.
static bool holdsOnlyAllocations(const AllocaInst &Slot, const Function &F,
                                 unsigned Depth) {
  SmallVector<const Value *, 8> Work{&Slot};
  SmallPtrSet<const Value *, 8> Seen{&Slot};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (isa<GetElementPtrInst>(U) || isa<CastInst>(U)) {
        if (Seen.insert(U).second)
          Work.push_back(U);
      } else if (auto *SI = dyn_cast<StoreInst>(U)) {
        if (SI->getValueOperand() == V)
          return false; // the variable's address escapes
        if (SI->getValueOperand()->getType()->isPointerTy() &&
            !allocatedIn(SI->getValueOperand(), F, Depth - 1))
          return false;
      } else if (auto *CB = dyn_cast<CallBase>(U);
                 CB && (isAllocationCall(*CB) || isDeallocationCall(*CB))) {
        // An allocator or deallocator writes no pointer into the variable
        // (MFEM's New_(..., unsigned &flags) sets the flags beside it).
      } else if (auto *II = dyn_cast<IntrinsicInst>(U);
                 !isa<LoadInst>(U) && !(II && (II->isLifetimeStartOrEnd() ||
                                               isa<DbgInfoIntrinsic>(II)))) {
        return false; // written by code not followed here
      }
    }
  }
  return true;
}

/// True if \p Ptr is known to come from an allocation call in \p F: the
/// call itself (through phis and selects), or loaded from a local variable
/// (a table of blocks, an object's field) into which only such pointers are
/// ever stored.
static bool allocatedIn(const Value *Ptr, const Function &F, unsigned Depth) {
  if (Depth == 0)
    return false;
  SmallVector<const Value *, 4> Objs;
  getUnderlyingObjects(Ptr, Objs, /*LI=*/nullptr, /*MaxLookup=*/0);
  return all_of(Objs, [&](const Value *Obj) {
    // (A block grown in a loop starts from null: realloc(null, n).)
    if (isa<ConstantPointerNull>(Obj) || isa<UndefValue>(Obj))
      return true;
    if (auto *CB = dyn_cast<CallBase>(Obj))
      return isAllocationCall(*CB) && CB->getFunction() == &F;
    auto *Load = dyn_cast<LoadInst>(Obj);
    auto *Slot = Load ? dyn_cast<AllocaInst>(
                            getUnderlyingObject(Load->getPointerOperand(), 0))
                      : nullptr;
    return Slot && holdsOnlyAllocations(*Slot, F, Depth);
  });
}

Value *ReverseModeSynthesizer::freedShadowKindOf(CallBase &Dealloc,
                                                 IRBuilderBase &B) {
  Function *Callee = Dealloc.getCalledFunction();
  // Over-aligned operator delete is a registered deallocator's kind too:
  // the address of a function passing the alignment.
  if (uint64_t Align = cxxAlignment(Dealloc))
    return B.CreatePtrToInt(
        getDeallocatorFn(module(), *heapFunction(*Callee), Align).getCallee(),
        B.getInt64Ty());
  if (!customFreedOperand(*Callee))
    return B.getInt64(freedShadowKind(*Callee));
  // The shadow of a block allocated by this function is freed when the
  // reverse sweep reaches the allocation, with the allocation's arguments;
  // any other is freed when the request ends, by the deallocator alone.
  if (Dealloc.arg_size() != 1 &&
      !allocatedIn(freedPointer(Dealloc), *Dealloc.getFunction())) {
    fail(&Dealloc,
         "'" + sourceName(*Callee) +
             "' frees a block that may not have been allocated in the "
             "differentiated function, and takes arguments besides the "
             "pointer; Tapestry can free such a block's shadow after the "
             "reverse sweep only with a deallocator that takes the pointer "
             "alone: allocate the block inside the function (keeping it in "
             "a local variable), or register a one-argument deallocator");
    return nullptr;
  }
  return B.CreatePtrToInt(Callee, B.getInt64Ty());
}

Value *ReverseModeSynthesizer::freedShadowBytesOf(CallBase &Dealloc,
                                                  IRBuilderBase &B) {
  // A block allocated here has its shadow taken back by the reverse sweep,
  // never left to the request's end: nothing to check.
  if (allocatedIn(freedPointer(Dealloc), *Dealloc.getFunction()))
    return B.getInt64(0);
  std::optional<HeapFunction> H = heapFunction(Dealloc);
  if (H == HeapFunction::Free)
    return B.getInt64(AskAllocatorBytes);
  // The shadow's own size, which may be less than the primal's (a shadow
  // vector with less capacity): libstdc++'s operator new takes its memory
  // from malloc; one the program defines may not (asked at run time).
  if ((H == HeapFunction::Delete || H == HeapFunction::DeleteArray) &&
      none_of(module().functions(), [](const Function &F) {
        std::optional<HeapFunction> New = heapFunction(F);
        return !F.isDeclaration() &&
               (New == HeapFunction::New || New == HeapFunction::NewArray);
      }))
    return B.getInt64(AskAllocatorIfNewBytes);
  return B.getInt64(0);
}

} // namespace tapestry
