//===- TapestryPass.cpp ---------------------------------------------------===//
#include "Passes/TapestryPass.h"
#include "Passes/ToDense.h"

#include "Analysis/Rerun.h"
#include "Core/Batch.h"
#include "Core/CustomRules.h"
#include "Core/Diagnostics.h"
#include "Core/EnzymeOptions.h"
#include "Core/IterationCounter.h"
#include "Core/LinkTimePhase.h"
#include "Driver/DerivativeCache.h"
#include "Passes/BatchRequest.h"
#include "Passes/ExplainRequest.h"
#include "Passes/RequestDecoder.h"
#include "Passes/TruncateRequest.h"
#include "Synthesis/DerivativeSignature.h"
#include "Synthesis/FreedShadows.h"
#include "Synthesis/InlineHelpers.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/BuildLibCalls.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include <algorithm>
#include <map>

using namespace llvm;

namespace tapestry {

namespace {

/// Replaces one request call by calls to its derivative functions.
class CallSiteRewriter {
public:
  CallSiteRewriter(CallBase &CB, const DecodedCall &D) : CB(CB), D(D), B(&CB) {}

  /// One-shot reverse or forward mode.
  bool rewriteOneShot(Function &G);
  /// __enzyme_augmentfwd.
  bool rewriteAugmented(const SplitDerivative &S);
  /// __enzyme_reverse.
  bool rewriteReverse(const SplitDerivative &S);
  /// __enzyme_fwdsplit: the forward derivative \p G, after releasing the
  /// tape of the augmented forward \p Origin (null if unknown).
  bool rewriteForwardSplit(Function &G, const SplitDerivative *Origin);

private:
  bool deliverResults(Value *Result, ArrayRef<Type *> ResultTypes);
  /// The derivative's results \p Call (of types \p CallTypes) with the
  /// adjoints of structs passed by value in memory (enzyme_out) in their
  /// parameters' places; \p Types receives their types.
  Value *withByValAdjoints(Value *Call, ArrayRef<Type *> CallTypes,
                           SmallVectorImpl<Type *> &Types);
  /// Primal and shadow arguments, in the derivative's parameter order.
  SmallVector<Value *, 16> primalAndShadowArgs() const;
  /// The caller's tape buffer, checked against the tape's size.
  Value *callerBuffer(const SplitDerivative &S);
  /// Erases the request call (continuing an invoke on its normal path).
  bool finish();
  /// enzyme_runtime_activity: stops the program when a shadow argument is
  /// its value (Enzyme's run-time inactive argument), which the derivative
  /// would treat as active.
  void checkRuntimeInactiveArgs();

  CallBase &CB;
  const DecodedCall &D;
  IRBuilder<> B;
};

} // namespace

SmallVector<Value *, 16> CallSiteRewriter::primalAndShadowArgs() const {
  SmallVector<Value *, 16> Args;
  for (unsigned I = 0; I < D.Primals.size(); ++I) {
    Args.push_back(D.Primals[I]);
    if (D.Shadows[I])
      Args.push_back(D.Shadows[I]);
  }
  return Args;
}

/// Erases a request call whose uses are gone. A request reached through an
/// invoke (C++ with cleanups) continues on its normal path: the derivative's
/// own failures do not unwind there.
static void eraseRequestCall(CallBase &CB) {
  if (auto *II = dyn_cast<InvokeInst>(&CB)) {
    II->getUnwindDest()->removePredecessor(II->getParent());
    BranchInst::Create(II->getNormalDest(), II);
  }
  CB.eraseFromParent();
}

/// __enzyme_virtualreverse(f) gives, in Enzyme, the shadow of a function or
/// a vtable, which a shadow object then holds so that a call through it
/// reaches the derivative. Tapestry finds a called function's derivative
/// from the primal pointer itself (Synthesis/IndirectCalls.h), so the
/// shadow it gives is the function or vtable itself, valid to store
/// wherever Enzyme's would be.
static void lowerVirtualReverse(CallBase &CB) {
  if (CB.arg_size() != 1 || !CB.getArgOperand(0)->getType()->isPointerTy() ||
      !CB.getType()->isPointerTy()) {
    reportError(*CB.getFunction(), &CB,
                entryPointName(CB).str() +
                    " takes one function or vtable pointer and returns a "
                    "pointer of the same type");
    return;
  }
  CB.replaceAllUsesWith(CB.getArgOperand(0));
  eraseRequestCall(CB);
}

bool CallSiteRewriter::finish() {
  eraseRequestCall(CB);
  return true;
}

bool CallSiteRewriter::rewriteOneShot(Function &G) {
  const DiffRequest &R = D.Request;
  checkRuntimeInactiveArgs();
  DerivativeSignature Sig = computeSignature(R);
  SmallVector<Value *, 16> Args = primalAndShadowArgs();
  if (Sig.SeedArg >= 0)
    // Batched reverse seeds every lane with 1.
    Args.push_back(
        ConstantFP::get(batchType(R.Fn->getReturnType(), R.Width), 1.0));
  // Reverse mode: shadows of blocks the caller owned and the function
  // freed are released when the request ends (FreedShadows.h).
  // (Only modules whose derivatives record any: the derivative of a
  // function that frees nothing costs nothing.)
  Value *Mark = nullptr;
  if (R.Mode == DiffMode::Reverse &&
      G.getParent()->getFunction("tapestry.freed.push"))
    Mark = B.CreateCall(getFreedShadowMarkFn(*G.getParent()));
  CallInst *Call = B.CreateCall(&G, Args);
  Call->setDebugLoc(CB.getDebugLoc());
  if (Mark)
    B.CreateCall(getFreedShadowReleaseFn(*G.getParent()), {Mark});
  if (!D.ByValAdjoints.empty()) {
    SmallVector<Type *, 8> Types;
    Value *Results = withByValAdjoints(Call, Sig.Results, Types);
    if (!deliverResults(Results, Types))
      return false;
    return finish();
  }
  if (!deliverResults(Call, Sig.Results))
    return false;
  return finish();
}

Value *CallSiteRewriter::withByValAdjoints(Value *Call,
                                           ArrayRef<Type *> CallTypes,
                                           SmallVectorImpl<Type *> &Types) {
  const DiffRequest &R = D.Request;
  SmallVector<Value *, 8> Values;
  unsigned K = 0;
  auto Take = [&]() {
    Values.push_back(CallTypes.size() == 1 ? Call
                                           : B.CreateExtractValue(Call, K));
    Types.push_back(CallTypes[K++]);
  };
  if (R.ReturnPrimal && !R.Fn->getReturnType()->isVoidTy())
    Take();
  for (unsigned I = 0; I < R.Args.size(); ++I) {
    if (R.Args[I] == Activity::Active)
      Take();
    for (const DecodedCall::ByValAdjoint &A : D.ByValAdjoints)
      if (A.Param == I) {
        Values.push_back(B.CreateLoad(A.Ty, A.Shadow));
        Types.push_back(A.Ty);
      }
  }
  if (Values.size() == 1)
    return Values.front();
  Value *Agg = PoisonValue::get(StructType::get(CB.getContext(), Types));
  for (unsigned I = 0; I < Values.size(); ++I)
    Agg = B.CreateInsertValue(Agg, Values[I], I);
  return Agg;
}

/// Stops the program with \p Msg on stderr, before \p At, when \p Bad
/// holds.
static void emitRuntimeCheck(Instruction *At, Value *Bad, StringRef Msg) {
  Instruction *Then =
      SplitBlockAndInsertIfThen(Bad, At->getIterator(), /*Unreachable=*/true);
  IRBuilder<> TB(Then);
  emitFatalMessage(TB, TB.CreateGlobalStringPtr(Msg), TB.getInt64(Msg.size()));
}

Value *CallSiteRewriter::callerBuffer(const SplitDerivative &S) {
  std::string Size = std::to_string(S.TapeBytes);
  if (auto *N = dyn_cast<ConstantInt>(D.AllocatedBytes)) {
    if (N->getZExtValue() < S.TapeBytes) {
      reportError(*CB.getFunction(), &CB,
                  "the tape buffer given with enzyme_allocated has " +
                      Twine(N->getZExtValue()) + " bytes, but the tape of '" +
                      sourceName(*D.Request.Fn) + "' for this request needs " +
                      Size +
                      "; pass a buffer of __enzyme_augmentsize(f, "
                      "markers...) bytes");
      return nullptr;
    }
    return D.TapeBuffer;
  }
  emitRuntimeCheck(
      &CB, B.CreateICmpULT(D.AllocatedBytes, B.getInt64(S.TapeBytes)),
      "tapestry: the tape buffer given with enzyme_allocated to " +
          entryPointName(CB).str() + " is smaller than the " + Size +
          " bytes the tape of '" + sourceName(*D.Request.Fn) + "' needs\n");
  B.SetInsertPoint(&CB);
  return D.TapeBuffer;
}

void CallSiteRewriter::checkRuntimeInactiveArgs() {
  if (!D.RuntimeActivity || D.Request.Width != 1)
    return;
  for (unsigned I = 0; I < D.Primals.size(); ++I) {
    Value *P = D.Primals[I], *S = D.Shadows[I];
    if (!P || !S || !P->getType()->isPointerTy() ||
        S->getType() != P->getType())
      continue;
    std::string Line;
    if (const DebugLoc &DL = CB.getDebugLoc())
      Line = " at line " + std::to_string(DL.getLine());
    emitRuntimeCheck(
        &CB, B.CreateICmpEQ(P, S),
        "tapestry: the call to " + entryPointName(CB).str() + Line +
            " passes the same pointer as the value and the shadow of "
            "parameter " +
            std::to_string(I + 1) + " of '" + sourceName(*D.Request.Fn) +
            "' with enzyme_runtime_activity (Enzyme's way to make it "
            "inactive at run time); Tapestry does not support that yet: "
            "pass it with enzyme_const\n");
    B.SetInsertPoint(&CB);
  }
}

bool CallSiteRewriter::rewriteForwardSplit(Function &G,
                                           const SplitDerivative *Origin) {
  // The tangent does not read the tape (Tapestry runs the primal again):
  // release it as Enzyme's forward split does, unless enzyme_nofree.
  Value *Tape = D.TapeBuffer ? D.TapeBuffer : D.Tape;
  if (!D.NoFree && Tape && !isa<ConstantPointerNull>(Tape)) {
    if (Origin) {
      Instruction *Then = SplitBlockAndInsertIfThen(
          B.CreateIsNotNull(Tape), CB.getIterator(), /*Unreachable=*/false);
      IRBuilder<> TB(Then);
      TB.CreateCall(Origin->Release, {Tape});
      B.SetInsertPoint(&CB);
    }
    if (!D.TapeBuffer) {
      FunctionCallee Free = CB.getModule()->getOrInsertFunction(
          "free", FunctionType::get(B.getVoidTy(), {B.getPtrTy()}, false));
      B.CreateCall(Free, {Tape});
    }
  }
  return rewriteOneShot(G);
}

bool CallSiteRewriter::rewriteAugmented(const SplitDerivative &S) {
  Value *Tape = nullptr;
  if (D.TapeBuffer) {
    if (!(Tape = callerBuffer(S)))
      return false;
  } else {
    FunctionCallee Malloc = CB.getModule()->getOrInsertFunction(
        "malloc", FunctionType::get(B.getPtrTy(), {B.getInt64Ty()}, false));
    Tape = B.CreateCall(Malloc, {B.getInt64(S.TapeBytes)}, "tape");
  }
  SmallVector<Value *, 16> Args = primalAndShadowArgs();
  Args.push_back(Tape);
  CallInst *Call = B.CreateCall(S.Augmented, Args);
  Call->setDebugLoc(CB.getDebugLoc());
  SmallVector<Type *, 2> Types;
  SmallVector<Value *, 2> Results;
  if (!D.TapeBuffer) {
    Types.push_back(Tape->getType());
    Results.push_back(Tape);
  }
  if (!Call->getType()->isVoidTy()) {
    Types.push_back(Call->getType());
    Results.push_back(Call);
  }
  Value *Result = Results.empty() ? nullptr : Results.front();
  if (Results.size() > 1) {
    Result = PoisonValue::get(StructType::get(CB.getContext(), Types));
    for (unsigned I = 0; I < Results.size(); ++I)
      Result = B.CreateInsertValue(Result, Results[I], I);
  }
  if (!deliverResults(Result, Types))
    return false;
  return finish();
}

bool CallSiteRewriter::rewriteReverse(const SplitDerivative &S) {
  Value *Tape = D.Tape;
  if (D.TapeBuffer && !(Tape = callerBuffer(S)))
    return false;
  SmallVector<Value *, 16> Args = primalAndShadowArgs();
  if (D.Seed)
    Args.push_back(D.Seed);
  Args.push_back(Tape);
  CallInst *Call = B.CreateCall(S.Reverse, Args);
  Call->setDebugLoc(CB.getDebugLoc());
  // A caller's buffer whose tape owns no heap memory needs no release: it
  // stays live, and a replayable reverse may run on it again (Enzyme's
  // users replay caller-owned tapes).
  bool KeepLive = D.TapeBuffer && !S.OwnsMemory;
  if (!D.NoFree && !KeepLive) {
    B.CreateCall(S.Release, {Tape});
    if (!D.TapeBuffer) {
      FunctionCallee Free = CB.getModule()->getOrInsertFunction(
          "free", FunctionType::get(B.getVoidTy(), {B.getPtrTy()}, false));
      B.CreateCall(Free, {Tape});
    }
  }
  SmallVector<Type *, 4> Types;
  if (auto *ST = dyn_cast<StructType>(Call->getType()))
    Types.append(ST->element_begin(), ST->element_end());
  else if (!Call->getType()->isVoidTy())
    Types.push_back(Call->getType());
  if (!deliverResults(Call, Types))
    return false;
  return finish();
}

/// The scalars a type is made of, in memory order: the shape a C struct of
/// results must have whatever IR type the ABI gives it.
static void flattenScalars(Type *T, SmallVectorImpl<Type *> &Out) {
  if (auto *ST = dyn_cast<StructType>(T)) {
    for (Type *E : ST->elements())
      flattenScalars(E, Out);
  } else if (auto *AT = dyn_cast<ArrayType>(T)) {
    for (uint64_t I = 0; I < AT->getNumElements(); ++I)
      flattenScalars(AT->getElementType(), Out);
  } else if (auto *VT = dyn_cast<FixedVectorType>(T)) {
    for (unsigned I = 0; I < VT->getNumElements(); ++I)
      Out.push_back(VT->getElementType());
  } else {
    Out.push_back(T);
  }
}

/// True if a value of type \p From can be handed over as \p To through
/// memory: the same scalars in the same order.
static bool sameScalars(Type *From, Type *To) {
  SmallVector<Type *, 8> A, B;
  flattenScalars(From, A);
  flattenScalars(To, B);
  return A == B;
}

/// True if \p Slot is a local variable that is written but never read.
static bool isWriteOnlySlot(Value *Slot) {
  if (!isa<AllocaInst>(Slot))
    return false;
  SmallVector<Value *, 8> Work{Slot};
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    for (User *U : V->users()) {
      if (isa<GetElementPtrInst>(U)) {
        Work.push_back(U);
        continue;
      }
      auto *SI = dyn_cast<StoreInst>(U);
      auto *II = dyn_cast<IntrinsicInst>(U);
      if ((SI && SI->getPointerOperand() == V) ||
          (II && (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II))))
        continue;
      return false;
    }
  }
  return true;
}

/// True if the call's value only goes where nothing reads it: the
/// temporary clang -O0 stores a struct returned in registers into, when the
/// program ignores the value.
static bool resultIsDiscarded(CallBase &CB) {
  SmallVector<Value *, 4> Work{&CB};
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    for (User *U : V->users()) {
      if (isa<ExtractValueInst>(U)) {
        Work.push_back(U);
        continue;
      }
      auto *SI = dyn_cast<StoreInst>(U);
      if (!SI || SI->getValueOperand() != V ||
          !isWriteOnlySlot(getUnderlyingObject(SI->getPointerOperand())))
        return false;
    }
  }
  return true;
}

/// The results \p Result (a struct) rearranged into \p Declared, a struct
/// of the same members in another order, where each member's type tells
/// which result it is (Enzyme's users declare the augmented forward's
/// {double primal, void *tape} either way round); null otherwise.
static Value *reorderedByType(IRBuilderBase &B, Value *Result, Type *Declared) {
  auto *From = dyn_cast<StructType>(Result->getType());
  auto *To = dyn_cast<StructType>(Declared);
  if (!From || !To || From->getNumElements() != To->getNumElements())
    return nullptr;
  Value *Out = PoisonValue::get(To);
  for (unsigned I = 0; I < To->getNumElements(); ++I) {
    Type *T = To->getElementType(I);
    if (count(To->elements(), T) != 1 || count(From->elements(), T) != 1)
      return nullptr;
    unsigned J = find(From->elements(), T) - From->element_begin();
    Out = B.CreateInsertValue(Out, B.CreateExtractValue(Result, J), I);
  }
  return Out;
}

/// Hands the derivative's results to the request's caller in the shape the
/// user declared: bare, through sret memory, or reinterpreted through memory
/// when the C ABI coerced the declared struct (e.g. {float, float} is
/// returned as <2 x float>). A declared type that does not hold exactly the
/// results is an error.
bool CallSiteRewriter::deliverResults(Value *Result,
                                      ArrayRef<Type *> ResultTypes) {
  Type *Declared = D.SRet ? CB.getParamStructRetType(0) : CB.getType();
  const DataLayout &DL = CB.getModule()->getDataLayout();
  StringRef Entry = entryPointName(CB);
  auto Mismatch = [&]() {
    std::string Types;
    for (Type *T : ResultTypes)
      Types += (Types.empty() ? "" : ", ") + describe(T);
    return reportError(*CB.getFunction(), &CB,
                       "the call to " + Entry + " is declared to return " +
                           describe(Declared) + ", which does not match its " +
                           Twine(ResultTypes.size()) + " result(s) (" + Types +
                           "); declare it to return " +
                           (ResultTypes.size() == 1
                                ? "that type"
                                : "a struct with these members in this "
                                  "order"));
  };
  if (!D.SRet && (Declared->isVoidTy() || CB.use_empty()))
    return true; // The caller ignores the results.
  if (!D.SRet && resultIsDiscarded(CB)) {
    CB.replaceAllUsesWith(PoisonValue::get(CB.getType()));
    return true;
  }
  if (ResultTypes.empty()) {
    if (!D.SRet && !CB.use_empty())
      return reportError(*CB.getFunction(), &CB,
                         "the call to " + Entry +
                             " uses a result, but this request returns "
                             "nothing");
    return true;
  }
  Type *Actual = Result->getType();
  if (D.SRet) {
    if (!sameScalars(Actual, Declared))
      return Mismatch();
    B.CreateStore(Result, D.SRet);
    return true;
  }
  Value *V = nullptr;
  if (Actual == Declared) {
    V = Result;
  } else if (ResultTypes.size() == 1 && Actual->isFloatingPointTy() &&
             Declared->isFloatingPointTy()) {
    V = B.CreateFPCast(Result, Declared);
  } else if (sameScalars(Actual, Declared)) {
    // Same scalars, different IR shape: go through memory, as the ABI does.
    uint64_t Size = std::max(DL.getTypeAllocSize(Actual).getFixedValue(),
                             DL.getTypeAllocSize(Declared).getFixedValue());
    IRBuilder<> EB(&CB.getFunction()->getEntryBlock(),
                   CB.getFunction()->getEntryBlock().begin());
    AllocaInst *Tmp = EB.CreateAlloca(ArrayType::get(EB.getInt8Ty(), Size),
                                      nullptr, "tapestry.result");
    Tmp->setAlignment(
        std::max(DL.getPrefTypeAlign(Actual), DL.getPrefTypeAlign(Declared)));
    B.CreateStore(Result, Tmp);
    V = B.CreateLoad(Declared, Tmp);
  } else if (Value *R =
                 classifyEntryPoint(Entry) == EntryPoint::AugmentedForward
                     ? reorderedByType(B, Result, Declared)
                     : nullptr) {
    // Only the tape and primal of an augmented forward: for adjoints, a
    // member of another type than its position's is the user's mistake.
    V = R;
  } else {
    return Mismatch();
  }
  CB.replaceAllUsesWith(V);
  return true;
}

/// Removes entry-point declarations and marker globals that no longer have
/// uses, and the loads of markers left dead by rewriting.
static void eraseDeadApi(Module &M) {
  SmallVector<GlobalVariable *, 8> Markers;
  for (GlobalVariable &GV : M.globals())
    if (GV.getName().starts_with("enzyme_") && GV.isDeclaration())
      Markers.push_back(&GV);
  for (GlobalVariable *GV : Markers) {
    SmallVector<User *, 8> Users(GV->users());
    for (User *U : Users)
      if (auto *LI = dyn_cast<LoadInst>(U))
        if (LI->use_empty() && !LI->isVolatile())
          LI->eraseFromParent();
    if (GV->use_empty())
      GV->eraseFromParent();
  }
  SmallVector<Function *, 8> Entries;
  for (Function &F : M)
    if (F.isDeclaration() &&
        classifyEntryPoint(F.getName()) != EntryPoint::None)
      Entries.push_back(&F);
  for (Function *F : Entries)
    if (F->use_empty())
      F->eraseFromParent();
}

/// Adds to \p Out the functions with bodies that constant \p C refers to:
/// itself, or through constant expressions, aggregates and the initialisers
/// of the globals it names (a table of callbacks).
static void collectReferencedFunctions(const Constant *C,
                                       SmallPtrSetImpl<const Constant *> &Seen,
                                       SmallVectorImpl<Function *> &Out) {
  if (!Seen.insert(C).second)
    return;
  if (auto *F = dyn_cast<Function>(C)) {
    if (!F->isDeclaration())
      Out.push_back(const_cast<Function *>(F));
    return;
  }
  if (auto *GV = dyn_cast<GlobalVariable>(C)) {
    if (GV->hasInitializer())
      collectReferencedFunctions(GV->getInitializer(), Seen, Out);
    return;
  }
  if (isa<GlobalValue>(C))
    return;
  for (const Use &U : C->operands())
    if (auto *Op = dyn_cast<Constant>(U.get()))
      collectReferencedFunctions(Op, Seen, Out);
}

/// Functions with bodies reachable from \p F, F included: through direct
/// calls, and through the functions whose addresses the reached code names
/// (a callback passed on, a table of functions), since a call through a
/// pointer may land in any of them.
static SmallPtrSet<Function *, 16> reachableFunctions(Function *F) {
  SmallPtrSet<Function *, 16> Seen{F};
  SmallPtrSet<const Constant *, 32> SeenConstants;
  SmallVector<Function *, 16> Work{F};
  while (!Work.empty()) {
    Function *Cur = Work.pop_back_val();
    SmallVector<Function *, 8> Found;
    for (Instruction &I : instructions(*Cur))
      for (const Use &U : I.operands())
        if (auto *C = dyn_cast<Constant>(U.get()))
          collectReferencedFunctions(C, SeenConstants, Found);
    for (Function *Callee : Found)
      if (Seen.insert(Callee).second)
        Work.push_back(Callee);
  }
  return Seen;
}

namespace {
struct PendingRequest {
  CallBase *CB;
  EntryPoint Kind;
};
} // namespace

/// A constant descriptor of a split-mode request: what __tapestry_thunk
/// returns (struct tapestry_thunk in tapestry/thunk.h).
static Constant *thunkDescriptor(Module &M, const DiffRequest &R,
                                 const SplitDerivative &S) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  auto *Ty = StructType::get(
      C, {Ptr, Ptr, Ptr, Type::getInt64Ty(C), Type::getInt32Ty(C)});
  std::string Name =
      (R.Fn->getName() + ".tapestry." + R.suffix() + ".thunk").str();
  if (GlobalVariable *Old = M.getNamedGlobal(Name))
    return Old;
  // C callers cannot rely on how a struct of adjoints is returned (the C
  // ABI returns some in registers, others through memory): the thunk's
  // reverse writes them to a buffer its last argument points to.
  SmallVector<Type *, 16> Params(S.Reverse->getFunctionType()->params());
  Params.push_back(Ptr);
  Function *Rev =
      Function::Create(FunctionType::get(Type::getVoidTy(C), Params, false),
                       GlobalValue::InternalLinkage, Name + ".reverse", M);
  {
    IRBuilder<> B(BasicBlock::Create(C, "entry", Rev));
    SmallVector<Value *, 16> Args;
    for (unsigned I = 0; I + 1 < Rev->arg_size(); ++I)
      Args.push_back(Rev->getArg(I));
    CallInst *Adjoints = B.CreateCall(S.Reverse, Args);
    if (!Adjoints->getType()->isVoidTy())
      B.CreateStore(Adjoints, Rev->getArg(Rev->arg_size() - 1));
    B.CreateRetVoid();
  }
  Constant *Init = ConstantStruct::get(
      Ty, {S.Augmented, Rev, S.Release,
           ConstantInt::get(Type::getInt64Ty(C), S.TapeBytes),
           ConstantInt::get(Type::getInt32Ty(C), S.Replayable)});
  auto *GV = new GlobalVariable(M, Ty, /*isConstant=*/true,
                                GlobalValue::PrivateLinkage, Init, Name);
  GV->setAlignment(Align(8));
  return GV;
}

/// The __enzyme_augmentfwd call whose result \p V is (through struct
/// members, casts and a local variable it was stored in), or null.
static CallBase *augmentedCallOf(Value *V, unsigned Depth = 0) {
  if (Depth > 6)
    return nullptr;
  V = V->stripPointerCasts();
  if (auto *EV = dyn_cast<ExtractValueInst>(V))
    return augmentedCallOf(EV->getAggregateOperand(), Depth + 1);
  if (auto *CB = dyn_cast<CallBase>(V))
    return classifyEntryPoint(entryPointName(*CB)) ==
                   EntryPoint::AugmentedForward
               ? CB
               : nullptr;
  auto *LI = dyn_cast<LoadInst>(V);
  if (!LI)
    return nullptr;
  auto *Slot =
      dyn_cast<AllocaInst>(getUnderlyingObject(LI->getPointerOperand()));
  if (!Slot)
    return nullptr;
  CallBase *Found = nullptr;
  SmallVector<Value *, 8> Work{Slot};
  while (!Work.empty()) {
    Value *P = Work.pop_back_val();
    for (User *U : P->users()) {
      if (isa<GetElementPtrInst>(U)) {
        Work.push_back(U);
      } else if (auto *SI = dyn_cast<StoreInst>(U)) {
        if (SI->getPointerOperand() != P)
          continue;
        CallBase *C = augmentedCallOf(SI->getValueOperand(), Depth + 1);
        if (C && Found && C != Found)
          return nullptr; // Several: not one origin.
        Found = C ? C : Found;
      }
    }
  }
  return Found;
}

/// The __enzyme_augmentfwd calls that filled the tape a reverse call uses:
/// the call that returned it, or those given the same caller buffer.
static SmallVector<CallBase *, 2> tapeOrigins(CallBase &CB,
                                              const DecodedCall &D) {
  SmallVector<CallBase *, 2> Origins;
  if (D.Tape) {
    if (CallBase *Aug = augmentedCallOf(D.Tape))
      Origins.push_back(Aug);
    return Origins;
  }
  const Value *Buffer = getUnderlyingObject(D.TapeBuffer);
  for (Instruction &I : instructions(*CB.getFunction()))
    if (auto *Other = dyn_cast<CallBase>(&I))
      if (classifyEntryPoint(entryPointName(*Other)) ==
          EntryPoint::AugmentedForward)
        if (std::optional<DecodedCall> OD =
                peekRequest(*Other, EntryPoint::AugmentedForward))
          if (OD->TapeBuffer && getUnderlyingObject(OD->TapeBuffer) == Buffer)
            Origins.push_back(Other);
  return Origins;
}

/// A reverse must use a tape from the augmented forward of the same
/// request; reports the mismatch when the tape's origin is known.
static bool checkTapeOrigin(CallBase &CB, const DecodedCall &D) {
  SmallVector<CallBase *, 2> Origins = tapeOrigins(CB, D);
  std::optional<DiffRequest> Other;
  CallBase *OtherCall = nullptr;
  for (CallBase *Aug : Origins) {
    std::optional<DecodedCall> OD =
        peekRequest(*Aug, EntryPoint::AugmentedForward);
    if (!OD)
      return true; // Reported where it is resolved.
    if (OD->Request == D.Request)
      return true;
    Other = OD->Request;
    OtherCall = Aug;
  }
  if (!Other)
    return true;
  std::string Mine, Theirs;
  raw_string_ostream MS(Mine), TS(Theirs);
  D.Request.print(MS);
  Other->print(TS);
  std::string Where;
  if (const DebugLoc &DL = OtherCall->getDebugLoc())
    Where = " at line " + std::to_string(DL.getLine());
  return reportError(*CB.getFunction(), &CB,
                     "this " + entryPointName(CB) + " asks for the " + Mine +
                         ", but its tape comes from the " +
                         entryPointName(*OtherCall) + Where + " for the " +
                         Theirs +
                         "; both halves must name the same function with the "
                         "same activity markers");
}

/// Functions specialised for the constant function pointers requests pass.
using Specializations = std::map<
    std::pair<Function *, SmallVector<std::pair<unsigned, Function *>, 2>>,
    Function *>;

/// A request that passes a function as an enzyme_const argument
/// (`enzyme_const, callback`) differentiates a copy of its function in which
/// that parameter is the function itself, so calls through it are direct.
static void specializeConstantCallbacks(DecodedCall &D,
                                        Specializations &Specs) {
  SmallVector<std::pair<unsigned, Function *>, 2> Known;
  Function *Fn = D.Request.Fn;
  for (unsigned I = 0; I < D.Primals.size(); ++I)
    if (D.Request.Args[I] == Activity::Const && D.Primals[I])
      if (auto *Callback =
              dyn_cast<Function>(D.Primals[I]->stripPointerCasts()))
        if (!Fn->getArg(I)->use_empty())
          Known.push_back({I, Callback});
  if (Known.empty())
    return;
  Function *&Spec = Specs[{Fn, Known}];
  if (!Spec) {
    ValueToValueMapTy VMap;
    Spec = CloneFunction(Fn, VMap);
    Spec->setName(Fn->getName() + ".tapestry.callback");
    Spec->setLinkage(GlobalValue::InternalLinkage);
    Spec->setCallingConv(CallingConv::C);
    for (auto [I, Callback] : Known)
      Spec->getArg(I)->replaceAllUsesWith(Callback);
  }
  D.Request.Fn = Spec;
}

/// __enzyme_fwdsplit: Tapestry runs the primal again to compute the
/// tangent, which needs the primal values and a function that computes the
/// same values when run again (Analysis/Rerun.h).
/// Why the primal values at __enzyme_fwdsplit \p CB may differ from those
/// its __enzyme_augmentfwd saw (the tangent is computed by running the
/// function again), or nothing when they provably do not: the augmented
/// forward is in the same function and dominates \p CB, each argument is
/// the same value (or a load of the same address), and nothing in between
/// writes memory other than the shadows and locals the function cannot see.
static std::optional<std::string>
whyValuesMayHaveChanged(CallBase &CB, const DecodedCall &D) {
  SmallVector<CallBase *, 2> Origins = tapeOrigins(CB, D);
  // A caller's buffer held in a variable (-O0) is loaded once per call.
  auto *BufLoad = D.TapeBuffer ? dyn_cast<LoadInst>(D.TapeBuffer) : nullptr;
  if (Origins.empty() && BufLoad)
    for (Instruction &I : instructions(*CB.getFunction()))
      if (auto *Other = dyn_cast<CallBase>(&I))
        if (classifyEntryPoint(entryPointName(*Other)) ==
            EntryPoint::AugmentedForward)
          if (std::optional<DecodedCall> OD =
                  peekRequest(*Other, EntryPoint::AugmentedForward))
            if (auto *L = dyn_cast_or_null<LoadInst>(OD->TapeBuffer);
                L && L->getPointerOperand() == BufLoad->getPointerOperand())
              Origins.push_back(Other);
  if (Origins.size() != 1)
    return std::string("its __enzyme_augmentfwd is not found in the same "
                       "function");
  CallBase *Aug = Origins.front();
  std::optional<DecodedCall> OD =
      peekRequest(*Aug, EntryPoint::AugmentedForward);
  DominatorTree DT(*CB.getFunction());
  if (!OD || OD->Primals.size() != D.Primals.size() || !DT.dominates(Aug, &CB))
    return std::string("its __enzyme_augmentfwd does not always run before it");
  // The memory the function may read: what its pointer arguments point to,
  // and the variables the arguments' values are loaded from.
  SmallPtrSet<const Value *, 8> Protected, Shadows;
  for (Value *S : D.Shadows)
    if (S && S->getType()->isPointerTy())
      Shadows.insert(getUnderlyingObject(S));
  for (unsigned I = 0; I < D.Primals.size(); ++I) {
    Value *V = D.Primals[I], *W = OD->Primals[I];
    if (!V || !W)
      continue;
    // The same address: the same base and constant offset (an array
    // decayed to a pointer at each call).
    auto SameAddress = [&](Value *P, Value *Q) {
      if (!P->getType()->isPointerTy() || !Q->getType()->isPointerTy())
        return false;
      const DataLayout &DL = CB.getModule()->getDataLayout();
      APInt OP(DL.getIndexTypeSizeInBits(P->getType()), 0), OQ = OP;
      return P->stripAndAccumulateInBoundsConstantOffsets(DL, OP) ==
                 Q->stripAndAccumulateInBoundsConstantOffsets(DL, OQ) &&
             OP == OQ;
    };
    if (V != W && !SameAddress(V, W)) {
      auto *LV = dyn_cast<LoadInst>(V), *LW = dyn_cast<LoadInst>(W);
      if (!LV || !LW ||
          LV->getPointerOperand()->stripPointerCasts() !=
              LW->getPointerOperand()->stripPointerCasts())
        return "the value of parameter " + std::to_string(I + 1) +
               " is not the one given to __enzyme_augmentfwd";
      Protected.insert(getUnderlyingObject(LV->getPointerOperand()));
    }
    if (V->getType()->isPointerTy())
      Protected.insert(getUnderlyingObject(V));
  }
  // A call in between can reach the memory the function reads only through
  // its arguments, globals, or addresses that escaped.
  Function *Fn = D.Request.Fn;
  bool ReadsGlobals = false;
  for (Instruction &I : instructions(*Fn)) {
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (Function *Callee = Call->getCalledFunction();
          !Callee || (!Callee->isDeclaration() && !Callee->isIntrinsic()))
        ReadsGlobals = true; // not looked into
    for (Value *Op : I.operands())
      if (auto *GV = dyn_cast<GlobalVariable>(Op->stripPointerCasts()))
        ReadsGlobals |= !GV->isConstant();
  }
  bool CallsHarmless = !ReadsGlobals && all_of(Protected, [](const Value *O) {
    return isa<AllocaInst>(O) &&
           !PointerMayBeCaptured(O, /*ReturnCaptures=*/false,
                                 /*StoreCaptures=*/true);
  });
  for (Instruction &I : instructions(*CB.getFunction())) {
    if (&I == Aug || &I == &CB || !I.mayWriteToMemory() ||
        isa<DbgInfoIntrinsic>(I) ||
        (isa<IntrinsicInst>(I) &&
         cast<IntrinsicInst>(I).isLifetimeStartOrEnd()))
      continue;
    if (!isPotentiallyReachable(Aug, &I, nullptr, &DT) ||
        !isPotentiallyReachable(&I, &CB, nullptr, &DT))
      continue;
    const Value *Dest = nullptr;
    if (auto *SI = dyn_cast<StoreInst>(&I))
      Dest = SI->getPointerOperand();
    else if (auto *MI = dyn_cast<MemIntrinsic>(&I))
      Dest = MI->getDest();
    const Value *Obj = Dest ? getUnderlyingObject(Dest) : nullptr;
    bool Harmless =
        (!Dest && isa<CallBase>(I) && !isa<MemIntrinsic>(I) && CallsHarmless) ||
        (Obj && (Shadows.count(Obj) ||
                 (isa<AllocaInst>(Obj) && !Protected.count(Obj) &&
                  !PointerMayBeCaptured(Obj, /*ReturnCaptures=*/false,
                                        /*StoreCaptures=*/true))));
    if (!Harmless)
      return "memory it may read may be written in between" +
             std::string(sourceLocation(&I).empty()
                             ? ""
                             : " (at " + sourceLocation(&I) + ")");
  }
  return std::nullopt;
}

static void resolveForwardSplit(CallBase &CB, const DecodedCall &D,
                                DerivativeCache &Cache) {
  Function *Fn = D.Request.Fn;
  std::string How = "Tapestry's " + entryPointName(CB).str() +
                    " computes the tangent by running '" +
                    sourceIdentifier(*Fn) +
                    "' again (Enzyme reads the values from the tape instead)";
  for (unsigned I = 0; I < D.Primals.size(); ++I)
    if (D.Primals[I] && isa<ConstantPointerNull>(D.Primals[I]) &&
        !Fn->getArg(I)->use_empty()) {
      reportError(*CB.getFunction(), &CB,
                  How +
                      ", so it needs the values of the arguments, but the "
                      "value of parameter " +
                      Twine(I + 1) +
                      " is a null pointer; pass the same values as to "
                      "__enzyme_augmentfwd");
      return;
    }
  if (std::optional<std::string> Why = whyRerunMayDiffer(*Fn, D.Primals)) {
    reportError(*CB.getFunction(), &CB,
                How + ", and a second run could compute other values: " + *Why +
                    "; use __enzyme_fwddiff, which runs the primal once");
    return;
  }
  if (std::optional<std::string> Why = whyValuesMayHaveChanged(CB, D)) {
    reportError(*CB.getFunction(), &CB,
                How +
                    ", so it needs the values __enzyme_augmentfwd saw, "
                    "but " +
                    *Why +
                    "; call it after __enzyme_augmentfwd in the same "
                    "function with the same arguments and without changing "
                    "the memory they point to in between (setting tangents "
                    "is fine), or use __enzyme_fwddiff");
    return;
  }
  const SplitDerivative *Origin = nullptr;
  for (CallBase *Aug : tapeOrigins(CB, D))
    if (std::optional<DecodedCall> OD =
            peekRequest(*Aug, EntryPoint::AugmentedForward))
      if ((Origin = Cache.getSplit(OD->Request)))
        break;
  if (Function *G = Cache.get(D.Request))
    CallSiteRewriter(CB, D).rewriteForwardSplit(*G, Origin);
}

static void resolveRequest(PendingRequest &Req, DerivativeCache &Cache,
                           const CustomRules &Rules, Specializations &Specs,
                           TLIGetter GetTLI) {
  CallBase *CB = Req.CB;
  switch (Req.Kind) {
  case EntryPoint::Unsupported:
    reportError(*CB->getFunction(), CB,
                unsupportedEntryPointMessage(entryPointName(*CB)));
    return;
  case EntryPoint::ToDense:
    // Lowered once every derivative that uses it exists (Passes/ToDense.h).
    return;
  case EntryPoint::TypeHint:
    // Enzyme's type hints for memory; Tapestry's type analysis needs none.
    if (!CB->use_empty())
      reportError(*CB->getFunction(), CB,
                  entryPointName(*CB) +
                      " is one of Enzyme's type hints and returns nothing; "
                      "its result cannot be used");
    else
      eraseRequestCall(*CB);
    return;
  case EntryPoint::Batch:
    lowerBatchRequest(*CB);
    return;
  case EntryPoint::VirtualReverse:
    lowerVirtualReverse(*CB);
    return;
  case EntryPoint::Truncate:
    lowerTruncateRequest(*CB, GetTLI);
    return;
  default:
    break;
  }
  std::optional<DecodedCall> D = decodeRequest(*CB, Req.Kind, &Rules);
  if (!D)
    return;
  specializeConstantCallbacks(*D, Specs);
  if (Req.Kind == EntryPoint::ForwardSplit) {
    resolveForwardSplit(*CB, *D, Cache);
    return;
  }
  if (!isSplitEntryPoint(Req.Kind)) {
    if (Function *G = Cache.get(D->Request)) {
      explainRequest(*CB, *D, *G);
      CallSiteRewriter(*CB, *D).rewriteOneShot(*G);
    }
    return;
  }
  if (Req.Kind == EntryPoint::SplitReverse && !checkTapeOrigin(*CB, *D))
    return;
  const SplitDerivative *S = Cache.getSplit(D->Request);
  if (!S)
    return;
  explainSplitRequest(*CB, *D, *S);
  switch (Req.Kind) {
  case EntryPoint::AugmentedForward:
    CallSiteRewriter(*CB, *D).rewriteAugmented(*S);
    return;
  case EntryPoint::SplitReverse:
    CallSiteRewriter(*CB, *D).rewriteReverse(*S);
    return;
  case EntryPoint::AugmentSize:
    if (!CB->getType()->isIntegerTy()) {
      reportError(*CB->getFunction(), CB,
                  entryPointName(*CB) +
                      " returns the tape's size in bytes; declare it to "
                      "return an integer type such as size_t or int");
      return;
    }
    CB->replaceAllUsesWith(ConstantInt::get(CB->getType(), S->TapeBytes));
    eraseRequestCall(*CB);
    return;
  case EntryPoint::Thunk:
    if (!CB->getType()->isPointerTy()) {
      reportError(*CB->getFunction(), CB,
                  entryPointName(*CB) +
                      " returns a pointer to a constant tapestry_thunk; "
                      "declare it as in <tapestry/thunk.h>");
      return;
    }
    CB->replaceAllUsesWith(thunkDescriptor(*CB->getModule(), D->Request, *S));
    eraseRequestCall(*CB);
    return;
  default:
    llvm_unreachable("not a split entry point");
  }
}

/// C++ wrappers (such as enzyme::autodiff) receive the function to
/// differentiate as a parameter; inlining the always-inline ones that make
/// requests into their callers turns that parameter back into the function.
static void inlineRequestWrappers(Module &M) {
  for (unsigned Round = 0; Round < 8; ++Round) {
    SmallSetVector<Function *, 4> Wrappers;
    for (Function &F : M)
      if (F.isDeclaration() &&
          classifyEntryPoint(F.getName()) != EntryPoint::None)
        for (User *U : F.users())
          if (auto *CB = dyn_cast<CallBase>(U))
            if (CB->getFunction()->hasFnAttribute(Attribute::AlwaysInline))
              Wrappers.insert(CB->getFunction());
    SmallVector<CallBase *, 8> Sites;
    for (Function *W : Wrappers)
      for (User *U : W->users())
        if (auto *CB = dyn_cast<CallBase>(U))
          if (CB->getCalledOperand() == W && CB->getFunction() != W)
            Sites.push_back(CB);
    if (Sites.empty())
      return;
    for (CallBase *CB : Sites) {
      InlineFunctionInfo IFI;
      InlineFunction(*CB, IFI);
    }
    // A wrapper inlined everywhere is gone: its own request, on a function
    // parameter, is not one to resolve.
    for (Function *W : Wrappers)
      if (W->use_empty() && W->isDiscardableIfUnused())
        W->eraseFromParent();
  }
}

/// True if differentiating \p Target needs a body this unit does not have:
/// the target itself, or a function it reaches that is neither a library
/// function, an intrinsic, nor covered by a registered rule.
static bool needsOtherUnits(Function *Target, const CustomRules &Rules,
                            FunctionAnalysisManager &FAM) {
  if (!Target || Target->isDeclaration())
    return Target != nullptr;
  for (Function *F : reachableFunctions(Target))
    for (Instruction &I : instructions(*F)) {
      auto *CB = dyn_cast<CallBase>(&I);
      Function *Callee = CB ? CB->getCalledFunction() : nullptr;
      if (!Callee || !Callee->isDeclaration() || Callee->isIntrinsic() ||
          Rules.gradient(Callee) || Rules.forwardDerivative(Callee) ||
          Rules.isInactive(Callee) ||
          classifyEntryPoint(Callee->getName()) != EntryPoint::None)
        continue;
      LibFunc LF;
      if (FAM.getResult<TargetLibraryAnalysis>(*F).getLibFunc(*Callee, LF))
        continue;
      return true;
    }
  return false;
}

PreservedAnalyses TapestryPass::run(Module &M, ModuleAnalysisManager &MAM) {
  if (!enzymeEnabled()) // -enzyme-enable=false
    return PreservedAnalyses::all();
  // An Enzyme option that changes what every function computes: the build
  // stops rather than produce numbers other than the user asked for.
  if (std::string Opt = unsupportedEnzymeOption(); !Opt.empty()) {
    for (Function &F : M)
      if (!F.isDeclaration()) {
        reportError(F, nullptr,
                    "Enzyme's option " + Opt +
                        " is not supported by Tapestry (it changes the "
                        "numbers every function computes); remove it from "
                        "the command line");
        break;
      }
    return PreservedAnalyses::all();
  }
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  auto GetTLI = [&](Function &F) -> const TargetLibraryInfo & {
    return FAM.getResult<TargetLibraryAnalysis>(F);
  };
  inlineRequestWrappers(M);
  declareIterationCountersPure(M);
  SmallVector<PendingRequest, 8> Pending;
  bool HasCounters = false;
  for (Function &F : M) {
    EntryPoint E = classifyEntryPoint(F.getName());
    if (E == EntryPoint::None || !F.isDeclaration())
      continue;
    for (User *U : F.users())
      if (auto *CB = dyn_cast<CallBase>(U))
        if (CB->getCalledOperand() == &F) {
          // __enzyme_iter is no request: preparation advances it in code
          // being differentiated, and it is lowered when all are done.
          if (E == EntryPoint::IterationCounter) {
            std::string Problem = iterationCounterProblem(*CB);
            if (!Problem.empty())
              reportError(*CB->getFunction(), CB, Problem);
            HasCounters = true;
            continue;
          }
          // A request made inside an inlined wrapper (the C++ headers) is
          // reported, and its derivative called, at the user's call.
          if (const DILocation *DL = CB->getDebugLoc();
              DL && DL->getInlinedAt()) {
            while (DL->getInlinedAt())
              DL = DL->getInlinedAt();
            CB->setDebugLoc(DebugLoc(DL));
          }
          Pending.push_back({CB, E});
        }
  }
  // -enzyme-truncate-all applies to every function, derivatives included:
  // after the requests.
  std::string TruncateAll = enzymeTruncateAll();
  if (Pending.empty() && !HasCounters) {
    if (TruncateAll.empty())
      return PreservedAnalyses::all();
    truncateAllFunctions(M, TruncateAll, GetTLI);
    return PreservedAnalyses::none();
  }
  // Reverse halves (and forward splits) first, so that each can find the
  // augmented-forward call its tape comes from before that call is
  // rewritten.
  std::stable_partition(Pending.begin(), Pending.end(),
                        [](const PendingRequest &P) {
                          return P.Kind == EntryPoint::SplitReverse ||
                                 P.Kind == EntryPoint::ForwardSplit;
                        });

  // What the C library's functions may touch (free captures nothing, exp
  // writes only errno) lets alias analysis prove more memory unchanged, so
  // the reverse sweep reloads it instead of caching it. -O2 infers the same
  // attributes later; doing it first helps every -O level.
  for (Function &F : M)
    if (F.isDeclaration() && !F.isIntrinsic())
      inferNonMandatoryLibFuncAttrs(F, FAM.getResult<TargetLibraryAnalysis>(F));
  CustomRules Rules = CustomRules::collect(M);
  Specializations Specs;
  size_t Requested = Pending.size();
  if (AtCompileStart && isFullLTOPreLink(M))
    erase_if(Pending, [&](const PendingRequest &P) {
      return needsOtherUnits(requestTarget(*P.CB), Rules, FAM);
    });
  bool Deferred = Pending.size() != Requested;
  // Globals the differentiated code writes with derivatives get shadows.
  SmallPtrSet<Function *, 16> Reachable;
  for (const PendingRequest &Req : Pending)
    if (Function *Target = requestTarget(*Req.CB);
        Target && !Target->isDeclaration())
      for (Function *F : reachableFunctions(Target))
        Reachable.insert(F);
  GlobalShadows Globals = GlobalShadows::collect(M, Reachable, Rules);
  {
    DerivativeCache Cache(FAM, Rules, Globals);
    // A request inside code that another request differentiates (a
    // Hessian-vector product, say) is resolved first, whatever the source
    // order.
    while (!Pending.empty()) {
      bool Progress = false;
      for (unsigned I = 0; I < Pending.size();) {
        PendingRequest Req = Pending[I];
        Function *Target = requestTarget(*Req.CB);
        if (Target && !Target->isDeclaration()) {
          SmallPtrSet<Function *, 16> Reach = reachableFunctions(Target);
          if (Reach.count(Req.CB->getFunction())) {
            reportError(*Req.CB->getFunction(), Req.CB,
                        "this request differentiates '" + Target->getName() +
                            "', which itself contains the request; a "
                            "function cannot depend on its own derivative");
            Pending.erase(Pending.begin() + I);
            Progress = true;
            continue;
          }
          bool Waits = any_of(Pending, [&](const PendingRequest &Other) {
            return Other.CB != Req.CB && Reach.count(Other.CB->getFunction());
          });
          if (Waits) {
            ++I;
            continue;
          }
        }
        resolveRequest(Req, Cache, Rules, Specs, GetTLI);
        Pending.erase(Pending.begin() + I);
        Progress = true;
      }
      if (!Progress) {
        for (PendingRequest &Req : Pending)
          reportError(*Req.CB->getFunction(), Req.CB,
                      "this request and another one each differentiate code "
                      "that contains the other; they cannot be ordered");
        break;
      }
    }
  }
  for (auto &Entry : Specs)
    if (Entry.second->use_empty())
      Entry.second->eraseFromParent();
  // Requests left for link time may still differentiate code that counts.
  if (!Deferred)
    lowerIterationCounters(M);
  lowerToDense(M);
  eraseDeadApi(M);
  truncateAllFunctions(M, TruncateAll, GetTLI);
  return PreservedAnalyses::none();
}

} // namespace tapestry
