//===- IndirectCalls.cpp - Calls through run-time function pointers -------===//
//
// Implements IndirectCalls.h: dispatchIndirectCalls replaces each indirect call
// of a prepared primal by a switch over the candidates (indirectCallCandidates:
// functions of the call's type whose address escapes, narrowed where the
// pointer's origin is known, at most -tapestry-max-indirect-candidates),
// keeping the original call as the marked fallback that isUnknownCalleeFallback
// recognises, unless the narrowed candidates are every function the pointer
// can hold. Differentiating the branches is left to the synthesizers.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/IndirectCalls.h"

#include "Core/Diagnostics.h"
#include "Core/EntryPoints.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/GlobalIFunc.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "tapestry"

using namespace llvm;

STATISTIC(NumDispatched, "Indirect calls dispatched on the pointer's value");

static cl::opt<unsigned> MaxCandidates(
    "tapestry-max-indirect-candidates", cl::init(32), cl::Hidden,
    cl::desc("Most functions an indirect call in differentiated code is "
             "dispatched over; beyond it, the call is rejected as unknown"));

namespace tapestry {

/// Names of functions and globals that only Tapestry or Enzyme's interface
/// refer to: an address given to them does not make a function a callee.
static bool isInterfaceName(StringRef Name) {
  return Name.starts_with("__enzyme_") || Name.starts_with("tapestry.") ||
         Name.starts_with("__tapestry") || Name.starts_with("llvm.");
}

/// True if a use of a function's address in \p U (transitively through
/// constants) lets the address reach a call through a pointer.
static bool escapes(const User *U, SmallPtrSetImpl<const User *> &Seen) {
  if (!Seen.insert(U).second)
    return false;
  if (auto *GV = dyn_cast<GlobalVariable>(U))
    return !isInterfaceName(GV->getName());
  if (isa<Constant>(U)) // aggregates and expressions: follow their users
    return any_of(U->users(), [&](const User *V) { return escapes(V, Seen); });
  if (auto *CB = dyn_cast<CallBase>(U)) {
    const Function *Callee = CB->getCalledFunction();
    if (Callee && (Callee->isIntrinsic() || isInterfaceName(Callee->getName())))
      return false;
    return true; // a constant holding the address is passed on
  }
  if (isa<ICmpInst>(U))
    return false;
  return true; // stored, selected, returned, converted to an integer
}

/// True if \p U passes a function to a request as one of the differentiated
/// function's arguments (`enzyme_const, callback`), not as the function to
/// differentiate: the differentiated code receives it as a value unless
/// the request is specialised for it (Passes/ConstantArguments.h), and the
/// halves of a split request are not when one receives it as a variable.
static bool passedToRequest(const CallBase &CB, const Use &U) {
  const Function *Callee = CB.getCalledFunction();
  if (!Callee || !CB.isArgOperand(&U) || CB.getArgOperandNo(&U) == 0)
    return false;
  switch (classifyEntryPoint(Callee->getName())) {
  case EntryPoint::Autodiff:
  case EntryPoint::ForwardDiff:
  case EntryPoint::AugmentedForward:
  case EntryPoint::SplitReverse:
  case EntryPoint::ForwardSplit:
    return true;
  default:
    return false;
  }
}

static bool addressEscapes(const Function &F) {
  SmallPtrSet<const User *, 16> Seen;
  for (const Use &U : F.uses()) {
    const User *Usr = U.getUser();
    if (auto *CB = dyn_cast<CallBase>(Usr)) {
      if (CB->isCallee(&U))
        continue;
      if (passedToRequest(*CB, U))
        return true;
      const Function *Callee = CB->getCalledFunction();
      if (Callee &&
          (Callee->isIntrinsic() || isInterfaceName(Callee->getName())))
        continue;
      return true;
    }
    if (escapes(Usr, Seen))
      return true;
  }
  return false;
}

/// True if \p F is a body that only traps: the deleting destructor of an
/// abstract class (llvm.trap), a pure or deleted virtual's stand-in. It is
/// in vtables, so a virtual call may seem to reach it, but it has no
/// derivative to give (it never returns): such a call takes the
/// dispatch's fallback, which stops the derivative with a message.
static bool onlyTraps(const Function &F) {
  if (F.isDeclaration())
    return false;
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      if (isa<ReturnInst>(I))
        return false;
      if (auto *CB = dyn_cast<CallBase>(&I)) {
        const Function *Callee = CB->getCalledFunction();
        if (!Callee || !(Callee->getIntrinsicID() == Intrinsic::trap ||
                         Callee->getIntrinsicID() == Intrinsic::ubsantrap ||
                         Callee->doesNotReturn()))
          return false;
      }
    }
  return true;
}

SmallVector<Function *, 8> indirectCallCandidates(Module &M,
                                                  FunctionType *FTy) {
  SmallVector<Function *, 8> Out;
  for (Function &F : M)
    if (F.getFunctionType() == FTy && !F.isIntrinsic() &&
        !isInterfaceName(F.getName()) && !onlyTraps(F) && addressEscapes(F))
      Out.push_back(&F);
  return Out;
}

/// True if \p GV is a table whose contents are its initializer: constant,
/// or local to this file and only ever read (through loads, possibly at
/// offsets), so that no code can store another pointer in it.
static bool isReadOnlyTable(const GlobalVariable &GV) {
  if (!GV.hasDefinitiveInitializer())
    return false;
  if (GV.isConstant())
    return true;
  if (!GV.hasLocalLinkage())
    return false;
  SmallVector<const Value *, 8> Work{&GV};
  SmallPtrSet<const Value *, 8> Seen;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (const User *U : V->users()) {
      if (auto *L = dyn_cast<LoadInst>(U)) {
        if (L->isVolatile())
          return false;
        continue;
      }
      if (isa<GEPOperator>(U)) {
        Work.push_back(U);
        continue;
      }
      return false; // stored to, passed, or its address escapes
    }
  }
  return true;
}

/// Adds to \p Out every function in the constant \p C. Returns false if
/// \p C may hold a function that is not one of them: an alias or ifunc
/// (which function it is may be decided at link or load time, or not
/// until the alias is resolved), or an integer made a pointer.
static bool functionsIn(const Constant *C, SmallPtrSetImpl<Function *> &Out,
                        SmallPtrSetImpl<const Constant *> &Seen) {
  if (!Seen.insert(C).second)
    return true;
  if (auto *F = dyn_cast<Function>(C)) {
    Out.insert(const_cast<Function *>(F));
    return true;
  }
  if (isa<GlobalAlias>(C) || isa<GlobalIFunc>(C))
    return false;
  if (isa<GlobalValue>(C))
    return true; // data: calling it is undefined
  if (auto *CE = dyn_cast<ConstantExpr>(C);
      CE && CE->getOpcode() == Instruction::IntToPtr)
    return false;
  bool Known = true;
  for (const Use &Op : C->operands())
    if (auto *OpC = dyn_cast<Constant>(Op.get()))
      Known &= functionsIn(OpC, Out, Seen);
  return Known;
}

namespace {
/// Where a called pointer's possible values are looked for.
struct TargetSearch {
  /// The function being dispatched, and the one it was cloned from (its
  /// arguments are the original's, whose call sites are in the module).
  const Function *Clone = nullptr, *Original = nullptr;
  SmallPtrSet<Function *, 8> Targets;
  SmallPtrSet<const Value *, 16> Seen;
};
} // namespace

/// The functions the called pointer \p V can hold, when the module shows
/// where it comes from: a function, a load from a read-only table of
/// functions (any function of its initializer), a select or phi of those,
/// or an argument of a function local to the file whose every use is a
/// call passing such a value. False when its origin is not visible (an
/// argument of a function other files may call, a load from writable
/// memory).
static bool possibleTargets(const Value *V, TargetSearch &S) {
  V = V->stripPointerCasts();
  if (!S.Seen.insert(V).second)
    return true;
  SmallPtrSetImpl<Function *> &Out = S.Targets;
  if (auto *A = dyn_cast<Argument>(V)) {
    const Function *G = A->getParent();
    if (G == S.Clone && S.Original)
      G = S.Original;
    if (!G->hasLocalLinkage())
      return false;
    bool AnyCall = false;
    for (const Use &U : G->uses()) {
      auto *CB = dyn_cast<CallBase>(U.getUser());
      if (!CB || !CB->isCallee(&U) || CB->arg_size() <= A->getArgNo())
        return false; // its address escapes: callers are not all visible
      AnyCall = true;
      if (!possibleTargets(CB->getArgOperand(A->getArgNo()), S))
        return false;
    }
    return AnyCall;
  }
  if (auto *F = dyn_cast<Function>(V)) {
    Out.insert(const_cast<Function *>(F));
    return true;
  }
  if (isa<GlobalAlias>(V) || isa<GlobalIFunc>(V))
    return false; // resolved at link or load time
  if (isa<ConstantPointerNull>(V) || isa<UndefValue>(V))
    return true; // calling it is undefined: no derivative is owed
  if (auto *Sel = dyn_cast<SelectInst>(V))
    return possibleTargets(Sel->getTrueValue(), S) &&
           possibleTargets(Sel->getFalseValue(), S);
  if (auto *Phi = dyn_cast<PHINode>(V))
    return all_of(Phi->incoming_values(),
                  [&](const Value *In) { return possibleTargets(In, S); });
  if (auto *L = dyn_cast<LoadInst>(V)) {
    auto *GV =
        dyn_cast<GlobalVariable>(getUnderlyingObject(L->getPointerOperand()));
    if (!GV || !isReadOnlyTable(*GV))
      return false;
    SmallPtrSet<const Constant *, 16> SeenC;
    return functionsIn(GV->getInitializer(), Out, SeenC);
  }
  return false;
}

/// Narrows \p Candidates (the functions of the call's type whose address
/// escapes) to those \p CI's pointer can hold, when its origin is visible:
/// a call through a constant table of functions cannot reach a function
/// stored in another table. Unchanged when any possible target is not a
/// candidate (a cast pointer), so the dispatch stays as complete as before.
/// Returns true if the pointer can hold no other function than the
/// narrowed candidates (every possible target is one of them), so that
/// the dispatch needs no fallback.
static bool narrowToTargets(const CallInst &CI, const Function *Original,
                            SmallVectorImpl<Function *> &Candidates) {
  TargetSearch S;
  S.Clone = CI.getFunction();
  S.Original = Original;
  if (!possibleTargets(CI.getCalledOperand(), S))
    return false;
  SmallVector<Function *, 8> Narrowed;
  for (Function *Callee : Candidates)
    if (S.Targets.contains(Callee))
      Narrowed.push_back(Callee);
  bool Complete = true;
  for (Function *T : S.Targets) {
    if (is_contained(Narrowed, T))
      continue;
    if (T->getFunctionType() == CI.getFunctionType() && T != CI.getFunction())
      return false;
    Complete = false; // another type's function, or the caller itself
  }
  Candidates = std::move(Narrowed);
  return Complete && !Candidates.empty();
}

/// Whether a call of type \p FTy could carry a derivative: it takes or
/// gives floating-point values or pointers.
static bool mayCarryDerivatives(FunctionType *FTy) {
  auto Carries = [](Type *T) {
    return T->isFPOrFPVectorTy() || T->isPtrOrPtrVectorTy() ||
           T->isAggregateType();
  };
  return Carries(FTy->getReturnType()) || any_of(FTy->params(), Carries);
}

/// Ends \p B's block with a stop printing the message \p Msg: stdout
/// flushed, the message on stderr, abort. Calls the analyses know as
/// inactive (the message is changed later: its length is not known here).
static void emitStop(IRBuilderBase &B, GlobalVariable *Msg) {
  Module &M = *B.GetInsertBlock()->getModule();
  Type *Ptr = B.getPtrTy();
  FunctionCallee Flush = M.getOrInsertFunction(
      "fflush", FunctionType::get(B.getInt32Ty(), {Ptr}, false));
  FunctionCallee Puts = M.getOrInsertFunction(
      "fputs", FunctionType::get(B.getInt32Ty(), {Ptr, Ptr}, false));
  FunctionCallee Abort =
      M.getOrInsertFunction("abort", FunctionType::get(B.getVoidTy(), false));
  B.CreateCall(Flush, {ConstantPointerNull::get(cast<PointerType>(Ptr))});
  B.CreateCall(Puts, {Msg, B.CreateLoad(Ptr, M.getOrInsertGlobal("stderr", Ptr),
                                        "stderr")});
  B.CreateCall(Abort)->setDoesNotReturn();
  B.CreateUnreachable();
}

/// The message of a stop. Not constant: it is replaced once why is known,
/// and the simplifier must not have taken its length (fputs of a constant
/// string becomes fwrite of its bytes).
static GlobalVariable *messageGlobal(Module &M, StringRef Text) {
  Constant *Init = ConstantDataArray::getString(M.getContext(), Text);
  return new GlobalVariable(M, Init->getType(), /*isConstant=*/false,
                            GlobalValue::PrivateLinkage, Init,
                            "tapestry.stopped.candidate");
}

void explainStop(DispatchedCall::Stop &S, const Twine &Why) {
  GlobalVariable *Old = S.Message;
  S.Message =
      messageGlobal(*Old->getParent(), (S.Text + ": " + Why + "\n").str());
  S.Message->takeName(Old);
  Old->replaceAllUsesWith(S.Message);
  Old->eraseFromParent();
}

/// Replaces \p CI by a test of its pointer against each candidate, a direct
/// call for each (a stop for those in \p Stopped), and the original call
/// as the fallback; with \p Complete (the pointer holds one of the
/// candidates, or calling it is undefined), the last candidate is called
/// untested and there is no fallback (a static `void *(*alloc)(size_t) =
/// malloc` called is malloc called).
static void dispatch(CallInst &CI, ArrayRef<Function *> Candidates,
                     bool Complete, const StoppedCandidates *Stopped,
                     DispatchedCall &Out) {
  Function &F = *CI.getFunction();
  LLVMContext &C = F.getContext();
  Value *Target = CI.getCalledOperand();
  BasicBlock *Head = CI.getParent();
  BasicBlock *Join = Head->splitBasicBlock(CI.getIterator(), "dispatch.join");
  Head->getTerminator()->eraseFromParent();
  Out.Candidates.assign(Candidates.begin(), Candidates.end());
  Out.Complete = Complete;
  std::string Where = sourceLocation(&CI);

  SmallVector<std::pair<Value *, BasicBlock *>, 8> Results;
  BasicBlock *Test = Head;
  for (auto [I, Callee] : enumerate(Candidates)) {
    bool Last = Complete && I + 1 == Candidates.size();
    BasicBlock *Case = Test;
    if (!Last) {
      Case = BasicBlock::Create(C, "dispatch." + Callee->getName(), &F, Join);
      auto *Next = BasicBlock::Create(C, "dispatch.next", &F, Join);
      IRBuilder<> B(Test);
      B.SetCurrentDebugLocation(CI.getDebugLoc());
      B.CreateCondBr(B.CreateICmpEQ(Target, Callee), Case, Next);
      Test = Next;
    }
    if (Stopped && Stopped->count(Callee)) {
      // The derivative stops where the pointer holds this candidate.
      std::string Text =
          "Tapestry: " + (Where.empty() ? std::string() : Where + ": ") +
          "the derivative of '" + sourceName(F) + "' calls '" +
          sourceName(*Callee) +
          "' through a function pointer, and cannot differentiate it";
      IRBuilder<> B(Case);
      B.SetCurrentDebugLocation(CI.getDebugLoc());
      GlobalVariable *Msg = messageGlobal(*F.getParent(), Text + "\n");
      emitStop(B, Msg);
      Out.Stops.push_back({Callee, Msg, Text});
    } else {
      // Called without a test, when it is the only function left.
      auto *Direct = cast<CallInst>(CI.clone());
      Direct->setCalledOperand(Callee);
      Direct->insertInto(Case, Case->end());
      BranchInst::Create(Join, Case);
      Results.push_back({Direct, Case});
    }
    if (Last)
      break;
  }
  if (!Complete) {
    auto *Fallback = cast<CallInst>(CI.clone());
    Fallback->setMetadata(UnknownCalleeMD, MDNode::get(C, {}));
    Fallback->insertInto(Test, Test->end());
    BranchInst::Create(Join, Test);
    Results.push_back({Fallback, Test});
  }

  if (!CI.getType()->isVoidTy()) {
    IRBuilder<> B(Join, Join->begin());
    PHINode *Phi = B.CreatePHI(CI.getType(), Results.size(), CI.getName());
    for (auto [V, BB] : Results)
      Phi->addIncoming(V, BB);
    CI.replaceAllUsesWith(Phi);
  }
  CI.eraseFromParent();
  ++NumDispatched;
}

bool dispatchIndirectCalls(Function &F, const Function *Original,
                           const StoppedCandidates *Stopped,
                           SmallVectorImpl<DispatchedCall> *Dispatched) {
  struct Site {
    CallInst *CI;
    SmallVector<Function *, 8> Candidates;
    bool Complete;
  };
  SmallVector<Site, 4> Work;
  // Finding candidates reads every function's uses: once per type.
  DenseMap<FunctionType *, SmallVector<Function *, 8>> ByType;
  for (Instruction &I : instructions(F)) {
    auto *CI = dyn_cast<CallInst>(&I);
    if (!CI || CI->getCalledFunction() || CI->isInlineAsm() ||
        CI->isMustTailCall() || isUnknownCalleeFallback(*CI))
      continue;
    SmallVector<Function *, 8> Candidates;
    FunctionType *FTy = CI->getFunctionType();
    auto [It, New] = ByType.try_emplace(FTy);
    if (New)
      It->second = indirectCallCandidates(*F.getParent(), FTy);
    for (Function *Callee : It->second)
      if (Callee->getCallingConv() == CI->getCallingConv() && Callee != &F)
        Candidates.push_back(Callee);
    bool Complete = narrowToTargets(*CI, Original, Candidates);
    // A call that passes and returns nothing differentiable still runs
    // code that may read and write differentiated memory through globals
    // (void(void) kernels called from a table, review30 m7): taken for
    // inactive, their derivatives were lost.
    if (!mayCarryDerivatives(FTy) && all_of(Candidates, [](Function *C) {
          return C->doesNotAccessMemory();
        }))
      continue;
    LLVM_DEBUG(dbgs() << "tapestry: " << Candidates.size()
                      << " candidate callees for " << *CI << "\n");
    if (Candidates.empty() || Candidates.size() > MaxCandidates)
      continue;
    Work.push_back({CI, std::move(Candidates), Complete});
  }
  for (Site &W : Work) {
    DispatchedCall D;
    dispatch(*W.CI, W.Candidates, W.Complete, Stopped, D);
    if (Dispatched)
      Dispatched->push_back(std::move(D));
  }
  return !Work.empty();
}

unsigned maxIndirectCandidates() { return MaxCandidates; }

bool isUnknownCalleeFallback(const CallBase &CB) {
  return CB.hasMetadata(UnknownCalleeMD);
}

} // namespace tapestry
