//===- EscapedShadows.cpp - Shadowed memory other files reach -------------===//
//
// Implements EscapedShadows.h with llvm::PointerMayBeCaptured and a
// CaptureTracker that decides, capture by capture, whether the address
// becomes reachable from another file.
//
//===----------------------------------------------------------------------===//
#include "Analysis/EscapedShadows.h"
#include "Analysis/ActivityAnalysis.h"
#include "Analysis/GlobalShadows.h"
#include "Core/AllocationFunctions.h"
#include "Core/EntryPoints.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

#define DEBUG_TYPE "tapestry-escaped-shadows"

using namespace llvm;

namespace tapestry {

namespace {

/// How deep stores into other local objects and calls of functions with a
/// body are followed.
constexpr unsigned MaxDepth = 3;
/// How many uses of one address capture tracking follows (LLVM's default,
/// 100, is reached by a long unrolled kernel).
constexpr unsigned MaxUsesToExplore = 4096;

/// The functions without a body Tapestry knows do not reach memory behind
/// its back: the C and C++ library (through their arguments only), the
/// language and OpenMP runtimes, MPI, Tapestry's and Enzyme's own.
bool isKnownExternal(const Function &F) {
  static const TargetLibraryInfoImpl Library;
  LibFunc LF;
  if (F.isIntrinsic() || Library.getLibFunc(F, LF) ||
      classifyEntryPoint(F.getName()) != EntryPoint::None)
    return true;
  StringRef Name = F.getName();
  if (Name == "malloc_usable_size") // lowered realloc (PrimalPreparation)
    return true;
  for (StringRef Prefix : {"__cxa_", "_Unwind_", "__gxx_", "__kmpc_", "omp_",
                           "MPI_", "PMPI_", "__tapestry", "tapestry_",
                           "tapestry.", "__enzyme", "__assert", "__stack_chk"})
    if (Name.starts_with(Prefix))
      return true;
  return false;
}

/// Where an address escapes: the capture that makes it reachable, or
/// nothing.
class EscapeFinder {
public:
  /// The instruction after which \p Object's address is reachable from
  /// another file, \p Found false if it is not.
  const Instruction *escape(const Value *Object, unsigned Depth, bool &Found);

private:
  SmallPtrSet<const Value *, 8> Visiting;
};

class EscapeTracker : public CaptureTracker {
public:
  EscapeTracker(EscapeFinder &Finder, unsigned Depth)
      : Finder(Finder), Depth(Depth) {}

  void tooManyUses() override { Found = TooManyUses = true; }
  bool captured(const Use *U) override;

  const Instruction *Where = nullptr;
  bool Found = false;
  bool TooManyUses = false;

private:
  /// True if the integer \p Address (a ptrtoint) may be stored or passed
  /// on: arithmetic on it and comparisons (an alignment test) are not, a
  /// pointer made from it again is followed.
  bool integerEscapes(const Instruction &Address);
  bool escapesThrough(const Value *Object) {
    bool Nested = false;
    Finder.escape(Object, Depth + 1, Nested);
    return Nested;
  }
  bool escapesInCallee(const CallBase &CB, unsigned ArgNo);
  bool escapesByReturn(const ReturnInst &RI);

  EscapeFinder &Finder;
  unsigned Depth;
};

bool EscapeTracker::escapesInCallee(const CallBase &CB, unsigned ArgNo) {
  const Function *Callee = CB.getCalledFunction();
  if (!Callee || Callee->isDeclaration() || Callee->isVarArg() ||
      ArgNo >= Callee->arg_size())
    return true;
  return escapesThrough(Callee->getArg(ArgNo));
}

/// A global's address returned by a function another file may call (one
/// that is not file-local, or whose address is taken: an accessor, review29
/// m04) is reachable from there; returned by a file-local function, it goes
/// where the results of its calls go. Any other object returned goes back to
/// the caller, whose uses of it are followed already.
bool EscapeTracker::escapesByReturn(const ReturnInst &RI) {
  const Value *Returned = RI.getReturnValue();
  if (!Returned || !isa<GlobalVariable>(getUnderlyingObject(Returned)))
    return false;
  const Function &Fn = *RI.getFunction();
  if (!Fn.hasLocalLinkage() || Fn.hasAddressTaken())
    return true;
  for (const User *U : Fn.users())
    if (const auto *CB = dyn_cast<CallBase>(U); CB && escapesThrough(CB))
      return true;
  return false;
}

bool EscapeTracker::integerEscapes(const Instruction &Address) {
  SmallVector<const Value *, 8> Work{&Address};
  SmallPtrSet<const Value *, 8> Seen{&Address};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (isa<ICmpInst>(U))
        continue;
      if (isa<IntToPtrInst>(U)) {
        if (escapesThrough(U))
          return true;
        continue;
      }
      if (!isa<BinaryOperator>(U) && !isa<CastInst>(U) && !isa<PHINode>(U) &&
          !isa<SelectInst>(U) && !isa<FreezeInst>(U))
        return true;
      if (Seen.insert(U).second)
        Work.push_back(U);
    }
  }
  return false;
}

bool EscapeTracker::captured(const Use *U) {
  const auto *I = dyn_cast<Instruction>(U->getUser());
  bool Escapes = true;
  if (!I) {
    // A constant address computed from it (a static array's element at a
    // constant index): where that goes.
    const auto *CE = dyn_cast<ConstantExpr>(U->getUser());
    Escapes = !CE || escapesThrough(CE);
  } else if (const auto *RI = dyn_cast<ReturnInst>(I)) {
    Escapes = escapesByReturn(*RI);
  } else if (isa<ICmpInst>(I)) {
    Escapes = false;
  } else if (const auto *SI = dyn_cast<StoreInst>(I)) {
    const Value *Dest = getUnderlyingObject(SI->getPointerOperand());
    if (isa<Argument>(Dest))
      Escapes = false; // the caller's object: see the header
    else if (isa<AllocaInst>(Dest) ||
             (isa<CallBase>(Dest) && isAllocationCall(*cast<CallBase>(Dest))))
      Escapes = escapesThrough(Dest);
    else if (const auto *GV = dyn_cast<GlobalVariable>(Dest);
             GV && GV->hasLocalLinkage())
      Escapes = escapesThrough(GV); // a static work pointer (review30 p51)
  } else if (const auto *CB = dyn_cast<CallBase>(I);
             CB && CB->isArgOperand(U)) {
    // Library and runtime functions reach memory through their arguments
    // while they run (realloc, printf("%p"), posix_memalign), not later.
    const Function *Callee = CB->getCalledFunction();
    if (isDeallocationCall(*CB) || isa<IntrinsicInst>(CB) ||
        (Callee && Callee->isDeclaration() && isKnownExternal(*Callee)))
      Escapes = false;
    else
      Escapes = escapesInCallee(*CB, CB->getArgOperandNo(U));
  } else if (isa<PtrToIntInst>(I)) {
    Escapes = integerEscapes(*I);
  }
  if (!Escapes)
    return false;
  LLVM_DEBUG(dbgs() << "escapes at " << *U->getUser() << "\n");
  Found = true;
  Where = I;
  return true;
}

const Instruction *EscapeFinder::escape(const Value *Object, unsigned Depth,
                                        bool &Found) {
  Found = false;
  if (Depth > MaxDepth) {
    Found = true;
    return nullptr;
  }
  if (!Visiting.insert(Object).second)
    return nullptr; // a cycle adds no new way out
  EscapeTracker Tracker(*this, Depth);
  PointerMayBeCaptured(Object, &Tracker, MaxUsesToExplore);
  Visiting.erase(Object);
  Found = Tracker.Found;
  // Too many uses to follow: reachable, say, from where it is made.
  if (Tracker.TooManyUses && !Tracker.Where)
    return dyn_cast<Instruction>(Object);
  return Tracker.Where;
}

} // namespace

EscapedShadows::EscapedShadows(const Function &F, const ActivityInfo &AI) {
  SetVector<const Value *> Objects;
  // Per global: the stores of values with derivatives into it.
  DenseMap<const Value *, SmallVector<const Instruction *, 2>> VariedStores;
  SmallVector<const StoreInst *, 2> StoredOut;
  for (const Instruction &I : instructions(F)) {
    if (AI.hasShadow(&I) &&
        (isa<AllocaInst>(I) ||
         (isa<CallBase>(I) && isAllocationCall(cast<CallBase>(I)))))
      Objects.insert(&I);
    // Memory that receives values with derivatives, whether or not the
    // function reads them back (then it may have no shadow, but another
    // file may read them).
    if (const auto *SI = dyn_cast<StoreInst>(&I);
        SI && AI.isVaried(SI->getValueOperand())) {
      const Value *Dest = getUnderlyingObject(SI->getPointerOperand());
      if (isa<AllocaInst>(Dest) || isa<GlobalVariable>(Dest) ||
          (isa<CallBase>(Dest) && isAllocationCall(*cast<CallBase>(Dest))))
        Objects.insert(Dest);
      if (isa<GlobalVariable>(Dest))
        VariedStores[Dest].push_back(SI);
    }
    // A pointer to memory with derivatives stored into a global or into
    // memory the function cannot see, whatever object it points to (a
    // block posix_memalign or a pool gave, known only as a loaded
    // pointer).
    if (const auto *SI = dyn_cast<StoreInst>(&I);
        SI && SI->getValueOperand()->getType()->isPointerTy() &&
        AI.hasShadow(SI->getValueOperand())) {
      const Value *Dest = getUnderlyingObject(SI->getPointerOperand());
      if (!isa<AllocaInst>(Dest) && !isa<Argument>(Dest) &&
          !(isa<CallBase>(Dest) && isAllocationCall(*cast<CallBase>(Dest))))
        StoredOut.push_back(SI);
    }
    // A global with a shadow that holds floating-point data (one that only
    // holds pointers has a shadow for the code that reads them back: what
    // they point to escapes where they are stored, above).
    for (const Value *Op : I.operands())
      if (Op->getType()->isPointerTy() && AI.hasShadow(Op))
        if (auto *GV = dyn_cast<GlobalVariable>(getUnderlyingObject(Op));
            GV && !GlobalShadows::holdsOnlyPointers(GV->getValueType()))
          Objects.insert(GV);
  }
  EscapeFinder Finder;
  for (const Value *Object : Objects) {
    bool Found = false;
    const Instruction *Where = nullptr, *Published = nullptr;
    if (auto *GV = dyn_cast<GlobalVariable>(Object)) {
      // Another file names it, or finds it wherever its address went: from
      // the function's entry on either way.
      Found = !GV->hasLocalLinkage();
      if (!Found)
        Published = Finder.escape(GV, 1, Found);
    } else {
      Where = Finder.escape(Object, 0, Found);
    }
    if (!Found)
      continue;
    if (Where && Where->getFunction() != &F)
      Where = nullptr;
    // A global the function writes derivatives into holds them from those
    // stores on (before them, what another file does to it is what the
    // function overwrites or the caller's business).
    if (auto It = VariedStores.find(Object); It != VariedStores.end()) {
      for (const Instruction *Store : It->second)
        Escapes.push_back({Object, Store, Published});
      continue;
    }
    Escapes.push_back({Object, Where, Published});
  }
  for (const StoreInst *SI : StoredOut) {
    // Into a file-local global whose address goes nowhere other files see
    // (a static work pointer): not reachable from them (review30 p51).
    if (const auto *GV = dyn_cast<GlobalVariable>(
            getUnderlyingObject(SI->getPointerOperand()));
        GV && GV->hasLocalLinkage()) {
      bool Found = false;
      Finder.escape(GV, 1, Found);
      if (!Found)
        continue;
    }
    Escapes.push_back({getUnderlyingObject(SI->getValueOperand()), SI});
  }
  if (Escapes.empty())
    return;
  DT = std::make_unique<DominatorTree>(const_cast<Function &>(F));
  LI = std::make_unique<LoopInfo>(*DT);
}

EscapedShadows::~EscapedShadows() = default;

const ShadowEscape *EscapedShadows::reachedBy(const CallBase &Call) const {
  for (const ShadowEscape &E : Escapes)
    if (!E.Where ||
        (E.Where != &Call &&
         isPotentiallyReachable(E.Where, &Call, nullptr, DT.get(), LI.get())))
      return &E;
  return nullptr;
}

bool mayChangeEscapedMemory(const CallBase &Call) {
  // A call that does not return ends the differentiated code's run (an
  // error handler); one through a pointer preparation could not resolve
  // may run code of another file.
  const Function *Callee = Call.getCalledFunction();
  if (Call.isInlineAsm() || Call.doesNotReturn() ||
      (Callee && (!Callee->isDeclaration() || isKnownExternal(*Callee))) ||
      Call.doesNotAccessMemory() || Call.onlyAccessesInaccessibleMemory())
    return false;
  if (!Call.onlyReadsMemory())
    return true;
  Type *T = Call.getType();
  return !Call.use_empty() &&
         (T->isPtrOrPtrVectorTy() || isDifferentiableType(T));
}

} // namespace tapestry
