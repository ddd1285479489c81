//===- TapestryPass.cpp - The module pass that resolves requests ----------===//
//
// Implements TapestryPass.h. run() is the whole pipeline in one function:
// options, inlining of request wrappers, shadow contexts, collecting and
// ordering requests (RequestOrder), deferring to link time what needs other
// files, global shadows, then resolveRequest for each: lowerings of their own
// (batch, truncation, type hints) or decoding (RequestDecoder), the derivative
// from the Driver's DerivativeCache and the call's rewriting (CallSiteRewriter,
// SplitCallSites); __enzyme_iter, __enzyme_ignore_derivatives,
// __enzyme_todense and the dead API declarations are cleaned up last.
//
//===----------------------------------------------------------------------===//
#include "Passes/TapestryPass.h"

#include "Analysis/TypeAnalysis.h"
#include "Core/CustomRules.h"
#include "Core/Diagnostics.h"
#include "Core/EnzymeOptions.h"
#include "Core/IgnoreDerivatives.h"
#include "Core/IterationCounter.h"
#include "Core/LinkTimePhase.h"
#include "Core/Markers.h"
#include "Driver/DerivativeCache.h"
#include "Passes/BatchRequest.h"
#include "Passes/CallSiteRewriter.h"
#include "Passes/CallerStoredGlobals.h"
#include "Passes/ConstantArguments.h"
#include "Passes/ExplainRequest.h"
#include "Passes/FixedPoints.h"
#include "Passes/FloatingPointReturns.h"
#include "Passes/RequestDecoder.h"
#include "Passes/RequestFunctionChoice.h"
#include "Passes/RequestOrder.h"
#include "Passes/RequestWrappers.h"
#include "Passes/ShadowContexts.h"
#include "Passes/SourceCopyTypes.h"
#include "Passes/SplitCallSites.h"
#include "Passes/StructArguments.h"
#include "Passes/ThreadLocalAddresses.h"
#include "Passes/ToDense.h"
#include "Passes/TruncateRequest.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/BuildLibCalls.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include <algorithm>
#include <map>

#define DEBUG_TYPE "tapestry"

using namespace llvm;

STATISTIC(NumRequests, "Requests (calls of Enzyme's entry points) resolved");
STATISTIC(NumDeferredRequests,
          "Requests left for link time (-flto: code in other units)");

namespace tapestry {

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

/// Removes entry-point declarations and marker globals that no longer have
/// uses, and the loads of markers left dead by rewriting.
static void eraseDeadApi(Module &M) {
  SmallVector<GlobalVariable *, 8> Markers;
  for (GlobalVariable &GV : M.globals())
    if ((GV.getName().starts_with("enzyme_") || markerKind(GV.getName())) &&
        GV.isDeclaration())
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

static void resolveRequest(PendingRequest &Req, DerivativeCache &Cache,
                           const CustomRules &Rules, Specializations &Specs,
                           const SplitConstants &Split,
                           const ForwardSplitChecks &SplitChecks,
                           TLIGetter GetTLI) {
  CallBase *CB = Req.CB;
  ++NumRequests;
  LLVM_DEBUG(dbgs() << "tapestry: resolve " << entryPointName(*CB) << " in "
                    << CB->getFunction()->getName() << "\n");
  switch (Req.Kind) {
  case EntryPoint::Unsupported:
    reportError(*CB->getFunction(), CB,
                unsupportedEntryPointMessage(entryPointName(*CB)));
    // Gone, so that a request differentiating the code around it does not
    // report it a second time as an external function without derivative.
    if (!CB->getType()->isVoidTy())
      CB->replaceAllUsesWith(PoisonValue::get(CB->getType()));
    eraseRequestCall(*CB);
    return;
  case EntryPoint::ShadowContext:
    // Every call was lowered first (Passes/ShadowContexts.h); this one is
    // not a direct call.
    reportError(*CB->getFunction(), CB,
                entryPointName(*CB) +
                    " must be called directly, by its name, not through a "
                    "pointer or with another type");
    return;
  case EntryPoint::ToDense:
    // Lowered once every derivative that uses it exists (Passes/ToDense.h).
    return;
  case EntryPoint::TypeHint:
    // Enzyme's type hints for memory; Tapestry's type analysis needs none.
    // __enzyme_ptr_size_hint(p, bytes[, space]) gives the extent of memory
    // Enzyme's checkpointing snapshots (Tapestry has none), and the memory
    // space p really points into: other than the host's, a device's, is
    // memory Tapestry would read and write as the host's.
    if (!CB->use_empty())
      reportError(*CB->getFunction(), CB,
                  entryPointName(*CB) +
                      " is one of Enzyme's type hints and returns nothing; "
                      "its result cannot be used");
    else if (entryPointName(*CB).contains("__enzyme_ptr_size_hint") &&
             CB->arg_size() > 2 &&
             constantIntegerArgument(CB->getArgOperand(2)) !=
                 std::optional<int64_t>(0))
      reportError(*CB->getFunction(), CB,
                  "__enzyme_ptr_size_hint names a memory space other than "
                  "the host's (its third argument): Tapestry differentiates "
                  "code that runs on the host, reading and writing host "
                  "memory; pass 0, or leave the argument out");
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
  specializeConstantArguments(*D, Specs, Req.Kind, Split);
  setNestingDepths(D->Request, Rules);
  if (Req.Kind == EntryPoint::ForwardSplit) {
    resolveForwardSplit(*CB, *D, SplitChecks, Cache);
    return;
  }
  if (!isSplitEntryPoint(Req.Kind)) {
    if (Function *G = Cache.get(D->Request)) {
      explainRequest(*CB, *D, *G, Cache.variableActivities(D->Request));
      CallSiteRewriter(*CB, *D).rewriteOneShot(*G);
    }
    return;
  }
  resolveSplitRequest(*CB, Req.Kind, *D, Cache);
}

/// Records on request \p CB which operand passes each parameter's primal
/// value (Analysis/TypeAnalysis.h, RequestPrimalsMD): before any request is
/// resolved, so that the type analysis of each derivative reads what every
/// request does with the memory it passes (a struct's int members and
/// padding that the function only copies are typed by the caller's
/// variable).
static void recordRequestPrimals(CallBase &CB, EntryPoint E) {
  switch (E) {
  case EntryPoint::Autodiff:
  case EntryPoint::ForwardDiff:
  case EntryPoint::AugmentedForward:
  case EntryPoint::SplitReverse:
  case EntryPoint::ErrorEstimate:
    break;
  default:
    return;
  }
  std::optional<SmallVector<Value *, 8>> Primals = peekRequestPrimals(CB, E);
  if (!Primals)
    return;
  IntegerType *I32 = Type::getInt32Ty(CB.getContext());
  SmallVector<Metadata *, 8> Ops;
  for (Value *V : *Primals) {
    int Index = -1;
    for (unsigned K = 0; V && K < CB.arg_size(); ++K)
      if (CB.getArgOperand(K) == V) {
        Index = K;
        break;
      }
    Ops.push_back(ConstantAsMetadata::get(ConstantInt::getSigned(I32, Index)));
  }
  CB.setMetadata(RequestPrimalsMD, MDNode::get(CB.getContext(), Ops));
}

/// True if differentiating \p Target needs a body this unit does not have:
/// the target itself, or a function it reaches that is neither a library
/// function, an intrinsic, nor covered by a registered rule.
static bool needsOtherUnits(Function *Target, const CustomRules &Rules,
                            FunctionAnalysisManager &FAM) {
  if (!Target || Target->isDeclaration())
    return Target != nullptr;
  // Registered rules are called, not differentiated: what they call may
  // live in another unit.
  for (Function *F : reachableFunctions({Target}, CustomRules()))
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

/// An entry point kept in local variables (`grad_fn ad = (grad_fn)
/// __enzyme_autodiff; ad(f, ...)`, to call it with another prototype, and
/// copies of that variable) is called directly: each call through a value
/// that can only be the entry point (read from a local variable that holds
/// only such values) becomes a call of the entry point, and a test of it
/// against null is folded (its address is never null). Any other use (the
/// value stored into other memory, passed to a function, compared with
/// another function, chosen between others) leaves calls that cannot be
/// found: that is an error at the use.
static void resolveEntryPointVariables(Module &M) {
  for (Function &F : M) {
    if (!F.isDeclaration() ||
        classifyEntryPoint(F.getName()) == EntryPoint::None)
      continue;
    // Values that can only be F: F and what is read from its variables.
    SmallSetVector<Value *, 8> Values;
    SmallSetVector<AllocaInst *, 4> Slots;
    SmallVector<Use *, 8> Calls;
    SmallVector<ICmpInst *, 2> NullTests;
    Instruction *Escape = nullptr;
    Values.insert(&F);
    for (unsigned K = 0; K < Values.size() && !Escape; ++K) {
      for (Use &U : Values[K]->uses()) {
        auto *I = dyn_cast<Instruction>(U.getUser());
        if (!I)
          continue; // a constant global holding it (resolved elsewhere)
        auto *CB = dyn_cast<CallBase>(I);
        if (CB && CB->isCallee(&U)) {
          Calls.push_back(&U);
          continue;
        }
        auto *Cmp = dyn_cast<ICmpInst>(I);
        if (Cmp && Cmp->isEquality() &&
            isa<ConstantPointerNull>(Cmp->getOperand(1 - U.getOperandNo()))) {
          NullTests.push_back(Cmp);
          continue;
        }
        auto *SI = dyn_cast<StoreInst>(I);
        auto *Slot = SI && U.getOperandNo() == 0
                         ? dyn_cast<AllocaInst>(SI->getPointerOperand())
                         : nullptr;
        if (!Slot) {
          Escape = I;
          break;
        }
        if (Slots.insert(Slot))
          for (User *SU : Slot->users())
            if (auto *LI = dyn_cast<LoadInst>(SU))
              Values.insert(LI);
      }
    }
    // A variable that also holds anything else (stored through another
    // pointer, given other values) is not one to read the entry point
    // from.
    for (AllocaInst *Slot : Slots) {
      if (Escape)
        break;
      for (User *SU : Slot->users()) {
        if (auto *Other = dyn_cast<StoreInst>(SU))
          if (Other->getPointerOperand() == Slot &&
              Values.contains(Other->getValueOperand()))
            continue;
        if (auto *II = dyn_cast<IntrinsicInst>(SU))
          if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II))
            continue;
        if (isa<LoadInst>(SU))
          continue;
        Escape = cast<Instruction>(SU);
        break;
      }
    }
    if (Escape) {
      reportError(*Escape->getFunction(), Escape,
                  "the address of '" + F.getName().str() +
                      "' goes where its calls cannot be found (stored in "
                      "memory other than local variables that hold only it, "
                      "passed to a function, or compared or chosen with "
                      "other values); call it directly, or through a local "
                      "variable or a constant global that holds only it");
      continue;
    }
    for (Use *U : Calls)
      if (U->get() != &F)
        cast<CallBase>(U->getUser())->setCalledOperand(&F);
    for (ICmpInst *Cmp : NullTests) {
      Cmp->replaceAllUsesWith(ConstantInt::getBool(
          Cmp->getType(), Cmp->getPredicate() == CmpInst::ICMP_NE));
      Cmp->eraseFromParent();
    }
    // Nothing is left to read the variables but copies into one another:
    // they go, so that no reference to the entry point reaches the linker.
    auto IsLoad = [](User *SU) { return isa<LoadInst>(SU); };
    SmallVector<AllocaInst *, 4> Left(Slots.begin(), Slots.end());
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (AllocaInst *&Slot : Left) {
        if (!Slot)
          continue;
        for (User *SU : make_early_inc_range(Slot->users()))
          if (auto *LI = dyn_cast<LoadInst>(SU); LI && LI->use_empty()) {
            LI->eraseFromParent();
            Changed = true;
          }
        if (any_of(Slot->users(), IsLoad))
          continue;
        for (User *SU : make_early_inc_range(Slot->users()))
          cast<Instruction>(SU)->eraseFromParent();
        Slot->eraseFromParent();
        Slot = nullptr;
        Changed = true;
      }
    }
  }
}

PreservedAnalyses TapestryPass::run(Module &M, ModuleAnalysisManager &MAM) {
  if (!enzymeEnabled()) // -enzyme-enable=false
    return PreservedAnalyses::all();
  // An Enzyme option Tapestry cannot honour: the build stops, naming it,
  // rather than produce other code than the user asked for.
  if (std::string Why = unsupportedEnzymeOption(); !Why.empty()) {
    auto Defined = find_if(M, [](Function &F) { return !F.isDeclaration(); });
    if (Defined != M.end())
      reportError(*Defined, nullptr, "Enzyme's option " + Why);
    else
      M.getContext().emitError("tapestry: Enzyme's option " + Why);
    return PreservedAnalyses::all();
  }
  // enzyme_nofree and enzyme_no_escaping_allocation become IR attributes
  // whether or not this file differentiates anything.
  bool AttributesApplied = CustomRules::applyFunctionAttributes(M);
  // What the front end knows each struct copy moves, on the memcpy.
  AttributesApplied |= annotateSourceCopyTypes(M);
  // -flto: registrations reach the link, where requests in other files use
  // them, and the functions they register stay calls until then (the
  // compile's optimiser would inline them first).
  if (AtCompileStart && isFullLTOPreLink(M)) {
    AttributesApplied |= CustomRules::keepForLinkTime(M);
    AttributesApplied |= CustomRules::keepRegisteredCalls(M);
  }
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  auto GetTLI = [&](Function &F) -> const TargetLibraryInfo & {
    return FAM.getResult<TargetLibraryAnalysis>(F);
  };
  resolveEntryPointVariables(M);
  // __enzyme_fixed_point becomes its loop before anything reads requests
  // (Passes/FixedPoints.h).
  AttributesApplied |= lowerFixedPoints(M);
  inlineRequestWrappers(M);
  declareIterationCountersPure(M);
  declareIgnoreDerivativesPure(M);
  // __enzyme_context, __enzyme_shadow, __enzyme_zero_shadows: lowered
  // before any request is resolved (Passes/ShadowContexts.h).
  ShadowContexts Contexts(M);
  // Structs passed by value are recognised in unoptimised IR only; kept
  // in metadata, when a compile starts, for requests resolved later
  // (Passes/StructArguments.h). Link time and the opt flow read it.
  if (AtCompileStart)
    for (Function &F : M)
      recordStructParams(F);
  SmallVector<PendingRequest, 8> Pending;
  bool HasCounters = false;
  for (Function &F : M) {
    EntryPoint E = classifyEntryPoint(F.getName());
    if (E == EntryPoint::None || !F.isDeclaration())
      continue;
    // A request whose function is a phi of functions is split first (it
    // adds calls of F: collected before).
    SmallVector<CallBase *, 8> Calls;
    for (User *U : F.users())
      if (auto *CB = dyn_cast<CallBase>(U); CB && CB->getCalledOperand() == &F)
        Calls.push_back(CB);
    for (CallBase *Call : Calls)
      for (CallBase *CB : splitRequestByFunction(*Call)) {
        // __enzyme_iter is no request: preparation advances it in code
        // being differentiated, and it is lowered when all are done.
        if (E == EntryPoint::IterationCounter) {
          std::string Problem = iterationCounterProblem(*CB);
          if (!Problem.empty())
            reportError(*CB->getFunction(), CB, Problem);
          HasCounters = true;
          continue;
        }
        // __enzyme_ignore_derivatives is no request either: inactive
        // where it is differentiated, its argument once all are done.
        if (E == EntryPoint::IgnoreDerivatives) {
          std::string Problem = ignoreDerivativesProblem(*CB);
          if (!Problem.empty())
            reportError(*CB->getFunction(), CB, Problem);
          HasCounters = true; // lowered below, as the counters are
          continue;
        }
        if (AtCompileStart)
          recordStructOperands(*CB, CB->hasStructRetAttr() ? 2 : 1);
        // A request made inside an inlined wrapper (the C++ headers) is
        // reported, and its derivative called, at the user's call.
        if (const DILocation *DL = CB->getDebugLoc();
            DL && DL->getInlinedAt()) {
          while (DL->getInlinedAt())
            DL = DL->getInlinedAt();
          CB->setDebugLoc(DebugLoc(DL));
        }
        recordRequestPrimals(*CB, E);
        Pending.push_back({CB, E});
      }
  }
  // -enzyme-truncate-all applies to every function, derivatives included:
  // after the requests.
  std::string TruncateAll = enzymeTruncateAll();
  // The clang part's registrations are used up unless the link resolves
  // requests (full -flto): kept, they would make the link need what they
  // name.
  bool RegistrationsUsedUp = !(AtCompileStart && isFullLTOPreLink(M));
  if (Pending.empty() && !HasCounters) {
    Contexts.finish();
    if (RegistrationsUsedUp)
      AttributesApplied |= CustomRules::eraseFrontEndRegistrations(M);
    if (TruncateAll.empty())
      return Contexts.empty() && !AttributesApplied ? PreservedAnalyses::all()
                                                    : PreservedAnalyses::none();
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
  // Run on optimised code (opt, link time), a registered function may be
  // gone, inlined into the code a request differentiates.
  if (!AtCompileStart && !Pending.empty()) {
    SmallVector<Function *, 8> Requested;
    for (const PendingRequest &Req : Pending)
      Requested.push_back(requestTarget(*Req.CB));
    CustomRules::reportInlinedRegistrations(M, Requested);
  }
  Specializations Specs;
  size_t Requested = Pending.size();
  if (AtCompileStart && isFullLTOPreLink(M))
    erase_if(Pending, [&](const PendingRequest &P) {
      if (!needsOtherUnits(requestTarget(*P.CB), Rules, FAM))
        return false;
      // A context's shadows are this file's globals, made now.
      if (requestNamesContext(*P.CB))
        reportError(*P.CB->getFunction(), P.CB,
                    "this request in a shadow context (enzyme_context) "
                    "differentiates code of other files, which -flto "
                    "differentiates at link time; Tapestry resolves the "
                    "requests of a context when their file is compiled: "
                    "put the code it differentiates in this file, or "
                    "compile without -flto");
      return true;
    });
  bool Deferred = Pending.size() != Requested;
  NumDeferredRequests += Requested - Pending.size();
  // Globals the differentiated code writes with derivatives get shadows.
  SmallVector<Function *, 8> Targets;
  for (const PendingRequest &Req : Pending)
    if (Function *Target = requestTarget(*Req.CB)) {
      Targets.push_back(Target);
      Contexts.noteRequest(*Req.CB, Target);
    }
  SmallPtrSet<Function *, 16> Reachable = reachableFunctions(Targets, Rules);
  for (Function *F : Reachable)
    useThreadLocalGlobalsDirectly(*F);
  GlobalShadows Globals = GlobalShadows::collect(M, Reachable, Rules);
  Globals.reportReadsWithoutShadow();
  reportCallerStoredGlobals(Pending, Globals, Rules);
  {
    DerivativeCache Cache(FAM, Rules, Globals);
    if (!Contexts.empty())
      Cache.setContextGlobals([&](unsigned N) -> const GlobalShadows & {
        return Contexts.globals(N, Rules);
      });
    // A nested derivative's outer derivatives use shadows of their depth,
    // over every function with a body: derivatives are cached, and a
    // callee's derivative built for one request serves every other of the
    // same depth, so the globals with shadows must not depend on which
    // request came first. Collected again when a request's derivative is
    // started (never while one is being built, so every function collected
    // is complete) if functions were added since (inner derivatives, which
    // write shadows of lesser depths). The earlier collections stay alive
    // for the derivatives built with them.
    struct DepthCollection {
      size_t Functions = 0;
      GlobalShadows *Current = nullptr;
    };
    std::vector<std::unique_ptr<GlobalShadows>> DepthGlobals;
    std::map<unsigned, DepthCollection> DepthCurrent;
    bool RequestStart = true;
    Cache.setDepthGlobals(
        [&](unsigned Depth, Function &) -> const GlobalShadows & {
          auto &[Functions, Current] = DepthCurrent[Depth];
          if (!Current || (RequestStart && Functions != M.size())) {
            SmallPtrSet<Function *, 32> All;
            for (Function &F : M)
              if (!F.isDeclaration())
                All.insert(&F);
            DepthGlobals.push_back(std::make_unique<GlobalShadows>(
                GlobalShadows::collect(M, All, Rules, Depth)));
            Current = DepthGlobals.back().get();
            Functions = M.size();
          }
          RequestStart = false;
          return *Current;
        });
    if (explainRequested())
      Cache.keepVariableActivities();
    // A request inside code that another request differentiates (a
    // Hessian-vector product, say) is resolved first, whatever the source
    // order (RequestOrder.h).
    SmallVector<CallBase *, 4> ForwardSplits;
    for (const PendingRequest &Req : Pending)
      if (Req.Kind == EntryPoint::ForwardSplit)
        ForwardSplits.push_back(Req.CB);
    ForwardSplitChecks SplitChecks = checkForwardSplits(ForwardSplits);
    SplitConstants Split = SplitConstants::collect(Pending);
    for (OrderedRequest &O : orderRequests(Pending, Rules)) {
      PendingRequest &Req = O.Req;
      RequestStart = true;
      switch (O.How) {
      case Ordering::Resolve:
        resolveRequest(Req, Cache, Rules, Specs, Split, SplitChecks, GetTLI);
        break;
      case Ordering::DependsOnItself:
        reportError(*Req.CB->getFunction(), Req.CB,
                    "this request differentiates '" +
                        requestTarget(*Req.CB)->getName() +
                        "', which itself contains the request; a function "
                        "cannot depend on its own derivative");
        break;
      case Ordering::Cycle:
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
  if (!Deferred) {
    lowerIterationCounters(M);
    lowerIgnoreDerivatives(M);
  }
  lowerToDense(M);
  Contexts.finish();
  eraseDeadApi(M);
  if (RegistrationsUsedUp)
    CustomRules::eraseFrontEndRegistrations(M);
  truncateAllFunctions(M, TruncateAll, GetTLI);
  returnFloatingPointInRegisters(M);
  return PreservedAnalyses::none();
}

} // namespace tapestry