//===- CallSiteRewriter.cpp - Request calls made derivative calls ---------===//
//
// Implements CallSiteRewriter.h, the last step of resolving a request: the
// primal and shadow arguments in the derivative's parameter order, one-shot and
// forward-split calls, split mode's augmented and reverse calls with the tape
// and the run-time checks of inactive arguments, and deliverResults, which
// hands the results back through sret memory or a coerced struct as the
// declared entry point expects. It emits calls only; the derivative itself
// comes from the Driver.
//
//===----------------------------------------------------------------------===//
#include "Passes/CallSiteRewriter.h"

#include "Analysis/GlobalShadows.h"
#include "Core/AllocationFunctions.h"
#include "Core/Batch.h"
#include "Core/Diagnostics.h"
#include "Driver/DerivativeCache.h"
#include "Synthesis/DerivativeSignature.h"
#include "Synthesis/FreedShadows.h"
#include "Synthesis/InlineHelpers.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include <algorithm>

using namespace llvm;

namespace tapestry {

SmallVector<Value *, 16> CallSiteRewriter::primalAndShadowArgs() const {
  SmallVector<Value *, 16> Args;
  for (unsigned I = 0; I < D.Primals.size(); ++I) {
    Args.push_back(D.Primals[I]);
    if (D.Shadows[I])
      Args.push_back(D.Shadows[I]);
  }
  return Args;
}

void eraseRequestCall(CallBase &CB) {
  if (auto *II = dyn_cast<InvokeInst>(&CB)) {
    II->getUnwindDest()->removePredecessor(II->getParent());
    BranchInst::Create(II->getNormalDest(), II);
  }
  CB.eraseFromParent();
}

bool CallSiteRewriter::finish() {
  eraseRequestCall(CB);
  return true;
}

/// The seed of an active result of type \p T: 1 in every floating-point
/// element (a struct returned in registers gets one per member, as
/// Enzyme seeds it; batch mode one per lane).
static Constant *onesOf(Type *T) {
  if (auto *ST = dyn_cast<StructType>(T)) {
    SmallVector<Constant *, 4> Elts;
    for (Type *E : ST->elements())
      Elts.push_back(onesOf(E));
    return ConstantStruct::get(ST, Elts);
  }
  if (auto *AT = dyn_cast<ArrayType>(T))
    return ConstantArray::get(
        AT, SmallVector<Constant *, 4>(AT->getNumElements(),
                                       onesOf(AT->getElementType())));
  return ConstantFP::get(T, 1.0);
}

bool CallSiteRewriter::rewriteOneShot(Function &G) {
  const DiffRequest &R = D.Request;
  checkRuntimeInactiveArgs();
  DerivativeSignature Sig = computeSignature(R);
  SmallVector<Value *, 16> Args = primalAndShadowArgs();
  if (Sig.SeedArg >= 0)
    // Batched reverse seeds every lane with 1.
    Args.push_back(onesOf(batchType(R.Fn->getReturnType(), R.Width)));
  // Reverse mode: shadows of blocks the caller owned and the function
  // freed are released when the request ends (FreedShadows.h).
  // (Only modules whose derivatives record any: the derivative of a
  // function that frees nothing costs nothing.)
  Value *Mark = nullptr;
  Module &M = *G.getParent();
  if (R.Mode == DiffMode::Reverse && listsFreedShadows(M, R.FreedListDepth))
    Mark = B.CreateCall(getFreedShadowMarkFn(M, R.FreedListDepth));
  // No derivative left in an implicit shadow of a global by an earlier
  // request is read as this one's (a context's shadows are the program's).
  if (!R.Context)
    GlobalShadows::zeroImplicitShadows(B, {&G});
  CallInst *Call = B.CreateCall(&G, Args);
  Call->setDebugLoc(CB.getDebugLoc());
  if (Mark) {
    std::string Msg = lostAdjointsMessage(*R.Fn);
    B.CreateCall(getFreedShadowReleaseFn(M, R.FreedListDepth),
                 {Mark, B.CreateGlobalStringPtr(Msg), B.getInt64(Msg.size())});
  }
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
      B.CreateCall(getFreeFn(*CB.getModule()), {Tape});
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
    Tape = B.CreateCall(getMallocFn(*CB.getModule()), {B.getInt64(S.TapeBytes)},
                        "tape");
  }
  SmallVector<Value *, 16> Args = primalAndShadowArgs();
  Args.push_back(Tape);
  if (!D.Request.Context)
    GlobalShadows::zeroImplicitShadows(B, {S.Augmented, S.Reverse});
  // The shadows of the caller's blocks the augmented forward frees are the
  // tape's until its reverse releases it (FreedShadows.h).
  Module &M = *CB.getModule();
  unsigned Depth = D.Request.FreedListDepth;
  Value *OldTag = listsFreedShadows(M, Depth)
                      ? B.CreateCall(getFreedShadowSetTagFn(M, Depth), {Tape})
                      : nullptr;
  CallInst *Call = B.CreateCall(S.Augmented, Args);
  Call->setDebugLoc(CB.getDebugLoc());
  if (OldTag)
    B.CreateCall(getFreedShadowSetTagFn(M, Depth), {OldTag});
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
    Module &M = *CB.getModule();
    if (listsFreedShadows(M, D.Request.FreedListDepth)) {
      std::string Msg = lostAdjointsMessage(*D.Request.Fn);
      B.CreateCall(
          getFreedShadowReleaseTagFn(M, D.Request.FreedListDepth),
          {Tape, B.CreateGlobalStringPtr(Msg), B.getInt64(Msg.size())});
    }
    B.CreateCall(S.Release, {Tape});
    if (!D.TapeBuffer) {
      B.CreateCall(getFreeFn(*CB.getModule()), {Tape});
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

/// The scalar leaves of \p T with their byte offsets, in memory order.
static void scalarLeaves(Type *T, uint64_t At, const DataLayout &DL,
                         SmallVectorImpl<std::pair<Type *, uint64_t>> &Out) {
  if (auto *ST = dyn_cast<StructType>(T)) {
    const StructLayout *SL = DL.getStructLayout(ST);
    for (unsigned I = 0; I < ST->getNumElements(); ++I)
      scalarLeaves(ST->getElementType(I), At + SL->getElementOffset(I), DL,
                   Out);
  } else if (auto *AT = dyn_cast<ArrayType>(T)) {
    uint64_t Step = DL.getTypeAllocSize(AT->getElementType());
    for (uint64_t I = 0; I < AT->getNumElements(); ++I)
      scalarLeaves(AT->getElementType(), At + I * Step, DL, Out);
  } else {
    Out.push_back({T, At});
  }
}

/// The results \p Result placed into a value of the declared struct type
/// \p Declared whose members are those results in order with integer
/// members between them (the adjoint of {double x; int tag} passed by
/// value: its integer members are not differentiated and come back 0);
/// null if the results do not fit so.
static Value *withIntegerMembersZero(IRBuilderBase &B, Value *Result,
                                     Type *Declared, Function &Caller) {
  if (!Declared->isStructTy() && !Declared->isArrayTy())
    return nullptr;
  const DataLayout &DL = Caller.getDataLayout();
  // Leaves on both sides (a vector piece is one leaf).
  SmallVector<std::pair<Type *, uint64_t>, 8> FromLeaves, Leaves;
  scalarLeaves(Result->getType(), 0, DL, FromLeaves);
  scalarLeaves(Declared, 0, DL, Leaves);
  SmallVector<uint64_t, 8> Offsets;
  unsigned R = 0;
  for (auto [T, At] : Leaves) {
    if (R < FromLeaves.size() && T == FromLeaves[R].first) {
      Offsets.push_back(At);
      ++R;
    } else if (!T->isIntegerTy()) {
      return nullptr;
    }
  }
  if (R != FromLeaves.size() || R == Leaves.size())
    return nullptr;
  IRBuilder<> EB(&Caller.getEntryBlock(), Caller.getEntryBlock().begin());
  AllocaInst *Tmp = EB.CreateAlloca(Declared, nullptr, "tapestry.result");
  B.CreateMemSet(Tmp, B.getInt8(0), DL.getTypeAllocSize(Declared),
                 Tmp->getAlign());
  // The results' scalars, in order, from the result as memory holds it.
  AllocaInst *From =
      EB.CreateAlloca(Result->getType(), nullptr, "tapestry.results");
  B.CreateStore(Result, From);
  for (unsigned I = 0; I < Offsets.size(); ++I) {
    Value *V = B.CreateLoad(FromLeaves[I].first,
                            B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), From,
                                                         FromLeaves[I].second));
    B.CreateStore(V,
                  B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Tmp, Offsets[I]));
  }
  return B.CreateLoad(Declared, Tmp);
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
  } else if (Value *R =
                 classifyEntryPoint(Entry) != EntryPoint::AugmentedForward
                     ? withIntegerMembersZero(B, Result, Declared,
                                              *CB.getFunction())
                     : nullptr) {
    V = R;
  } else {
    return Mismatch();
  }
  CB.replaceAllUsesWith(V);
  return true;
}

} // namespace tapestry
