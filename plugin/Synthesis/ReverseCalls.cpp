//===- ReverseCalls.cpp - The reverse of calls ----------------------------===//
//
// How reverse mode differentiates a call. The adjoint sweep's call visitor
// tries the hooks below in order, each taking the calls it reverses its own
// way; a call none takes is reversed by the derivative rules table, or
// carries no derivative (SupportedInstructions rejected the others). The
// calls to registered gradients and to functions with a body that were not
// inlined run their augmented forward in the forward sweep (augment*) and
// their reverse here.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/ReverseModeSynthesizer.h"

#include "Analysis/InertCalls.h"
#include "Analysis/PromotedCopy.h"
#include "Core/AllocationFunctions.h"
#include "Core/Diagnostics.h"
#include "Core/MathFunctions.h"
#include "Core/OpenMPRuntime.h"
#include "Synthesis/CustomSignatures.h"
#include "Synthesis/FreedShadows.h"
#include "Synthesis/LoopBlockLists.h"
#include "Synthesis/VectorRules.h"
#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

using namespace llvm;

#define DEBUG_TYPE "tapestry"

namespace tapestry {

void ReverseModeSynthesizer::visitCallBase(CallBase &CB) {
  IRBuilderBase &B = *Builder;
  LLVM_DEBUG(dbgs() << "tapestry: reverse of call:" << CB << "\n");
  // The hooks, in order; each takes the calls it reverses its own way.
  // OpenMP: parallel regions and synchronisation (OpenMPRegions.cpp).
  if (reverseOpenMP(CB, B))
    return;
  // Registered gradients, then functions with a body that were not inlined
  // (recursion, or too large).
  if (Function *Callee = CB.getCalledFunction()) {
    if (const CustomGradient *CG = Rules.gradient(Callee))
      return reverseCustomCall(CB, *CG, B);
    if (!Callee->isDeclaration() && !Rules.isOpaque(Callee))
      return reverseDefinedCall(CB, B);
  }
  // Allocations: their shadows are freed here.
  if (isOutParamAllocation(CB))
    return reverseOutParamAllocation(CB, B);
  if (isAllocationCall(CB))
    return reverseAllocation(CB, B);
  // Vector intrinsics: reductions, masked accesses, lane moves
  // (VectorRules.cpp).
  if (isVectorRuleCall(CB))
    return reverseVectorCall(CB, B);
  // A value with derivative 0 stored through a pointer (modf's integer
  // part, std::cin >> x, sscanf's %lf): the adjoint of that memory is
  // dropped.
  for (auto [Out, T] : constantOutParams(CB))
    if (Value *S = shadowOf(Out, &CB)) {
      S = lookup(S, CB.getParent(), B);
      for (unsigned K = 0; K < W; ++K)
        B.CreateStore(Constant::getNullValue(T), lane(B, S, K));
    }
  // BLAS routines, by calling BLAS (BlasRules.cpp).
  if (auto BC = findBlasCall(CB); BC && !isInactiveCall(CB, &Rules))
    return reverseBlasCall(CB, *BC, B);
  // MPI routines, by communicating again (MPIRules.cpp).
  if (auto MC = findMPICall(CB); MC && !isInactiveCall(CB, &Rules))
    return reverseMPICall(CB, *MC, B);
  // The derivative rules table (math functions and intrinsics). Other calls
  // carry no derivative, or were rejected by SupportedInstructions.
  if (AI.isActive(&CB) && ruleFor(CB))
    reverseRule(CB, B);
}

void ReverseModeSynthesizer::reverseAllocation(CallBase &CB, IRBuilderBase &B) {
  // The shadow lives until the reverse sweep has used it, and so does
  // primal memory whose free was deferred.
  if (std::optional<CustomAllocator> Custom =
          customAllocator(*CB.getCalledFunction())) {
    reverseCustomAllocation(CB, *Custom, B);
    return;
  }
  FunctionCallee Free = getDeallocatorFn(
      module(), matchingDeallocator(*heapFunction(CB)), cxxAlignment(CB));
  if (AI.hasShadow(&CB) && Shadows.count(&CB)) {
    // A block the function frees, or never stores anywhere, has its shadow
    // freed here. A block stored somewhere goes with its shadow: freed here
    // if the forward sweep freed the block (it is then listed,
    // FreedShadows.h), else the block outlives the call and the caller's
    // shadow memory holds its shadow beside it.
    bool Owned = DeferredFrees.lookup(&CB) ||
                 !PointerMayBeCaptured(&CB, /*ReturnCaptures=*/true,
                                       /*StoreCaptures=*/true);
    SweepBoundary::ScratchBlock Scratch;
    // In split mode a block allocated on only some paths is found where
    // the forward half recorded it, so that the release can find it too.
    bool Conditional = R.Split && W == 1 && Owned &&
                       !LI.getLoopFor(CB.getParent()) &&
                       !DT.dominates(CB.getParent(), RetBlock);
    if (Conditional)
      recordConditionalBlock(CB, Scratch);
    else if (R.Split && W == 1 && Owned && LI.getLoopFor(CB.getParent()))
      linkLoopBlock(CB, Scratch);
    Value *S = Conditional ? B.CreateLoad(B.getPtrTy(), Scratch.ShadowSlot,
                                          CB.getName() + "'.r")
                           : lookup(Shadows[&CB], CB.getParent(), B);
    for (unsigned K = 0; K < W; ++K) {
      Value *SK = lane(B, S, K);
      CallInst *Freed =
          B.CreateCall(getFreedShadowTakeFn(module(), R.FreedListDepth), {SK});
      // free(NULL) and delete of a null pointer do nothing.
      CallInst *FreeShadow = B.CreateCall(
          Free,
          {Owned ? SK
                 : B.CreateSelect(Freed, SK,
                                  ConstantPointerNull::get(B.getPtrTy()))});
      Scratch.Frees.append({Freed, FreeShadow});
    }
    // In split mode, a block whose shadow the reverse always frees may
    // become the tape's (TapeSplitter decides).
    if (R.Split && W == 1 && Owned) {
      Scratch.Block = cast<CallBase>(primal(&CB));
      Scratch.Shadow = Shadows[&CB];
      Value *Block = Conditional ? B.CreateLoad(B.getPtrTy(), Scratch.BlockSlot,
                                                CB.getName() + ".r")
                                 : nullptr;
      if (CallInst *FreeBlock = replayDeferredFree(CB, B, Block))
        Scratch.Frees.push_back(FreeBlock);
      Boundary.ScratchBlocks.push_back(Scratch);
      return;
    }
    if (R.Split && W == 1) {
      Boundary.NotReplayable.push_back(unownedBlockReason(CB));
      for (CallInst *Free : Scratch.Frees)
        Boundary.ExplainedFrees.push_back(Free);
      Boundary.ExplainedShadows.insert(Shadows[&CB]);
    }
  }
  replayDeferredFree(CB, B);
}

void ReverseModeSynthesizer::recordConditionalBlock(
    CallBase &CB, SweepBoundary::ScratchBlock &Scratch) {
  auto *Block = cast<Instruction>(primal(&CB));
  auto *Shadow = cast<Instruction>(Shadows[&CB]);
  auto Slot = [&](Type *T, const Twine &Name) {
    AllocaInst *A = entryAlloca(T, Name);
    IRBuilder<> IB(A->getNextNode());
    IB.CreateStore(Constant::getNullValue(T), A);
    return A;
  };
  Scratch.BlockSlot = Slot(Block->getType(), CB.getName() + ".block");
  Scratch.ShadowSlot = Slot(Shadow->getType(), CB.getName() + "'.block");
  Scratch.BytesSlot =
      Slot(Type::getInt64Ty(CB.getContext()), CB.getName() + "'.bytes");
  IRBuilder<> FB(Shadow->getNextNode());
  FB.CreateStore(Block, Scratch.BlockSlot);
  FB.CreateStore(Shadow, Scratch.ShadowSlot);
  FB.CreateStore(shadowBytes(CB, FB), Scratch.BytesSlot);
}

Value *ReverseModeSynthesizer::shadowBytes(CallBase &CB, IRBuilderBase &B) {
  // The shadow's size as ShadowMemory zeroed it: calloc's product, or the
  // allocation's size.
  Value *Bytes = heapFunction(CB) == HeapFunction::Calloc
                     ? B.CreateMul(primal(CB.getArgOperand(0)),
                                   primal(CB.getArgOperand(1)))
                     : primal(allocationSize(CB));
  return B.CreateZExtOrTrunc(Bytes, B.getInt64Ty());
}

void ReverseModeSynthesizer::linkLoopBlock(
    CallBase &CB, SweepBoundary::ScratchBlock &Scratch) {
  auto *Shadow = cast<Instruction>(Shadows[&CB]);
  Scratch.ListHead = entryAlloca(PointerType::getUnqual(CB.getContext()),
                                 CB.getName() + ".blocks");
  IRBuilder<> IB(Scratch.ListHead->getNextNode());
  IB.CreateStore(ConstantPointerNull::get(IB.getPtrTy()), Scratch.ListHead);
  IRBuilder<> FB(Shadow->getNextNode());
  Scratch.Link = FB.CreateCall(
      getLoopBlockLinkFn(module()),
      {Scratch.ListHead, primal(&CB), Shadow, shadowBytes(CB, FB)});
}

/// Why a split's tape cannot own heap block \p CB, whose shadow the reverse
/// sweep frees, in source terms and with what to change.
std::string ReverseModeSynthesizer::unownedBlockReason(CallBase &CB) const {
  bool Grown = CB.hasMetadata("tapestry.realloc.block");
  bool InLoop = LI.getLoopFor(CB.getParent());
  std::string Why = "its reverse sweep frees the shadow of " + describe(&CB);
  if (Grown)
    Why += InLoop ? ", which realloc grows inside a loop (each realloc "
                    "allocates a new block and frees the old one)"
                  : ", which realloc allocates (a new block, the old one "
                    "freed)";
  else
    Why += InLoop ? ", a heap block allocated inside a loop (one per "
                    "iteration)"
                  : ", a heap block that the function frees before its end "
                    "or stores where it may be kept";
  Why += ", so that a second reverse would not find it: the tape owns only "
         "heap blocks that the function frees itself, at its end or at the "
         "end of the loop iteration that allocated them, and whose address "
         "it keeps in local variables; ";
  Why += Grown ? "allocate it once before the loop with its largest size "
                 "(malloc) instead of growing it"
               : "allocate it once, before any loop, and free it at the end "
                 "of the function";
  return Why;
}

/// Shadow arguments of a registered derivative: the shadow where the pointer
/// has one, null otherwise.
static Value *shadowOrNull(Value *S, Type *T) {
  return S ? S : ConstantPointerNull::get(cast<PointerType>(T));
}

/// True if \p F writes no memory but its own stack and what it allocates
/// itself (a registered augmented forward filling the tape it returns), so
/// running it once more repeats no side effect.
static bool writesOnlyFreshMemoryPromoted(Function &F, unsigned Depth);

static bool writesOnlyFreshMemory(Function &F, unsigned Depth = 4) {
  // As the front end wrote it, every local goes through the stack: look at
  // a copy with its slots promoted to values.
  Function *Copy = clonePromoted(F);
  bool Result = writesOnlyFreshMemoryPromoted(*Copy, Depth);
  Copy->eraseFromParent();
  return Result;
}

static bool writesOnlyFreshMemoryPromoted(Function &F, unsigned Depth) {
  auto Fresh = [&](const Value *Ptr) {
    const Value *Obj = getUnderlyingObject(Ptr, 0);
    if (isa<AllocaInst>(Obj))
      return true;
    auto *CB = dyn_cast<CallBase>(Obj);
    return CB && CB->getFunction() == &F && isAllocationCall(*CB);
  };
  for (Instruction &I : instructions(F)) {
    if (auto *SI = dyn_cast<StoreInst>(&I)) {
      if (!Fresh(SI->getPointerOperand()))
        return false;
    } else if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
      if (!Fresh(MI->getDest()))
        return false;
    } else if (auto *CB = dyn_cast<CallBase>(&I)) {
      if (isAllocationCall(*CB) ||
          (findMathFunction(*CB) && !mathWritesMemory(*CB)) ||
          CB->onlyReadsMemory())
        continue;
      // A callee with a body (pointer arguments aside) is held to the same.
      Function *Callee = CB->getCalledFunction();
      if (Callee && !Callee->isDeclaration() && Depth > 0 &&
          none_of(CB->args(),
                  [](Value *A) { return A->getType()->isPointerTy(); }) &&
          writesOnlyFreshMemory(*Callee, Depth - 1))
        continue;
      if (auto *II = dyn_cast<IntrinsicInst>(CB))
        if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II))
          continue;
      return false;
    } else if (I.mayWriteToMemory()) {
      return false;
    }
  }
  return true;
}

void ReverseModeSynthesizer::augmentCustomCall(CallBase &CB,
                                               const CustomGradient &CG) {
  // Inputs without derivatives: the primal call stays and the rule, which
  // may dereference every shadow, is not called (Analysis/InertCalls.h).
  if (receivesNoDerivative(CB, AI))
    return;
  Function &Callee = *CB.getCalledFunction();
  Function &Aug = *CG.Augmented;
  if (W > 1 && (!writesOnlyFreshMemory(Aug) ||
                any_of(Callee.getFunctionType()->params(),
                       [](Type *T) { return T->isVectorTy(); }))) {
    fail(&CB, "the gradient registered for '" + sourceName(Callee) +
                  "' cannot serve batch mode (enzyme_width " + Twine(W) +
                  "): its augmented forward writes memory other than the "
                  "tape it allocates, so it cannot run once per lane; use "
                  "width 1 or give the function's body");
    return;
  }
  bool HasTape = augmentedReturnsTape(Callee, Aug);
  if (!checkCustomSignature(Callee, Aug, "augmented forward",
                            augmentedType(Callee, Aug), &CB) ||
      !checkCustomSignature(Callee, *CG.Reverse, "reverse",
                            reverseType(Callee, HasTape), &CB))
    return;
  auto *GI = cast<CallBase>(primal(&CB));
  IRBuilder<> B(GI);
  // In batch mode aug runs once per lane (it repeats no side effect), each
  // run with that lane's shadows and keeping its own tape.
  Value *Result = nullptr;
  SmallVector<Value *, 4> Tapes;
  for (unsigned K = 0; K < W; ++K) {
    SmallVector<Value *, 8> Args;
    for (Value *Op : CB.args()) {
      Args.push_back(primal(Op));
      if (Op->getType()->isPointerTy()) {
        Value *S = AI.hasShadow(Op) ? shadowOf(Op, &CB) : nullptr;
        Args.push_back(
            shadowOrNull(S ? lane(B, S, K) : nullptr, Op->getType()));
      }
    }
    CallInst *AugCall = B.CreateCall(&Aug, Args);
    Value *Tape = nullptr, *LaneResult = nullptr;
    if (isa<StructType>(Aug.getReturnType())) {
      Tape = B.CreateExtractValue(AugCall, 0);
      LaneResult = B.CreateExtractValue(AugCall, 1);
    } else if (HasTape) {
      Tape = AugCall;
    } else if (augmentedReturnsPrimal(Callee, Aug)) {
      LaneResult = AugCall;
    }
    Tapes.push_back(Tape);
    if (K == 0)
      Result = LaneResult;
  }
  CustomTapes[&CB] = Tapes.front();
  CustomLaneTapes[&CB] = Tapes;
  // aug performs the primal call's work; keep the original call only for a
  // result aug does not give.
  if (Result) {
    GI->replaceAllUsesWith(Result);
    GI->eraseFromParent();
  } else if (Callee.getReturnType()->isVoidTy() || GI->use_empty()) {
    GI->eraseFromParent();
  }
}

void ReverseModeSynthesizer::reverseCustomCall(CallBase &CB,
                                               const CustomGradient &CG,
                                               IRBuilderBase &B) {
  if (receivesNoDerivative(CB, AI))
    return;
  BasicBlock *PB = CB.getParent();
  Function &Callee = *CB.getCalledFunction();
  if (R.Split)
    Boundary.NotReplayable.push_back("it calls the registered reverse of '" +
                                     Callee.getName().str() +
                                     "', which may consume its own tape");
  Type *RetTy = Callee.getReturnType();
  Value *Seed = nullptr;
  if (RetTy->isFPOrFPVectorTy())
    Seed = AI.isActive(&CB) ? takeAdjoint(&CB, B)
                            : Constant::getNullValue(batchTy(RetTy));
  // One reverse per lane (batch mode runs aug once per lane too).
  SmallVector<CallInst *, 4> Results;
  auto LaneTapes = CustomLaneTapes.lookup(&CB);
  for (unsigned L = 0; L < W; ++L) {
    SmallVector<Value *, 8> Args;
    for (Value *Op : CB.args()) {
      Args.push_back(lookup(primal(Op), PB, B));
      if (Op->getType()->isPointerTy()) {
        Value *S = AI.hasShadow(Op) ? shadowOf(Op, &CB) : nullptr;
        Args.push_back(shadowOrNull(S ? lane(B, lookup(S, PB, B), L) : nullptr,
                                    Op->getType()));
      }
    }
    if (Seed)
      Args.push_back(lane(B, Seed, L));
    if (L < LaneTapes.size() && LaneTapes[L])
      Args.push_back(lookup(LaneTapes[L], PB, B));
    Results.push_back(B.CreateCall(CG.Reverse, Args));
  }
  unsigned NumFP = count_if(Callee.getFunctionType()->params(),
                            [](Type *T) { return T->isFPOrFPVectorTy(); });
  unsigned K = 0;
  for (Value *Op : CB.args()) {
    if (!Op->getType()->isFPOrFPVectorTy())
      continue;
    Value *Adj = lanes(B, Op->getType(), [&](unsigned L) -> Value * {
      return NumFP == 1 ? (Value *)Results[L]
                        : B.CreateExtractValue(Results[L], K);
    });
    addAdjoint(Op, Adj, B);
    ++K;
  }
}

/// A call left in place by preparation (recursion, or a callee too large
/// to inline) runs the callee's augmented forward, which returns the
/// callee's tape, in the forward sweep...
void ReverseModeSynthesizer::augmentDefinedCall(CallBase &CB) {
  DiffRequest CR = calleeRequest(CB);
  if (hasNoDerivative(CR))
    return;
  CallSiteScope Via(CB);
  CalleeSplit CS = CalleeSplitFor(CR);
  if (!CS.Augmented) {
    Failed = true;
    return;
  }
  DerivativeSignature Sig = computeSignature(CR);
  auto *GI = cast<CallBase>(primal(&CB));
  IRBuilder<> B(GI);
  SmallVector<Value *, 8> Args;
  for (unsigned I = 0; I < CB.arg_size(); ++I) {
    Value *Op = CB.getArgOperand(I);
    Args.push_back(primal(Op));
    if (Sig.ShadowArg[I] >= 0)
      Args.push_back(shadowOf(Op, &CB));
  }
  if (Failed)
    return;
  // A split caller keeps the callee's tapes, one list per call site, for
  // its own release, so that its reverse can run again when the callee's
  // can (CalleeSplit::KeptAugmented).
  bool Keep = R.Split && CS.KeptAugmented;
  if (Keep) {
    AllocaInst *Head =
        entryAlloca(PointerType::getUnqual(CB.getContext()), "callee.tapes");
    IRBuilder<> EB(Head->getNextNode());
    EB.CreateStore(ConstantPointerNull::get(EB.getPtrTy()), Head);
    Boundary.CalleeTapes.push_back({Head, CS.KeptRelease});
    Args.push_back(Head);
    KeptCalleeTapes.insert(&CB);
  }
  CallInst *Call = B.CreateCall(Keep ? CS.KeptAugmented : CS.Augmented, Args);
  Call->setDebugLoc(GI->getDebugLoc());
  Value *Tape = Call;
  if (isa<StructType>(Call->getType())) {
    Tape = B.CreateExtractValue(Call, 0, CB.getName() + ".tape");
    GI->replaceAllUsesWith(B.CreateExtractValue(Call, 1));
  }
  if (CR.returnsShadow()) {
    // The shadow of the pointer the call returns replaces the stand-in
    // createShadow made for it.
    Value *Shadow = B.CreateExtractValue(Call, 2, CB.getName() + "'");
    if (auto *StandIn = dyn_cast_or_null<FreezeInst>(Shadows.lookup(&CB))) {
      StandIn->replaceAllUsesWith(Shadow);
      StandIn->eraseFromParent();
    }
    Shadows[&CB] = Shadow;
  }
  // A kept tape is read back from the head of its list, where the call
  // linked it, not taken from the call's result: a derivative of this
  // split (forward over reverse) then finds the tape's shadow in the
  // list's shadow, as it does for any linked list, where a pointer
  // returned by the call would have none.
  if (Keep)
    Tape = B.CreateConstGEP1_64(
        B.getInt8Ty(), B.CreateLoad(B.getPtrTy(), Args.back()),
        CalleeSplit::KeptTapeHeaderBytes, CB.getName() + ".tape");
  GI->eraseFromParent();
  CalleeTapes[&CB] = Tape;
}

/// ...and its reverse, which consumes that tape, in the reverse sweep.
void ReverseModeSynthesizer::reverseDefinedCall(CallBase &CB,
                                                IRBuilderBase &B) {
  DiffRequest CR = calleeRequest(CB);
  if (hasNoDerivative(CR))
    return;
  Value *Tape = CalleeTapes.lookup(&CB);
  CallSiteScope Via(CB);
  CalleeSplit CSplit = CalleeSplitFor(CR);
  if (!Tape || !CSplit.Reverse) {
    Failed = true;
    return;
  }
  bool Kept = KeptCalleeTapes.count(&CB);
  if (R.Split && !Kept)
    Boundary.NotReplayable.push_back("its reverse sweep runs the reverse of '" +
                                     sourceName(*CB.getCalledFunction()) +
                                     "', which consumes that call's own tape");
  else if (R.Split && !CSplit.NotReplayable.empty()) {
    // A call kept only because -O0 made it noinline: say, once and last,
    // how to inline it (a callee's reason may say so already).
    static constexpr StringLiteral InlineHint =
        "; it stays a call because at -O0 every function is noinline: "
        "-mllvm -enzyme-inline=1 inlines it, which may make the tape "
        "reusable";
    std::string Inner = CSplit.NotReplayable;
    bool Hint = CB.getCalledFunction()->hasFnAttribute(Attribute::OptimizeNone);
    for (size_t At; (At = Inner.find(InlineHint)) != std::string::npos;
         Hint = true)
      Inner.erase(At, InlineHint.size());
    Boundary.NotReplayable.push_back(
        "its reverse sweep runs the reverse of '" +
        sourceName(*CB.getCalledFunction()) + "'" +
        (CB.getDebugLoc() && CB.getDebugLoc().getLine()
             ? " (line " + std::to_string(CB.getDebugLoc().getLine()) + ")"
             : std::string()) +
        ", " + Inner + (Hint ? InlineHint.str() : ""));
  }
  BasicBlock *PB = CB.getParent();
  DerivativeSignature CS = computeSignature(CR);
  SmallVector<Value *, 8> Args;
  for (unsigned I = 0; I < CB.arg_size(); ++I) {
    Value *Op = CB.getArgOperand(I);
    Args.push_back(lookup(primal(Op), PB, B));
    if (CS.ShadowArg[I] >= 0)
      if (Value *S = shadowOf(Op, &CB))
        Args.push_back(lookup(S, PB, B));
  }
  if (CS.SeedArg >= 0)
    Args.push_back(AI.isActive(&CB) ? takeAdjoint(&CB, B)
                                    : Constant::getNullValue(CB.getType()));
  Args.push_back(lookup(Tape, PB, B));
  if (Failed)
    return;
  CallInst *Res =
      B.CreateCall(Kept ? CSplit.KeptReverse : CSplit.Reverse, Args);
  unsigned K = 0;
  for (unsigned I = 0; I < CB.arg_size(); ++I) {
    if (CR.Args[I] != Activity::Active)
      continue;
    Value *Adj =
        CS.Results.size() == 1 ? (Value *)Res : B.CreateExtractValue(Res, K);
    addAdjoint(CB.getArgOperand(I),
               fromResult(B, Adj, CB.getArgOperand(I)->getType(), W), B);
    ++K;
  }
}

} // namespace tapestry
