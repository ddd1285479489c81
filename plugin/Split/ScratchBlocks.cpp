//===- ScratchBlocks.cpp - Heap blocks the tape owns ----------------------===//
//
// A heap block the forward half allocates for the reverse (scratch memory
// and its shadow) is left to the reverse to free, which makes the tape
// single-use. planScratchBlocks finds the blocks the tape can own instead
// (the reverse only reads them and zeroes their shadows itself), moving
// their frees to the release so that a replayable reverse may run again,
// and says which block and line prevent it otherwise (Split/Splitter.h).
//
//===----------------------------------------------------------------------===//
#include "Split/Splitter.h"

#include "Core/AllocationFunctions.h"
#include "Core/Diagnostics.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"
#include <optional>

using namespace llvm::PatternMatch;

namespace tapestry {
namespace split_detail {

namespace {
/// How a function uses a heap block: through which instructions it reads,
/// writes and frees it, and whether its address escapes.
struct BlockUses {
  SmallVector<Instruction *, 8> Writes;
  SmallVector<CallBase *, 2> Deallocs;
  bool Escapes = false;
};
} // namespace

/// True if the address of \p Slot is only loaded from and stored to.
static bool onlyLoadedAndStored(const AllocaInst &Slot) {
  return all_of(Slot.users(), [&](const User *U) {
    if (auto *SI = dyn_cast<StoreInst>(U))
      return SI->getPointerOperand() == &Slot && SI->getValueOperand() != &Slot;
    if (auto *II = dyn_cast<IntrinsicInst>(U))
      return II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II);
    return isa<LoadInst>(U);
  });
}

/// The uses of the block at \p Base (and of the addresses computed from it),
/// leaving out the calls in \p Ignore.
static BlockUses blockUses(Value *Base,
                           const SmallPtrSetImpl<const CallInst *> &Ignore,
                           function_ref<bool(const Value *)> KeptByTape) {
  BlockUses Out;
  SmallVector<Value *, 8> Work{Base};
  SmallPtrSet<Value *, 16> Seen{Base};
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    for (User *U : V->users()) {
      auto *I = dyn_cast<Instruction>(U);
      if (!I)
        continue;
      if (isa<GetElementPtrInst>(I) || isa<BitCastInst>(I) ||
          isa<AddrSpaceCastInst>(I) || isa<PHINode>(I) || isa<SelectInst>(I)) {
        if (Seen.insert(I).second)
          Work.push_back(I);
        continue;
      }
      if (isa<LoadInst>(I) || isa<ICmpInst>(I) || isa<PtrToIntInst>(I))
        continue;
      if (auto *SI = dyn_cast<StoreInst>(I)) {
        if (SI->getValueOperand() != V)
          Out.Writes.push_back(SI);
        else if (auto *Slot = dyn_cast<AllocaInst>(SI->getPointerOperand());
                 Slot && onlyLoadedAndStored(*Slot)) {
          // Kept in a local variable: the address goes on in its loads.
          for (User *SU : Slot->users())
            if (isa<LoadInst>(SU) && Seen.insert(SU).second)
              Work.push_back(SU);
        } else if (!KeptByTape(SI->getPointerOperand())) {
          Out.Escapes = true;
        }
        continue;
      }
      if (auto *II = dyn_cast<IntrinsicInst>(I))
        if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II))
          continue;
      if (auto *MI = dyn_cast<MemIntrinsic>(I)) {
        if (MI->getRawDest() == V)
          Out.Writes.push_back(MI);
        continue;
      }
      if (auto *CB = dyn_cast<CallBase>(I)) {
        if (auto *CI = dyn_cast<CallInst>(CB); CI && Ignore.count(CI))
          continue;
        if (isDeallocationCall(*CB)) {
          Out.Deallocs.push_back(CB);
          continue;
        }
        bool Writes = false;
        for (unsigned A = 0; A < CB->arg_size(); ++A)
          if (CB->getArgOperand(A) == V) {
            Out.Escapes |= !CB->doesNotCapture(A);
            Writes |= !CB->onlyReadsMemory(A);
          }
        if (Writes && !CB->onlyReadsMemory())
          Out.Writes.push_back(CB);
        continue;
      }
      Out.Escapes = true;
    }
  }
  return Out;
}

/// ", line N" for an instruction with a source location, else nothing.
static std::string lineSuffix(const Instruction &I) {
  if (const DebugLoc &DL = I.getDebugLoc(); DL && DL.getLine())
    return ", line " + std::to_string(DL.getLine());
  return "";
}

/// A heap block the forward half allocates and leaves to the reverse
/// (SweepBoundary::ScratchBlocks) becomes the tape's when
///   - the reverse gives back this one block and its shadow, or one per
///     iteration of a loop that the forward half links into a list
///     (Synthesis/LoopBlockLists.h);
///   - neither address escapes, and only the reverse frees them;
///   - the reverse does not write the block, so that a second reverse reads
///     what the forward half left;
///   - the forward half writes nothing into the shadow but the zeros it
///     starts with: the reverse zeroes it again before it starts, and so
///     finds it as the forward half left it, however often it runs.
/// Its frees then move from the reverse to the release.
void Splitter::planScratchBlocks() {
  DominatorTree DT;
  std::optional<LoopInfo> Loops;
  for (const SweepBoundary::ScratchBlock &Scratch : SB.ScratchBlocks) {
    auto *Block = Scratch.Block;
    auto *Shadow = dyn_cast_or_null<Instruction>(Scratch.Shadow);
    if (!Block || !Shadow || inReverse(Block) || inReverse(Shadow))
      continue;
    SmallPtrSet<const CallInst *, 4> Frees(Scratch.Frees.begin(),
                                           Scratch.Frees.end());
    // The reverse frees the block and its shadow as the forward half
    // computed them, or as it recorded them.
    auto IsRecord = [&](Value *V, AllocaInst *Slot) {
      auto *Ld = dyn_cast<LoadInst>(V);
      return Slot && Ld && Ld->getPointerOperand() == Slot;
    };
    auto IsBlock = [&](Value *V) {
      return Scratch.BlockSlot ? IsRecord(V, Scratch.BlockSlot)
                               : V == Block && Crossing.count(Block);
    };
    auto IsShadow = [&](Value *V) {
      return Scratch.ShadowSlot ? IsRecord(V, Scratch.ShadowSlot)
                                : V == Shadow && Crossing.count(Shadow);
    };
    bool Direct = all_of(Scratch.Frees, [&](CallInst *CI) {
      if (!isDeallocationCall(*CI))
        return IsShadow(CI->getArgOperand(0));
      // The release frees with the same constant arguments, or calls the
      // unsized operator delete where the size is known only at run time.
      for (unsigned A = 0; A < CI->arg_size(); ++A)
        if (A != freedOperandIndex(*CI) &&
            !isa<Constant>(CI->getArgOperand(A)) &&
            !isCxxHeapFunction(*CI->getCalledFunction()))
          return false;
      Value *Freed = freedPointer(*CI);
      return IsBlock(Freed) || IsShadow(Freed);
    });
    // Stored only where the tape keeps it: in the block's record, or in a
    // loop's record array (a pointer recorded per iteration).
    auto KeptByTape = [&](const Value *To) {
      if (To == Scratch.BlockSlot || To == Scratch.ShadowSlot)
        return true;
      auto *Array = dyn_cast<LoadInst>(getUnderlyingObject(To));
      return Array &&
             is_contained(SB.RecordStates,
                          getUnderlyingObject(Array->getPointerOperand()));
    };
    // The forward half's link into the list of blocks allocated in loops
    // keeps the addresses where the tape does.
    SmallPtrSet<const CallInst *, 4> Ignore(Frees.begin(), Frees.end());
    if (Scratch.Link)
      Ignore.insert(Scratch.Link);
    BlockUses BU = blockUses(Block, Ignore, KeptByTape),
              SU = blockUses(Shadow, Ignore, KeptByTape);
    auto Written =
        find_if(BU.Writes, [&](Instruction *I) { return inReverse(I); });
    if (Written != BU.Writes.end()) {
      std::string How = "it writes there";
      if (auto *Call = dyn_cast<CallBase>(*Written))
        if (Function *Callee = Call->getCalledFunction()) {
          // A callee's derivative is named after the callee.
          auto [Base, Rest] = Callee->getName().split(".tapestry.");
          Function *Primal = Rest.empty() ? nullptr : M.getFunction(Base);
          How = "it passes it to " +
                (Primal ? "the reverse of '" + sourceName(*Primal) + "'"
                        : "'" + sourceName(*Callee) + "'") +
                ", which may write it";
        }
      if (ScratchWritten.empty())
        ScratchWritten = "its reverse sweep may write a heap block that the "
                         "forward half allocated (" +
                         describe(Block) + lineSuffix(**Written) + ": " + How +
                         "), so that a second reverse would not find what "
                         "the forward half left there";
      for (CallInst *Free : Scratch.Frees)
        ExplainedFrees.insert(Free);
      continue;
    }
    // Why the tape cannot own it, in source terms (the first such block
    // only: one is enough to say what to change).
    auto Unowned = [&](StringRef What, StringRef Change) {
      if (ScratchUnowned.empty())
        ScratchUnowned = ("its reverse sweep frees " + describe(Block) +
                          ", a heap block " + What +
                          ", and its shadow, so that a second reverse would "
                          "not find them: the tape owns only heap blocks "
                          "that the function frees itself, at its end or at "
                          "the end of the loop iteration that allocated "
                          "them, and whose address it keeps in local "
                          "variables; " +
                          Change)
                             .str();
      for (CallInst *Free : Scratch.Frees)
        ExplainedFrees.insert(Free);
      UnownedShadows.insert(Shadow);
    };
    // The reverse finds a block allocated in a loop (one per iteration) in
    // a record array, not as the forward half's value. (One allocated on
    // some paths only is recorded: ScratchBlock::BlockSlot.)
    bool Reloaded =
        !Scratch.BlockSlot && any_of(Scratch.Frees, [&](CallInst *CI) {
          Value *Freed = isDeallocationCall(*CI) ? freedPointer(*CI)
                                                 : CI->getArgOperand(0);
          return Freed != Block && Freed != Shadow;
        });
    if (Reloaded) {
      if (!Loops) {
        DT.recalculate(G);
        Loops.emplace(DT);
      }
      if (!Loops->getLoopFor(Block->getParent()))
        continue;
      // Linked into a list as the forward half allocates them (one per
      // iteration), the blocks are the tape's like a single one: the
      // reverse zeroes their shadows through the list, the release frees
      // them through it.
      bool ShadowZeroOnly = all_of(SU.Writes, [&](Instruction *W) {
        auto *Set = dyn_cast<MemSetInst>(W);
        return inReverse(W) || (Set && Set->getRawDest() == Shadow &&
                                match(Set->getValue(), m_Zero()));
      });
      if (Scratch.ListHead && !BU.Escapes && !SU.Escapes &&
          BU.Deallocs.empty() && SU.Deallocs.empty() && ShadowZeroOnly &&
          heapFunction(*Block)) {
        OwnedBlocks.push_back({&Scratch, {}});
        OwnedFrees.insert(Frees.begin(), Frees.end());
        continue;
      }
      if (BU.Escapes || SU.Escapes)
        Unowned("allocated inside a loop (one per iteration), whose address "
                "is stored or passed where it may be kept",
                "keep its address in local variables only");
      else
        Unowned("allocated inside a loop (one per iteration)",
                "allocate it once, before the loop, with the largest size "
                "it needs, and reuse it in each iteration");
      continue;
    }
    // realloc (lowered to malloc, copy and free: PrimalPreparation)
    // replaces the block; its address is also passed to malloc_usable_size,
    // which would read as "passed where it may be kept".
    if (any_of(Block->users(), [](const User *U) {
          auto *CI = dyn_cast<CallInst>(U);
          return CI && CI->hasMetadata("tapestry.realloc");
        })) {
      Unowned("that realloc replaces by a new one (the old block's free "
              "waits for the reverse sweep)",
              "allocate it once with the largest size it needs (malloc) "
              "instead of growing it with realloc");
      continue;
    }
    if (BU.Escapes || SU.Escapes) {
      Unowned("whose address is stored or passed where it may be kept",
              "keep its address in local variables only");
      continue;
    }
    if (!BU.Deallocs.empty() || !SU.Deallocs.empty()) {
      Unowned("that the function frees before its end",
              "free it once, at the end of the function");
      continue;
    }
    // Freed through another call shape (a sized delete with a size known
    // only at run time): the generic reason of checkReplayable stands.
    if (!Direct)
      continue;
    SmallVector<Value *, 2> Bytes;
    // A recorded shadow's size is recorded beside it.
    if (Scratch.BytesSlot) {
      if (all_of(SU.Writes, [&](Instruction *W) {
            auto *Set = dyn_cast<MemSetInst>(W);
            return inReverse(W) || (Set && Set->getRawDest() == Shadow &&
                                    match(Set->getValue(), m_Zero()));
          })) {
        OwnedBlocks.push_back({&Scratch, {}});
        OwnedFrees.insert(Frees.begin(), Frees.end());
      }
      continue;
    }
    // A shadow from calloc starts zeroed; one from malloc is then zeroed.
    if (auto *Alloc = dyn_cast<CallBase>(Shadow))
      if (Function *Fn = Alloc->getCalledFunction();
          Fn && Fn->getName() == "calloc" && Alloc->arg_size() == 2)
        Bytes.append({Alloc->getArgOperand(0), Alloc->getArgOperand(1)});
    bool Clean = true;
    for (Instruction *W : SU.Writes) {
      if (inReverse(W))
        continue;
      auto *Set = dyn_cast<MemSetInst>(W);
      if (Set && Set->getRawDest() == Shadow && Bytes.empty() &&
          match(Set->getValue(), m_Zero()))
        Bytes.push_back(Set->getLength());
      else
        Clean = false;
    }
    if (!Clean || Bytes.empty())
      continue;
    for (Value *Factor : Bytes)
      if (auto *I = dyn_cast<Instruction>(Factor))
        Crossing.insert({I, -1});
    OwnedBlocks.push_back({&Scratch, Bytes});
    OwnedFrees.insert(Frees.begin(), Frees.end());
  }
}

} // namespace split_detail
} // namespace tapestry
