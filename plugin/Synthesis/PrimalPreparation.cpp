//===- PrimalPreparation.cpp - Simplify a function before AD --------------===//
//
// Implements PrimalPreparation.h: preparePrimal clones the user's function and,
// for a few rounds, inlines callees (within -tapestry-inline-budget, keeping
// recursive and registered ones), drops exception paths, lowers realloc,
// sincos, qsort, complex libcalls and OpenMP constructs, simplifies and
// dispatches indirect calls; then it merges the returns and adds canonical
// induction variables (-tapestry-print-prepared shows the result).
// simplifySynthesized tidies a finished derivative. The user's function is
// never modified.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/PrimalPreparation.h"

#include "Analysis/StackSlots.h"
#include "Core/AllocationFunctions.h"
#include "Core/CustomRules.h"
#include "Core/Diagnostics.h"
#include "Core/EnzymeOptions.h"
#include "Core/IterationCounter.h"
#include "Core/MathFunctions.h"
#include "Synthesis/AtomicFloatUpdates.h"
#include "Synthesis/ChosenCopies.h"
#include "Synthesis/ComplexLibcalls.h"
#include "Synthesis/FloatBitOperations.h"
#include "Synthesis/HorizontalAdds.h"
#include "Synthesis/IndirectCalls.h"
#include "Synthesis/InlineHelpers.h"
#include "Synthesis/IntegerCopiesOfFloats.h"
#include "Synthesis/KnownInlineAsm.h"
#include "Synthesis/LaneExtracts.h"
#include "Synthesis/LibraryMemoryCalls.h"
#include "Synthesis/OpenMP.h"
#include "Synthesis/SortLowering.h"
#include "Synthesis/StoredValueForwarding.h"
#include "Synthesis/TapeCache.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/InlineCost.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/GVN.h"
#include "llvm/Transforms/Scalar/InstSimplifyPass.h"
#include "llvm/Transforms/Scalar/LICM.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"
#include "llvm/Transforms/Scalar/LoopRotation.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/Scalarizer.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include <optional>

#define DEBUG_TYPE "tapestry"

using namespace llvm;

STATISTIC(NumInlined, "Callees inlined into functions to differentiate");
STATISTIC(NumKeptCalls, "Callees kept as calls (recursive, over the "
                        "inlining budget, or not inlinable)");

namespace tapestry {

/// True if \p Callee can call itself, directly or through other functions
/// with bodies.
static bool isRecursive(Function &Callee) {
  SmallVector<Function *, 16> Work{&Callee};
  SmallPtrSet<Function *, 16> Seen;
  while (!Work.empty()) {
    Function *F = Work.pop_back_val();
    for (Instruction &I : instructions(*F)) {
      auto *CB = dyn_cast<CallBase>(&I);
      Function *Next = CB ? CB->getCalledFunction() : nullptr;
      if (!Next || Next->isDeclaration())
        continue;
      if (Next == &Callee)
        return true;
      if (Seen.insert(Next).second)
        Work.push_back(Next);
    }
  }
  return false;
}

/// Inlining stops when the prepared function would grow beyond this many
/// instructions: the remaining calls are differentiated as calls, each
/// callee once per distinct request, so that deep call trees do not grow
/// the derivative exponentially.
static cl::opt<unsigned> InlineBudget(
    "tapestry-inline-budget", cl::init(4000),
    cl::desc("Instructions up to which callees are inlined into a function "
             "before it is differentiated"));

/// For developers: what differentiation starts from, printed to stderr.
static cl::opt<bool> PrintPrepared(
    "tapestry-print-prepared", cl::init(false),
    cl::desc("Print each function as differentiation starts from it, after "
             "inlining, lowering and simplification"));

/// True if a derivative of \p Callee on its own could not serve the call:
/// it returns a pointer (whose shadow the caller would need) or is
/// variadic.
static bool mustInline(const Function &Callee) {
  if (Callee.isVarArg() || Callee.hasFnAttribute(Attribute::AlwaysInline))
    return true;
  // Derivatives of their own take and return scalars and pointers: values
  // passed as aggregates (a complex number, a small struct returned in
  // registers) or copied by value (byval) need the call inlined.
  auto Plain = [](Type *T) {
    return T->isVoidTy() || T->isFPOrFPVectorTy() || T->isIntegerTy();
  };
  if (!Plain(Callee.getReturnType()))
    return true;
  for (const Argument &A : Callee.args())
    if (!(Plain(A.getType()) || A.getType()->isPointerTy()) ||
        A.hasByValAttr() || A.hasInAllocaAttr() || A.hasPreallocatedAttr())
      return true;
  // Indirect calls (virtual methods, callbacks) can only be resolved with
  // what the caller knows; constructors that store a vtable tell the
  // caller the dynamic type of its objects.
  for (const Instruction &I : instructions(Callee)) {
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (!CB->getCalledFunction() && !CB->isInlineAsm())
        return true;
    if (auto *SI = dyn_cast<StoreInst>(&I))
      if (auto *GV = dyn_cast<GlobalVariable>(
              getUnderlyingObject(SI->getValueOperand())))
        if (GV->getName().starts_with("_ZTV"))
          return true;
  }
  return false;
}

/// Memo of hasFloatingPointWork for one preparation.
using FPWorkMemo = DenseMap<const Function *, bool>;

/// True if \p F, or a function it calls with a body, computes with
/// floating-point values. (Library wrappers nest deeply: a std::unique_ptr
/// constructor reaches its storage through five levels of calls.)
static bool hasFloatingPointWork(const Function &F, FPWorkMemo &Memo) {
  auto [It, New] = Memo.try_emplace(&F, false); // a cycle adds nothing
  if (!New)
    return It->second;
  bool Found = false;
  for (const Instruction &I : instructions(F)) {
    if (I.getType()->isFPOrFPVectorTy() ||
        any_of(I.operands(), [](const Value *Op) {
          return Op->getType()->isFPOrFPVectorTy();
        }))
      Found = true;
    else if (auto *CB = dyn_cast<CallBase>(&I))
      if (const Function *Callee = CB->getCalledFunction())
        Found = !Callee->isDeclaration() && hasFloatingPointWork(*Callee, Memo);
    if (Found)
      break;
  }
  Memo[&F] = Found;
  return Found;
}

/// The locals \p V may point into. At -O0 a reference is passed through a
/// local slot (`x.addr`): a pointer loaded from a slot may be any pointer
/// stored there.
static SmallVector<const AllocaInst *, 2> localObjects(const Value *V) {
  SmallVector<const Value *, 4> Roots;
  stackSlotRoots(V, Roots);
  SmallVector<const AllocaInst *, 2> Out;
  for (const Value *R : Roots)
    if (auto *AI = dyn_cast<AllocaInst>(R))
      Out.push_back(AI);
  return Out;
}

/// The locals of \p F that hold a stored pointer somewhere (at -O0 a
/// struct's field is written through its field address, from `this`
/// reloaded from its slot).
static SmallPtrSet<const AllocaInst *, 8> pointerHoldingLocals(Function &F) {
  SmallPtrSet<const AllocaInst *, 8> Holders;
  for (const Instruction &I : instructions(F))
    if (auto *SI = dyn_cast<StoreInst>(&I))
      if (SI->getValueOperand()->getType()->isPointerTy())
        for (const AllocaInst *AI : localObjects(SI->getPointerOperand()))
          Holders.insert(AI);
  return Holders;
}

/// True if \p Callee's signature moves a floating-point value across an
/// integer: a floating-point parameter and an integer result, or integer
/// parameters and a floating-point result (a union's box and unbox, as
/// NaN-boxing interpreters keep values). Only where both meet in one
/// function are the bits seen to be the same value, with its derivative.
static bool crossesFloatBits(const Function &Callee) {
  Type *R = Callee.getReturnType();
  bool FPParam = any_of(Callee.args(), [](const Argument &A) {
    return A.getType()->isFPOrFPVectorTy();
  });
  bool IntParam = any_of(Callee.args(), [](const Argument &A) {
    return A.getType()->isIntOrIntVectorTy();
  });
  return (FPParam && R->isIntOrIntVectorTy()) ||
         (IntParam && !FPParam && R->isFPOrFPVectorTy());
}

/// Whether to inline a call to \p Callee into \p F: small callees are
/// inlined (the derivative is then one function the optimiser sees whole),
/// functions the user marked noinline and calls beyond the budget are
/// differentiated as calls.
static bool
shouldInline(const Function &F, const CallBase &CB, const Function &Callee,
             FPWorkMemo &Memo,
             const SmallPtrSetImpl<const AllocaInst *> &PointerHolders) {
  if (mustInline(Callee))
    return true;
  // A callback known at the call is only known inside the callee once the
  // callee is inlined.
  if (any_of(CB.args(), [](const Value *A) {
        return isa<Function>(A->stripPointerCasts());
      }))
    return true;
  // Functions without floating-point work (constructors, destructors,
  // accessors) have no derivative of their own; inlined, they show the
  // caller its objects' layout and dynamic types.
  if (!hasFloatingPointWork(Callee, Memo))
    return true;
  // A function whose address is taken (a virtual method in a vtable, a
  // callback) is likely reached through a call that simplification just
  // made direct: inline it, as the indirect call would have needed.
  if (Callee.hasAddressTaken())
    return true;
  // At -O0 (optnone marks clang's implicit noinline), a call given a local
  // struct of pointers (a lambda's captures by reference, an expression
  // template's operands) is inlined: on its own, the callee could not
  // tell which of those pointers are constant.
  if (Callee.hasFnAttribute(Attribute::OptimizeNone) &&
      any_of(CB.args(), [&](const Value *A) {
        return any_of(localObjects(A), [&](const AllocaInst *Obj) {
          return PointerHolders.count(Obj);
        });
      }))
    return true;
  // At -O0, a helper turning a double into its bits or back is inlined, as
  // the optimiser would: on its own it would be bit manipulation.
  if (Callee.hasFnAttribute(Attribute::OptimizeNone) &&
      crossesFloatBits(Callee))
    return true;
  // An explicit noinline, and -O0 (which marks every function noinline):
  // the callee is differentiated on its own, as written.
  if (Callee.hasFnAttribute(Attribute::NoInline))
    return false;
  // A wrapper (an expression template's operator[], a constructor that
  // copies its operands) costs more as a call than inlined, and on its own
  // could not tell what the memory it copies holds: callees up to a
  // hundredth of the budget (40 instructions by default) are inlined past
  // it too.
  if (Callee.getInstructionCount() <= InlineBudget / 100)
    return true;
  return F.getInstructionCount() + Callee.getInstructionCount() <= InlineBudget;
}

/// -enzyme-inline: a call shouldInline keeps is inlined anyway, whatever the
/// callee's size and at -O0 too (optnone's implicit noinline), while fewer
/// than -enzyme-inline-count calls were forced; a noinline the user wrote
/// is kept.
static bool forceInline(const Function &Callee, unsigned &Forced) {
  if (!enzymeForceInline() || Forced >= enzymeInlineCount() ||
      (Callee.hasFnAttribute(Attribute::NoInline) &&
       !Callee.hasFnAttribute(Attribute::OptimizeNone)))
    return false;
  ++Forced;
  return true;
}

/// Returns true if anything was inlined. With \p Remark, each decision is
/// a remark.
static bool inlineCallees(Function &F, const CustomRules &Rules,
                          const Function &User, bool Remark) {
  OptimizationRemarkEmitter ORE(&User);
  unsigned Forced = 0;
  FPWorkMemo Memo;
  SmallPtrSet<Function *, 8> Recursive;
  bool Any = false;
  bool Changed = true;
  while (Changed) {
    Changed = false;
    // A derivative inlined here keeps ordinary record arrays, which this
    // function's derivative can shadow (TapeCache.h).
    uncacheTapes(F);
    SmallPtrSet<const AllocaInst *, 8> PointerHolders = pointerHoldingLocals(F);
    SmallVector<CallBase *, 16> Calls;
    for (Instruction &I : instructions(F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (Function *Callee = CB->getCalledFunction())
          if (!Callee->isDeclaration() && !Recursive.count(Callee) &&
              !Rules.isOpaque(Callee))
            Calls.push_back(CB);
    for (CallBase *CB : Calls) {
      Function *Callee = CB->getCalledFunction();
      if (isRecursive(*Callee)) {
        Recursive.insert(Callee);
        ++NumKeptCalls;
        LLVM_DEBUG(dbgs() << "tapestry: keep the recursive call of "
                          << Callee->getName() << " in " << F.getName()
                          << "\n");
        continue;
      }
      // A variadic callee that calls va_start (or one with indirectbr,
      // setjmp...) cannot be inlined: it stays a call, which the
      // differentiation then reports.
      if (!isInlineViable(*Callee).isSuccess()) {
        Recursive.insert(Callee); // Kept as a call from now on.
        ++NumKeptCalls;
        LLVM_DEBUG(dbgs() << "tapestry: keep the call of " << Callee->getName()
                          << " in " << F.getName() << "\n");
        continue;
      }
      // A call kept here is looked at again in the next round: inlining
      // other calls may show what it is given (the pointers a constructor
      // stores into a local it passes).
      if (!shouldInline(F, *CB, *Callee, Memo, PointerHolders) &&
          !forceInline(*Callee, Forced)) {
        ++NumKeptCalls;
        LLVM_DEBUG(dbgs() << "tapestry: keep the call of " << Callee->getName()
                          << " in " << F.getName() << "\n");
        continue;
      }
      // A call without a location (one synthesised code made, e.g. to a
      // nested request's derivative) would leave the inlined code with its
      // own function's scopes: give it a compiler-generated one, so that
      // the inlined locations are chained to it.
      if (DISubprogram *SP = F.getSubprogram(); SP && !CB->getDebugLoc())
        CB->setDebugLoc(DILocation::get(F.getContext(), 0, 0, SP));
      // -Rpass-analysis=tapestry: the decision, before the call is gone.
      if (Remark)
        ORE.emit([&]() {
          return OptimizationRemarkAnalysis("tapestry", "Inlined",
                                            userLocation(CB), CB->getParent())
                 << "'" << sourceName(*Callee)
                 << "' is inlined into the derivative of '" << sourceName(User)
                 << "' (differentiated with it, no tape of its own)";
        });
      InlineFunctionInfo IFI;
      bool Inlined = InlineFunction(*CB, IFI).isSuccess();
      NumInlined += Inlined;
      Changed |= Inlined;
    }
    Any |= Changed;
  }
  return Any;
}

/// -Rpass-analysis=tapestry: each call of a function with a body that
/// stays a call in the function to differentiate \p P (the prepared copy of
/// \p User), and why it was not inlined.
static void remarkKeptCalls(Function &P, const CustomRules &Rules,
                            const Function &User) {
  OptimizationRemarkEmitter ORE(&User);
  for (Instruction &I : instructions(P)) {
    auto *CB = dyn_cast<CallBase>(&I);
    Function *Callee = CB ? CB->getCalledFunction() : nullptr;
    if (!Callee || Callee->isDeclaration() || Rules.isOpaque(Callee) ||
        Callee->getName().contains(".tapestry."))
      continue;
    std::string Why;
    if (isRecursive(*Callee))
      Why = "it is recursive";
    else if (!isInlineViable(*Callee).isSuccess())
      Why = "it cannot be inlined (" +
            std::string(isInlineViable(*Callee).getFailureReason()) + ")";
    else if (Callee->hasFnAttribute(Attribute::OptimizeNone))
      Why = "it is compiled at -O0, where every function is noinline "
            "(-mllvm -enzyme-inline inlines it)";
    else if (Callee->hasFnAttribute(Attribute::NoInline))
      Why = "it is declared noinline";
    else
      Why = "inlining it would take the function past the inline budget of " +
            std::to_string(InlineBudget) +
            " instructions (-mllvm -tapestry-inline-budget)";
    ORE.emit([&]() {
      return OptimizationRemarkAnalysis("tapestry", "KeptCall",
                                        userLocation(CB), CB->getParent())
             << "'" << sourceName(*Callee)
             << "' stays a call in the derivative of '" << sourceName(User)
             << "' (it gets a derivative of its own, and its reverse a tape "
                "allocated per call): "
             << Why;
    });
  }
}

/// Merges all returns into one block so the reverse sweep has one start.
static void unifyReturns(Function &F) {
  SmallVector<ReturnInst *, 4> Returns;
  for (BasicBlock &BB : F)
    if (auto *RI = dyn_cast<ReturnInst>(BB.getTerminator()))
      Returns.push_back(RI);
  if (Returns.size() < 2)
    return;
  BasicBlock *Exit = BasicBlock::Create(F.getContext(), "return", &F);
  IRBuilder<> B(Exit);
  PHINode *Phi = nullptr;
  if (!F.getReturnType()->isVoidTy())
    Phi = B.CreatePHI(F.getReturnType(), Returns.size(), "retval");
  B.CreateRet(Phi);
  for (ReturnInst *RI : Returns) {
    if (Phi)
      Phi->addIncoming(RI->getReturnValue(), RI->getParent());
    BranchInst::Create(Exit, RI->getParent());
    RI->eraseFromParent();
  }
}

static void runSimplification(Function &F, FunctionAnalysisManager &FAM,
                              bool ForSynthesized) {
  FunctionPassManager FPM;
  FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
  FPM.addPass(EarlyCSEPass(/*UseMemorySSA=*/true));
  if (ForSynthesized) {
    FPM.addPass(InstCombinePass());
  } else {
    FPM.addPass(InstSimplifyPass());
    // Loop-invariant loads and arithmetic leave the loop and loads of what
    // was just stored become the stored value: both shrink the tape.
    // Rotated (guarded do-while) loops let LICM hoist loads that a
    // zero-trip loop would not have executed.
    FPM.addPass(createFunctionToLoopPassAdaptor(LoopRotatePass()));
    FPM.addPass(createFunctionToLoopPassAdaptor(LICMPass(LICMOptions()),
                                                /*UseMemorySSA=*/true));
    FPM.addPass(GVNPass());
  }
  FPM.addPass(SimplifyCFGPass());
  FPM.run(F, FAM);
  restoreLaneExtracts(F);
  FAM.invalidate(F, PreservedAnalyses::none());
}

/// Drops the lifetime markers of stack memory. The derivative keeps every
/// local alive until it returns: the reverse sweep reads and accumulates
/// into locals (and their shadows) after the scope that declared them has
/// ended. Without the markers, a local nothing writes after a load can be
/// read again in the reverse sweep instead of being taped (a scope's end
/// is not a write; TapeAnalysis).
static void removeLifetimeMarkers(Function &F) {
  SmallVector<IntrinsicInst *, 16> Markers;
  for (Instruction &I : instructions(F))
    if (auto *II = dyn_cast<IntrinsicInst>(&I);
        II && II->isLifetimeStartOrEnd())
      Markers.push_back(II);
  for (IntrinsicInst *II : Markers)
    II->eraseFromParent();
}

/// Deletes memory of the function's own that is written but never read,
/// with the writes: stack memory (SROA leaves a struct's padding bytes as
/// such, copied by a struct assignment) and heap blocks it allocates and
/// frees (a scratch copy of an input, memcpy'd in and freed unread; fuzz
/// seed 40846). Nothing can be differentiated there, and the type of such a
/// copy cannot be told. A block whose only read copies it into memory
/// deleted so goes too, on the next round.
static void removeWriteOnlyLocals(Function &F) {
  // The library's allocators and deallocators only: a registered allocator
  // (__enzyme_allocation_like) may do more than allocate (count, log).
  auto IsLibrary = [](const CallBase &CB,
                      std::initializer_list<HeapFunction> Kinds) {
    std::optional<HeapFunction> H = heapFunction(CB);
    return H && is_contained(Kinds, *H);
  };
  auto IsWriteOnly = [&](Instruction *Obj,
                         SmallSetVector<Instruction *, 8> &Users) {
    return all_of(Obj->users(), [&](User *U) {
      auto *I = dyn_cast<Instruction>(U);
      if (!I)
        return false;
      Users.insert(I);
      if (auto *II = dyn_cast<IntrinsicInst>(I))
        if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II))
          return true;
      if (auto *MI = dyn_cast<MemIntrinsic>(I))
        return MI->getRawDest() == Obj && !MI->isVolatile() &&
               (!isa<MemTransferInst>(MI) ||
                cast<MemTransferInst>(MI)->getRawSource() != Obj);
      // A block that keeps its own address (an empty circular list's
      // sentinel) is left alone.
      if (auto *SI = dyn_cast<StoreInst>(I))
        return SI->getPointerOperand() == Obj && SI->getValueOperand() != Obj &&
               SI->isSimple();
      auto *CB = dyn_cast<CallBase>(I);
      return CB && !isa<AllocaInst>(Obj) &&
             IsLibrary(*CB, {HeapFunction::Free, HeapFunction::Delete,
                             HeapFunction::DeleteArray}) &&
             freedPointer(*CB) == Obj && count(CB->args(), Obj) == 1;
    });
  };
  bool Changed = true;
  while (Changed) {
    Changed = false;
    SmallVector<Instruction *, 8> Objects;
    for (Instruction &I : instructions(F))
      if (auto *CI = dyn_cast<CallInst>(&I);
          isa<AllocaInst>(I) ||
          (CI && IsLibrary(*CI, {HeapFunction::Malloc, HeapFunction::Calloc,
                                 HeapFunction::AlignedAlloc, HeapFunction::New,
                                 HeapFunction::NewArray})))
        Objects.push_back(&I);
    for (Instruction *Obj : Objects) {
      SmallSetVector<Instruction *, 8> Users;
      if (!IsWriteOnly(Obj, Users))
        continue;
      for (Instruction *I : Users)
        I->eraseFromParent();
      Obj->eraseFromParent();
      Changed = true;
    }
  }
}

/// Gives every loop with a preheader and a single latch a counter
/// iv = 0, 1, 2, ... so the reverse sweep can count iterations back down.
static void insertCanonicalIVs(Function &F, PreparedPrimal &Out) {
  DominatorTree DT(F);
  LoopInfo LI(DT);
  for (Loop *L : LI.getLoopsInPreorder()) {
    BasicBlock *Pre = L->getLoopPreheader(), *Latch = L->getLoopLatch();
    BasicBlock *H = L->getHeader();
    if (!Pre || !Latch || pred_size(H) != 2)
      continue;
    IRBuilder<> B(H, H->begin());
    PHINode *IV = B.CreatePHI(B.getInt64Ty(), 2, "iv");
    B.SetInsertPoint(Latch->getTerminator());
    Value *Next = B.CreateAdd(IV, B.getInt64(1), "iv.next", /*HasNUW=*/true,
                              /*HasNSW=*/true);
    IV->addIncoming(B.getInt64(0), Pre);
    IV->addIncoming(Next, Latch);
    Out.LoopIVs[H] = IV;
  }
}

/// A call that throws: the C++ ABI's throw and rethrow, the runtime's
/// bad_cast/bad_typeid/bad_array_new_length throwers and libstdc++'s
/// out-of-line std::__throw_* helpers (vector::at, length_error, ...).
static bool isThrowCall(const CallBase &CB) {
  const Function *Callee = CB.getCalledFunction();
  if (!Callee || !Callee->isDeclaration())
    return false;
  StringRef N = Callee->getName();
  return N == "__cxa_throw" || N == "__cxa_rethrow" ||
         N == "_Unwind_RaiseException" || N == "__cxa_bad_cast" ||
         N == "__cxa_bad_typeid" || N == "__cxa_throw_bad_array_new_length" ||
         (N.starts_with("_ZSt") && N.contains("__throw_"));
}

/// The code on paths that can only end in a throw builds the exception
/// (its message: std::to_string of a value, string concatenation, the
/// exception's constructor), which the derivative never needs and which
/// may call what has no derivative. Each block from which every path ends
/// in one of \p Throws' blocks (their fatal message) is dropped: where the
/// code enters such blocks, it stops with the message of a throw they lead
/// to.
static void dropExceptionBuilding(
    Function &F,
    const MapVector<BasicBlock *, std::tuple<Constant *, uint64_t, DebugLoc>>
        &Throws) {
  // Blocks doomed to throw, with the throw block whose message they give.
  DenseMap<BasicBlock *, BasicBlock *> Doomed;
  for (auto &Entry : Throws)
    Doomed[Entry.first] = Entry.first;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (BasicBlock &BB : F) {
      if (Doomed.count(&BB) || succ_empty(&BB))
        continue;
      if (all_of(successors(&BB),
                 [&](BasicBlock *S) { return Doomed.count(S); })) {
        Doomed[&BB] = Doomed.lookup(*succ_begin(&BB));
        Changed = true;
      }
    }
  }
  SmallVector<BasicBlock *, 4> Entries;
  for (auto [BB, Throw] : Doomed)
    if (BB != &F.getEntryBlock() &&
        any_of(predecessors(BB),
               [&](BasicBlock *P) { return !Doomed.count(P); }))
      Entries.push_back(BB);
  if (Entries.empty())
    return;
  for (BasicBlock *BB : Entries) {
    auto [Msg, Size, Loc] = Throws.lookup(Doomed.lookup(BB));
    while (!BB->empty()) {
      Instruction &I = BB->back();
      I.replaceAllUsesWith(PoisonValue::get(I.getType()));
      I.eraseFromParent();
    }
    IRBuilder<> B(BB);
    B.SetCurrentDebugLocation(Loc);
    emitFatalMessage(B, Msg, B.getInt64(Size));
    B.CreateUnreachable();
  }
  removeUnreachableBlocks(F);
}

/// The derivative follows the path on which no exception is thrown: invokes
/// become calls and landing pads disappear from the clone (the user's
/// function keeps them). A throw reached while the derivative runs stops the
/// program with a message naming the throw and \p Differentiated: the
/// derivative cannot follow an exception into a handler or hand a partial
/// result back through one. An exception raised inside a call the
/// derivative makes without differentiating it (an inactive or external
/// function) propagates to the derivative's caller.
static void dropExceptionPaths(Function &F, const Function &Differentiated) {
  MapVector<BasicBlock *, std::tuple<Constant *, uint64_t, DebugLoc>>
      ThrowMessages;
  SmallVector<CallBase *, 4> Throws;
  SmallVector<InvokeInst *, 8> Invokes;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *CB = dyn_cast<CallBase>(&I); CB && isThrowCall(*CB))
        Throws.push_back(CB);
  for (CallBase *CB : Throws) {
    std::string Where = sourceLocation(CB);
    std::string Msg = "tapestry: exception thrown";
    if (!CB->getCalledFunction()->getName().starts_with("__cxa_throw"))
      Msg += " by " + sourceName(*CB->getCalledFunction());
    Msg += Where.empty() ? " in " + sourceName(Differentiated) : " at " + Where;
    // A throw inlined from a header (vector::at): where the user's code is.
    if (const DILocation *DL = CB->getDebugLoc(); DL && DL->getInlinedAt()) {
      const DILocation *Outer = DL;
      while (Outer->getInlinedAt())
        Outer = Outer->getInlinedAt();
      if (Outer->getFilename() != DL->getFilename())
        Msg += (", reached from " + Outer->getFilename() + ":" +
                Twine(Outer->getLine()))
                   .str();
    }
    Msg += " while differentiating " + sourceName(Differentiated) +
           ": Tapestry differentiates the paths on which nothing is "
           "thrown; check the arguments before asking for the derivative\n";
    BasicBlock *BB = CB->getParent();
    BB->splitBasicBlock(CB, "throw.unreachable");
    BB->getTerminator()->eraseFromParent();
    IRBuilder<> B(BB);
    B.SetCurrentDebugLocation(CB->getDebugLoc());
    Constant *Text = B.CreateGlobalStringPtr(Msg);
    ThrowMessages[BB] = {Text, Msg.size(), CB->getDebugLoc()};
    emitFatalMessage(B, Text, B.getInt64(Msg.size()));
    B.CreateUnreachable();
  }
  for (BasicBlock &BB : F)
    if (auto *II = dyn_cast<InvokeInst>(BB.getTerminator()))
      Invokes.push_back(II);
  for (InvokeInst *II : Invokes)
    changeToCall(II);
  if (Invokes.empty() && Throws.empty())
    return;
  removeUnreachableBlocks(F);
  // A throw only a landing pad reached (a rethrow in a cleanup) went with
  // the landing pads: its block is gone.
  SmallPtrSet<BasicBlock *, 32> Live;
  for (BasicBlock &BB : F)
    Live.insert(&BB);
  ThrowMessages.remove_if(
      [&](const auto &Entry) { return !Live.contains(Entry.first); });
  dropExceptionBuilding(F, ThrowMessages);
}

/// realloc(p, n) becomes malloc(n), a copy of what p held and free(p): the
/// pieces AD already handles (fresh shadow, memcpy adjoint, free deferred
/// to the reverse sweep). The old size comes from malloc_usable_size (glibc);
/// copying a few bytes past the old contents is harmless.
static void lowerRealloc(Function &F) {
  SmallVector<CallBase *, 4> Reallocs;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (isReallocCall(*CB))
        Reallocs.push_back(CB);
  Module &M = *F.getParent();
  for (CallBase *CB : Reallocs) {
    IRBuilder<> B(CB);
    Type *I64 = B.getInt64Ty();
    Value *Old = CB->getArgOperand(0);
    Value *Size = B.CreateZExtOrTrunc(CB->getArgOperand(1), I64);
    FunctionCallee Malloc = getMallocFn(M);
    FunctionCallee Usable = getMallocUsableSizeFn(M);
    FunctionCallee Free = getFreeFn(M);
    CallInst *New = B.CreateCall(Malloc, {Size});
    // Marked so that split mode can say why its tape cannot own it.
    New->setMetadata("tapestry.realloc.block", MDNode::get(B.getContext(), {}));
    Value *Keep = B.CreateBinaryIntrinsic(Intrinsic::umin,
                                          B.CreateCall(Usable, {Old}), Size);
    B.CreateMemCpy(New, MaybeAlign(), Old, MaybeAlign(), Keep);
    // Marked so that reverse mode can reject a realloc of the caller's
    // memory (SupportedInstructions).
    CallInst *Freed = B.CreateCall(Free, {Old});
    Freed->setMetadata("tapestry.realloc", MDNode::get(B.getContext(), {}));
    CB->replaceAllUsesWith(New);
    CB->eraseFromParent();
  }
}

/// fdim(x, y) (C99's positive difference; fdimf, fdiml) becomes
/// x <= y ? 0 : x - y, which is fdim's value everywhere (a NaN operand
/// fails the comparison and gives NaN) and which AD differentiates: 1 and
/// -1 where x > y, 0 where x < y.
static void lowerFdim(Function &F) {
  SmallVector<CallBase *, 2> Calls;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (Function *Callee = CB->getCalledFunction();
          Callee && Callee->isDeclaration() &&
          StringSwitch<bool>(Callee->getName())
              .Cases("fdim", "fdimf", "fdiml", true)
              .Default(false) &&
          CB->arg_size() == 2 && CB->getType()->isFloatingPointTy() &&
          all_of(CB->args(),
                 [&](Value *A) { return A->getType() == CB->getType(); }))
        Calls.push_back(CB);
  for (CallBase *CB : Calls) {
    IRBuilder<> B(CB);
    Value *X = CB->getArgOperand(0), *Y = CB->getArgOperand(1);
    Value *D = B.CreateSelect(B.CreateFCmpOLE(X, Y),
                              ConstantFP::get(CB->getType(), 0.0),
                              B.CreateFSub(X, Y), CB->getName());
    CB->replaceAllUsesWith(D);
    CB->eraseFromParent();
  }
}

/// sincos(x, &s, &c) (glibc; sincosf, sincosl), and a function registered
/// as like one of them (__enzyme_function_like), becomes s = sin(x) and
/// c = cos(x): the two math functions AD knows, stored where sincos would.
static void lowerSincos(Function &F, const CustomRules &Rules) {
  auto IsSincos = [](StringRef Name) {
    return Name == "sincos" || Name == "sincosf" || Name == "sincosl";
  };
  SmallVector<CallBase *, 2> Calls;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (Function *Callee = CB->getCalledFunction();
          Callee &&
          ((Callee->isDeclaration() && IsSincos(Callee->getName())) ||
           IsSincos(Rules.functionLike(Callee))) &&
          CB->arg_size() == 3 && CB->getType()->isVoidTy() &&
          CB->getArgOperand(0)->getType()->isFloatingPointTy() &&
          CB->getArgOperand(1)->getType()->isPointerTy() &&
          CB->getArgOperand(2)->getType()->isPointerTy())
        Calls.push_back(CB);
  for (CallBase *CB : Calls) {
    IRBuilder<> B(CB);
    Value *X = CB->getArgOperand(0);
    B.CreateStore(B.CreateUnaryIntrinsic(Intrinsic::sin, X),
                  CB->getArgOperand(1));
    B.CreateStore(B.CreateUnaryIntrinsic(Intrinsic::cos, X),
                  CB->getArgOperand(2));
    CB->eraseFromParent();
  }
}

/// \p C with its poison and undef elements zero (a vector constant), or
/// null if it has none.
static Constant *withDefinedLanes(Constant *C) {
  auto *VT = dyn_cast<FixedVectorType>(C->getType());
  if (!VT || VT->getElementType()->isPointerTy())
    return nullptr;
  if (isa<UndefValue>(C))
    return Constant::getNullValue(VT);
  if (!isa<ConstantVector>(C))
    return nullptr;
  SmallVector<Constant *, 16> Elts;
  bool Undefined = false;
  for (unsigned I = 0; I < VT->getNumElements(); ++I) {
    Constant *E = C->getAggregateElement(I);
    Undefined |= isa<UndefValue>(E);
    Elts.push_back(isa<UndefValue>(E) ? Constant::getNullValue(E->getType())
                                      : E);
  }
  return Undefined ? ConstantVector::get(Elts) : nullptr;
}

/// Fast-math's nnan and ninf make an infinite or NaN result poison. The
/// reverse sweep needs such results to be values: a zero adjoint times an
/// infinite or NaN partial is replaced by zero (ReverseModeSynthesizer's
/// guard), which cannot catch poison, and poison times zero spreads into
/// lanes and operands that hold real adjoints. Lanes defineUndefinedLanes
/// fills may compute x / 0 (fuzz seed 12426: the batched reverse lost a
/// derivative), and the optimiser computes both sides of a branch. The other
/// fast-math flags stay; the user's function keeps all of them.
static void dropNoNaNsNoInfs(Function &F) {
  for (Instruction &I : instructions(F))
    if (isa<FPMathOperator>(I) && (I.hasNoNaNs() || I.hasNoInfs())) {
      I.setHasNoNaNs(false);
      I.setHasNoInfs(false);
    }
}

/// Vectorised code leaves lanes undefined (poison) where the primal does
/// not care: a shuffle mask's poison elements, the other lanes of a vector
/// built by insertelement into poison, a constant's poison elements, the
/// pass-through of a masked load. The reverse sweep multiplies such a lane
/// by an adjoint that is zero there, and poison times zero is poison, which
/// spreads into lanes that hold real adjoints (the simplifier then dropped
/// them: batched reverse mode returned wrong adjoints, fuzz seeds 7024,
/// 7075, 7256, 7319, 7399). Giving those lanes a value (zero, or a defined
/// lane) refines the primal and keeps every adjoint defined.
static void defineUndefinedLanes(Function &F) {
  for (Instruction &I : instructions(F)) {
    if (auto *SV = dyn_cast<ShuffleVectorInst>(&I)) {
      unsigned N0 =
          cast<FixedVectorType>(SV->getOperand(0)->getType())->getNumElements();
      // A lane of an undefined operand (made zero below), else a lane the
      // mask already picks: never a lane the primal does not read, which
      // may hold other data (a float's bytes under a <2 x double> reload).
      SmallVector<int, 16> Mask(SV->getShuffleMask());
      auto Picked = find_if(Mask, [](int M) { return M != PoisonMaskElem; });
      int Defined = isa<UndefValue>(SV->getOperand(1))   ? int(N0)
                    : isa<UndefValue>(SV->getOperand(0)) ? 0
                    : Picked != Mask.end()               ? *Picked
                                                         : 0;
      if (Defined >= 0 && is_contained(Mask, PoisonMaskElem)) {
        for (int &M : Mask)
          if (M == PoisonMaskElem)
            M = Defined;
        SV->setShuffleMask(Mask);
      }
    }
    if (isa<CallBase>(I) && !isa<IntrinsicInst>(I))
      continue;
    for (Use &U : I.operands())
      if (auto *C = dyn_cast<Constant>(U.get()))
        if (Constant *D = withDefinedLanes(C))
          U.set(D);
  }
}

/// True if the integer \p V is the address of a pointer of type \p PtrTy:
/// a ptrtoint of one, 0 (null), or a choice (select, phi) among such
/// integers.
static bool isPointerAddress(Value *V, Type *PtrTy,
                             SmallPtrSetImpl<Value *> &Seen,
                             unsigned Depth = 6) {
  if (auto *P2I = dyn_cast<PtrToIntInst>(V))
    return P2I->getPointerOperand()->getType() == PtrTy &&
           P2I->getType()->getScalarSizeInBits() ==
               P2I->getModule()->getDataLayout().getPointerSizeInBits(
                   PtrTy->getPointerAddressSpace());
  if (auto *C = dyn_cast<ConstantInt>(V))
    return C->isZero(); // null: "none yet"
  if (!Depth || !(isa<SelectInst>(V) || isa<PHINode>(V)))
    return false;
  if (!Seen.insert(V).second)
    return true; // a cycle of phis: decided by the other incoming values
  if (auto *Sel = dyn_cast<SelectInst>(V))
    return isPointerAddress(Sel->getTrueValue(), PtrTy, Seen, Depth - 1) &&
           isPointerAddress(Sel->getFalseValue(), PtrTy, Seen, Depth - 1);
  return all_of(cast<PHINode>(V)->incoming_values(), [&](Value *In) {
    return isPointerAddress(In, PtrTy, Seen, Depth - 1);
  });
}

/// The pointer whose address \p V is (isPointerAddress), built as
/// pointer selects and phis beside the integer ones (\p Built: phis are
/// recorded before their incoming values, so that cycles close).
static Value *pointerBehind(Value *V, Type *PtrTy,
                            DenseMap<Value *, Value *> &Built) {
  if (auto *P2I = dyn_cast<PtrToIntInst>(V))
    return P2I->getPointerOperand();
  if (isa<ConstantInt>(V))
    return ConstantPointerNull::get(cast<PointerType>(PtrTy));
  if (Value *Done = Built.lookup(V))
    return Done;
  if (auto *Sel = dyn_cast<SelectInst>(V)) {
    Value *T = pointerBehind(Sel->getTrueValue(), PtrTy, Built);
    Value *F = pointerBehind(Sel->getFalseValue(), PtrTy, Built);
    IRBuilder<> B(Sel);
    return Built[V] = B.CreateSelect(Sel->getCondition(), T, F,
                                     Sel->getName() + ".ptr");
  }
  auto *Phi = cast<PHINode>(V);
  IRBuilder<> B(Phi);
  PHINode *New =
      B.CreatePHI(PtrTy, Phi->getNumIncomingValues(), Phi->getName() + ".ptr");
  Built[V] = New;
  for (unsigned I = 0; I < Phi->getNumIncomingValues(); ++I)
    New->addIncoming(pointerBehind(Phi->getIncomingValue(I), PtrTy, Built),
                     Phi->getIncomingBlock(I));
  return New;
}

/// The simplifier turns a choice between two iterators (std::minmax_element
/// returning a pair of pointers) into a select of their addresses as
/// integers and an inttoptr: the pointers are chosen as pointers again, so
/// that the result has the chosen pointers' shadows.
static void retypePointerIntegerChoices(Function &F) {
  DenseMap<Value *, Value *> Built;
  SmallVector<Instruction *, 4> Dead;
  for (Instruction &I : instructions(F))
    if (auto *I2P = dyn_cast<IntToPtrInst>(&I);
        I2P && (isa<SelectInst>(I2P->getOperand(0)) ||
                isa<PHINode>(I2P->getOperand(0))))
      if (SmallPtrSet<Value *, 8> Seen;
          isPointerAddress(I2P->getOperand(0), I2P->getType(), Seen)) {
        I2P->replaceAllUsesWith(
            pointerBehind(I2P->getOperand(0), I2P->getType(), Built));
        Dead.push_back(I2P);
      }
  for (Instruction *I : Dead)
    I->eraseFromParent();
}

PreparedPrimal preparePrimal(Function &F, FunctionAnalysisManager &FAM,
                             const CustomRules &Rules,
                             const StoppedCandidates *Stopped) {
  PreparedPrimal Out;
  ValueToValueMapTy VMap;
  Function *P = CloneFunction(&F, VMap);
  P->setName(F.getName() + ".tapestry.primal");
  P->setLinkage(GlobalValue::InternalLinkage);
  // Calls Tapestry builds use the C convention; optimised IR may have made
  // the primal fastcc, and a call whose convention differs is undefined.
  P->setCallingConv(CallingConv::C);
  P->removeFnAttr(Attribute::OptimizeNone);
  P->removeFnAttr(Attribute::NoInline);
  // Simplification can make indirect calls direct (a virtual call on an
  // object built in the function), and dispatch makes the others direct:
  // inline those too, a few rounds.
  for (unsigned Round = 0; Round < 3; ++Round) {
    bool Inlined = inlineCallees(*P, Rules, F, /*Remark=*/!Stopped);
    if (Round > 0 && !Inlined)
      break;
    dropExceptionPaths(*P, F);
    lowerLibraryMemoryCalls(*P); // -fno-builtin, -D_FORTIFY_SOURCE
    lowerRealloc(*P);
    lowerSincos(*P, Rules);
    lowerFdim(*P);
    lowerKnownInlineAsm(*P); // Eigen's FMA (Synthesis/KnownInlineAsm.h)
    lowerHorizontalAdds(*P); // _mm256_hadd_pd (Synthesis/HorizontalAdds.h)
    lowerQsort(*P);
    lowerComplexLibcalls(*P);
    lowerOpenMPConstructs(*P);
    lowerAtomicFloatUpdates(*P); // std::atomic<double>::fetch_add
    runSimplification(*P, FAM, /*ForSynthesized=*/false);
    wrapParallelRegions(*P);
    // What simplification left indirect is dispatched over the functions
    // the pointer may hold; the next round inlines those calls.
    dispatchIndirectCalls(*P, &F, Stopped, &Out.Dispatched);
  }
  // At -O0 the compare-exchange loops of std::atomic<double> show their
  // shape only once simplified.
  if (lowerAtomicFloatUpdates(*P))
    runSimplification(*P, FAM, /*ForSynthesized=*/false);
  // Prepared again with candidates stopped: remarked the first time.
  if (!Stopped)
    remarkKeptCalls(*P, Rules, F);
  // Differentiated code, inlined callees included, is one order higher.
  advanceIterationCounters(*P);
  retypeIntegerVectorBuilds(*P);
  lowerFloatBitOperations(*P);
  retypeBitcastCopies(*P, &F);
  loadChosenCopiesWhereStored(*P, FAM);
  retypePointerIntegerChoices(*P);
  defineUndefinedLanes(*P);
  dropNoNaNsNoInfs(*P);
  removeLifetimeMarkers(*P);
  removeWriteOnlyLocals(*P);
  unifyReturns(*P);
  {
    FunctionPassManager FPM;
    FPM.addPass(LoopSimplifyPass());
    FPM.run(*P, FAM);
    FAM.invalidate(*P, PreservedAnalyses::none());
  }
  // Scratch arrays a loop fills and later loops read are computed again
  // where they are read, so the reverse sweep does not tape them.
  forwardStoredValues(*P, FAM);
  insertCanonicalIVs(*P, Out);
  if (PrintPrepared)
    P->print(errs());
  Out.Fn = P;
  return Out;
}

void simplifySynthesized(Function &G, FunctionAnalysisManager &FAM,
                         bool ScalarizeLoopLanes) {
  // A math call whose result nothing uses is dropped, as Enzyme does: its
  // only other effect is errno, which derivative code does not promise.
  // Dead code feeding such a call is dropped with it, to a fixed point.
  bool Changed = true;
  while (Changed) {
    SmallVector<Instruction *, 16> Dead;
    for (Instruction &I : instructions(G)) {
      auto *CB = dyn_cast<CallBase>(&I);
      if (I.use_empty() &&
          (isInstructionTriviallyDead(&I) ||
           (CB && findMathFunction(*CB) && !mathWritesMemory(*CB))))
        Dead.push_back(&I);
    }
    for (Instruction *I : Dead)
      I->eraseFromParent();
    Changed = !Dead.empty();
  }
  runSimplification(G, FAM, /*ForSynthesized=*/true);
  // A batched reverse sweep's loop does per-lane read-modify-writes of the
  // shadows next to <N x T> adjoint arithmetic; as scalars the loop
  // vectoriser vectorises it across iterations (measured on a matrix-vector
  // product: about 20% faster at widths 2-8). Loop-free code keeps its
  // vectors.
  if (ScalarizeLoopLanes && !FAM.getResult<LoopAnalysis>(G).empty()) {
    FunctionPassManager FPM;
    FPM.addPass(ScalarizerPass());
    FPM.addPass(InstCombinePass());
    FPM.run(G, FAM);
    FAM.invalidate(G, PreservedAnalyses::none());
  }
}

} // namespace tapestry
