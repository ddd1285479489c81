//===- PlainHeapBlocks.cpp - Heap blocks no derivative enters -------------===//
//
// Implements PlainHeapBlocks.h. From each allocation, BlockGroup collects
// the pointers that may point into the same blocks, forward through their
// uses and backward through phis, selects and copies, so that blocks merged
// by a phi (a record array and its grown copy) are decided together; then
// checks that each integer stored into them is free of floating-point bits.
//
//===----------------------------------------------------------------------===//
#include "Analysis/PlainHeapBlocks.h"

#include "Core/AllocationFunctions.h"
#include "Core/KnownInactive.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

#define DEBUG_TYPE "tapestry"

using namespace llvm;

STATISTIC(NumPlainHeapBlocks,
          "Allocations holding only integers, left without a shadow");

namespace tapestry {

namespace {

/// The pointers into the blocks of one or more allocations, and whether
/// everything done with them is known.
class BlockGroup {
public:
  explicit BlockGroup(const CallBase &Alloc) { add(&Alloc); }

  /// True if the group's blocks hold only integers free of floating-point
  /// bits; \p Allocs then lists its allocation calls.
  bool isPlain() {
    while (!Work.empty() && Known) {
      const Value *V = Work.pop_back_val();
      defined(V);
      used(V);
    }
    return Known &&
           all_of(Stored, [&](const Value *V) { return carriesNoFloat(V); });
  }

  SmallVector<const CallBase *, 2> Allocs;

private:
  void add(const Value *V) {
    if (isa<ConstantPointerNull>(V) || isa<UndefValue>(V))
      return;
    if (Members.insert(V).second)
      Work.push_back(V);
  }

  /// Where \p V comes from: one of the group's allocations, or an address
  /// computed from members.
  void defined(const Value *V) {
    if (auto *CB = dyn_cast<CallBase>(V)) {
      std::optional<HeapFunction> HF = heapFunction(*CB);
      Known &= isAllocationCall(*CB) && HF && *HF != HeapFunction::Realloc &&
               *HF != HeapFunction::PosixMemalign;
      if (Known)
        Allocs.push_back(CB);
    } else if (auto *GEP = dyn_cast<GetElementPtrInst>(V)) {
      add(GEP->getPointerOperand());
    } else if (auto *Phi = dyn_cast<PHINode>(V)) {
      for (const Value *In : Phi->incoming_values())
        add(In);
    } else if (auto *Sel = dyn_cast<SelectInst>(V)) {
      add(Sel->getTrueValue());
      add(Sel->getFalseValue());
    } else {
      Known = false;
    }
  }

  /// What is done with \p V.
  void used(const Value *V) {
    for (const Use &U : V->uses()) {
      const User *Usr = U.getUser();
      if (auto *GEP = dyn_cast<GetElementPtrInst>(Usr)) {
        Known &= U.getOperandNo() == 0 && GEP->getType()->isPointerTy();
        add(GEP);
      } else if (isa<PHINode>(Usr)) {
        add(Usr);
      } else if (isa<SelectInst>(Usr)) {
        Known &= U.getOperandNo() != 0;
        add(Usr);
      } else if (isa<ICmpInst>(Usr)) {
        continue;
      } else if (auto *LI = dyn_cast<LoadInst>(Usr)) {
        Known &= LI->getType()->isIntOrIntVectorTy() || isVTableLoad(*LI);
      } else if (auto *SI = dyn_cast<StoreInst>(Usr)) {
        Known &= U.getOperandNo() == StoreInst::getPointerOperandIndex() &&
                 SI->getValueOperand()->getType()->isIntOrIntVectorTy();
        Stored.push_back(SI->getValueOperand());
      } else if (auto *CB = dyn_cast<CallBase>(Usr)) {
        Known &= knownCall(*CB, U);
      } else {
        Known = false;
      }
      if (!Known)
        return;
    }
  }

  /// True if \p LI reads a library object's virtual table: a pointer
  /// whose only use is to read function pointers from it (at constant
  /// offsets), each only called, with arguments that carry no derivative
  /// (virtualCall).
  bool isVTableLoad(const LoadInst &LI) {
    if (!LI.getType()->isPointerTy())
      return false;
    SmallVector<const Value *, 4> Slots{&LI};
    for (const User *U : LI.users())
      if (auto *GEP = dyn_cast<GetElementPtrInst>(U);
          GEP && GEP->hasAllConstantIndices() &&
          GEP->getPointerOperand() == &LI)
        Slots.push_back(GEP);
      else if (!isa<LoadInst>(U))
        return false;
    for (const Value *Slot : Slots)
      for (const User *U : Slot->users()) {
        if (isa<GetElementPtrInst>(U) && Slot == &LI)
          continue;
        auto *Fn = dyn_cast<LoadInst>(U);
        if (!Fn || Fn->getPointerOperand() != Slot ||
            !Fn->getType()->isPointerTy())
          return false;
        for (const Use &FU : Fn->uses()) {
          // Compared with the functions an indirect call is dispatched
          // over (Synthesis/IndirectCalls.h), whose direct calls are
          // decided as calls.
          if (auto *Cmp = dyn_cast<ICmpInst>(FU.getUser());
              Cmp && Cmp->isEquality() &&
              isa<Function>(Cmp->getOperand(1 - FU.getOperandNo())))
            continue;
          auto *CB = dyn_cast<CallBase>(FU.getUser());
          if (!CB || !CB->isCallee(&FU) || !virtualCall(*CB))
            return false;
        }
      }
    return true;
  }

  /// True if \p CB calls a function read from a virtual table that
  /// isVTableLoad accepts.
  bool calledFromVTable(const CallBase &CB) {
    auto *Fn = dyn_cast<LoadInst>(CB.getCalledOperand());
    if (!Fn)
      return false;
    const Value *Slot = Fn->getPointerOperand();
    if (auto *GEP = dyn_cast<GetElementPtrInst>(Slot);
        GEP && GEP->hasAllConstantIndices())
      Slot = GEP->getPointerOperand();
    auto *Table = dyn_cast<LoadInst>(Slot);
    return Table && isVTableLoad(*Table);
  }

  /// A call of a library object's virtual function (its destructor, a
  /// stream buffer's xsputn): the object's own pointers, and otherwise
  /// only constants and integers free of floating-point bits. The
  /// library's code put the table there (its constructor is inactive), so
  /// what it calls is the library's.
  bool virtualCall(const CallBase &CB) {
    for (const Value *Arg : CB.args()) {
      if (Arg->getType()->isPointerTy()) {
        if (!isa<Constant>(Arg))
          add(Arg);
        continue;
      }
      if (!Arg->getType()->isIntOrIntVectorTy())
        return false;
      Stored.push_back(Arg);
    }
    return CB.getType()->isVoidTy() || CB.getType()->isIntOrIntVectorTy() ||
           CB.getType()->isPointerTy();
  }

  bool knownCall(const CallBase &CB, const Use &U) {
    if (isDeallocationCall(CB))
      return U.getOperandNo() == freedOperandIndex(CB);
    // The object passed to one of its virtual functions.
    if (calledFromVTable(CB))
      return true;
    // A library object (a stream, a file buffer) handed to the library's
    // inactive functions: they keep text and bookkeeping in it, never a
    // derivative (a double printed through it is formatted as text).
    if (const Function *Callee = CB.getCalledFunction();
        Callee && CB.isArgOperand(&U) &&
        isKnownInactiveFunction(Callee->getName()))
      return true;
    if (const Function *Callee = CB.getCalledFunction();
        Callee && Callee->getName() == "malloc_usable_size")
      return true;
    if (auto *MS = dyn_cast<MemSetInst>(&CB))
      return &U == &MS->getRawDestUse() && isa<Constant>(MS->getValue());
    if (auto *MT = dyn_cast<MemTransferInst>(&CB)) {
      if (&U != &MT->getRawDestUse() && &U != &MT->getRawSourceUse())
        return false;
      add(MT->getRawDest());
      add(MT->getRawSource());
      return true;
    }
    if (auto *II = dyn_cast<IntrinsicInst>(&CB))
      return II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II);
    return false;
  }

  /// True if the integer \p V carries no floating-point bits. A value on
  /// a cycle of phis is assumed free while it is being decided: a cycle
  /// adds nothing a value outside it does not bring, and the first false
  /// ends the group's check (isPlain), so no answer built on a failed
  /// assumption is used. Past MaxDepth (a machine-generated chain of
  /// thousands of operations) the answer is false: the block keeps its
  /// shadow, and the recursion its stack.
  bool carriesNoFloat(const Value *V) {
    if (auto It = NoFloat.find(V); It != NoFloat.end())
      return It->second;
    if (Depth >= MaxDepth)
      return false;
    NoFloat[V] = true;
    ++Depth;
    bool R = computeNoFloat(V);
    --Depth;
    NoFloat[V] = R;
    return R;
  }

  bool computeNoFloat(const Value *V) {
    if (isa<ConstantInt>(V) || isa<UndefValue>(V) ||
        isa<ConstantAggregateZero>(V))
      return true;
    if (auto *CDV = dyn_cast<ConstantDataVector>(V))
      return CDV->getElementType()->isIntegerTy();
    if (isa<Argument>(V))
      return V->getType()->isIntOrIntVectorTy();
    if (auto *LI = dyn_cast<LoadInst>(V))
      return Members.count(LI->getPointerOperand());
    if (isa<CmpInst>(V) || isa<FPToSIInst>(V) || isa<FPToUIInst>(V))
      return true;
    if (auto *Phi = dyn_cast<PHINode>(V))
      return all_of(Phi->incoming_values(),
                    [&](const Value *In) { return carriesNoFloat(In); });
    if (auto *Sel = dyn_cast<SelectInst>(V))
      return carriesNoFloat(Sel->getTrueValue()) &&
             carriesNoFloat(Sel->getFalseValue());
    if (isa<BinaryOperator>(V) || isa<FreezeInst>(V) || isa<ZExtInst>(V) ||
        isa<SExtInst>(V) || isa<TruncInst>(V))
      return all_of(cast<User>(V)->operands(),
                    [&](const Value *Op) { return carriesNoFloat(Op); });
    if (auto *BC = dyn_cast<BitCastInst>(V))
      return BC->getSrcTy()->isIntOrIntVectorTy() &&
             carriesNoFloat(BC->getOperand(0));
    if (auto *EE = dyn_cast<ExtractElementInst>(V))
      return carriesNoFloat(EE->getVectorOperand());
    if (auto *IE = dyn_cast<InsertElementInst>(V))
      return carriesNoFloat(IE->getOperand(0)) &&
             carriesNoFloat(IE->getOperand(1));
    if (auto *SV = dyn_cast<ShuffleVectorInst>(V))
      return carriesNoFloat(SV->getOperand(0)) &&
             carriesNoFloat(SV->getOperand(1));
    if (auto *II = dyn_cast<IntrinsicInst>(V))
      switch (II->getIntrinsicID()) {
      case Intrinsic::smax:
      case Intrinsic::smin:
      case Intrinsic::umax:
      case Intrinsic::umin:
      case Intrinsic::abs:
      case Intrinsic::ctpop:
      case Intrinsic::ctlz:
      case Intrinsic::cttz:
        return carriesNoFloat(II->getArgOperand(0)) &&
               (II->arg_size() < 2 ||
                !II->getArgOperand(1)->getType()->isIntOrIntVectorTy() ||
                carriesNoFloat(II->getArgOperand(1)));
      default:
        return false;
      }
    return false;
  }

  SmallPtrSet<const Value *, 16> Members;
  SmallVector<const Value *, 16> Work;
  SmallVector<const Value *, 8> Stored;
  DenseMap<const Value *, bool> NoFloat;
  static constexpr unsigned MaxDepth = 256;
  unsigned Depth = 0;
  bool Known = true;
};

} // namespace

SmallPtrSet<const CallBase *, 4> findPlainHeapBlocks(const Function &F) {
  SmallPtrSet<const CallBase *, 4> Plain, Decided;
  for (const Instruction &I : instructions(F)) {
    auto *CB = dyn_cast<CallBase>(&I);
    if (!CB || Decided.count(CB) || !isAllocationCall(*CB) ||
        !CB->getType()->isPointerTy())
      continue;
    BlockGroup G(*CB);
    bool IsPlain = G.isPlain();
    Decided.insert(CB);
    Decided.insert(G.Allocs.begin(), G.Allocs.end());
    if (IsPlain)
      Plain.insert(G.Allocs.begin(), G.Allocs.end());
  }
  NumPlainHeapBlocks += Plain.size();
  return Plain;
}

} // namespace tapestry
