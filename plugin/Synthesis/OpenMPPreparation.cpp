//===- OpenMPPreparation.cpp - Parallel regions ready to differentiate ----===//
//
// Implements the preparation half of OpenMP.h: lowerOpenMPConstructs turns
// reductions into critical sections, and wrapParallelRegions gives each
// __kmpc_fork_call a region body whose arguments are all pointers (values
// passed by value get a copy). Primal preparation runs both on the clone; the
// derivatives of the regions are Synthesis/OpenMPRegions.cpp.
//
//===----------------------------------------------------------------------===//
#include "Core/OpenMPRuntime.h"
#include "Synthesis/OpenMP.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;

namespace tapestry {

/// Marks the bodies wrapParallelRegions made.
static constexpr const char *RegionAttr = "tapestry-omp-region";

static FunctionCallee runtimeFn(Module &M, StringRef Name, Type *Ret,
                                ArrayRef<Type *> Params) {
  return M.getOrInsertFunction(Name, FunctionType::get(Ret, Params, false));
}

/// __kmpc_reduce(_nowait)(loc, gtid, n, size, list, combine, lock) picks a
/// method: 1 (this thread adds its partials into the shared variables,
/// under the lock or after the runtime combined some threads' partials
/// with `combine`, a data flow no derivative sees) or 2 (atomics). Every
/// thread taking method 1 under the lock keeps the whole reduction in the
/// region's own code.
static void lowerReductions(Function &F) {
  Module &M = *F.getParent();
  SmallVector<CallInst *, 4> Calls;
  for (Instruction &I : instructions(F))
    if (auto *CI = dyn_cast<CallInst>(&I))
      if (Function *Callee = CI->getCalledFunction();
          Callee && Callee->getName().starts_with("__kmpc_") &&
          Callee->getName().contains("reduce"))
        Calls.push_back(CI);
  for (CallInst *CI : Calls) {
    StringRef Name = CI->getCalledFunction()->getName();
    IRBuilder<> B(CI);
    Type *Ptr = B.getPtrTy(), *I32 = B.getInt32Ty(), *Void = B.getVoidTy();
    Value *Loc = CI->getArgOperand(0), *Gtid = CI->getArgOperand(1);
    if ((Name == "__kmpc_reduce" || Name == "__kmpc_reduce_nowait") &&
        CI->arg_size() == 7) {
      B.CreateCall(runtimeFn(M, "__kmpc_critical", Void, {Ptr, I32, Ptr}),
                   {Loc, Gtid, CI->getArgOperand(6)})
          ->setDebugLoc(CI->getDebugLoc());
      CI->replaceAllUsesWith(B.getInt32(1));
      CI->eraseFromParent();
    } else if ((Name == "__kmpc_end_reduce" ||
                Name == "__kmpc_end_reduce_nowait") &&
               CI->arg_size() == 3) {
      B.CreateCall(runtimeFn(M, "__kmpc_end_critical", Void, {Ptr, I32, Ptr}),
                   {Loc, Gtid, CI->getArgOperand(2)})
          ->setDebugLoc(CI->getDebugLoc());
      // The blocking form ends with the team's barrier.
      if (Name == "__kmpc_end_reduce")
        B.CreateCall(runtimeFn(M, "__kmpc_barrier", Void, {Ptr, I32}),
                     {Loc, Gtid})
            ->setDebugLoc(CI->getDebugLoc());
      CI->eraseFromParent();
    }
  }
}

void lowerOpenMPConstructs(Function &F) {
  lowerReductions(F);
  // An 'if' clause's serial path calls the region's body directly.
  SmallPtrSet<Function *, 4> Bodies;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I); CB && isOpenMPForkCall(*CB))
      Bodies.insert(forkedFunction(*CB));
  SmallVector<CallBase *, 4> Direct;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (Function *Callee = CB->getCalledFunction();
          Callee && Bodies.count(Callee) && !Callee->isDeclaration())
        Direct.push_back(CB);
  for (CallBase *CB : Direct) {
    InlineFunctionInfo IFI;
    (void)InlineFunction(*CB, IFI);
  }
}

/// The value a fork passes by value, before clang made it an integer
/// (a double firstprivate travels as the i64 with its bits, a float one as
/// the i64 zero-extended from its 32 bits).
static Value *uncastValue(Value *V) {
  if (auto *ZE = dyn_cast<ZExtInst>(V))
    if (auto *BC = dyn_cast<BitCastInst>(ZE->getOperand(0));
        BC && BC->getSrcTy()->isFloatingPointTy())
      return BC->getOperand(0);
  if (auto *BC = dyn_cast<BitCastInst>(V))
    return BC->getOperand(0);
  // The optimiser merges the casts of one firstprivate on two paths into a
  // phi of integers: merge the values instead.
  auto *Phi = dyn_cast<PHINode>(V);
  if (!Phi || !Phi->getType()->isIntegerTy())
    return V;
  SmallVector<Value *, 4> In;
  for (Value *Inc : Phi->incoming_values()) {
    if (Inc == Phi)
      return V;
    Value *U = uncastValue(Inc);
    if (U == Inc || !U->getType()->isFloatingPointTy() ||
        (!In.empty() && U->getType() != In[0]->getType()))
      return V;
    In.push_back(U);
  }
  PHINode *FP = PHINode::Create(In[0]->getType(), In.size(),
                                Phi->getName() + ".fp", Phi->getIterator());
  for (unsigned I = 0; I < In.size(); ++I)
    FP->addIncoming(In[I], Phi->getIncomingBlock(I));
  return FP;
}

/// True if every read of the stack slot \p Slot loads a \p T from its
/// start: the slot only passes on a value of that type.
static bool onlyReadAs(Value *Slot, Type *T) {
  if (!isa<AllocaInst>(Slot))
    return false;
  return all_of(Slot->users(), [&](User *U) {
    if (auto *LI = dyn_cast<LoadInst>(U))
      return LI->getType() == T;
    if (auto *II = dyn_cast<IntrinsicInst>(U))
      return II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II);
    return isa<StoreInst>(U) && cast<StoreInst>(U)->getPointerOperand() == Slot;
  });
}

/// The body fork call \p Fork runs: a copy of the outlined function taking
/// every argument by pointer, loading the by-value ones (types
/// \p ByValueTypes) from their copies at entry.
static Function *createRegionBody(CallBase &Fork, ArrayRef<Type *> ByValueTypes,
                                  SmallVectorImpl<bool> &ByLoad) {
  Function *Outlined = forkedFunction(Fork);
  Module &M = *Fork.getModule();
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx);
  unsigned N = Fork.arg_size() - ForkFirstArg;
  SmallVector<Type *, 8> Params(2 + N, Ptr);
  Function *W = Function::Create(
      FunctionType::get(Type::getVoidTy(Ctx), Params, false),
      GlobalValue::InternalLinkage, Outlined->getName() + ".tapestry.omp", M);
  W->setAttributes(AttributeList::get(
      Ctx, AttributeList::FunctionIndex,
      AttrBuilder(Ctx, Outlined->getAttributes().getFnAttrs())));
  W->removeFnAttr(Attribute::OptimizeNone);
  W->removeFnAttr(Attribute::NoInline);
  W->addFnAttr(RegionAttr);
  // C++ bodies keep their exception paths (a call that may throw is an
  // invoke), which need the function's personality.
  if (Outlined->hasPersonalityFn())
    W->setPersonalityFn(Outlined->getPersonalityFn());
  // The clone has its own copy of the debug-info subprogram, which the
  // body takes over with the code.
  ValueToValueMapTy VMap;
  Function *C = CloneFunction(Outlined, VMap);
  W->splice(W->begin(), C);
  W->setSubprogram(C->getSubprogram());
  C->setSubprogram(nullptr);
  IRBuilder<> B(&*W->getEntryBlock().getFirstInsertionPt());
  for (unsigned I = 0; I < C->arg_size(); ++I) {
    Argument *A = C->getArg(I);
    Value *P = W->getArg(I);
    if (I < 2 || I - 2 >= N || !ByValueTypes[I - 2]) {
      A->replaceAllUsesWith(P);
      continue;
    }
    Value *V = B.CreateLoad(ByValueTypes[I - 2], P);
    // The body keeps its copy in a slot it reads as the value's own type:
    // storing the value itself there, rather than its integer bits, keeps
    // that slot one type (a double, not an i64 half the time; a float in
    // the low half of an i64 slot that is only read as a float).
    const DataLayout &DL = M.getDataLayout();
    for (Use &U : make_early_inc_range(A->uses()))
      if (auto *SI = dyn_cast<StoreInst>(U.getUser());
          SI && U.getOperandNo() == 0 && SI->isSimple() &&
          V->getType() != A->getType() &&
          (DL.getTypeStoreSize(V->getType()) ==
               DL.getTypeStoreSize(A->getType()) ||
           (DL.getTypeStoreSize(V->getType()) <
                DL.getTypeStoreSize(A->getType()) &&
            onlyReadAs(SI->getPointerOperand(), V->getType()))))
        U.set(V);
    if (A->use_empty())
      continue;
    TypeSize VBits = DL.getTypeSizeInBits(V->getType());
    if (VBits == DL.getTypeSizeInBits(A->getType()))
      A->replaceAllUsesWith(B.CreateBitOrPointerCast(V, A->getType()));
    else // the integer the fork passed: the value's bits, zero-extended
      A->replaceAllUsesWith(
          B.CreateZExt(B.CreateBitCast(V, B.getIntNTy(VBits.getFixedValue())),
                       A->getType()));
  }
  C->eraseFromParent();
  // A shared variable holding a pointer that the region only reads (an
  // array's address, as clang captures it) is passed as the pointer itself:
  // the body then sees the array, with its shadow or as constant, rather
  // than a slot that might hold either.
  // With -g, clang's outlined function only forwards its arguments to
  // <name>.omp_outlined_debug__, which has the body.
  SmallVector<CallBase *, 2> Inner;
  for (Instruction &I : instructions(W))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (Function *Callee = CB->getCalledFunction();
          Callee && !Callee->isDeclaration() &&
          Callee->getName().contains(".omp_outlined"))
        Inner.push_back(CB);
  for (CallBase *CB : Inner) {
    InlineFunctionInfo IFI;
    (void)InlineFunction(*CB, IFI);
  }
  DominatorTree DT(*W);
  SmallVector<AllocaInst *, 8> Promotable;
  for (Instruction &I : W->getEntryBlock())
    if (auto *AI = dyn_cast<AllocaInst>(&I); AI && isAllocaPromotable(AI))
      Promotable.push_back(AI);
  PromoteMemToReg(Promotable, DT);
  ByLoad.assign(N, false);
  for (unsigned I = 0; I < N; ++I) {
    Argument *A = W->getArg(2 + I);
    if (ByValueTypes[I] || A->use_empty() || !all_of(A->users(), [](User *U) {
          auto *LI = dyn_cast<LoadInst>(U);
          return LI && LI->isSimple() && LI->getType()->isPointerTy();
        }))
      continue;
    for (User *U : make_early_inc_range(A->users())) {
      U->replaceAllUsesWith(A);
      cast<Instruction>(U)->eraseFromParent();
    }
    ByLoad[I] = true;
  }
  return W;
}

/// The pointer the local slot \p Slot holds at \p At (a load from it), if
/// it is stored there once (the slot is otherwise only read), as clang
/// keeps a function's pointer arguments at -O0; null otherwise.
static Value *storedPointer(Value *Slot, Instruction *At, DominatorTree &DT) {
  auto *AI = dyn_cast<AllocaInst>(Slot);
  if (!AI)
    return nullptr;
  StoreInst *Only = nullptr;
  for (User *U : AI->users()) {
    if (auto *SI = dyn_cast<StoreInst>(U)) {
      if (Only || SI->getPointerOperand() != AI || !SI->isSimple())
        return nullptr;
      Only = SI;
    } else if (auto *II = dyn_cast<IntrinsicInst>(U)) {
      if (!II->isLifetimeStartOrEnd() && !isa<DbgInfoIntrinsic>(II))
        return nullptr;
    } else if (U != At && !isa<LoadInst>(U)) {
      return nullptr;
    }
  }
  if (!Only || !Only->getValueOperand()->getType()->isPointerTy() ||
      !DT.dominates(Only, At))
    return nullptr;
  return Only->getValueOperand();
}

void wrapParallelRegions(Function &F) {
  SmallVector<CallBase *, 4> Forks;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I);
        CB && isOpenMPForkCall(*CB) &&
        !forkedFunction(*CB)->hasFnAttribute(RegionAttr))
      Forks.push_back(CB);
  DominatorTree DT(F);
  SmallSetVector<LoadInst *, 4> SlotLoads;
  SmallVector<WeakTrackingVH, 4> ArgPhis;
  SmallVector<WeakTrackingVH, 4> Casts;
  for (CallBase *Fork : Forks) {
    unsigned N = Fork->arg_size() - ForkFirstArg;
    // Left as it is, the fork is reported when differentiated.
    Function *Outlined = forkedFunction(*Fork);
    if (Outlined->isDeclaration() || Outlined->isVarArg() ||
        Outlined->arg_size() != 2 + N)
      continue;
    SmallVector<Type *, 8> ByValue(N, nullptr);
    SmallVector<Value *, 8> Args(Fork->arg_begin(),
                                 Fork->arg_begin() + ForkFirstArg);
    IRBuilder<> EB(&*F.getEntryBlock().getFirstInsertionPt());
    IRBuilder<> B(Fork);
    for (unsigned I = 0; I < N; ++I) {
      Value *A = Fork->getArgOperand(ForkFirstArg + I);
      if (A->getType()->isPointerTy()) {
        // a pointer passed by value (firstprivate), read from its slot,
        // on some paths maybe (a phi of such reads)
        SmallVector<Value *, 4> Work = {A};
        SmallPtrSet<Value *, 8> Seen;
        while (!Work.empty()) {
          Value *V = Work.pop_back_val();
          if (!Seen.insert(V).second)
            continue;
          if (auto *L = dyn_cast<LoadInst>(V); L && L->isSimple())
            SlotLoads.insert(L);
          else if (auto *Phi = dyn_cast<PHINode>(V)) {
            ArgPhis.push_back(Phi);
            append_range(Work, Phi->incoming_values());
          }
        }
        Args.push_back(A);
        continue;
      }
      Value *V = uncastValue(A);
      if (V != A)
        Casts.push_back(A);
      ByValue[I] = V->getType();
      AllocaInst *Copy =
          EB.CreateAlloca(V->getType(), nullptr, A->getName() + ".omp.copy");
      B.CreateStore(V, Copy);
      Args.push_back(Copy);
    }
    SmallVector<bool, 8> ByLoad;
    Function *Body = createRegionBody(*Fork, ByValue, ByLoad);
    Args[2] = Body;
    for (unsigned I = 0; I < N; ++I)
      if (ByLoad[I]) {
        Value *&A = Args[ForkFirstArg + I];
        auto *L = B.CreateLoad(B.getPtrTy(), A);
        SlotLoads.insert(L);
        A = L;
      }
    CallInst *New =
        B.CreateCall(Fork->getFunctionType(), Fork->getCalledOperand(), Args);
    New->setDebugLoc(Fork->getDebugLoc());
    New->copyMetadata(*Fork);
    Fork->eraseFromParent();
  }
  // The integers clang made of by-value floating-point arguments are dead
  // now: left, they would read as bit manipulation of active values.
  for (WeakTrackingVH &VH : Casts)
    if (VH)
      RecursivelyDeleteTriviallyDeadInstructions(VH);
  // Only once every fork reading a slot passes the pointer it loads can
  // the slot be seen to be otherwise only read: two regions reading one
  // array would each find the other's fork still passing the slot. A
  // pointer clang passes by value (firstprivate) is read from its slot
  // too.
  for (LoadInst *L : SlotLoads)
    if (Value *V = storedPointer(L->getPointerOperand(), L, DT)) {
      L->replaceAllUsesWith(V);
      L->eraseFromParent();
    }
  // A phi of what are now one pointer is that pointer.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (WeakTrackingVH &VH : ArgPhis)
      if (auto *Phi = dyn_cast_or_null<PHINode>(VH))
        if (Value *V = Phi->hasConstantValue()) {
          Phi->replaceAllUsesWith(V);
          Phi->eraseFromParent();
          Changed = true;
        }
  }
}

} // namespace tapestry
