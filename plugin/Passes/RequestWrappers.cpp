//===- RequestWrappers.cpp - Helpers that request their parameter ---------===//
//
// Implements RequestWrappers.h: rounds of inlining until no helper call
// site names a function for a requested parameter; after each inlined
// site, its caller's tests of a parameter known to be a function or null
// are folded and the blocks they made unreachable removed (at -O0 the
// parameter is read from a stack slot, which the inliner's own folding
// does not see through). Requests differentiating such a helper with
// functions as its arguments are pointed at specialised copies.
//
//===----------------------------------------------------------------------===//
#include "Passes/RequestWrappers.h"

#include "Core/Diagnostics.h"
#include "Core/EntryPoints.h"
#include "Core/SourceTypes.h"
#include "Passes/RequestArguments.h"
#include "Passes/RequestDecoder.h"
#include "Synthesis/InlineHelpers.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include <map>

using namespace llvm;
using namespace tapestry;

/// \p V without pointer casts and, at -O0, without the stack slots it was
/// spilled to and read back from (the one value stored into a local
/// variable, through as many slots as helpers inlined into each other
/// made, and through references to them); null if a slot holds other
/// values too.
static Value *unspilled(Value *V) {
  for (unsigned Depth = 0; Depth < 32; ++Depth) {
    V = V->stripPointerCasts();
    if (Value *Arg = argumentPassedThrough(V)) {
      V = Arg; // std::forward<F>(f)
      continue;
    }
    auto *LI = dyn_cast<LoadInst>(V);
    if (!LI)
      return V;
    V = onlyValueOfLocal(LI->getPointerOperand());
    if (!V)
      return nullptr;
  }
  return nullptr;
}

/// The parameter \p V is (unspilled), or null.
static Argument *parameterPassed(Value *V) {
  return dyn_cast_or_null<Argument>(unspilled(V));
}

/// C++ wrappers (such as enzyme::autodiff) receive the function to
/// differentiate as a parameter; inlining the always-inline ones that make
/// requests into their callers turns that parameter back into the function.
/// The parameter of the function making request \p CB that the request
/// differentiates (`grad(f, x)` calling `__enzyme_autodiff((void *)f, ...)`),
/// directly or, at -O0, through the stack slot it is spilled to; or null.
static Argument *requestedParameter(CallBase &CB) {
  return CB.arg_size() ? parameterPassed(CB.getArgOperand(0)) : nullptr;
}

/// The parameter of the function making request \p CB that points to the
/// function the request differentiates (`deriv(F &&f, x)` requesting
/// `std::forward<F>(f)`, which callers give `&f` or a pointer variable: the
/// function is read through the parameter), or null.
static Argument *requestedThroughParameter(CallBase &CB) {
  if (!CB.arg_size())
    return nullptr;
  Value *V = CB.getArgOperand(0);
  for (unsigned Depth = 0; Depth < 32; ++Depth) {
    V = V->stripPointerCasts();
    if (Value *Arg = argumentPassedThrough(V)) {
      V = Arg;
      continue;
    }
    auto *LI = dyn_cast<LoadInst>(V);
    if (!LI)
      return nullptr;
    if (Value *Next = onlyValueOfLocal(LI->getPointerOperand())) {
      V = Next;
      continue;
    }
    return dyn_cast<Argument>(throughLocals(LI->getPointerOperand()));
  }
  return nullptr;
}

/// True if every use of \p Addr, the address of a local variable, only
/// reads it or passes it to \p Site, also through locals holding the
/// address (stored once, as -O0 code keeps a reference); the one store
/// into the variable itself (\p Addr is \p Var) is returned in \p Store.
static bool onlyReadOrPassed(Value *Addr, AllocaInst *Var, CallBase &Site,
                             StoreInst *&Store, unsigned Depth = 0) {
  if (Depth > 8)
    return false;
  for (User *U : Addr->users()) {
    auto *I = cast<Instruction>(U);
    if (I == &Site || I->isLifetimeStartOrEnd() ||
        (isa<LoadInst>(I) && cast<LoadInst>(I)->getPointerOperand() == Addr))
      continue;
    auto *SI = dyn_cast<StoreInst>(I);
    if (!SI)
      return false;
    if (SI->getPointerOperand() == Addr) {
      if (Addr != Var || Store)
        return false;
      Store = SI;
      continue;
    }
    // The address kept in another local: its reads are the address too.
    auto *Holder = dyn_cast<AllocaInst>(SI->getPointerOperand());
    if (!Holder)
      return false;
    for (User *HU : Holder->users()) {
      if (HU == SI || cast<Instruction>(HU)->isLifetimeStartOrEnd())
        continue;
      auto *Read = dyn_cast<LoadInst>(HU);
      if (!Read || Read->getPointerOperand() != Holder ||
          !onlyReadOrPassed(Read, Var, Site, Store, Depth + 1))
        return false;
    }
  }
  return true;
}

/// True if \p Arg, which \p Site passes, is the address of a local
/// variable of Site's caller holding a function: stored once, otherwise
/// only read (`deriv(&f, x)` materialises `&f` in a temporary so; a
/// pointer variable passed to an `F &&` parameter), directly or through
/// the locals of a helper already inlined that passes it on.
static bool pointsToFunctionLocal(CallBase &Site, Value *Arg) {
  auto *Var = dyn_cast<AllocaInst>(throughLocals(Arg));
  StoreInst *Store = nullptr;
  return Var && onlyReadOrPassed(Var, Var, Site, Store) && Store &&
         isa_and_nonnull<Function>(unspilled(Store->getValueOperand()));
}

/// True if \p V, unspilled, is a function or a null pointer: a call site
/// passing it makes the helper's request on that parameter decidable.
static bool namesFunctionOrNull(Value *V) {
  Value *U = unspilled(V);
  return isa_and_nonnull<Function>(U) ||
         isa_and_nonnull<ConstantPointerNull>(U);
}

/// The source names of the parameters \p CB passes null for, as a message
/// says them ("'grad'"; "" when none or no name is known).
static std::string nullFunctionParameters(CallBase &CB) {
  Function *Helper = CB.getCalledFunction();
  std::string Names;
  if (!Helper)
    return Names;
  for (unsigned I = 0; I < CB.arg_size() && I < Helper->arg_size(); ++I) {
    if (!CB.getArgOperand(I)->getType()->isPointerTy() ||
        !isa_and_nonnull<ConstantPointerNull>(unspilled(CB.getArgOperand(I))))
      continue;
    std::string Name = sourceParameter(*Helper, I).Name;
    if (Name.empty())
      continue;
    Names += (Names.empty() ? "'" : ", '") + Name + "'";
  }
  return Names;
}

/// Folds \p F's equality tests against null of values that are known to be
/// a function (never null) or null, and removes the blocks that makes
/// unreachable: `if (!grad) return;` in a helper inlined where the caller
/// passes 0 drops the request that follows it.
static void foldNullTests(Function &F) {
  bool Folded = false;
  for (Instruction &I : make_early_inc_range(instructions(F))) {
    auto *Cmp = dyn_cast<ICmpInst>(&I);
    if (!Cmp || !Cmp->isEquality() ||
        !Cmp->getOperand(0)->getType()->isPointerTy())
      continue;
    Value *Other = nullptr;
    if (isa<ConstantPointerNull>(Cmp->getOperand(1)))
      Other = Cmp->getOperand(0);
    else if (isa<ConstantPointerNull>(Cmp->getOperand(0)))
      Other = Cmp->getOperand(1);
    Value *Known = Other ? unspilled(Other) : nullptr;
    bool IsNull = isa_and_nonnull<ConstantPointerNull>(Known);
    auto *Fn = dyn_cast_or_null<Function>(Known);
    // (A weak declaration's address may be null.)
    if (!IsNull && (!Fn || Fn->hasExternalWeakLinkage()))
      continue;
    bool Equal = IsNull == (Cmp->getPredicate() == ICmpInst::ICMP_EQ);
    Cmp->replaceAllUsesWith(ConstantInt::getBool(F.getContext(), Equal));
    Cmp->eraseFromParent();
    Folded = true;
  }
  if (!Folded)
    return;
  for (BasicBlock &BB : F)
    ConstantFoldTerminator(&BB, /*DeleteDeadConditions=*/true);
  removeUnreachableBlocks(F);
}

/// Replaces each request among \p Calls (the calls a helper's inlining
/// made) whose function is a null pointer by a stop that says so: it runs
/// only if the request would have (the helper did not test the pointer).
/// \p Site names the helper and its call; \p NullParams, the parameters
/// that call passes null for.
static void stopNullRequests(ArrayRef<WeakTrackingVH> Calls,
                             const std::string &Site,
                             const std::string &NullParams) {
  for (const WeakTrackingVH &H : Calls) {
    auto *CB = dyn_cast_or_null<CallBase>(H);
    Function *Callee = CB ? CB->getCalledFunction() : nullptr;
    if (!Callee || classifyEntryPoint(Callee->getName()) == EntryPoint::None)
      continue;
    unsigned First = CB->hasStructRetAttr() ? 1 : 0;
    if (CB->arg_size() <= First || !isa_and_nonnull<ConstantPointerNull>(
                                       unspilled(CB->getArgOperand(First))))
      continue;
    std::string Msg =
        "tapestry: " + entryPointName(*CB).str() + atLine(CB) + " in " + Site +
        " was asked for the derivative of a null function "
        "pointer" +
        (NullParams.empty()
             ? std::string()
             : " (its parameter " + NullParams + " is null there)") +
        "; test the pointer before the request, or pass a "
        "function.\n";
    IRBuilder<> B(CB);
    emitFatalMessage(B, B.CreateGlobalStringPtr(Msg), B.getInt64(Msg.size()));
    changeToUnreachable(CB);
  }
}

/// The requests of \p M (calls of an entry point) by the function each
/// differentiates.
using RequestMap =
    MapVector<Function *, SmallVector<std::pair<CallBase *, EntryPoint>, 1>>;
static RequestMap requestsByTarget(Module &M) {
  RequestMap Requests;
  for (Function &E : M) {
    EntryPoint Kind = classifyEntryPoint(E.getName());
    if (!E.isDeclaration() || Kind == EntryPoint::None)
      continue;
    for (User *U : E.users())
      if (auto *CB = dyn_cast<CallBase>(U); CB && CB->getCalledOperand() == &E)
        if (Function *Target = requestTarget(*CB))
          Requests[Target].push_back({CB, Kind});
  }
  return Requests;
}

/// Requests that differentiate a helper in \p ByParameter and pass a
/// function for each parameter it requests (`__enzyme_fwddiff((void *)grad,
/// enzyme_const, f, ...)` with `grad(f, x, g)` calling `__enzyme_autodiff(
/// (void *)f, ...)`: a Hessian-vector product) now differentiate a copy of
/// the helper with those functions in place of the parameters, whose own
/// requests name them. True if any changed.
static bool specializeRequestTargets(
    const RequestMap &Requests,
    const MapVector<Function *, SmallVector<unsigned, 1>> &ByParameter) {
  std::map<std::pair<Function *, SmallVector<Function *, 2>>, Function *>
      Copies;
  bool Changed = false;
  for (auto &[W, Calls] : Requests) {
    auto It = ByParameter.find(W);
    if (It == ByParameter.end())
      continue;
    for (auto [CB, Kind] : Calls) {
      SmallVector<bool, 8> Shadowed;
      std::optional<SmallVector<Value *, 8>> Primals =
          peekRequestPrimals(*CB, Kind, &Shadowed);
      if (!Primals)
        continue;
      SmallVector<Function *, 2> Passed;
      for (unsigned P : It->second) {
        // (A function given a shadow, enzyme_dup f, df, is differentiated
        // through the pointer's shadow: not a constant to put in place.)
        Value *V =
            P < Primals->size() && !Shadowed[P] ? (*Primals)[P] : nullptr;
        auto *F = dyn_cast_or_null<Function>(V ? unspilled(V) : nullptr);
        if (!F)
          break;
        Passed.push_back(F);
      }
      if (Passed.size() != It->second.size())
        continue;
      Function *&Copy = Copies[{W, Passed}];
      if (!Copy) {
        ValueToValueMapTy VMap;
        Copy = CloneFunction(W, VMap);
        Copy->setLinkage(GlobalValue::InternalLinkage);
        Copy->setName(W->getName() + ".with." + Passed.front()->getName());
        for (auto [P, F] : zip(It->second, Passed))
          Copy->getArg(P)->replaceAllUsesWith(F);
        // A recursive helper calls itself with the same functions: the
        // copy calls the copy (review44 F7).
        for (Instruction &I : instructions(*Copy))
          if (auto *Call = dyn_cast<CallBase>(&I);
              Call && Call->getCalledOperand() == W &&
              all_of(zip(It->second, Passed), [&](auto PF) {
                auto [P, F] = PF;
                return P < Call->arg_size() &&
                       unspilled(Call->getArgOperand(P)) == F;
              }))
            Call->setCalledOperand(Copy);
      }
      // The request's first function operand is W (requestTarget).
      unsigned First = CB->hasStructRetAttr() ? 1 : 0;
      CB->setArgOperand(First, Copy);
      Changed = true;
    }
  }
  return Changed;
}

void tapestry::inlineRequestWrappers(Module &M) {
  for (unsigned Round = 0; Round < 8; ++Round) {
    SmallSetVector<Function *, 4> Wrappers;
    // Wrappers that differentiate the function their caller passes, by
    // parameter: their call sites that pass a function by name.
    MapVector<Function *, SmallVector<unsigned, 1>> ByParameter;
    // And those that differentiate the function a parameter points to:
    // their call sites that pass the address of a local holding one.
    MapVector<Function *, SmallVector<unsigned, 1>> ByReference;
    for (Function &F : M)
      if (F.isDeclaration() &&
          classifyEntryPoint(F.getName()) != EntryPoint::None)
        for (User *U : F.users())
          if (auto *CB = dyn_cast<CallBase>(U)) {
            if (CB->getFunction()->hasFnAttribute(Attribute::AlwaysInline))
              Wrappers.insert(CB->getFunction());
            else if (Argument *A = requestedParameter(*CB)) {
              if (!is_contained(ByParameter[CB->getFunction()], A->getArgNo()))
                ByParameter[CB->getFunction()].push_back(A->getArgNo());
            } else if (Argument *A = requestedThroughParameter(*CB)) {
              if (!is_contained(ByReference[CB->getFunction()], A->getArgNo()))
                ByReference[CB->getFunction()].push_back(A->getArgNo());
            }
          }
    // A helper passing such a pointer on (`outer(F &&f)` calling
    // `deriv(std::forward<F>(f))`) reads the function through it too.
    for (unsigned K = 0; K < ByReference.size(); ++K) {
      Function *W = ByReference.begin()[K].first;
      SmallVector<unsigned, 1> Params = ByReference.begin()[K].second;
      for (User *U : W->users())
        if (auto *CB = dyn_cast<CallBase>(U);
            CB && CB->getCalledOperand() == W && CB->getFunction() != W)
          for (unsigned I : Params)
            if (I < CB->arg_size())
              if (Argument *A = parameterPassed(CB->getArgOperand(I)))
                if (!is_contained(ByReference[CB->getFunction()],
                                  A->getArgNo()))
                  ByReference[CB->getFunction()].push_back(A->getArgNo());
    }
    // A helper that passes its own parameter on to such a wrapper's
    // (`report(f)` calling `gradient(f)`, probe42 F1) differentiates it
    // too: its call sites that name the function are inlined first, which
    // makes the wrapper's call site name it in the next round.
    // So does one whose request differentiates such a helper and passes
    // the parameter to it (`hvp(f)` requesting the derivative of
    // `grad(f)`, enzyme_const f: probe44 F2).
    RequestMap Requests = requestsByTarget(M);
    auto Passes = [&](Function *G, Value *V) {
      if (Argument *A = parameterPassed(V))
        if (!is_contained(ByParameter[G], A->getArgNo()))
          ByParameter[G].push_back(A->getArgNo());
    };
    for (unsigned K = 0; K < ByParameter.size(); ++K) {
      Function *W = ByParameter.begin()[K].first;
      SmallVector<unsigned, 1> Params = ByParameter.begin()[K].second;
      for (User *U : W->users()) {
        auto *CB = dyn_cast<CallBase>(U);
        if (!CB || CB->getCalledOperand() != W || CB->getFunction() == W)
          continue;
        for (unsigned I : Params)
          if (I < CB->arg_size())
            Passes(CB->getFunction(), CB->getArgOperand(I));
      }
      for (auto [CB, Kind] : Requests.lookup(W)) {
        if (CB->getFunction() == W)
          continue;
        std::optional<SmallVector<Value *, 8>> Primals =
            peekRequestPrimals(*CB, Kind);
        for (unsigned I : Params)
          if (Primals && I < Primals->size() && (*Primals)[I])
            Passes(CB->getFunction(), (*Primals)[I]);
      }
    }
    bool Specialized = specializeRequestTargets(Requests, ByParameter);
    // (Folding a caller's null tests may delete sites not yet inlined.)
    SmallVector<WeakTrackingVH, 8> Sites;
    for (Function *W : Wrappers)
      for (User *U : W->users())
        if (auto *CB = dyn_cast<CallBase>(U))
          if (CB->getCalledFunction() == W && CB->getFunction() != W)
            Sites.push_back(CB);
    // The sites of each helper whose arguments for its requested
    // parameters are all decided.
    auto AddSites =
        [&](const MapVector<Function *, SmallVector<unsigned, 1>> &Helpers,
            function_ref<bool(CallBase &, Value *)> Decided) {
          for (auto &[W, Params] : Helpers) {
            if (Wrappers.contains(W))
              continue;
            for (User *U : W->users())
              if (auto *CB = dyn_cast<CallBase>(U))
                if (CB->getCalledFunction() == W && CB->getFunction() != W &&
                    all_of(Params, [&](unsigned I) {
                      return I < CB->arg_size() &&
                             Decided(*CB, CB->getArgOperand(I));
                    }))
                  Sites.push_back(CB);
            Wrappers.insert(W);
          }
        };
    AddSites(ByParameter,
             [](CallBase &, Value *Arg) { return namesFunctionOrNull(Arg); });
    AddSites(ByReference, pointsToFunctionLocal);
    if (Sites.empty() && !Specialized)
      return;
    for (WeakTrackingVH &Handle : Sites) {
      auto *CB = dyn_cast_or_null<CallBase>(Handle);
      if (!CB)
        continue;
      Function *Caller = CB->getFunction();
      Function *Helper = CB->getCalledFunction();
      std::string NullParams = nullFunctionParameters(*CB);
      std::string Site = "'" + sourceName(*Helper) + "', called from '" +
                         sourceName(*Caller) + "'" + atLine(CB) + ",";
      InlineFunctionInfo IFI;
      if (!InlineFunction(*CB, IFI).isSuccess())
        continue;
      // (Folding may delete some of the calls.)
      SmallVector<WeakTrackingVH, 8> Calls(IFI.InlinedCallSites.begin(),
                                           IFI.InlinedCallSites.end());
      foldNullTests(*Caller);
      stopNullRequests(Calls, Site, NullParams);
    }
    // A wrapper inlined everywhere is gone: its own request, on a function
    // parameter, is not one to resolve. (So is a recursive one that only
    // calls itself now, its requests pointed at copies.)
    // Erasing one may leave another unused (`gradInline` calling `grad`,
    // in either order): until none is.
    SmallVector<Function *, 8> Left(Wrappers.begin(), Wrappers.end());
    for (bool Erased = true; Erased;) {
      Erased = false;
      for (Function *&W : Left)
        if (W && W->isDiscardableIfUnused() && all_of(W->users(), [&](User *U) {
              auto *I = dyn_cast<Instruction>(U);
              return I && I->getFunction() == W;
            })) {
          W->dropAllReferences();
          W->eraseFromParent();
          W = nullptr;
          Erased = true;
        }
    }
  }
}
