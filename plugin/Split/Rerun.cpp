//===- Rerun.cpp - Can a function run again on what it left behind? -------===//
//
// whyRerunMayDiffer (Split/Rerun.h) walks the function and, conservatively,
// names the first reason a second run could read other values than the
// first: a store into memory the function also reads (an in-place update),
// a free of memory it did not allocate, a call whose effects it cannot
// see, or arguments that alias. Passes/SplitCallSites.cpp turns the reason
// into __enzyme_fwdsplit's error.
//
//===----------------------------------------------------------------------===//
#include "Split/Rerun.h"

#include "Analysis/ActivityAnalysis.h"
#include "Core/AllocationFunctions.h"
#include "Core/Diagnostics.h"
#include "Core/KnownInactive.h"
#include "Core/MathFunctions.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace tapestry {

namespace {

/// A root is the memory an access may touch, named by where the top
/// function gets it: one of its arguments or a global (memory reachable
/// through pointers stored there included). Null stands for memory that
/// cannot be traced. The function's own stack and heap blocks are no root.
using Root = const Value *;
using RootSet = SmallPtrSet<Root, 8>;

class RerunAnalysis {
public:
  std::optional<std::string> run(const Function &F, ArrayRef<Value *> Args);

private:
  using ArgMap = DenseMap<const Argument *, RootSet>;
  void walk(const Function &F, const ArgMap &Map, unsigned Depth);
  void rootsOf(const Value *Ptr, const ArgMap &Map, RootSet &Out,
               unsigned Depth = 0);
  /// The roots of the pointers stored into the function's own object
  /// \p Obj (a local variable holding a parameter at -O0, say).
  void storedRoots(const Value *Obj, const ArgMap &Map, RootSet &Out,
                   unsigned Depth);
  static bool isOwnMemory(const Value *O);
  void access(const Value *Ptr, const ArgMap &Map, bool Write) {
    RootSet R;
    rootsOf(Ptr, Map, R);
    (Write ? Writes : Reads).insert(R.begin(), R.end());
  }
  std::string rootName(Root R) const;

  RootSet Reads, Writes;
  std::optional<std::string> Problem;
  SmallPtrSet<const Function *, 8> Active;
};

} // namespace

void RerunAnalysis::rootsOf(const Value *Ptr, const ArgMap &Map, RootSet &Out,
                            unsigned Depth) {
  if (Depth > 8) {
    Out.insert(nullptr);
    return;
  }
  SmallVector<const Value *, 4> Objs;
  getUnderlyingObjects(Ptr, Objs);
  for (const Value *O : Objs) {
    if (auto *A = dyn_cast<Argument>(O)) {
      auto It = Map.find(A);
      if (It == Map.end())
        Out.insert(nullptr);
      else
        Out.insert(It->second.begin(), It->second.end());
    } else if (auto *GV = dyn_cast<GlobalVariable>(O)) {
      if (!GV->isConstant())
        Out.insert(GV);
    } else if (isOwnMemory(O)) {
      // Its own stack or heap: fresh in every run.
    } else if (auto *LI = dyn_cast<LoadInst>(O)) {
      // A pointer read from memory: from its own memory, one of the
      // pointers stored there; else memory reachable from that memory.
      SmallVector<const Value *, 4> Holders;
      getUnderlyingObjects(LI->getPointerOperand(), Holders);
      for (const Value *H : Holders) {
        if (isOwnMemory(H))
          storedRoots(H, Map, Out, Depth + 1);
        else
          rootsOf(H, Map, Out, Depth + 1);
      }
    } else if (!isa<ConstantPointerNull>(O) && !isa<UndefValue>(O)) {
      Out.insert(nullptr);
    }
  }
}

bool RerunAnalysis::isOwnMemory(const Value *O) {
  auto *CB = dyn_cast<CallBase>(O);
  return isa<AllocaInst>(O) || (CB && isAllocationCall(*CB));
}

void RerunAnalysis::storedRoots(const Value *Obj, const ArgMap &Map,
                                RootSet &Out, unsigned Depth) {
  SmallVector<const Value *, 8> Work{Obj};
  SmallPtrSet<const Value *, 8> Seen{Obj};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (isa<GetElementPtrInst>(U) || isa<BitCastInst>(U)) {
        if (Seen.insert(U).second)
          Work.push_back(U);
      } else if (auto *SI = dyn_cast<StoreInst>(U)) {
        if (SI->getValueOperand() == V)
          Out.insert(nullptr); // its address escapes: anything may be there
        else if (SI->getValueOperand()->getType()->isPointerTy())
          rootsOf(SI->getValueOperand(), Map, Out, Depth);
      } else if (auto *II = dyn_cast<IntrinsicInst>(U);
                 isa<LoadInst>(U) || isa<DbgInfoIntrinsic>(U) ||
                 (II && II->isLifetimeStartOrEnd())) {
      } else if (auto *CB = dyn_cast<CallBase>(U);
                 CB && isDeallocationCall(*CB)) {
      } else {
        Out.insert(nullptr); // filled or read by code not followed here
      }
    }
  }
}

void RerunAnalysis::walk(const Function &F, const ArgMap &Map, unsigned Depth) {
  if (!Active.insert(&F).second)
    return; // recursion: the first visit covers its accesses
  for (const Instruction &I : instructions(F)) {
    if (Problem)
      return;
    if (auto *LI = dyn_cast<LoadInst>(&I)) {
      access(LI->getPointerOperand(), Map, false);
    } else if (auto *SI = dyn_cast<StoreInst>(&I)) {
      access(SI->getPointerOperand(), Map, true);
    } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
      access(RMW->getPointerOperand(), Map, false);
      access(RMW->getPointerOperand(), Map, true);
    } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
      access(CX->getPointerOperand(), Map, false);
      access(CX->getPointerOperand(), Map, true);
    } else if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
      access(MI->getDest(), Map, true);
      if (auto *MT = dyn_cast<MemTransferInst>(MI))
        access(MT->getSource(), Map, false);
    } else if (auto *CB = dyn_cast<CallBase>(&I)) {
      if (isa<DbgInfoIntrinsic>(CB) || CB->doesNotAccessMemory() ||
          isAllocationCall(*CB))
        continue;
      if (auto *II = dyn_cast<IntrinsicInst>(CB))
        if (II->isLifetimeStartOrEnd() || II->isAssumeLikeIntrinsic())
          continue;
      const Function *Callee = CB->getCalledFunction();
      std::string CalleeName =
          Callee ? "'" + sourceIdentifier(*Callee) + "'" : "a function pointer";
      if (Callee && !Callee->isDeclaration() && Depth < 16) {
        ArgMap Inner;
        for (unsigned J = 0; J < CB->arg_size() && J < Callee->arg_size(); ++J)
          if (CB->getArgOperand(J)->getType()->isPointerTy())
            rootsOf(CB->getArgOperand(J), Map, Inner[Callee->getArg(J)]);
        walk(*Callee, Inner, Depth + 1);
        continue;
      }
      if (isDeallocationCall(*CB)) {
        RootSet R;
        rootsOf(freedPointer(*CB), Map, R);
        if (!R.empty())
          Problem = "it frees memory it did not allocate (" +
                    rootName(*R.begin()) +
                    "), which a second run would free "
                    "again";
        continue;
      }
      if (findMathFunction(*CB) ||
          (Callee && isKnownInactiveFunction(Callee->getName())))
        continue; // errno, output streams: nothing the values depend on
      bool PointerArgs = false;
      for (const Use &U : CB->args())
        PointerArgs |= U->getType()->isPointerTy();
      if (CB->onlyReadsMemory() || CB->onlyAccessesArgMemory() ||
          (CB->onlyWritesMemory() && !PointerArgs)) {
        for (unsigned J = 0; J < CB->arg_size(); ++J) {
          const Value *A = CB->getArgOperand(J);
          if (!A->getType()->isPointerTy())
            continue;
          access(A, Map, false);
          if (!CB->onlyReadsMemory() && !CB->onlyReadsMemory(J))
            access(A, Map, true);
        }
        continue;
      }
      Problem = "it calls " + CalleeName +
                ", whose effects on memory Tapestry cannot see";
    }
  }
  Active.erase(&F);
}

/// A parameter's name in the source: its IR name, else its debug variable's.
static std::string paramName(const Argument &A) {
  if (A.hasName())
    return A.getName().str();
  unsigned No = A.getArgNo() + 1;
  for (const Instruction &I : instructions(*A.getParent())) {
    for (const DbgVariableRecord &R : filterDbgVars(I.getDbgRecordRange()))
      if (R.getVariable()->getArg() == No)
        return R.getVariable()->getName().str();
    if (auto *DI = dyn_cast<DbgVariableIntrinsic>(&I))
      if (DI->getVariable()->getArg() == No)
        return DI->getVariable()->getName().str();
  }
  return "";
}

/// The object a call-site value points into, through locals stored once
/// (how code not yet optimised holds its parameters).
static const Value *objectAtCall(const Value *V) {
  for (unsigned Depth = 0; Depth < 4; ++Depth) {
    V = getUnderlyingObject(V);
    auto *LI = dyn_cast<LoadInst>(V);
    auto *AI =
        LI ? dyn_cast<AllocaInst>(getUnderlyingObject(LI->getPointerOperand()))
           : nullptr;
    if (!AI)
      return V;
    const StoreInst *Only = nullptr;
    for (const User *U : AI->users())
      if (auto *SI = dyn_cast<StoreInst>(U)) {
        if (Only || SI->getPointerOperand() != AI)
          return V;
        Only = SI;
      }
    if (!Only)
      return V;
    V = Only->getValueOperand();
  }
  return V;
}

std::string RerunAnalysis::rootName(Root R) const {
  if (!R)
    return "memory reached through a pointer Tapestry cannot trace";
  if (auto *A = dyn_cast<Argument>(R)) {
    std::string Name = paramName(*A);
    return "parameter " + std::to_string(A->getArgNo() + 1) +
           (Name.empty() ? "" : " '" + Name + "'");
  }
  return "the global '" + R->getName().str() + "'";
}

std::optional<std::string> RerunAnalysis::run(const Function &F,
                                              ArrayRef<Value *> Args) {
  ArgMap Map;
  for (const Argument &A : F.args())
    if (A.getType()->isPointerTy())
      Map[&A].insert(&A);
  walk(F, Map, 0);
  if (Problem)
    return Problem;
  for (Root W : Writes)
    if (Reads.count(W))
      return "it reads memory it also writes (" + rootName(W) + ")";
  // Different parameters given the same memory at the call.
  auto ObjectAtCall = [&](Root R) -> const Value * {
    if (auto *A = dyn_cast_or_null<Argument>(R))
      return A->getArgNo() < Args.size() && Args[A->getArgNo()]
                 ? objectAtCall(Args[A->getArgNo()])
                 : nullptr;
    return R;
  };
  for (Root W : Writes)
    for (Root R : Reads)
      if (W && R && W != R && ObjectAtCall(W) &&
          ObjectAtCall(W) == ObjectAtCall(R))
        return "the call passes the same memory as " + rootName(W) +
               ", which it writes, and " + rootName(R) + ", which it reads";
  return std::nullopt;
}

std::optional<std::string> whyRerunMayDiffer(const Function &F,
                                             ArrayRef<Value *> CallArgs) {
  return RerunAnalysis().run(F, CallArgs);
}

} // namespace tapestry
