//===- TapeAnalysis.cpp - What the reverse sweep caches or recomputes -----===//
//
// Implements TapeAnalysis.h: planTape asks LLVM's alias analysis, within a
// budget of queries, which loads no write in the function may clobber (the
// reverse sweep reloads them), which calls to callees that write no memory
// (writesMemory) can be repeated, and which BLAS operands stay unclobbered;
// restrictToLocalMemory narrows the plan for split mode, where the caller may
// overwrite memory between the halves. isDeferredFree tells the reverse
// synthesizer which frees the forward sweep performs itself. The plan is
// consumed by Synthesis/ReverseValueCache; nothing here emits IR.
//
//===----------------------------------------------------------------------===//
#include "Analysis/TapeAnalysis.h"

#include "Analysis/ActivityAnalysis.h"
#include "Core/AddressIntegers.h"
#include "Core/AllocationFunctions.h"
#include "Core/AllocationLike.h"
#include "Core/BlasFunctions.h"
#include "Core/ConstantOutParams.h"
#include "Core/MathFunctions.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "tapestry"

using namespace llvm;

STATISTIC(NumTapePlans, "Tape plans (one per reverse derivative)");
STATISTIC(NumReloadableLoads,
          "Loads the reverse sweep repeats instead of taping their values");
STATISTIC(NumRepeatableCalls,
          "Calls the reverse sweep runs again instead of taping their work");

namespace tapestry {

/// Above this many load/write pairs, reloading is not attempted: caching is
/// always correct, only larger.
static constexpr unsigned MaxAliasQueries = 200000;

/// True if nothing but \p Free, or a free of \p Alloc itself, can free the
/// block \p Alloc returns: its address is not stored, and no call it is
/// passed to may free memory.
static bool freedOnlyBy(const CallBase &Alloc, const CallBase &Free) {
  SmallVector<const Value *, 8> Work{&Alloc};
  SmallPtrSet<const Value *, 16> Seen{&Alloc};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (isa<GetElementPtrInst>(U) || isa<BitCastInst>(U) || isa<PHINode>(U) ||
          isa<SelectInst>(U)) {
        if (Seen.insert(U).second)
          Work.push_back(U);
        continue;
      }
      if (auto *SI = dyn_cast<StoreInst>(U)) {
        if (SI->getValueOperand() == V)
          return false;
        continue;
      }
      if (auto *CB = dyn_cast<CallBase>(U)) {
        if (auto *II = dyn_cast<IntrinsicInst>(CB))
          if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II) ||
              isa<MemIntrinsic>(II))
            continue;
        if (isDeallocationCall(*CB)) {
          if (CB != &Free && freedPointer(*CB) != &Alloc)
            return false;
          continue;
        }
        if (!CB->hasFnAttr(Attribute::NoFree))
          return false;
        continue;
      }
      // An address kept as an integer (uintptr_t) may be freed elsewhere.
      if (isa<PtrToIntInst>(U) && addressEscapesAsInteger(U))
        return false;
      if (!isa<LoadInst>(U) && !isa<ICmpInst>(U) && !isa<PtrToIntInst>(U))
        return false;
    }
  }
  return true;
}

CallBase *freedAllocation(const CallBase &Free, const DominatorTree &DT,
                          const LoopInfo &Loops) {
  Value *Freed = freedPointer(Free);
  auto IsAllocation = [&](const Value *V) {
    auto *CB = dyn_cast<CallBase>(V);
    return CB && isAllocationCall(*CB) &&
           CB->getFunction() == Free.getFunction();
  };
  if (const Value *Obj = getUnderlyingObject(Freed, 0); IsAllocation(Obj))
    return const_cast<CallBase *>(cast<CallBase>(Obj));
  // A block allocated on some paths and null on the others: the free is of
  // that block, or does nothing on a path that did not allocate it. A null
  // that comes after the allocation (the block handed to something else:
  // std::map's _Auto_node) does not qualify, nor does a select, which
  // chooses after the allocation. In a loop (a std::vector declared in the
  // loop's body), the allocation, the free and every phi between them are
  // in the same loop and no phi is in a loop header, so that a phi never
  // carries the block of an earlier iteration.
  const Loop *FreeLoop = Loops.getLoopFor(Free.getParent());
  const CallBase *Alloc = nullptr;
  SmallVector<const BasicBlock *, 4> NullFrom;
  SmallVector<const Value *, 4> Work{Freed};
  SmallPtrSet<const Value *, 8> Seen;
  while (!Work.empty()) {
    const Value *V = getUnderlyingObject(Work.pop_back_val(), 0);
    if (!Seen.insert(V).second)
      continue;
    if (auto *Phi = dyn_cast<PHINode>(V)) {
      if (Loops.getLoopFor(Phi->getParent()) != FreeLoop ||
          Loops.isLoopHeader(Phi->getParent()))
        return nullptr;
      for (unsigned I = 0; I < Phi->getNumIncomingValues(); ++I) {
        if (isa<ConstantPointerNull>(Phi->getIncomingValue(I)))
          NullFrom.push_back(Phi->getIncomingBlock(I));
        else
          Work.push_back(Phi->getIncomingValue(I));
      }
      continue;
    }
    if ((Alloc && Alloc != V) || !IsAllocation(V))
      return nullptr;
    Alloc = cast<CallBase>(V);
  }
  if (!Alloc || Loops.getLoopFor(Alloc->getParent()) != FreeLoop)
    return nullptr;
  // The null cannot come after the allocation: from a block that
  // dominates it (in the same iteration), or from one the allocation
  // cannot reach (the other branch of `p = NULL; if (c) p = malloc(n);`).
  for (const BasicBlock *From : NullFrom)
    if (!DT.dominates(From, Alloc->getParent()) &&
        isPotentiallyReachable(Alloc->getParent(), From, nullptr, &DT, &Loops))
      return nullptr;
  // Deferring this free is right only if no other free of the block stays
  // in the forward sweep.
  if (!freedOnlyBy(*Alloc, Free))
    return nullptr;
  return const_cast<CallBase *>(Alloc);
}

/// True if the block \p Alloc returns may also be freed by a deallocation
/// of a phi or select of it and other blocks that is not itself a free of
/// \p Alloc (the free of a lowered realloc in a loop whose first block -O3
/// peeled into a malloc). Such a free stays in the forward sweep, so
/// deferring another free of the block would free it twice.
static bool mayBeFreedThroughMerge(const CallBase &Alloc,
                                   const DominatorTree &DT,
                                   const LoopInfo &Loops) {
  SmallVector<const Value *, 8> Work{&Alloc};
  SmallPtrSet<const Value *, 8> Seen{&Alloc};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (auto *CB = dyn_cast<CallBase>(U)) {
        if (isDeallocationCall(*CB) && CB->arg_size() >= 1 &&
            freedPointer(*CB) == V && getUnderlyingObject(V, 0) != &Alloc &&
            freedAllocation(*CB, DT, Loops) != &Alloc)
          return true;
      } else if ((isa<PHINode>(U) || isa<SelectInst>(U) ||
                  isa<GetElementPtrInst>(U) || isa<CastInst>(U)) &&
                 Seen.insert(U).second) {
        Work.push_back(U);
      }
    }
  }
  return false;
}

/// True if every path from \p Alloc to a return of its function passes a
/// free of the block it returns: the block never outlives the call,
/// whichever way the function goes. Coming back to \p Alloc (the next
/// iteration of its loop) without a free counts as outliving it.
static bool freedOnEveryPath(const CallBase &Alloc, const DominatorTree &DT,
                             const LoopInfo &Loops) {
  SmallPtrSet<const BasicBlock *, 8> FreeBlocks;
  const BasicBlock *AllocBB = Alloc.getParent();
  bool FreedAfterInAllocBB = false;
  for (const Instruction &I : instructions(*Alloc.getFunction()))
    if (const auto *Free = dyn_cast<CallBase>(&I);
        Free && isDeallocationCall(*Free) && Free->arg_size() >= 1 &&
        freedAllocation(*Free, DT, Loops) == &Alloc) {
      if (Free->getParent() != AllocBB)
        FreeBlocks.insert(Free->getParent());
      else if (Alloc.comesBefore(Free))
        FreedAfterInAllocBB = true;
    }
  if (FreedAfterInAllocBB)
    return true;
  SmallVector<const BasicBlock *, 8> Work{AllocBB};
  SmallPtrSet<const BasicBlock *, 16> Seen;
  while (!Work.empty()) {
    const BasicBlock *BB = Work.pop_back_val();
    if (isa<ReturnInst>(BB->getTerminator()))
      return false;
    for (const BasicBlock *Succ : successors(BB)) {
      if (Succ == AllocBB)
        return false;
      if (!FreeBlocks.count(Succ) && Seen.insert(Succ).second)
        Work.push_back(Succ);
    }
  }
  return true;
}

bool isDeferredFree(const CallBase &CB, const DominatorTree &DT,
                    const LoopInfo &Loops) {
  if (!isDeallocationCall(CB) || CB.arg_size() < 1)
    return false;
  CallBase *Alloc = freedAllocation(CB, DT, Loops);
  if (!Alloc)
    return false;
  // A registered allocator's block is replayed only by its deallocator
  // (another free of it is the inlined code of some deallocator, freeing
  // an address that need not be the block's).
  if (std::optional<CustomAllocator> CA =
          customAllocator(*Alloc->getCalledFunction());
      CA && CA->Dealloc != CB.getCalledFunction())
    return false;
  if (mayBeFreedThroughMerge(*Alloc, DT, Loops))
    return false;
  // The reverse sweep frees the block where it undoes the allocation,
  // whichever path the forward sweep took: right if the function frees it
  // on every path, or if nothing else can free it (then a path without a
  // free only leaked it). Not if it may outlive the call on some path
  // (`if (c) free(p); else keep = p;`) or be freed by something else there
  // (a std::map node freed where insertion fails, else linked into the
  // tree, whose destructor frees it): it would be freed twice or used
  // after the reverse freed it.
  if (!freedOnEveryPath(*Alloc, DT, Loops) && !freedOnlyBy(*Alloc, CB))
    return false;
  const Loop *AllocLoop = Loops.getLoopFor(Alloc->getParent());
  if (!AllocLoop)
    return true;
  // Every free of the block in its loop: a free on a path leaving the loop
  // (`if (done) { free(b); break; }` beside the free at the end of the
  // iteration) would free the last block in the forward sweep, which the
  // reverse frees again with the others of its allocation.
  for (const Instruction &I : instructions(*CB.getFunction()))
    if (const auto *Other = dyn_cast<CallBase>(&I);
        Other && isDeallocationCall(*Other) && Other->arg_size() >= 1 &&
        !AllocLoop->contains(Other->getParent()) &&
        freedAllocation(*Other, DT, Loops) == Alloc)
      return false;
  return true;
}

/// The pointer a plain write \p W writes through (a store, or the
/// destination of memset, memcpy and memmove); null for any other write.
static const Value *writtenPointer(const Instruction &W) {
  if (const auto *SI = dyn_cast<StoreInst>(&W))
    return SI->getPointerOperand();
  if (const auto *MI = dyn_cast<AnyMemIntrinsic>(&W))
    return MI->getRawDest();
  return nullptr;
}

/// True if \p A and \p B point into objects that are all distinct from
/// each other: every pair of their underlying objects (through phis and
/// selects; null, which points to no object, left out) is NoAlias as whole
/// objects. Alias analysis answers MayAlias for a location of unknown size
/// at an offset from a phi of an allocation and null (a std::vector's
/// buffer, `n ? operator new(n * 8) : nullptr`) against a noalias
/// argument, although neither the allocation nor null can be that
/// argument's memory.
static bool pointToDistinctObjects(const Value *A, const Value *B,
                                   AAResults &AA) {
  SmallVector<const Value *, 4> ObjsA, ObjsB;
  getUnderlyingObjects(A, ObjsA, nullptr, /*MaxLookup=*/8);
  getUnderlyingObjects(B, ObjsB, nullptr, /*MaxLookup=*/8);
  auto IsNull = [](const Value *V) { return isa<ConstantPointerNull>(V); };
  for (const Value *OA : ObjsA) {
    if (IsNull(OA))
      continue;
    for (const Value *OB : ObjsB)
      if (!IsNull(OB) && !AA.isNoAlias(MemoryLocation::getBeforeOrAfter(OA),
                                       MemoryLocation::getBeforeOrAfter(OB)))
        return false;
  }
  return true;
}

bool mayOverwrite(Instruction &W, const MemoryLocation &Loc, const Value *Ptr,
                  AAResults &AA) {
  if (!isModSet(AA.getModRefInfo(&W, Loc)))
    return false;
  const Value *WPtr = writtenPointer(W);
  return !WPtr || !pointToDistinctObjects(Ptr, WPtr, AA);
}

TapePlan planTape(Function &F, AAResults &AA, const DominatorTree &DT,
                  const LoopInfo &Loops, ArrayRef<Instruction *> Dropped) {
  TapePlan Plan;
  ++NumTapePlans;
  SmallVector<LoadInst *, 32> Loads;
  SmallVector<Instruction *, 32> Writes;
  for (Instruction &I : instructions(F)) {
    if (auto *LI = dyn_cast<LoadInst>(&I)) {
      if (LI->isSimple())
        Loads.push_back(LI);
    } else if (I.mayWriteToMemory() && !is_contained(Dropped, &I)) {
      // Math functions write only errno, which a reload never reads.
      auto *CB = dyn_cast<CallBase>(&I);
      Function *Callee = CB ? CB->getCalledFunction() : nullptr;
      bool PureBody =
          Callee && !Callee->isDeclaration() && !writesMemory(*Callee);
      if (!CB ||
          (!isDeferredFree(*CB, DT, Loops) &&
           !(findMathFunction(*CB) && !mathWritesMemory(*CB)) && !PureBody))
        Writes.push_back(&I);
    }
  }
  if ((uint64_t)Loads.size() * Writes.size() > MaxAliasQueries) {
    LLVM_DEBUG(dbgs() << "tapestry: tape of " << F.getName() << ": "
                      << Loads.size() << " loads x " << Writes.size()
                      << " writes is past the alias query limit; every "
                         "value needed is taped\n");
    Plan.TooManyQueries = true;
    return Plan;
  }
  for (LoadInst *Load : Loads) {
    MemoryLocation Loc = MemoryLocation::getBeforeOrAfter(
        Load->getPointerOperand(), Load->getAAMetadata());
    // Only writes that can run after the load change what a reload in
    // the reverse sweep would read.
    auto Written = find_if(Writes, [&](Instruction *W) {
      return mayOverwrite(*W, Loc, Load->getPointerOperand(), AA) &&
             isPotentiallyReachable(Load, W, nullptr, &DT, &Loops);
    });
    if (Written == Writes.end())
      Plan.Reloadable.insert(Load);
    else
      Plan.Clobbers[Load] = *Written;
  }
  for (Instruction &I : instructions(F)) {
    auto *CB = dyn_cast<CallBase>(&I);
    Function *Callee = CB ? CB->getCalledFunction() : nullptr;
    if (!Callee || Callee->isDeclaration() || writesMemory(*Callee))
      continue;
    bool Clobbered = false;
    for (Value *A : CB->args()) {
      if (!A->getType()->isPointerTy())
        continue;
      MemoryLocation Loc = MemoryLocation::getBeforeOrAfter(A);
      Clobbered |= any_of(Writes, [&](Instruction *W) {
        return mayOverwrite(*W, Loc, A, AA) &&
               isPotentiallyReachable(CB, W, nullptr, &DT, &Loops);
      });
    }
    if (!Clobbered)
      Plan.Repeatable.insert(CB);
  }
  // A BLAS call writes only its output array; the other calls' later runs
  // count like any write.
  for (Instruction &I : instructions(F)) {
    auto *CB = dyn_cast<CallBase>(&I);
    std::optional<BlasCall> BC = CB ? findBlasCall(*CB) : std::nullopt;
    if (!BC)
      continue;
    BlasArg OutArg = blasOutput(*BC);
    const Value *Out = OutArg == BlasArg::NumArgs
                           ? nullptr
                           : CB->getArgOperand(BC->index(OutArg));
    bool InLoop = Loops.getLoopFor(CB->getParent()) != nullptr;
    for (BlasArg Arg : {BlasArg::A, BlasArg::B, BlasArg::X, BlasArg::Y}) {
      if (!BC->has(Arg))
        continue;
      const Use &U = CB->getArgOperandUse(BC->index(Arg));
      if (U.get() == Out)
        continue;
      MemoryLocation Loc = MemoryLocation::getBeforeOrAfter(U.get());
      bool Clobbered = any_of(Writes, [&](Instruction *W) {
        if (W == CB)
          return InLoop && Out &&
                 !AA.isNoAlias(MemoryLocation::getBeforeOrAfter(Out), Loc);
        return mayOverwrite(*W, Loc, U.get(), AA) &&
               isPotentiallyReachable(CB, W, nullptr, &DT, &Loops);
      });
      if (!Clobbered)
        Plan.UnclobberedBlasOperands.insert(&U);
    }
  }
  NumReloadableLoads += Plan.Reloadable.size();
  NumRepeatableCalls += Plan.Repeatable.size();
  return Plan;
}

void restrictToLocalMemory(TapePlan &Plan) {
  SmallVector<const LoadInst *, 16> Caller;
  for (const LoadInst *Load : Plan.Reloadable) {
    const Value *Obj = getUnderlyingObject(Load->getPointerOperand(), 0);
    bool Local = isa<AllocaInst>(Obj);
    if (auto *CB = dyn_cast<CallBase>(Obj))
      Local = isAllocationCall(*CB) && CB->getFunction() == Load->getFunction();
    if (auto *GV = dyn_cast<GlobalVariable>(Obj))
      Local = GV->isConstant();
    if (!Local)
      Caller.push_back(Load);
  }
  for (const LoadInst *Load : Caller) {
    Plan.Reloadable.erase(Load);
    Plan.Clobbers[Load] = nullptr;
  }
  SmallVector<const Use *, 8> Outside;
  for (const Use *U : Plan.UnclobberedBlasOperands)
    if (!isa<AllocaInst>(getUnderlyingObject(U->get(), 0)))
      Outside.push_back(U);
  for (const Use *U : Outside)
    Plan.UnclobberedBlasOperands.erase(U);
}

bool writesMemory(Function &F) {
  SmallVector<Function *, 8> Work{&F};
  SmallPtrSet<Function *, 8> Seen{&F};
  while (!Work.empty()) {
    Function *Cur = Work.pop_back_val();
    for (Instruction &I : instructions(*Cur)) {
      if (auto *CB = dyn_cast<CallBase>(&I)) {
        Function *Callee = CB->getCalledFunction();
        if (Callee && !Callee->isDeclaration()) {
          if (Seen.insert(Callee).second)
            Work.push_back(Callee);
          continue;
        }
        // Inactive calls write nothing a derivative reads, but for the
        // numbers they read from text (sscanf's %lf, std::cin >> x) and
        // the struct they return through a hidden pointer.
        if ((findMathFunction(*CB) && !mathWritesMemory(*CB)) ||
            (isInactiveCall(*CB) && !writesConstantOutParams(*CB) &&
             !CB->hasStructRetAttr()) ||
            CB->onlyReadsMemory())
          continue;
        return true;
      }
      if (I.mayWriteToMemory() && !isa<AllocaInst>(I)) {
        // Stores to the function's own stack are invisible to callers.
        if (auto *SI = dyn_cast<StoreInst>(&I))
          if (isa<AllocaInst>(getUnderlyingObject(SI->getPointerOperand(), 0)))
            continue;
        if (auto *MI = dyn_cast<MemIntrinsic>(&I))
          if (isa<AllocaInst>(getUnderlyingObject(MI->getDest(), 0)))
            continue;
        return true;
      }
    }
  }
  return false;
}

} // namespace tapestry
