//===- SplitCallSites.cpp - Split mode's request calls --------------------===//
//
// Resolves the split entry points of Passes/SplitCallSites.h once their
// request is decoded: checks that a reverse's tape comes from its own
// request's augmented forward (Split/TapeOrigins.h finds which), that
// __enzyme_fwdsplit may run the primal again (Split/Rerun.h) on the values
// its augmented forward saw, then asks the DerivativeCache for the split
// and rewrites the call (Passes/CallSiteRewriter.h) or replaces it by a
// constant (the tape's size, a thunk from Split/Thunks.h).
//
//===----------------------------------------------------------------------===//
#include "Passes/SplitCallSites.h"

#include "Core/Diagnostics.h"
#include "Core/KnownInactive.h"
#include "Core/MathFunctions.h"
#include "Driver/DerivativeCache.h"
#include "Passes/CallSiteRewriter.h"
#include "Passes/ConstantArguments.h"
#include "Passes/ExplainRequest.h"
#include "Passes/RequestOrder.h"
#include "Split/Rerun.h"
#include "Split/TapeOrigins.h"
#include "Split/Thunks.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/CaptureTracking.h"
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

using namespace llvm;

namespace tapestry {

/// The __enzyme_augmentfwd calls that filled the tape a reverse call uses:
/// the call that returned it, or those given the same caller buffer.
/// The __enzyme_augmentfwd calls in \p F whose decoded request \p Match
/// accepts.
static SmallVector<CallBase *, 2>
augmentedCallsWhere(Function &F,
                    function_ref<bool(const DecodedCall &)> Match) {
  SmallVector<CallBase *, 2> Calls;
  for (CallBase *Other : augmentedForwardCalls(F))
    if (std::optional<DecodedCall> OD =
            peekRequest(*Other, EntryPoint::AugmentedForward);
        OD && Match(*OD))
      Calls.push_back(Other);
  return Calls;
}

static SmallVector<CallBase *, 2> tapeOrigins(CallBase &CB,
                                              const DecodedCall &D) {
  SmallVector<CallBase *, 2> Origins;
  if (D.Tape) {
    if (CallBase *Aug = augmentedCallOf(D.Tape))
      Origins.push_back(Aug);
    return Origins;
  }
  const Value *Buffer = getUnderlyingObject(D.TapeBuffer);
  return augmentedCallsWhere(*CB.getFunction(), [&](const DecodedCall &OD) {
    return OD.TapeBuffer && getUnderlyingObject(OD.TapeBuffer) == Buffer;
  });
}

/// A reverse must use a tape from the augmented forward of the same
/// request; reports the mismatch when the tape's origin is known.
static bool checkTapeOrigin(CallBase &CB, const DecodedCall &D) {
  if (isa_and_nonnull<ConstantPointerNull>(D.Tape) ||
      isa_and_nonnull<ConstantPointerNull>(D.TapeBuffer))
    return reportError(*CB.getFunction(), &CB,
                       "the tape passed to this " + entryPointName(CB) +
                           " is a null pointer; pass the tape its " +
                           "__enzyme_augmentfwd returned (or the buffer it " +
                           "filled)");
  SmallVector<CallBase *, 2> Origins = tapeOrigins(CB, D);
  std::optional<DiffRequest> Other;
  CallBase *OtherCall = nullptr;
  for (CallBase *Aug : Origins) {
    std::optional<DecodedCall> OD =
        peekRequest(*Aug, EntryPoint::AugmentedForward);
    if (!OD)
      return true; // Reported where it is resolved.
    // A request for a function with a registered derivative goes to a
    // caller of it (Decoder::callerOfRegistered), which a peek does not
    // make: the same request (probe31 02).
    if (isCallerOfRegistered(*D.Request.Fn, *OD->Request.Fn))
      OD->Request.Fn = D.Request.Fn;
    // Nor the copy of its function for the callbacks it passes
    // (ConstantArguments.h), made when it is resolved.
    if (isSpecializationFor(*D.Request.Fn, *OD))
      OD->Request.Fn = D.Request.Fn;
    if (OD->Request == D.Request)
      return true;
    Other = OD->Request;
    OtherCall = Aug;
  }
  if (!Other)
    return true;
  std::string Mine, Theirs;
  raw_string_ostream MS(Mine), TS(Theirs);
  // In the user's terms: the function named, not its specialised copy.
  DiffRequest Shown = D.Request;
  if (Function *Base = specializedFrom(*Shown.Fn))
    Shown.Fn = Base;
  Shown.print(MS);
  Other->print(TS);
  std::string Where;
  if (const DebugLoc &DL = OtherCall->getDebugLoc())
    Where = " at line " + std::to_string(DL.getLine());
  if (Shown == *Other)
    return reportError(*CB.getFunction(), &CB,
                       "this " + entryPointName(CB) + " and the " +
                           entryPointName(*OtherCall) + Where +
                           " that made its tape pass '" +
                           sourceName(*Shown.Fn) +
                           "' different functions as enzyme_const arguments; "
                           "name the same functions in both halves (by "
                           "name, not through a variable)");
  return reportError(*CB.getFunction(), &CB,
                     "this " + entryPointName(CB) + " asks for the " + Mine +
                         ", but its tape comes from the " +
                         entryPointName(*OtherCall) + Where + " for the " +
                         Theirs +
                         "; both halves must name the same function with the "
                         "same activity markers");
}

/// __enzyme_fwdsplit: Tapestry runs the primal again to compute the
/// tangent, which needs the primal values and a function that computes the
/// same values when run again (Split/Rerun.h).

/// True if \p Fn may read memory other than its own stack slots (the -O0
/// copies of its parameters): a write between __enzyme_augmentfwd and
/// __enzyme_fwdsplit can change its rerun only then.
static bool readsOutsideItsFrame(Function &Fn) {
  for (Instruction &I : instructions(Fn)) {
    if (auto *LI = dyn_cast<LoadInst>(&I)) {
      if (!isa<AllocaInst>(getUnderlyingObject(LI->getPointerOperand())))
        return true;
      continue;
    }
    if (auto *Call = dyn_cast<CallBase>(&I)) {
      if (Call->onlyWritesMemory() || findMathFunction(*Call) ||
          isa<DbgInfoIntrinsic>(Call) ||
          (isa<IntrinsicInst>(Call) &&
           cast<IntrinsicInst>(Call)->isLifetimeStartOrEnd()))
        continue;
      return true;
    }
    if (I.mayReadFromMemory())
      return true;
  }
  return false;
}

/// For \p Call, between __enzyme_augmentfwd \p Aug and an __enzyme_fwdsplit
/// of \p Fn: if it is another __enzyme_fwdsplit of \p Fn on the tape of
/// \p Aug, "" when it keeps the tape (enzyme_nofree), since it runs \p Fn
/// again on the same values and so writes only what \p Fn writes, which
/// \p Fn does not read (Rerun.h), and tangents; else why the tape is gone.
/// Nothing for other calls.
static std::optional<std::string>
earlierRerunOfTape(CallBase &Call, const Function &Fn, CallBase &Aug) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee ||
      classifyEntryPoint(Callee->getName()) != EntryPoint::ForwardSplit)
    return std::nullopt;
  std::optional<DecodedCall> OD = peekRequest(Call, EntryPoint::ForwardSplit);
  if (!OD || OD->Request.Fn != &Fn)
    return std::nullopt;
  SmallVector<CallBase *, 2> Origins = tapeOrigins(Call, *OD);
  if (Origins.size() != 1 || Origins.front() != &Aug)
    return std::nullopt;
  if (OD->NoFree)
    return std::string();
  std::string Where = sourceLocation(&Call);
  return "the tape is released by the " + entryPointName(Call).str() +
         (Where.empty() ? "" : " at " + Where) +
         " before it; give that call enzyme_nofree";
}

/// True if every pointer \p Call passes is constant data or a pointer read
/// from a global (printf's format, fprintf's stderr): the call reaches no
/// local and no tape through its arguments.
static bool passesOnlyConstants(const CallBase &Call) {
  return all_of(Call.args(), [](const Value *A) {
    if (!A->getType()->isPointerTy())
      return true;
    const Value *Obj = getUnderlyingObject(A);
    if (auto *GV = dyn_cast<GlobalVariable>(Obj))
      return GV->isConstant();
    auto *L = dyn_cast<LoadInst>(Obj);
    return L &&
           isa<GlobalVariable>(getUnderlyingObject(L->getPointerOperand()));
  });
}

/// True if \p V, an address or a value computed from it, is only
/// measured (llvm.objectsize), compared or given to a sanitizer's check
/// (-fsanitize=object-size and alignment checks pass `(uintptr_t)p` to
/// __ubsan_handle_*): nothing can reach the memory through it.
static bool onlyChecked(const Value *V, unsigned Depth = 0) {
  // The size of the object (-fsanitize=object-size) says nothing of its
  // address.
  if (auto *II = dyn_cast<IntrinsicInst>(V);
      II && II->getIntrinsicID() == Intrinsic::objectsize)
    return true;
  if (Depth > 4 || !(isa<PtrToIntInst>(V) || isa<BinaryOperator>(V) ||
                     isa<CastInst>(V) || isa<ICmpInst>(V)))
    return false;
  return all_of(V->users(), [&](const User *U) {
    if (auto *Call = dyn_cast<CallBase>(U))
      return Call->getCalledFunction() &&
             isSanitizerCheck(Call->getCalledFunction()->getName());
    return isa<ICmpInst>(U) || isa<BranchInst>(U) || onlyChecked(U, Depth + 1);
  });
}

namespace {
/// Captures of a local array other than onlyChecked uses.
struct CapturedOtherThanChecked : CaptureTracker {
  void tooManyUses() override { Captured = true; }
  bool captured(const Use *U) override {
    if (onlyChecked(U->getUser()))
      return false;
    // The requests themselves (the augmented forward, the forward splits):
    // what they keep of it is on the tape, which calls in between reach
    // only if given it (passesOnlyConstants).
    if (auto *Call = dyn_cast<CallBase>(U->getUser());
        Call && Call->isArgOperand(U) && Call->getCalledFunction() &&
        classifyEntryPoint(Call->getCalledFunction()->getName()) !=
            EntryPoint::None)
      return false;
    Captured = true;
    return true; // stop
  }
  bool Captured = false;
};

/// Captures of a local array other than by a request that passes it as a
/// shadow (a Jacobian column's tangent array given to a later
/// __enzyme_fwdsplit, probe31 01): a request reads a shadow as a tangent,
/// never as the function's values.
struct CapturedOtherThanAsShadow : CaptureTracker {
  explicit CapturedOtherThanAsShadow(const Value &Obj) : Obj(Obj) {}
  void tooManyUses() override { Captured = true; }
  bool captured(const Use *U) override {
    if (!passedAsShadow(*U) && !onlyChecked(U->getUser())) {
      Captured = true;
      return true; // stop
    }
    return false;
  }
  bool passedAsShadow(const Use &U) const {
    auto *Call = dyn_cast<CallBase>(U.getUser());
    const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    EntryPoint Kind =
        Callee ? classifyEntryPoint(Callee->getName()) : EntryPoint::None;
    if (Kind == EntryPoint::None || !Call->isArgOperand(&U))
      return false;
    std::optional<DecodedCall> D = peekRequest(*Call, Kind);
    if (!D)
      return false;
    auto IsObj = [&](Value *V) {
      return V && V->getType()->isPointerTy() && getUnderlyingObject(V) == &Obj;
    };
    return any_of(D->Shadows, IsObj) && none_of(D->Primals, IsObj);
  }
  const Value &Obj;
  bool Captured = false;
};
} // namespace

/// True if the function a split request differentiates may reach the local
/// array \p Obj otherwise than through its arguments.
static bool mayBeReachedByRequest(const Value &Obj) {
  CapturedOtherThanAsShadow Tracker(Obj);
  PointerMayBeCaptured(&Obj, &Tracker);
  return Tracker.Captured;
}

/// Why the primal values at __enzyme_fwdsplit \p CB may differ from those
/// its __enzyme_augmentfwd saw (the tangent is computed by running the
/// function again), or nothing when they provably do not: the augmented
/// forward is in the same function and dominates \p CB, each argument is
/// the same value (or a load of the same address), and nothing in between
/// writes memory other than the shadows and locals the function cannot see
/// (another __enzyme_fwdsplit on the same tape writes what the function
/// writes, which it does not read).
static std::optional<std::string>
whyValuesMayHaveChanged(CallBase &CB, const DecodedCall &D) {
  SmallVector<CallBase *, 2> Origins = tapeOrigins(CB, D);
  // A caller's buffer held in a variable (-O0) is loaded once per call.
  auto *BufLoad = D.TapeBuffer ? dyn_cast<LoadInst>(D.TapeBuffer) : nullptr;
  if (Origins.empty() && BufLoad)
    Origins =
        augmentedCallsWhere(*CB.getFunction(), [&](const DecodedCall &OD) {
          auto *L = dyn_cast_or_null<LoadInst>(OD.TapeBuffer);
          return L && L->getPointerOperand() == BufLoad->getPointerOperand();
        });
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
  // The decoder converts what a call passes to the parameter's type (a
  // float passed to `...` arrives as a double and is truncated before each
  // call): the values compared are what the calls pass.
  auto Passed = [](Value *V) {
    while (auto *C = dyn_cast_or_null<CastInst>(V))
      V = C->getOperand(0);
    return V;
  };
  for (unsigned I = 0; I < D.Primals.size(); ++I) {
    Value *V = Passed(D.Primals[I]), *W = Passed(OD->Primals[I]);
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
  // A function that reads nothing but its own stack (a * b * b) reruns the
  // same whatever is written in between (a test counter).
  if (!readsOutsideItsFrame(*Fn))
    return std::nullopt;
  bool CallsHarmless = !ReadsGlobals && all_of(Protected, [](const Value *O) {
    CapturedOtherThanChecked Tracker;
    PointerMayBeCaptured(O, &Tracker);
    return isa<AllocaInst>(O) && !Tracker.Captured;
  });
  for (Instruction &I : instructions(*CB.getFunction())) {
    auto *Call = dyn_cast<CallBase>(&I);
    if (&I == Aug || &I == &CB || !I.mayWriteToMemory() ||
        isa<DbgInfoIntrinsic>(I) ||
        (Call && Call->getCalledFunction() &&
         isSanitizerCheck(Call->getCalledFunction()->getName())) ||
        (isa<IntrinsicInst>(I) &&
         cast<IntrinsicInst>(I).isLifetimeStartOrEnd()))
      continue;
    if (!isPotentiallyReachable(Aug, &I, nullptr, &DT) ||
        !isPotentiallyReachable(&I, &CB, nullptr, &DT))
      continue;
    if (Call)
      if (std::optional<std::string> Why =
              earlierRerunOfTape(*Call, *Fn, *Aug)) {
        if (!Why->empty())
          return Why;
        continue;
      }
    const Value *Dest = nullptr;
    if (auto *SI = dyn_cast<StoreInst>(&I))
      Dest = SI->getPointerOperand();
    else if (auto *MI = dyn_cast<MemIntrinsic>(&I))
      Dest = MI->getDest();
    const Value *Obj = Dest ? getUnderlyingObject(Dest) : nullptr;
    // A library function known to write nothing of the program's but
    // through its arguments (printf, or exp, which writes only errno) is
    // harmless even where locals escaped.
    bool KnownLibrary =
        Call && Call->getCalledFunction() &&
        (isKnownInactiveFunction(Call->getCalledFunction()->getName()) ||
         (findMathFunction(*Call) && !mathWritesMemory(*Call)));
    bool Harmless =
        (!Dest && Call && !isa<MemIntrinsic>(I) &&
         (CallsHarmless || KnownLibrary) && passesOnlyConstants(*Call)) ||
        (Obj && (Shadows.count(Obj) ||
                 (isa<AllocaInst>(Obj) && !Protected.count(Obj) &&
                  !mayBeReachedByRequest(*Obj))));
    if (!Harmless) {
      std::string What = "memory it may read may be written in between";
      if (Call && Call->getCalledFunction())
        What +=
            ", by the call to '" + sourceName(*Call->getCalledFunction()) + "'";
      if (std::string Loc = sourceLocation(&I); !Loc.empty())
        What += " (at " + Loc + ")";
      return What;
    }
  }
  return std::nullopt;
}

ForwardSplitChecks checkForwardSplits(ArrayRef<CallBase *> Calls) {
  ForwardSplitChecks Checks;
  for (CallBase *CB : Calls)
    if (std::optional<DecodedCall> D =
            peekRequest(*CB, EntryPoint::ForwardSplit))
      if (std::optional<std::string> Why = whyValuesMayHaveChanged(*CB, *D))
        Checks[CB] = *Why;
  return Checks;
}

void resolveForwardSplit(CallBase &CB, const DecodedCall &D,
                         const ForwardSplitChecks &Checks,
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
  if (auto Why = Checks.find(&CB); Why != Checks.end()) {
    reportError(*CB.getFunction(), &CB,
                How +
                    ", so it needs the values __enzyme_augmentfwd saw, "
                    "but " +
                    Why->second +
                    "; call it after __enzyme_augmentfwd in the same "
                    "function with the same arguments and without changing "
                    "the memory they point to in between (setting tangents "
                    "is fine), or use __enzyme_fwddiff");
    return;
  }
  const SplitDerivative *Origin = nullptr;
  for (CallBase *Aug : tapeOrigins(CB, D))
    if (std::optional<DecodedCall> OD =
            peekRequest(*Aug, EntryPoint::AugmentedForward)) {
      setNestingDepths(OD->Request, Cache.rules());
      if ((Origin = Cache.getSplit(OD->Request)))
        break;
    }
  if (Function *G = Cache.get(D.Request))
    CallSiteRewriter(CB, D).rewriteForwardSplit(*G, Origin);
}

/// Replaces a split request that stands for a constant (the tape's size, a
/// thunk's descriptor) by it, or reports that the call's declared result
/// type cannot hold it (\p Expected completes "<entry point> ...").
static void replaceByConstant(CallBase &CB, bool ResultTypeFits,
                              function_ref<Constant *()> Value,
                              StringRef Expected) {
  if (!ResultTypeFits) {
    reportError(*CB.getFunction(), &CB, entryPointName(CB) + Expected);
    return;
  }
  CB.replaceAllUsesWith(Value());
  eraseRequestCall(CB);
}

/// A thunk's halves are called through C function pointers whose
/// parameters mirror the function's: a struct the C ABI passes or returns
/// in memory (byval, sret) would not be passed to them the same way (the
/// caller's declaration of the half decides, and it cannot say byval).
/// Reports the error and returns false for such a function.
static bool thunkSignatureFits(CallBase &CB, const Function &Fn) {
  std::string What;
  if (Fn.hasStructRetAttr())
    What = "returns a struct through memory (larger than two registers)";
  for (const Argument &A : Fn.args())
    if (What.empty() && A.hasByValAttr())
      What = "takes a struct by value through memory (parameter " +
             std::to_string(A.getArgNo() + 1) + ", larger than two registers)";
  if (What.empty())
    return true;
  reportError(*CB.getFunction(), &CB,
              "the thunk of '" + sourceName(Fn) + "' is not supported: it " +
                  What +
                  ", which the thunk's halves, called through C function "
                  "pointers, would not receive the same way; pass the struct "
                  "through a pointer (and return it through one), or use "
                  "__enzyme_augmentfwd and __enzyme_reverse");
  return false;
}

void resolveSplitRequest(CallBase &CB, EntryPoint Kind, const DecodedCall &D,
                         DerivativeCache &Cache) {
  if (Kind == EntryPoint::SplitReverse && !checkTapeOrigin(CB, D))
    return;
  if (Kind == EntryPoint::Thunk && !thunkSignatureFits(CB, *D.Request.Fn))
    return;
  const SplitDerivative *S = Cache.getSplit(D.Request);
  if (!S)
    return;
  explainSplitRequest(CB, D, *S, Cache.variableActivities(D.Request));
  switch (Kind) {
  case EntryPoint::AugmentedForward:
    CallSiteRewriter(CB, D).rewriteAugmented(*S);
    return;
  case EntryPoint::SplitReverse:
    CallSiteRewriter(CB, D).rewriteReverse(*S);
    return;
  case EntryPoint::AugmentSize:
    replaceByConstant(
        CB, CB.getType()->isIntegerTy(),
        [&] { return ConstantInt::get(CB.getType(), S->TapeBytes); },
        " returns the tape's size in bytes; declare it to return an integer "
        "type such as size_t or int");
    return;
  case EntryPoint::Thunk:
    replaceByConstant(
        CB, CB.getType()->isPointerTy(),
        [&] { return thunkDescriptor(*CB.getModule(), D.Request, *S); },
        " returns a pointer to a constant tapestry_thunk; declare it as in "
        "<tapestry/thunk.h>");
    return;
  default:
    llvm_unreachable("not a split entry point");
  }
}

} // namespace tapestry
