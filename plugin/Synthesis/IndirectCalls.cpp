//===- IndirectCalls.cpp --------------------------------------------------===//
#include "Synthesis/IndirectCalls.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
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

static bool addressEscapes(const Function &F) {
  SmallPtrSet<const User *, 16> Seen;
  for (const Use &U : F.uses()) {
    const User *Usr = U.getUser();
    if (auto *CB = dyn_cast<CallBase>(Usr)) {
      if (CB->isCallee(&U))
        continue;
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

SmallVector<Function *, 8> indirectCallCandidates(Module &M,
                                                  FunctionType *FTy) {
  SmallVector<Function *, 8> Out;
  for (Function &F : M)
    if (F.getFunctionType() == FTy && !F.isIntrinsic() &&
        !isInterfaceName(F.getName()) && addressEscapes(F))
      Out.push_back(&F);
  return Out;
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

/// Replaces \p CI by a test of its pointer against each candidate, a direct
/// call for each, and the original call as the fallback.
static void dispatch(CallInst &CI, ArrayRef<Function *> Candidates) {
  Function &F = *CI.getFunction();
  LLVMContext &C = F.getContext();
  Value *Target = CI.getCalledOperand();
  BasicBlock *Head = CI.getParent();
  BasicBlock *Join = Head->splitBasicBlock(CI.getIterator(), "dispatch.join");
  Head->getTerminator()->eraseFromParent();

  SmallVector<std::pair<Value *, BasicBlock *>, 8> Results;
  BasicBlock *Test = Head;
  for (Function *Callee : Candidates) {
    auto *Case =
        BasicBlock::Create(C, "dispatch." + Callee->getName(), &F, Join);
    auto *Next = BasicBlock::Create(C, "dispatch.next", &F, Join);
    IRBuilder<> B(Test);
    B.SetCurrentDebugLocation(CI.getDebugLoc());
    B.CreateCondBr(B.CreateICmpEQ(Target, Callee), Case, Next);
    auto *Direct = cast<CallInst>(CI.clone());
    Direct->setCalledOperand(Callee);
    Direct->insertInto(Case, Case->end());
    BranchInst::Create(Join, Case);
    Results.push_back({Direct, Case});
    Test = Next;
  }
  auto *Fallback = cast<CallInst>(CI.clone());
  Fallback->setMetadata(UnknownCalleeMD, MDNode::get(C, {}));
  Fallback->insertInto(Test, Test->end());
  BranchInst::Create(Join, Test);
  Results.push_back({Fallback, Test});

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

bool dispatchIndirectCalls(Function &F) {
  SmallVector<std::pair<CallInst *, SmallVector<Function *, 8>>, 4> Work;
  // Finding candidates reads every function's uses: once per type.
  DenseMap<FunctionType *, SmallVector<Function *, 8>> ByType;
  for (Instruction &I : instructions(F)) {
    auto *CI = dyn_cast<CallInst>(&I);
    if (!CI || CI->getCalledFunction() || CI->isInlineAsm() ||
        CI->isMustTailCall() || isUnknownCalleeFallback(*CI) ||
        !mayCarryDerivatives(CI->getFunctionType()))
      continue;
    SmallVector<Function *, 8> Candidates;
    FunctionType *FTy = CI->getFunctionType();
    auto [It, New] = ByType.try_emplace(FTy);
    if (New)
      It->second = indirectCallCandidates(*F.getParent(), FTy);
    for (Function *Callee : It->second)
      if (Callee->getCallingConv() == CI->getCallingConv() && Callee != &F)
        Candidates.push_back(Callee);
    LLVM_DEBUG(dbgs() << "tapestry: " << Candidates.size()
                      << " candidate callees for " << *CI << "\n");
    if (Candidates.empty() || Candidates.size() > MaxCandidates)
      continue;
    Work.push_back({CI, std::move(Candidates)});
  }
  for (auto &[CI, Candidates] : Work)
    dispatch(*CI, Candidates);
  return !Work.empty();
}

unsigned maxIndirectCandidates() { return MaxCandidates; }

bool isUnknownCalleeFallback(const CallBase &CB) {
  return CB.hasMetadata(UnknownCalleeMD);
}

} // namespace tapestry
