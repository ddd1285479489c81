//===- SynthesizerBase.cpp - State shared by forward and reverse mode -----===//
//
// Implements SynthesizerBase.h: createFunction, the primal values of the clone,
// the rule of a call, checks of registered derivatives' signatures, the request
// made for a callee, and the checks and messages both modes share (stores that
// would lose a derivative, stores through a constant pointer, unknown callees).
// The mode-specific visitors are in ForwardModeSynthesizer.cpp and
// ReverseModeSynthesizer.cpp.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/SynthesizerBase.h"

#include "Analysis/InertCalls.h"
#include "Analysis/StackSlots.h"
#include "Core/AddressesOfNothing.h"
#include "Core/BlasFunctions.h"
#include "Core/Diagnostics.h"
#include "Core/MathFunctions.h"
#include "Core/OpenMPRuntime.h"
#include "Synthesis/DerivativeRules.h"
#include "Synthesis/IndirectCalls.h"
#include "Synthesis/InlineHelpers.h"
#include "Synthesis/UnneededPrimalWrites.h"
#include "Synthesis/VectorRules.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace tapestry {

SynthesizerBase::SynthesizerBase(const SynthesisInput &In)
    : R(In.Request), W(In.Request.Width), P(In.Primal), Rules(In.Rules),
      AI(In.Activity), Tape(In.Tape), LoopIVs(In.LoopIVs),
      CalleeDerivative(In.Callee), CalleeSplitFor(In.CalleeSplitFor),
      Globals(In.Globals), Sig(computeSignature(In.Request)) {}

void SynthesizerBase::createFunction() {
  G = createDerivativeFunction(R, Sig, P, VMap);
  RA = computeRuntimeActivity(
      P, AI, [this](MemTransferInst &MT) { return copiesOnlyPointers(MT); },
      R.MaybeConstantArgs, R.MarkedMemoryArgs, R.MarkedDeepArgs);
  for (unsigned I = 0; I < P.arg_size(); ++I)
    if (Sig.ShadowArg[I] >= 0)
      Shadows[P.getArg(I)] = G->getArg(Sig.ShadowArg[I]);
  if (Globals)
    for (GlobalVariable *GV : Globals->globals())
      Shadows[GV] = Globals->shadowFor(*GV, W);
}

Module &SynthesizerBase::module() const { return *P.getParent(); }

void SynthesizerBase::fail(const Instruction *PI, const Twine &Msg) {
  Failed = true;
  reportError(*R.Fn, PI,
              "cannot differentiate '" + sourceName(*R.Fn) + "': " + Msg);
}

SmallVector<Instruction *, 8> SynthesizerBase::dropUnneededPrimalWrites() {
  SmallVector<Instruction *, 8> Dropped;
  for (Instruction *PI : findUnneededPrimalWrites(P, R))
    if (auto *GI = dyn_cast_or_null<Instruction>(VMap.lookup(PI))) {
      Dropped.push_back(GI);
      GI->eraseFromParent();
    }
  return Dropped;
}

Value *SynthesizerBase::primal(Value *PV) const {
  if (isa<Constant>(PV) || isa<MetadataAsValue>(PV) || isa<InlineAsm>(PV))
    return PV;
  Value *GV = VMap.lookup(PV);
  assert(GV && "primal value has no clone");
  return GV;
}

SmallVector<ConstantOut, 2>
SynthesizerBase::constantOutParams(const CallBase &CB) const {
  SmallVector<ConstantOut, 2> All, Shadowed;
  // An unreadable scanf format was rejected (SupportedInstructions).
  tapestry::constantOutParams(CB, All);
  // The struct an inactive function returns by value, through its hidden
  // pointer: its derivative is zero.
  if (isInactiveCall(CB, &Rules))
    for (unsigned I = 0; I < CB.arg_size(); ++I)
      if (CB.paramHasAttr(I, Attribute::StructRet))
        All.push_back({CB.getArgOperand(I), CB.getParamStructRetType(I)});
  for (const ConstantOut &O : All)
    if (O.Ptr->getType()->isPointerTy() && AI.hasShadow(O.Ptr))
      Shadowed.push_back(O);
  return Shadowed;
}

const DerivativeRule *SynthesizerBase::ruleFor(const CallBase &CB) const {
  if (const Function *F = CB.getCalledFunction()) {
    StringRef Like = Rules.functionLike(F);
    if (!Like.empty())
      return findLibraryRule(Like);
  }
  return findCallRule(CB);
}

bool SynthesizerBase::checkCustomSignature(const Function &Callee,
                                           const Function &Custom,
                                           StringRef Role,
                                           FunctionType *Expected,
                                           const Instruction *At) {
  FunctionType *Actual = Custom.getFunctionType();
  bool Same =
      Actual->getNumParams() == Expected->getNumParams() && !Actual->isVarArg();
  for (unsigned I = 0; Same && I < Actual->getNumParams(); ++I)
    Same = Actual->getParamType(I) == Expected->getParamType(I);
  Type *AR = Actual->getReturnType(), *ER = Expected->getReturnType();
  if (Same && AR != ER) {
    auto *AS = dyn_cast<StructType>(AR), *ES = dyn_cast<StructType>(ER);
    Same = AS && ES && AS->elements() == ES->elements();
  }
  if (Same)
    return true;
  fail(At, "the " + Role + " '" + Custom.getName() + "' registered for '" +
               Callee.getName() + "' (" + describe(Callee.getFunctionType()) +
               ") has type " + describe(Actual) + " but must have type " +
               describe(Expected));
  return false;
}

bool SynthesizerBase::hasNoDerivative(const DiffRequest &CR) const {
  return !CR.ReturnActive &&
         all_of(CR.Args, [](Activity A) { return A == Activity::Const; }) &&
         !(Globals && Globals->isTouchedBy(CR.Fn));
}

bool SynthesizerBase::passesUnneededMemory(const Value *Ptr) const {
  if (R.Mode != DiffMode::Forward)
    return false;
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects);
  return !Objects.empty() && all_of(Objects, [&](const Value *O) {
    auto *A = dyn_cast<Argument>(O);
    return A && A->getParent() == &P && A->getArgNo() < R.Args.size() &&
           R.Args[A->getArgNo()] == Activity::DupNoNeed &&
           updatesOnlyItself(*A);
  });
}

const Value *SynthesizerBase::unshadowedReturn(const Value *RV) const {
  SmallVector<const Value *, 4> Roots;
  stackSlotRoots(RV, Roots); // -O0 returns through a local
  for (const Value *V : Roots) {
    if (isa<ConstantPointerNull>(V) || isa<UndefValue>(V))
      continue;
    if ((isa<Constant>(V) && !isa<GlobalValue>(V)) || !AI.hasShadow(V))
      return V;
  }
  return nullptr;
}

void SynthesizerBase::storeEndPointerShadow(CallBase &CB) {
  if (!isEndPointerCall(CB))
    return;
  Value *Text = CB.getArgOperand(0), *EndPtr = CB.getArgOperand(1);
  if (!Text->getType()->isPointerTy() || !EndPtr->getType()->isPointerTy() ||
      !AI.hasShadow(EndPtr) ||
      !isa<AllocaInst>(getUnderlyingObject(EndPtr))) // never null
    return;
  Value *SEnd = shadowOf(EndPtr, &CB);
  Value *SText = AI.hasShadow(Text) ? shadowOf(Text, &CB) : nullptr;
  if (!SEnd)
    return;
  IRBuilder<> B(primal(&CB)->getNextNode());
  Value *End = B.CreateLoad(B.getPtrTy(), primal(EndPtr), "strto.end");
  Value *Off = B.CreatePtrDiff(B.getInt8Ty(), End, primal(Text));
  for (unsigned K = 0; K < W; ++K) {
    Value *S = SText ? B.CreateGEP(B.getInt8Ty(), lane(B, SText, K), Off) : End;
    B.CreateStore(S, lane(B, SEnd, K));
  }
}

void SynthesizerBase::failUnshadowedReturn(const Instruction *Ret) {
  fail(Ret, "'" + sourceName(*R.Fn) +
                "' stays a call (it is recursive) and returns a pointer "
                "whose shadow its caller needs, but what it returns here "
                "has none (constant data, a global, or a parameter passed "
                "without a shadow); return memory the "
                "function allocates or reaches through its arguments");
}

DiffRequest SynthesizerBase::calleeRequest(CallBase &CB) const {
  DiffRequest CR;
  CR.Fn = CB.getCalledFunction();
  CR.Mode = R.Mode;
  CR.Width = R.Width;
  CR.ErrorEstimate = R.ErrorEstimate;
  CR.Parallel = R.Parallel;
  // A one-shot reverse request's callee tapes nest; so do those of the
  // callees of such a callee's split (DiffRequest::LifoTapes).
  CR.LifoTapes =
      R.Mode == DiffMode::Reverse && !R.Parallel && (!R.Split || R.LifoTapes);
  // A callee's derivative lists freed shadows with its caller's.
  CR.FreedListDepth = R.FreedListDepth;
  CR.Context = R.Context;
  CR.GlobalDepth = R.GlobalDepth;
  for (Value *A : CB.args()) {
    Type *T = A->getType();
    // The callee tests at run time what this function could not tell
    // constant (Analysis/RuntimeActivity.h).
    unsigned I = CR.Args.size();
    if (T->isPointerTy() && AI.hasShadow(A) &&
        I < DiffRequest::MaxRuntimeActivityArgs) {
      if (RA.mayBeConstant(A))
        CR.MaybeConstantArgs |= uint64_t(1) << I;
      if (RA.mayReadMarker(A))
        CR.MarkedMemoryArgs |= uint64_t(1) << I;
      if (RA.mayReachMarker(A))
        CR.MarkedDeepArgs |= uint64_t(1) << I;
    }
    // A null pointer given to a function returning pointers whose shadows
    // are needed (the accumulator of a recursive list reversal, NULL at
    // first) has a shadow: null, which the callee may return.
    bool NullToShadowedResult = isa<ConstantPointerNull>(A) &&
                                CB.getType()->isPointerTy() &&
                                AI.hasShadow(&CB);
    if (T->isPointerTy())
      CR.Args.push_back(NullToShadowedResult      ? Activity::Dup
                        : !AI.hasShadow(A)        ? Activity::Const
                        : passesUnneededMemory(A) ? Activity::DupNoNeed
                                                  : Activity::Dup);
    else if (isDifferentiableType(T) && AI.isActive(A))
      CR.Args.push_back(R.Mode == DiffMode::Reverse ? Activity::Active
                                                    : Activity::Dup);
    else
      CR.Args.push_back(Activity::Const);
  }
  // Structs returned by value ({double, double}, {double, i32}) too.
  CR.ReturnActive = isDifferentiableType(CB.getType()) && AI.isActive(&CB);
  // A pointer result with a shadow: the callee's derivative returns the
  // shadow (its split's augmented forward, DiffRequest::returnsShadow, or
  // as the result's tangent in forward mode).
  if (CB.getType()->isPointerTy() && AI.hasShadow(&CB))
    CR.ReturnActive = true;
  // Forward mode returns the primal too, so the primal call disappears and
  // recursion costs one pass.
  CR.ReturnPrimal = R.Mode == DiffMode::Forward && !CB.getType()->isVoidTy();
  return CR;
}

bool SynthesizerBase::losesDerivative(StoreInst &SI) const {
  Value *Val = SI.getValueOperand();
  if (AI.hasShadow(SI.getPointerOperand()) || !AI.isVaried(Val) ||
      pointsOnlyToNothing(SI.getPointerOperand()))
    return false;
  // A global has no shadow to hold what a caller might read later; other
  // memory without a shadow is a "constant output" unless read back here.
  const Value *Obj = getUnderlyingObject(SI.getPointerOperand(), 0);
  // A global the user declared inactive (enzyme_inactive) carries no
  // derivative, as in Enzyme: a value stored there and never read back
  // with a derivative (a log, a cache) loses none. One read back where its
  // derivative matters would lose it, or keep it where the optimiser
  // forwarded the store to the load: the declaration is false.
  if (auto *GV = dyn_cast<GlobalVariable>(Obj);
      GV && Rules.isInactiveGlobal(GV))
    return isReadBackWithDerivative(SI, *GV);
  return (AI.isActive(Val) && isa<GlobalVariable>(Obj)) ||
         isReadBack(SI.getPointerOperand());
}

bool SynthesizerBase::losesDerivative(MemTransferInst &MT) {
  if (AI.hasShadow(MT.getDest()) || !AI.hasShadow(MT.getSource()) ||
      pointsOnlyToNothing(MT.getDest()) ||
      pointsToMemoryWithoutDerivative(MT.getSource(), MT, AI))
    return false;
  // Only floating-point bytes carry derivatives: a copy of pointers,
  // integers or characters loses none.
  if (!Types)
    Types = std::make_unique<TypeInfo>(computeTypes(P));
  auto *ConstLen = dyn_cast<ConstantInt>(MT.getLength());
  uint64_t Size = ConstLen ? ConstLen->getZExtValue() : 0;
  ByteLayout L = Types->layoutAt(MT.getDest(), Size, MT.getSource());
  if (!L.empty() && L.floatParts().empty() &&
      !L.mayHideFloats(Size, module().getDataLayout()))
    return false;
  if (copiesOnlyPointers(MT))
    return false;
  const Value *Obj = getUnderlyingObject(MT.getDest(), 0);
  if (auto *GV = dyn_cast<GlobalVariable>(Obj);
      GV && Rules.isInactiveGlobal(GV))
    return isReadBackWithDerivative(MT, *GV);
  return isa<GlobalVariable>(Obj) || isReadBack(MT.getDest());
}

bool SynthesizerBase::isReadBack(const Value *Ptr) const {
  SmallVector<const Value *, 4> Stored;
  getUnderlyingObjects(Ptr, Stored, nullptr, 0);
  // Reads before the write count too: a derivative may serve a callee that
  // runs again (in a loop, recursively) and reads what its last run wrote.
  auto Reads = [&](const Value *From) {
    SmallVector<const Value *, 4> Read;
    getUnderlyingObjects(From, Read, nullptr, 0);
    return any_of(Read, [&](const Value *R) {
      return is_contained(Stored, R) || !isIdentifiedObject(R);
    });
  };
  for (Instruction &I : instructions(P)) {
    // A copy reads its source.
    if (auto *MT = dyn_cast<MemTransferInst>(&I)) {
      if (Reads(MT->getSource()))
        return true;
      continue;
    }
    // A callee with a body that is not inlined reads what its pointer
    // arguments point to.
    if (auto *CB = dyn_cast<CallBase>(&I)) {
      Function *Callee = CB->getCalledFunction();
      if (!Callee || Callee->isDeclaration() || CB->doesNotAccessMemory())
        continue;
      if (any_of(CB->args(), [&](Value *A) {
            return A->getType()->isPointerTy() && Reads(A);
          }))
        return true;
      continue;
    }
    if (auto *LI = dyn_cast<LoadInst>(&I); LI && Reads(LI->getPointerOperand()))
      return true;
  }
  return false;
}

/// True if \p F, or a function it calls, names \p GV (reads the global by
/// name), looking \p Depth calls deep.
static bool namesGlobal(const Function &F, const GlobalVariable &GV,
                        unsigned Depth,
                        SmallPtrSetImpl<const Function *> &Seen) {
  if (F.isDeclaration() || !Seen.insert(&F).second)
    return false;
  for (const Instruction &I : instructions(F)) {
    for (const Value *Op : I.operands())
      if (Op->stripPointerCasts() == &GV ||
          getUnderlyingObject(Op->stripPointerCasts()) == &GV)
        return true;
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (const Function *Callee = CB->getCalledFunction();
          Callee && Depth > 0 && namesGlobal(*Callee, GV, Depth - 1, Seen))
        return true;
  }
  return false;
}

/// True if the global \p Holder may hold the address of \p GV: its
/// initializer points into \p GV, or the module stores such an address
/// into it, or its value is not known here (defined in another file).
static bool mayHoldAddressOf(const GlobalVariable &Holder,
                             const GlobalVariable &GV) {
  if (!Holder.hasDefinitiveInitializer())
    return true;
  if (getUnderlyingObject(Holder.getInitializer()) == &GV)
    return true;
  for (const User *U : Holder.users())
    if (auto *SI = dyn_cast<StoreInst>(U);
        SI && SI->getPointerOperand() == &Holder &&
        getUnderlyingObject(SI->getValueOperand()) == &GV)
      return true;
  return false;
}

bool SynthesizerBase::isReadBackWithDerivative(const Instruction &Write,
                                               const GlobalVariable &GV) const {
  // The global itself, or a pointer read from another global (a file-scope
  // `double *histp = hist`), which may hold its address.
  auto MayReadGlobal = [&](const Value *From) {
    SmallVector<const Value *, 4> Read;
    getUnderlyingObjects(From, Read, nullptr, 0);
    return any_of(Read, [&](const Value *R) {
      if (R == &GV)
        return true;
      auto *L = dyn_cast<LoadInst>(R);
      auto *Holder = L ? dyn_cast<GlobalVariable>(
                             getUnderlyingObject(L->getPointerOperand()))
                       : nullptr;
      return Holder && mayHoldAddressOf(*Holder, GV);
    });
  };
  for (Instruction &I : instructions(P)) {
    if (&I == &Write || !isPotentiallyReachable(&Write, &I))
      continue;
    if (auto *MT = dyn_cast<MemTransferInst>(&I)) {
      if (MayReadGlobal(MT->getSource()))
        return true;
      continue;
    }
    // Floating-point values read back, directly or by a callee that
    // returns one, whose derivative matters to the result.
    if (!AI.Useful.count(&I) || !isDifferentiableType(I.getType()))
      continue;
    if (auto *LI = dyn_cast<LoadInst>(&I);
        LI && MayReadGlobal(LI->getPointerOperand()))
      return true;
    if (auto *CB = dyn_cast<CallBase>(&I)) {
      if (any_of(CB->args(), [&](Value *A) {
            return A->getType()->isPointerTy() && MayReadGlobal(A);
          }))
        return true;
      SmallPtrSet<const Function *, 8> Seen;
      if (const Function *Callee = CB->getCalledFunction();
          Callee && namesGlobal(*Callee, GV, /*Depth=*/3, Seen))
        return true;
    }
  }
  return false;
}

void SynthesizerBase::reportLostStore(Instruction &I, bool Copied) {
  const Value *Ptr = isa<StoreInst>(I) ? cast<StoreInst>(I).getPointerOperand()
                                       : cast<MemTransferInst>(I).getDest();
  const Value *Obj = getUnderlyingObject(Ptr, 0);
  std::string What = Copied ? "memory holding active values is copied"
                            : "an active value is stored";
  if (auto *GV = dyn_cast<GlobalVariable>(Obj);
      GV && Rules.isInactiveGlobal(GV)) {
    fail(&I, What + " to the global '" + describe(GV) +
                 "', which is declared inactive (__enzyme_inactive_global or "
                 "enzyme_inactive), and read back where its derivative "
                 "matters: the declaration would drop that derivative. "
                 "Remove the declaration (a global the differentiated code "
                 "writes gets a derivative of its own), or keep differentiated "
                 "values out of the global");
    return;
  }
  if (auto *GV = dyn_cast<GlobalVariable>(Obj)) {
    fail(&I, What + " to the global '" + describe(GV) +
                 "', which has no shadow to receive its derivative; pass the "
                 "data through an enzyme_dup argument instead");
    return;
  }
  if (auto *A = dyn_cast<Argument>(Obj)) {
    fail(&I, What + " through " + describe(A) +
                 ", which is enzyme_const; pass it as enzyme_dup with a "
                 "shadow");
    return;
  }
  fail(&I, What + " to memory that has no shadow (" + describe(Obj) +
               "); pass that memory through an enzyme_dup argument");
}

/// The run-time stop of a derivative that would lose what is written
/// through a pointer to constant data where \p IsConstant holds.
static void failIfWrittenThroughConstant(IRBuilderBase &B, Instruction &At,
                                         Function &Fn, Value *IsConstant) {
  std::string Where = sourceLocation(&At);
  std::string Msg =
      "tapestry: " + (Where.empty() ? std::string() : Where + ": ") +
      "in the derivative of '" + sourceName(Fn) +
      "', an active value is stored through a pointer to constant data "
      "(enzyme_const or a global; the pointer was read from memory that "
      "also holds active pointers) and read back, so its derivative would "
      "be lost; pass the constant data as enzyme_dup with a zeroed shadow\n";
  B.CreateCall(getFailIfFn(*B.GetInsertBlock()->getModule()),
               {IsConstant,
                B.CreateGlobalString(Msg, "tapestry.constant.store"),
                B.getInt64(Msg.size())});
}

void SynthesizerBase::checkStoreThroughConstant(StoreInst &SI, Value *SPtr) {
  Value *Ptr = SI.getPointerOperand();
  if (!SPtr || !RA.mayBeConstant(Ptr) || !AI.isVaried(SI.getValueOperand()) ||
      !isReadBack(Ptr))
    return;
  IRBuilder<> B(primal(&SI));
  failIfWrittenThroughConstant(
      B, SI, *R.Fn, isConstantShadow(B, lane(B, SPtr, 0), primal(Ptr)));
}

void SynthesizerBase::checkCopyThroughConstant(MemTransferInst &MT) {
  Value *Dst = MT.getDest(), *Src = MT.getSource();
  if (!RA.mayBeConstant(Dst) || !AI.hasShadow(Dst) || !AI.hasShadow(Src) ||
      !isReadBack(Dst))
    return;
  Value *DstS = shadowOf(Dst, &MT), *SrcS = shadowOf(Src, &MT);
  if (!DstS || !SrcS)
    return;
  IRBuilder<> B(primal(&MT));
  Value *Lost = isConstantShadow(B, lane(B, DstS, 0), primal(Dst));
  // From constant memory too, nothing that carries a derivative moves.
  if (RA.mayBeConstant(Src))
    Lost = B.CreateAnd(
        Lost, B.CreateNot(isConstantShadow(B, lane(B, SrcS, 0), primal(Src))));
  failIfWrittenThroughConstant(B, MT, *R.Fn, Lost);
}

void SynthesizerBase::stopAtUnknownCallee(CallBase &CB) {
  std::string Where = sourceLocation(&CB);
  std::string Msg =
      "Tapestry: " + (Where.empty() ? std::string() : Where + ": ") +
      "the derivative of '" + sourceName(*R.Fn) +
      "' calls, through a function pointer, a function that was not in "
      "the translation unit Tapestry differentiated (another file or a "
      "library), so its derivative is unknown; define that function in "
      "the same file, or register its derivative\n";
  IRBuilder<> B(primal(&CB));
  emitFatalMessage(B, B.CreateGlobalString(Msg, "tapestry.unknown.callee"),
                   B.getInt64(Msg.size()));
}

TypeInfo &SynthesizerBase::types() {
  if (!Types)
    Types = std::make_unique<TypeInfo>(computeTypes(P));
  return *Types;
}

bool SynthesizerBase::overwritesFloats(StoreInst &SI) {
  Value *Val = SI.getValueOperand();
  if (!Val->getType()->isIntOrIntVectorTy() || isa<PtrToIntInst>(Val) ||
      !AI.hasShadow(SI.getPointerOperand()))
    return false;
  if (auto *From = dyn_cast<LoadInst>(Val); From && isCopyLoad(*From))
    return false;
  const DataLayout &DL = module().getDataLayout();
  uint64_t Size = DL.getTypeStoreSize(Val->getType());
  ByteLayout L = types().layoutAt(SI.getPointerOperand(), Size);
  if (L.floatParts().empty())
    // The function may only move the bytes as integers while its callers
    // hold doubles there.
    L = deepTypes().layoutAt(SI.getPointerOperand(), Size);
  return !L.floatParts().empty() && !L.hasPointers();
}

InlinedTypes &SynthesizerBase::inlinedTypes() {
  if (!Inlined)
    // A request's function compiled at -O0 (optnone) was prepared by
    // promotion and inlining only: its GEPs are still the front end's.
    Inlined = std::make_unique<InlinedTypes>(P, DeepTypeDepth, R.Fn,
                                             R.Fn && R.Fn->hasOptNone());
  return *Inlined;
}

TypeInfo &SynthesizerBase::deepTypes() {
  if (!DeepTypes)
    DeepTypes =
        std::make_unique<TypeInfo>(computeTypes(P, DeepTypeDepth, R.Fn));
  return *DeepTypes;
}

} // namespace tapestry
