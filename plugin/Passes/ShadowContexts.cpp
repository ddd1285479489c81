//===- ShadowContexts.cpp - Enzyme's shadow contexts of globals -----------===//
//
// Implements ShadowContexts.h: the ShadowContexts constructor lowers every
// __enzyme_context, __enzyme_shadow and __enzyme_zero_shadows call of the
// module before any request is resolved; noteRequest records which targets a
// context's requests differentiate, globals gives the Driver that context's
// GlobalShadows (Analysis/GlobalShadows.h), and finish writes each context's
// zeroing function once every derivative exists.
//
//===----------------------------------------------------------------------===//
#include "Passes/ShadowContexts.h"

#include "Core/Batch.h"
#include "Core/CustomRules.h"
#include "Core/Diagnostics.h"
#include "Core/EntryPoints.h"
#include "Passes/CallSiteRewriter.h"
#include "Passes/RequestArguments.h"
#include "Passes/RequestOrder.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "tapestry"

using namespace llvm;

namespace tapestry {

static constexpr StringLiteral ContextMD = "tapestry.shadow_context";

/// What to do instead, for every message about a context.
static constexpr StringLiteral ContextHint =
    " (Enzyme's rule: each call of __enzyme_context is one context, made in "
    "the function that uses it; in C++, an enzyme::context made in this "
    "function and not copied)";

std::optional<ShadowContext> shadowContextOf(Value *V) {
  auto *GV = dyn_cast<GlobalVariable>(throughLocalObjects(V));
  MDNode *MD = GV ? GV->getMetadata(ContextMD) : nullptr;
  if (!MD || MD->getNumOperands() != 2)
    return std::nullopt;
  auto Int = [&](unsigned I) {
    return unsigned(
        mdconst::extract<ConstantInt>(MD->getOperand(I))->getZExtValue());
  };
  return ShadowContext{Int(0), Int(1)};
}

/// The result of a lowered call: \p C converted to the call's type.
static void replaceCall(CallBase &CB, Constant *C) {
  Type *T = CB.getType();
  if (!T->isVoidTy() && !CB.use_empty()) {
    if (T->isIntegerTy())
      C = ConstantExpr::getPtrToInt(C, T);
    else if (!T->isPointerTy())
      C = PoisonValue::get(T);
    CB.replaceAllUsesWith(C);
  }
  eraseRequestCall(CB);
}

/// Reports \p Msg at \p CB, a call of __enzyme_shadow, and replaces the
/// call by null.
static void failShadowCall(CallBase &CB, const Twine &Msg) {
  reportError(*CB.getFunction(), &CB, Msg);
  replaceCall(CB,
              ConstantPointerNull::get(PointerType::get(CB.getContext(), 0)));
}

/// The address \p Offset bytes into \p Shadow.
static Constant *atOffset(Constant *Shadow, const APInt &Offset) {
  if (Offset.isZero())
    return Shadow;
  LLVMContext &Ctx = Shadow->getContext();
  return ConstantExpr::getGetElementPtr(Type::getInt8Ty(Ctx), Shadow,
                                        ConstantInt::get(Ctx, Offset));
}

ShadowContexts::ShadowContexts(Module &M) : M(M) {
  // In the module's order, so that contexts are numbered the same way in
  // every build.
  SmallVector<CallBase *, 8> ContextCalls, ShadowCalls, ZeroCalls;
  for (Function &F : M)
    for (Instruction &I : instructions(F)) {
      auto *CB = dyn_cast<CallBase>(&I);
      auto *Callee =
          CB ? dyn_cast<Function>(CB->getCalledOperand()->stripPointerCasts())
             : nullptr;
      if (!Callee || !Callee->isDeclaration())
        continue;
      // Any declaration whose name contains the entry point's, as for
      // requests (__enzyme_shadow_d).
      StringRef Name = entryPointName(*CB);
      if (!Name.contains("__enzyme_context") &&
          !Name.contains("__enzyme_shadow") &&
          !Name.contains("__enzyme_zero_shadows"))
        continue;
      // Made inside an inlined wrapper (enzyme::shadow, <enzyme/enzyme>):
      // reported at the user's call.
      if (const DILocation *DL = CB->getDebugLoc(); DL && DL->getInlinedAt()) {
        while (DL->getInlinedAt())
          DL = DL->getInlinedAt();
        CB->setDebugLoc(DebugLoc(DL));
      }
      if (Name.contains("__enzyme_context"))
        ContextCalls.push_back(CB);
      else if (Name.contains("__enzyme_shadow"))
        ShadowCalls.push_back(CB);
      else if (Name.contains("__enzyme_zero_shadows"))
        ZeroCalls.push_back(CB);
    }
  for (CallBase *CB : ContextCalls)
    lowerContext(*CB);
  for (CallBase *CB : ShadowCalls)
    lowerShadow(*CB);
  for (CallBase *CB : ZeroCalls)
    lowerZeroShadows(*CB);
}

void ShadowContexts::lowerContext(CallBase &CB) {
  std::optional<int64_t> W;
  if (CB.arg_size() == 1)
    W = constantIntegerArgument(CB.getArgOperand(0));
  if (!W || *W < 1 || *W > int64_t(MaxBatchWidth)) {
    reportError(*CB.getFunction(), &CB,
                "__enzyme_context takes one argument, the context's width "
                "(the number of lanes of each shadow, the width of the "
                "derivatives requested in it): a compile-time constant "
                "integer from 1 to " +
                    Twine(MaxBatchWidth));
    replaceCall(CB,
                ConstantPointerNull::get(PointerType::get(M.getContext(), 0)));
    return;
  }
  unsigned N = Contexts.size() + 1;
  Info &C = Contexts[N];
  C.Width = unsigned(*W);
  LLVMContext &Ctx = M.getContext();
  Type *I32 = Type::getInt32Ty(Ctx);
  auto *Desc = new GlobalVariable(
      M, I32, /*isConstant=*/true, GlobalValue::PrivateLinkage,
      ConstantInt::get(I32, N), "tapestry.shadow_context." + Twine(N));
  Desc->setMetadata(
      ContextMD,
      MDNode::get(Ctx, {ConstantAsMetadata::get(ConstantInt::get(I32, N)),
                        ConstantAsMetadata::get(ConstantInt::get(I32, *W))}));
  LLVM_DEBUG(dbgs() << "tapestry: shadow context " << N << " of width " << *W
                    << " in " << CB.getFunction()->getName() << "\n");
  replaceCall(CB, Desc);
}

void ShadowContexts::lowerShadow(CallBase &CB) {
  auto Fail = [&](const Twine &Msg) { failShadowCall(CB, Msg); };
  if (CB.arg_size() != 3)
    return Fail("__enzyme_shadow takes three arguments: a context from "
                "__enzyme_context, the address of a global variable (or of "
                "a part of one), and the lane, from 0 (or, without a "
                "context, the address, the width and the lane)");
  // __enzyme_shadow(&g, width, lane): no context.
  if (CB.getArgOperand(1)->getType()->isIntegerTy())
    return lowerGlobalQuery(CB);
  std::optional<ShadowContext> Ctx = shadowContextOf(CB.getArgOperand(0));
  if (!Ctx)
    return Fail("the first argument of __enzyme_shadow must be a context "
                "that __enzyme_context made in this function" +
                ContextHint);
  APInt Offset;
  GlobalVariable *G = queriedGlobal(CB, 1, Offset);
  if (!G)
    return;
  std::optional<int64_t> Lane = constantIntegerArgument(CB.getArgOperand(2));
  if (!Lane || *Lane < 0 || *Lane >= int64_t(Ctx->Width))
    return Fail("the lane passed to __enzyme_shadow must be a compile-time "
                "constant integer from 0 to " +
                Twine(Ctx->Width - 1) + " (the context has width " +
                Twine(Ctx->Width) + ")");
  Info &C = Contexts[Ctx->Number];
  if (!is_contained(C.Queried, G))
    C.Queried.push_back(G);
  replaceCall(
      CB,
      atOffset(GlobalShadows::contextShadowOf(*G, Ctx->Number, *Lane), Offset));
}

GlobalVariable *ShadowContexts::queriedGlobal(CallBase &CB, unsigned ArgNo,
                                              APInt &Offset) {
  auto Fail = [&](const Twine &Msg) -> GlobalVariable * {
    failShadowCall(CB, Msg);
    return nullptr;
  };
  const DataLayout &DL = M.getDataLayout();
  Value *Ptr = throughLocals(CB.getArgOperand(ArgNo));
  Offset = APInt(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
  Value *Base = Ptr->stripAndAccumulateConstantOffsets(
      DL, Offset, /*AllowNonInbounds=*/true);
  auto *G = dyn_cast<GlobalVariable>(Base);
  if (!G)
    return Fail("__enzyme_shadow gives the shadow of a global variable; '" +
                describe(CB.getArgOperand(ArgNo)) +
                "' is not the address of a global variable or of a part of "
                "one at a constant offset (pass other memory to the function "
                "as an enzyme_dup argument with its shadow)");
  if (G->isConstant())
    return Fail("the global '" + G->getName() +
                "' is constant: it carries no derivative, and its shadow "
                "would hold none; make it non-const to seed or read its "
                "shadow");
  return G;
}

void ShadowContexts::lowerGlobalQuery(CallBase &CB) {
  auto Fail = [&](const Twine &Msg) { failShadowCall(CB, Msg); };
  std::optional<int64_t> W = constantIntegerArgument(CB.getArgOperand(1));
  if (!W || *W < 1 || *W > int64_t(MaxBatchWidth))
    return Fail("the width passed to __enzyme_shadow(&global, width, lane) "
                "must be a compile-time constant integer from 1 to " +
                Twine(MaxBatchWidth) +
                " (the width of the derivatives that use the shadow)");
  std::optional<int64_t> Lane = constantIntegerArgument(CB.getArgOperand(2));
  if (!Lane || *Lane < 0 || *Lane >= *W)
    return Fail("the lane passed to __enzyme_shadow(&global, width, lane) "
                "must be a compile-time constant integer from 0 to " +
                Twine(*W - 1));
  APInt Offset;
  GlobalVariable *G = queriedGlobal(CB, 0, Offset);
  if (!G)
    return;
  GlobalVariable *Shadow = GlobalShadows::shadowOf(*G, unsigned(*Lane));
  GlobalShadows::markQueried(*G, *Shadow);
  LLVM_DEBUG(dbgs() << "tapestry: the program asks for lane " << *Lane
                    << " of the shadow of '" << G->getName() << "'\n");
  replaceCall(CB, atOffset(Shadow, Offset));
}

void ShadowContexts::lowerZeroShadows(CallBase &CB) {
  Function &F = *CB.getFunction();
  std::optional<ShadowContext> Ctx;
  if (CB.arg_size() == 1)
    Ctx = shadowContextOf(CB.getArgOperand(0));
  if (!Ctx) {
    reportError(F, &CB,
                "__enzyme_zero_shadows takes one argument, a context that "
                "__enzyme_context made in this function" +
                    ContextHint);
    eraseRequestCall(CB);
    return;
  }
  Info &C = Contexts[Ctx->Number];
  if (!C.Zero) {
    C.Zero = Function::Create(
        FunctionType::get(Type::getVoidTy(M.getContext()), false),
        GlobalValue::InternalLinkage,
        "tapestry.zero_shadows." + Twine(Ctx->Number), M);
    // Filled by finish(); until then it must stay a call.
    C.Zero->addFnAttr(Attribute::NoInline);
    ReturnInst::Create(M.getContext(),
                       BasicBlock::Create(M.getContext(), "entry", C.Zero));
  }
  CallInst *Call = CallInst::Create(C.Zero, {}, "", &CB);
  Call->setDebugLoc(CB.getDebugLoc());
  eraseRequestCall(CB);
}

bool requestNamesContext(const CallBase &CB) {
  return any_of(CB.args(), [](const Use &U) {
    return markerName(U.get()) == "enzyme_context";
  });
}

void ShadowContexts::noteRequest(CallBase &CB, Function *Target) {
  if (!Target)
    return;
  for (unsigned I = 1; I + 1 < CB.arg_size(); ++I)
    if (markerName(CB.getArgOperand(I)) == "enzyme_context")
      if (std::optional<ShadowContext> Ctx =
              shadowContextOf(CB.getArgOperand(I + 1))) {
        Info &C = Contexts[Ctx->Number];
        if (!is_contained(C.Targets, Target))
          C.Targets.push_back(Target);
      }
}

void ShadowContexts::checkPointerStores(
    GlobalVariable &G, const SmallPtrSetImpl<Function *> &Reachable) {
  if (!GlobalShadows::holdsPointers(G.getValueType()))
    return;
  SmallVector<User *, 8> Work(G.users());
  SmallPtrSet<User *, 8> Seen;
  while (!Work.empty()) {
    User *U = Work.pop_back_val();
    if (!Seen.insert(U).second)
      continue;
    if (isa<ConstantExpr>(U) || isa<GetElementPtrInst>(U)) {
      Work.append(U->user_begin(), U->user_end());
      continue;
    }
    auto *SI = dyn_cast<StoreInst>(U);
    if (!SI || SI->getValueOperand() == U ||
        !GlobalShadows::holdsPointers(SI->getValueOperand()->getType()) ||
        Reachable.count(SI->getFunction()))
      continue;
    reportError(*SI->getFunction(), SI,
                "the global '" + G.getName() +
                    "' gets a pointer here, outside the differentiated code, "
                    "and has a shadow in a context (__enzyme_context): "
                    "Tapestry gives a context's shadow of a pointer in a "
                    "global only the global's initial value (pointing to "
                    "the shadow of the global it points to), so the shadow "
                    "would not point to the shadow of this memory; pass "
                    "the memory to the function as an enzyme_dup argument "
                    "with its shadow instead");
    return;
  }
}

const GlobalShadows &ShadowContexts::globals(unsigned Number,
                                             const CustomRules &Rules) {
  Info &C = Contexts[Number];
  if (!C.Globals) {
    SmallPtrSet<Function *, 16> Reachable =
        reachableFunctions(C.Targets, Rules);
    C.Globals = GlobalShadows::collectForContext(M, Reachable, Rules, C.Queried,
                                                 Number);
    for (GlobalVariable *G : C.Globals->globals()) {
      LLVM_DEBUG(dbgs() << "tapestry: global '" << G->getName()
                        << "' has a shadow in context " << Number << "\n");
      checkPointerStores(*G, Reachable);
    }
  }
  return *C.Globals;
}

void ShadowContexts::finish() {
  for (auto &[N, C] : Contexts) {
    if (!C.Zero)
      continue;
    // Every shadow the context has, whether a derivative or the program
    // made it.
    std::string Prefix = ".tapestry.ctx" + std::to_string(N);
    SmallVector<GlobalVariable *, 8> Shadows;
    for (GlobalVariable &GV : M.globals()) {
      StringRef Name = GV.getName();
      size_t At = Name.rfind(Prefix);
      if (At == StringRef::npos)
        continue;
      StringRef Rest = Name.substr(At + Prefix.size());
      unsigned Lane;
      if (Rest.empty() || (Rest.consume_front(".") && !Rest.empty() &&
                           !Rest.getAsInteger(10, Lane)))
        Shadows.push_back(&GV);
    }
    BasicBlock &Entry = C.Zero->getEntryBlock();
    IRBuilder<> B(Entry.getTerminator());
    const DataLayout &DL = M.getDataLayout();
    for (GlobalVariable *S : Shadows) {
      uint64_t Size = DL.getTypeAllocSize(S->getValueType());
      Constant *Init = S->getInitializer();
      if (Init->isNullValue()) {
        B.CreateMemSet(S, B.getInt8(0), Size, S->getAlign());
        continue;
      }
      // Pointers to other shadows stay; the initial value is kept beside.
      auto *Copy = new GlobalVariable(M, S->getValueType(), /*isConstant=*/true,
                                      GlobalValue::PrivateLinkage, Init,
                                      S->getName() + ".initial");
      Copy->setAlignment(S->getAlign());
      B.CreateMemCpy(S, S->getAlign(), Copy, S->getAlign(), Size);
    }
  }
}

} // namespace tapestry
