//===- ActivityAnalysis.cpp - Varied, useful, active, shadowed ------------===//
//
// Implements ActivityAnalysis.h with two data flows over one prepared primal:
// VariedPropagation runs forward from the request's active arguments (values
// that depend on them, pointers into shadowed memory), UsefulPropagation runs
// backward from the active return and outputs; a value is active when it is
// both. computeActivity is the entry point; isInactiveCall decides which calls
// carry no derivative (registered inactive functions, bookkeeping intrinsics,
// Core/KnownInactive's list), and ActivityPrinterPass is
// print<tapestry-activity>. It plans no code: Synthesis reads the result.
//
//===----------------------------------------------------------------------===//
#include "Analysis/ActivityAnalysis.h"

#include "Analysis/GlobalShadows.h"
#include "Analysis/PlainHeapBlocks.h"
#include "Core/AllocationFunctions.h"
#include "Core/KnownInactive.h"
#include "Core/MathFunctions.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/ModuleSlotTracker.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>

#define DEBUG_TYPE "tapestry"

using namespace llvm;

STATISTIC(NumActivityAnalyses, "Activity analyses (one per request)");
STATISTIC(NumActiveValues, "Values found active (carrying a derivative)");

namespace tapestry {

/// An aggregate member that carries no derivative but may sit beside one
/// that does: integers (and aggregates of them), never pointers, whose
/// shadows a by-value aggregate cannot hold.
static bool isPassiveMember(Type *T) {
  if (T->isIntOrIntVectorTy())
    return true;
  if (auto *ST = dyn_cast<StructType>(T))
    return all_of(ST->elements(), isPassiveMember);
  if (auto *AT = dyn_cast<ArrayType>(T))
    return isPassiveMember(AT->getElementType());
  return false;
}

bool isDifferentiableType(Type *T) {
  if (T->isFPOrFPVectorTy())
    return true;
  if (auto *ST = dyn_cast<StructType>(T))
    return any_of(ST->elements(), isDifferentiableType) &&
           all_of(ST->elements(), [](Type *E) {
             return isDifferentiableType(E) || isPassiveMember(E);
           });
  if (auto *AT = dyn_cast<ArrayType>(T))
    return isDifferentiableType(AT->getElementType());
  return false;
}

static StringRef calleeName(const CallBase &CB) {
  if (const Function *F = CB.getCalledFunction())
    return F->getName();
  return "";
}

bool isShadowMirrorCall(const CallBase &CB) {
  StringRef Name = calleeName(CB);
  return Name.starts_with("_ZSt18_Rb_tree_increment") ||
         Name.starts_with("_ZSt18_Rb_tree_decrement") ||
         Name.starts_with("_ZSt29_Rb_tree_insert_and_rebalance") ||
         Name.starts_with("_ZSt28_Rb_tree_rebalance_for_erase") ||
         // std::list's _M_hook, _M_unhook, _M_transfer, _M_reverse, swap.
         Name.starts_with("_ZNSt8__detail15_List_node_base");
}

bool isEndPointerCall(const CallBase &CB) {
  StringRef Name = calleeName(CB);
  Name.consume_front("__isoc23_");
  return Name.starts_with("strto") && CB.arg_size() >= 2;
}

bool isInactiveCall(const CallBase &CB, const CustomRules *Rules) {
  if (Rules && CB.getCalledFunction() &&
      Rules->isInactive(CB.getCalledFunction()))
    return true;
  if (auto *II = dyn_cast<IntrinsicInst>(&CB)) {
    switch (II->getIntrinsicID()) {
    case Intrinsic::dbg_declare:
    case Intrinsic::dbg_value:
    case Intrinsic::dbg_label:
    case Intrinsic::lifetime_start:
    case Intrinsic::lifetime_end:
    case Intrinsic::assume:
    case Intrinsic::experimental_noalias_scope_decl:
    case Intrinsic::stacksave:
    case Intrinsic::stackrestore:
    case Intrinsic::prefetch:
    case Intrinsic::trap:
    case Intrinsic::debugtrap:
    case Intrinsic::expect:
    case Intrinsic::invariant_start:
    case Intrinsic::invariant_end:
    case Intrinsic::var_annotation:
    case Intrinsic::ptr_annotation:
    case Intrinsic::annotation:
    case Intrinsic::donothing:
    case Intrinsic::is_fpclass: // isnan, isfinite, ...: a boolean
    case Intrinsic::objectsize: // -fsanitize=object-size, _FORTIFY_SOURCE
    case Intrinsic::ubsantrap:
    case Intrinsic::vastart:
    case Intrinsic::vaend:
    case Intrinsic::vacopy:
      return true;
    default:
      return false;
    }
  }
  return isKnownInactiveFunction(calleeName(CB));
}

bool mayReachDifferentiableData(const Value *Result) {
  SmallVector<const Value *, 8> Work{Result};
  SmallPtrSet<const Value *, 8> Seen{Result};
  auto Carries = [](Type *T) {
    return T->isPtrOrPtrVectorTy() || T->isFPOrFPVectorTy() ||
           T->isAggregateType();
  };
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (isa<GetElementPtrInst>(U) || isa<CastInst>(U) || isa<PHINode>(U) ||
          isa<SelectInst>(U) || isa<FreezeInst>(U)) {
        if (!isa<PtrToIntInst>(U) && Seen.insert(U).second)
          Work.push_back(U);
        continue;
      }
      if (isa<ICmpInst>(U))
        continue;
      if (auto *LI = dyn_cast<LoadInst>(U)) {
        if (Carries(LI->getType()))
          return true;
        continue;
      }
      if (auto *SI = dyn_cast<StoreInst>(U)) {
        if (SI->getValueOperand() == V ||
            Carries(SI->getValueOperand()->getType()))
          return true;
        continue;
      }
      if (auto *CB = dyn_cast<CallBase>(U)) {
        if (isDeallocationCall(*CB) || isa<DbgInfoIntrinsic>(CB))
          continue;
        if (auto *II = dyn_cast<IntrinsicInst>(CB);
            II && II->isLifetimeStartOrEnd())
          continue;
      }
      return true;
    }
  }
  return false;
}

const Value *roundedPointerBase(const IntToPtrInst &I) {
  const Value *V = I.getOperand(0);
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    if (auto *P2I = dyn_cast<PtrToIntInst>(V))
      return P2I->getPointerOperand();
    auto *BO = dyn_cast<BinaryOperator>(V);
    if (!BO)
      return nullptr;
    switch (BO->getOpcode()) {
    case Instruction::Add:
    case Instruction::Sub:
    case Instruction::And:
    case Instruction::Or:
    case Instruction::Xor:
      break;
    default:
      return nullptr;
    }
    if (isa<ConstantInt>(BO->getOperand(1)))
      V = BO->getOperand(0);
    else if (isa<ConstantInt>(BO->getOperand(0)) &&
             BO->getOpcode() != Instruction::Sub)
      V = BO->getOperand(1);
    else
      return nullptr;
  }
  return nullptr;
}

bool returnsShadowedPointer(const CallBase &CB, const CustomRules *Rules) {
  const Function *Callee = CB.getCalledFunction();
  return Callee && !Callee->isDeclaration() && CB.getType()->isPointerTy() &&
         !isInactiveCall(CB, Rules) && !isShadowMirrorCall(CB) &&
         !(Rules && (Rules->gradient(Callee) || Rules->isOpaque(Callee))) &&
         mayReachDifferentiableData(&CB);
}

namespace {

/// A stack object's bytes [Begin, End) that a call with no derivative code
/// may write.
struct UnmirroredWrite {
  const AllocaInst *Object;
  int64_t Begin;
  uint64_t End;
};

/// The parts of stack objects that calls getting no derivative code may
/// write through their pointer arguments: std::string's member functions
/// store the string's data pointer (a heap block they allocate) into the
/// object, and nothing stores the matching shadow.
SmallVector<UnmirroredWrite, 4> unmirroredWrites(Function &F,
                                                 const CustomRules *Rules) {
  SmallVector<UnmirroredWrite, 4> Writes;
  const DataLayout &DL = F.getDataLayout();
  for (Instruction &I : instructions(F)) {
    auto *CB = dyn_cast<CallBase>(&I);
    if (!CB || isa<IntrinsicInst>(CB) || CB->onlyReadsMemory() ||
        !isInactiveCall(*CB, Rules))
      continue;
    // Only declared parameters known to point to an object of a known
    // size (a C++ `this`, dereferenceable(32) for a std::string): printf's
    // variadic arguments and snprintf's buffer say nothing of what is
    // written, and the pointers beside them keep their shadows.
    for (unsigned A = 0; A < CB->getFunctionType()->getNumParams(); ++A) {
      Value *Arg = CB->getArgOperand(A);
      // strtod's end pointer has its shadow stored (storeEndPointerShadow).
      if (!Arg->getType()->isPointerTy() || CB->onlyReadsMemory(A) ||
          (A == 1 && isEndPointerCall(*CB)))
        continue;
      int64_t Off = 0;
      const auto *Object =
          dyn_cast<AllocaInst>(GetPointerBaseWithConstantOffset(Arg, Off, DL));
      if (!Object)
        continue;
      uint64_t Size = CB->getParamDereferenceableBytes(A);
      if (const Function *Callee = CB->getCalledFunction(); !Size && Callee)
        Size = Callee->getParamDereferenceableBytes(A);
      if (Size)
        Writes.push_back({Object, Off, Off + Size});
    }
  }
  return Writes;
}

/// True if the pointer \p LI loads may have been written by a call that
/// gets no derivative code (\p Writes): the shadow memory still holds what
/// was there before, which is no shadow of the loaded pointer (the shadow
/// string's data pointer, left at its small-string buffer, freed when the
/// primal frees its heap block).
bool loadsUnmirroredPointer(const LoadInst &LI,
                            ArrayRef<UnmirroredWrite> Writes) {
  if (Writes.empty() || !LI.getType()->isPtrOrPtrVectorTy())
    return false;
  const DataLayout &DL = LI.getDataLayout();
  int64_t Off = 0;
  const Value *Base =
      GetPointerBaseWithConstantOffset(LI.getPointerOperand(), Off, DL);
  uint64_t Size = DL.getTypeStoreSize(LI.getType());
  return any_of(Writes, [&](const UnmirroredWrite &W) {
    return W.Object == Base && Off + (int64_t)Size > W.Begin &&
           Off < (int64_t)W.End;
  });
}

/// The loads of pointers from globals with shadows in \p F that no store
/// into the same bytes precedes, that only release what they point to
/// (releasesOnly), and after which \p F stores a new pointer there: an
/// owner's old block, deleted when the new one is stored
/// (unique_ptr::reset). GlobalShadows gives such a global a shadow when its
/// other reads follow stores; the shadow memory then holds the shadow the
/// last derivative stored, or null where none did
/// (ActivityInfo::OwnerReleaseReads). (A read that releases a block before
/// a null is stored, in a helper called after the store, has the shadow of
/// that store and keeps it.)
static SmallVector<const LoadInst *, 2>
releasedBeforeStore(Function &F, const GlobalShadows &Globals) {
  SmallVector<const LoadInst *, 2> Loads;
  std::optional<DominatorTree> DT;
  const DataLayout &DL = F.getDataLayout();
  // Stores of pointers into \p G at \p Off that \p Before dominates (or
  // that dominate \p LI when not \p Before), of non-null pointers only if
  // \p NonNull.
  auto Stored = [&](const LoadInst &LI, const Value *G, int64_t Off,
                    bool Before, bool NonNull) {
    for (const Instruction &I : instructions(F)) {
      const auto *SI = dyn_cast<StoreInst>(&I);
      int64_t StoreOff = 0;
      if (SI && SI->getValueOperand()->getType()->isPointerTy() &&
          GetPointerBaseWithConstantOffset(SI->getPointerOperand(), StoreOff,
                                           DL) == G &&
          StoreOff == Off &&
          (!NonNull || !isa<ConstantPointerNull>(SI->getValueOperand())) &&
          (Before ? DT->dominates(SI, &LI) : DT->dominates(&LI, SI)))
        return true;
    }
    return false;
  };
  for (const Instruction &I : instructions(F)) {
    const auto *LI = dyn_cast<LoadInst>(&I);
    if (!LI || !LI->getType()->isPointerTy())
      continue;
    int64_t Off = 0;
    const auto *G = dyn_cast_or_null<GlobalVariable>(
        GetPointerBaseWithConstantOffset(LI->getPointerOperand(), Off, DL));
    if (!G || !Globals.contains(G) || !releasesOnly(*LI))
      continue;
    if (!DT)
      DT.emplace(F);
    if (!Stored(*LI, G, Off, /*Before=*/true, /*NonNull=*/false) &&
        Stored(*LI, G, Off, /*Before=*/false, /*NonNull=*/true))
      Loads.push_back(LI);
  }
  return Loads;
}

/// Forward data flow: which values depend on an active input, which pointers
/// point into memory with a shadow.
class VariedPropagation {
public:
  VariedPropagation(Function &F, const DiffRequest &R, ActivityInfo &AI,
                    const CustomRules *Rules, const GlobalShadows *Globals)
      : F(F), R(R), AI(AI), Rules(Rules), Globals(Globals) {}

  void run() {
    for (auto [Arg, Act] : zip(F.args(), R.Args)) {
      if (Act == Activity::Const)
        continue;
      if (isDifferentiableType(Arg.getType()))
        AI.Varied.insert(&Arg);
      else if (Arg.getType()->isPointerTy() && Act != Activity::Active)
        AI.Shadowed.insert(&Arg);
    }
    SmallVector<UnmirroredWrite, 4> Writes = unmirroredWrites(F, Rules);
    for (Instruction &I : instructions(F))
      if (auto *LI = dyn_cast<LoadInst>(&I);
          LI && loadsUnmirroredPointer(*LI, Writes))
        Unmirrored.insert(LI);
    if (Globals)
      for (const LoadInst *LI : releasedBeforeStore(F, *Globals))
        AI.OwnerReleaseReads.insert(LI);
    Plain = findPlainHeapBlocks(F);
    bool Changed = true;
    while (Changed) {
      Changed = false;
      for (Instruction &I : instructions(F))
        Changed |= visit(I);
    }
  }

private:
  bool anyOperand(Instruction &I,
                  const SmallPtrSet<const Value *, 32> &Set) const {
    return any_of(I.operands(), [&](const Use &U) { return Set.count(U); });
  }

  bool visit(Instruction &I) {
    Type *T = I.getType();
    // Vectors of pointers (a gather's addresses) have shadows too.
    if (T->isPtrOrPtrVectorTy())
      return !AI.Shadowed.count(&I) && needsShadow(I) && !onlyCalled(I) &&
             AI.Shadowed.insert(&I).second;
    if (!isDifferentiableType(T) || AI.Varied.count(&I))
      return false;
    bool V = false;
    if (auto *LI = dyn_cast<LoadInst>(&I))
      V = AI.Shadowed.count(LI->getPointerOperand());
    else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
      V = AI.Shadowed.count(RMW->getPointerOperand()) ||
          AI.Varied.count(RMW->getValOperand());
    else if (auto *CB = dyn_cast<CallBase>(&I))
      V = !isInactiveCall(*CB, Rules) &&
          (anyOperand(I, AI.Varied) || anyOperand(I, AI.Shadowed) ||
           (Globals && Globals->isTouchedBy(CB->getCalledFunction())));
    else if (auto *SI = dyn_cast<SelectInst>(&I))
      V = AI.Varied.count(SI->getTrueValue()) ||
          AI.Varied.count(SI->getFalseValue());
    else
      V = anyOperand(I, AI.Varied);
    return V && AI.Varied.insert(&I).second;
  }

  /// A masked load or gather of pointers (a vectorised read of a pointer
  /// table) from memory with a shadow: the pointers have shadows there.
  bool loadsShadowedPointers(const CallBase &CB) const {
    auto *II = dyn_cast<IntrinsicInst>(&CB);
    return II &&
           (II->getIntrinsicID() == Intrinsic::masked_load ||
            II->getIntrinsicID() == Intrinsic::masked_gather) &&
           AI.Shadowed.count(II->getArgOperand(0));
  }

  /// True if \p I is a function pointer that is only called and compared
  /// (through phis and selects): a pointer to a member function read from
  /// a vtable or cast from the integer a member pointer holds. It points
  /// to code, not data, and needs no shadow: calls through it are
  /// dispatched on the primal pointer (Synthesis/IndirectCalls.h).
  bool onlyCalled(Instruction &I) {
    if (auto It = OnlyCalled.find(&I); It != OnlyCalled.end())
      return It->second;
    OnlyCalled[&I] = true; // a cycle of phis alone calls nothing else
    SmallVector<const Value *, 8> Work = {&I};
    SmallPtrSet<const Value *, 8> Seen = {&I};
    bool Only = true;
    while (Only && !Work.empty()) {
      const Value *V = Work.pop_back_val();
      for (const Use &U : V->uses()) {
        const User *Usr = U.getUser();
        if (auto *CB = dyn_cast<CallBase>(Usr); CB && CB->isCallee(&U))
          continue;
        if (isa<ICmpInst>(Usr))
          continue;
        if ((isa<PHINode>(Usr) || isa<SelectInst>(Usr)) &&
            !(isa<SelectInst>(Usr) && U.getOperandNo() == 0)) {
          if (Seen.insert(Usr).second)
            Work.push_back(Usr);
          continue;
        }
        Only = false;
        break;
      }
    }
    OnlyCalled[&I] = Only;
    return Only;
  }

  bool needsShadow(Instruction &I) const {
    if (isa<AllocaInst>(I))
      return true;
    if (auto *CB = dyn_cast<CallBase>(&I))
      return (isAllocationCall(*CB) && !Plain.count(CB)) ||
             loadsShadowedPointers(*CB) || returnsShadowedPointer(*CB, Rules) ||
             (isShadowMirrorCall(*CB) && anyOperand(I, AI.Shadowed)) ||
             (calleeName(*CB) == "bsearch" && CB->arg_size() == 5 &&
              AI.Shadowed.count(CB->getArgOperand(1)));
    if (auto *LI = dyn_cast<LoadInst>(&I))
      return AI.Shadowed.count(LI->getPointerOperand()) &&
             !Unmirrored.count(LI);
    if (auto *GEP = dyn_cast<GetElementPtrInst>(&I))
      return AI.Shadowed.count(GEP->getPointerOperand());
    if (auto *SI = dyn_cast<SelectInst>(&I))
      return AI.Shadowed.count(SI->getTrueValue()) ||
             AI.Shadowed.count(SI->getFalseValue());
    if (auto *I2P = dyn_cast<IntToPtrInst>(&I)) {
      const Value *Base = roundedPointerBase(*I2P);
      if (Base)
        return AI.Shadowed.count(Base);
      // An address read back as an integer from memory with a shadow
      // (uintptr_t kept in a record): the shadow memory holds its shadow.
      auto *Int = dyn_cast<LoadInst>(I2P->getOperand(0));
      return Int && AI.Shadowed.count(Int->getPointerOperand());
    }
    if (isa<PHINode>(I) || isa<CastInst>(I) || isa<FreezeInst>(I) ||
        isa<InsertElementInst>(I) || isa<ExtractElementInst>(I) ||
        isa<ShuffleVectorInst>(I))
      return anyOperand(I, AI.Shadowed);
    return false;
  }

  Function &F;
  const DiffRequest &R;
  ActivityInfo &AI;
  const CustomRules *Rules;
  const GlobalShadows *Globals;
  /// Pointer loads whose shadow memory nothing keeps (loadsUnmirroredPointer).
  SmallPtrSet<const LoadInst *, 4> Unmirrored;
  /// Memo of onlyCalled.
  DenseMap<const Instruction *, bool> OnlyCalled;
  /// Allocations holding only integers: no shadow (PlainHeapBlocks.h).
  SmallPtrSet<const CallBase *, 4> Plain;
};

/// Backward data flow: which values influence an active output.
class UsefulPropagation {
public:
  UsefulPropagation(Function &F, const DiffRequest &R, ActivityInfo &AI,
                    const CustomRules *Rules)
      : F(F), R(R), AI(AI), Rules(Rules) {}

  void run() {
    for (Instruction &I : instructions(F)) {
      if (auto *RI = dyn_cast<ReturnInst>(&I)) {
        if (R.ReturnActive && RI->getReturnValue())
          mark(RI->getReturnValue());
      } else if (auto *SI = dyn_cast<StoreInst>(&I)) {
        if (AI.Shadowed.count(SI->getPointerOperand()))
          mark(SI->getValueOperand());
      } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
        // An atomic update (#pragma omp atomic) stores too.
        if (AI.Shadowed.count(RMW->getPointerOperand()))
          mark(RMW->getValOperand());
      } else if (auto *CB = dyn_cast<CallBase>(&I)) {
        // Unknown calls see their varied arguments; the synthesizer rejects
        // them, so treat their operands as used to get that error.
        if (!isInactiveCall(*CB, Rules) && !findMathFunction(*CB) &&
            !isAllocationCall(*CB) && !isDeallocationCall(*CB))
          for (Value *Op : CB->args())
            mark(Op);
      }
    }
    while (!Worklist.empty()) {
      Value *V = Worklist.pop_back_val();
      auto *I = dyn_cast<Instruction>(V);
      if (!I || isa<LoadInst>(I))
        continue;
      if (auto *SI = dyn_cast<SelectInst>(I)) {
        mark(SI->getTrueValue());
        mark(SI->getFalseValue());
        continue;
      }
      if (auto *CB = dyn_cast<CallBase>(I)) {
        if (!isInactiveCall(*CB, Rules))
          for (Value *Op : CB->args())
            mark(Op);
        continue;
      }
      for (Value *Op : I->operands())
        mark(Op);
    }
  }

private:
  void mark(Value *V) {
    if (isDifferentiableType(V->getType()) && AI.Useful.insert(V).second)
      Worklist.push_back(V);
  }

  Function &F;
  const DiffRequest &R;
  ActivityInfo &AI;
  const CustomRules *Rules;
  SmallVector<Value *, 32> Worklist;
};

} // namespace

ActivityInfo computeActivity(Function &F, const DiffRequest &R,
                             const CustomRules *Rules,
                             const GlobalShadows *Globals) {
  assert(F.arg_size() == R.Args.size() && "request does not fit function");
  ActivityInfo AI;
  if (Globals)
    for (GlobalVariable *GV : Globals->globals())
      AI.Shadowed.insert(GV);
  VariedPropagation(F, R, AI, Rules, Globals).run();
  UsefulPropagation(F, R, AI, Rules).run();
  for (const Value *V : AI.Varied)
    if (AI.Useful.count(V))
      AI.Active.insert(V);
  ++NumActivityAnalyses;
  NumActiveValues += AI.Active.size();
  return AI;
}

//===----------------------------------------------------------------------===//
// print<tapestry-activity>
//===----------------------------------------------------------------------===//

PreservedAnalyses ActivityPrinterPass::run(Function &F,
                                           FunctionAnalysisManager &) {
  Attribute Attr = F.getFnAttribute("tapestry-activity");
  if (!Attr.isValid())
    return PreservedAnalyses::all();
  DiffRequest R;
  R.Fn = &F;
  for (char C : Attr.getValueAsString())
    R.Args.push_back(C == 'a'   ? Activity::Active
                     : C == 'd' ? Activity::Dup
                     : C == 'n' ? Activity::DupNoNeed
                                : Activity::Const);
  if (R.Args.size() != F.arg_size()) {
    OS << "activity of '" << F.getName() << "': attribute has " << R.Args.size()
       << " letters for " << F.arg_size() << " arguments\n";
    return PreservedAnalyses::all();
  }
  R.ReturnActive = isDifferentiableType(F.getReturnType());
  printActivity(OS, F, computeActivity(F, R));
  return PreservedAnalyses::all();
}

void printActivity(raw_ostream &OS, const Function &F, const ActivityInfo &AI) {
  OS << "activity of '" << F.getName() << "':\n";
  auto Describe = [&](const Value &V) -> StringRef {
    if (AI.isActive(&V))
      return "active";
    if (AI.hasShadow(&V))
      return "shadowed";
    if (AI.isVaried(&V))
      return "varied";
    return "inactive";
  };
  // Unnamed values (clang discards names outside debug builds) print as
  // the IR prints them: %0, %1, ...
  ModuleSlotTracker Slots(F.getParent());
  Slots.incorporateFunction(F);
  for (const Argument &A : F.args()) {
    OS << "  arg ";
    A.printAsOperand(OS, /*PrintType=*/false, Slots);
    OS << ": " << Describe(A) << "\n";
  }
  for (const Instruction &I : instructions(F)) {
    if (I.getType()->isVoidTy())
      continue;
    OS << "  ";
    I.printAsOperand(OS, /*PrintType=*/false, Slots);
    OS << ": " << Describe(I) << "\n";
  }
}

} // namespace tapestry
