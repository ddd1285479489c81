//===- SynthesizerBase.cpp ------------------------------------------------===//
#include "Synthesis/SynthesizerBase.h"

#include "Core/BlasFunctions.h"
#include "Core/MPIFunctions.h"
#include "Core/Diagnostics.h"
#include "Core/MathFunctions.h"
#include "Core/OpenMPRuntime.h"
#include "Synthesis/DerivativeRules.h"
#include "Synthesis/IndirectCalls.h"
#include "Synthesis/InlineHelpers.h"
#include "Synthesis/UnneededPrimalWrites.h"
#include "Synthesis/VectorRules.h"
#include "llvm/Analysis/AliasAnalysis.h"
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
      P, AI, [this](MemTransferInst &MT) { return copiesOnlyPointers(MT); });
  for (unsigned I = 0; I < P.arg_size(); ++I)
    if (Sig.ShadowArg[I] >= 0)
      Shadows[P.getArg(I)] = G->getArg(Sig.ShadowArg[I]);
  if (Globals)
    for (GlobalVariable *GV : Globals->globals())
      Shadows[GV] = GlobalShadows::batchShadowOf(*GV, W);
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

/// Strips casts between integer and pointer widths to find the value an
/// integer store writes.
static const Value *stripIntCasts(const Value *V) {
  while (auto *CI = dyn_cast<CastInst>(V))
    V = CI->getOperand(0);
  return V;
}

std::pair<Value *, Type *>
SynthesizerBase::constantOutParam(const CallBase &CB) const {
  std::pair<Value *, Type *> None{nullptr, nullptr};
  const Function *F = CB.getCalledFunction();
  if (!F)
    return None;
  LLVMContext &C = CB.getContext();
  Value *Out = nullptr;
  Type *T = nullptr;
  if (const MathFunction *M = findMathFunction(CB);
      M && StringRef(M->LibName) == "modf") {
    Out = CB.getArgOperand(1);
    T = CB.getType();
  } else {
    // std::istream::operator>>(double&) and _M_extract<double>(double&),
    // float and long double alike: the number read goes to the last
    // argument.
    StringRef Name = F->getName();
    for (auto [Suffix, Ty] :
         {std::pair<StringRef, Type *>{"rsERd", Type::getDoubleTy(C)},
          {"rsERf", Type::getFloatTy(C)},
          {"rsERe", Type::getX86_FP80Ty(C)},
          {"_M_extractIdEERSiRT_", Type::getDoubleTy(C)},
          {"_M_extractIfEERSiRT_", Type::getFloatTy(C)},
          {"_M_extractIeEERSiRT_", Type::getX86_FP80Ty(C)}})
      if (Name.starts_with("_ZNSi") && Name.ends_with(Suffix) &&
          CB.arg_size() == 2) {
        Out = CB.getArgOperand(1);
        T = Ty;
      }
  }
  if (!Out || !Out->getType()->isPointerTy() || !AI.hasShadow(Out))
    return None;
  return {Out, T};
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

DiffRequest SynthesizerBase::calleeRequest(CallBase &CB) const {
  DiffRequest CR;
  CR.Fn = CB.getCalledFunction();
  CR.Mode = R.Mode;
  CR.Width = R.Width;
  CR.ErrorEstimate = R.ErrorEstimate;
  CR.Parallel = R.Parallel;
  for (Value *A : CB.args()) {
    Type *T = A->getType();
    if (T->isPointerTy())
      CR.Args.push_back(AI.hasShadow(A) ? Activity::Dup : Activity::Const);
    else if (T->isFPOrFPVectorTy() && AI.isActive(A))
      CR.Args.push_back(R.Mode == DiffMode::Reverse ? Activity::Active
                                                    : Activity::Dup);
    else
      CR.Args.push_back(Activity::Const);
  }
  CR.ReturnActive = CB.getType()->isFPOrFPVectorTy() && AI.isActive(&CB);
  // Forward mode returns the primal too, so the primal call disappears and
  // recursion costs one pass.
  CR.ReturnPrimal = R.Mode == DiffMode::Forward && !CB.getType()->isVoidTy();
  return CR;
}

bool SynthesizerBase::losesDerivative(StoreInst &SI) const {
  Value *Val = SI.getValueOperand();
  if (AI.hasShadow(SI.getPointerOperand()) || !AI.isVaried(Val))
    return false;
  // A global has no shadow to hold what a caller might read later; other
  // memory without a shadow is a "constant output" unless read back here.
  const Value *Obj = getUnderlyingObject(SI.getPointerOperand(), 0);
  // Unless the user declared it inactive (enzyme_inactive): what is stored
  // there, and read back from there, carries no derivative, as in Enzyme.
  if (auto *GV = dyn_cast<GlobalVariable>(Obj);
      GV && Rules.isInactiveGlobal(GV))
    return false;
  return (AI.isActive(Val) && isa<GlobalVariable>(Obj)) || isReadBack(SI);
}

bool SynthesizerBase::isReadBack(StoreInst &SI) const {
  SmallVector<const Value *, 4> Stored;
  getUnderlyingObjects(SI.getPointerOperand(), Stored, nullptr, 0);
  for (Instruction &I : instructions(P)) {
    // A callee with a body that is not inlined reads what its pointer
    // arguments point to.
    if (auto *CB = dyn_cast<CallBase>(&I)) {
      Function *Callee = CB->getCalledFunction();
      if (!Callee || Callee->isDeclaration() || CB->doesNotAccessMemory())
        continue;
      for (Value *A : CB->args()) {
        if (!A->getType()->isPointerTy())
          continue;
        SmallVector<const Value *, 4> Read;
        getUnderlyingObjects(A, Read, nullptr, 0);
        for (const Value *R : Read)
          if (is_contained(Stored, R) || !isIdentifiedObject(R))
            return true;
      }
      continue;
    }
    auto *LI = dyn_cast<LoadInst>(&I);
    if (!LI)
      continue;
    SmallVector<const Value *, 4> Read;
    getUnderlyingObjects(LI->getPointerOperand(), Read, nullptr, 0);
    for (const Value *R : Read)
      if (is_contained(Stored, R) || !isIdentifiedObject(R))
        return true;
  }
  return false;
}

void SynthesizerBase::reportLostStore(StoreInst &SI) {
  const Value *Obj = getUnderlyingObject(SI.getPointerOperand(), 0);
  if (auto *GV = dyn_cast<GlobalVariable>(Obj)) {
    fail(&SI, "an active value is stored to the global '" + describe(GV) +
                  "', which has no shadow to receive its derivative; pass the "
                  "data through an enzyme_dup argument instead");
    return;
  }
  if (auto *A = dyn_cast<Argument>(Obj)) {
    fail(&SI, "an active value is stored through " + describe(A) +
                  ", which is enzyme_const; pass it as enzyme_dup with a "
                  "shadow");
    return;
  }
  fail(&SI, "an active value is stored to memory that has no shadow (" +
                describe(Obj) +
                "); pass that memory through an enzyme_dup "
                "argument");
}

/// True if the integer \p V is only compared (signbit(x) is a bitcast, a
/// shift or mask, and a compare): no derivative flows through it.
static bool onlyFeedsComparisons(const Value *V, unsigned Depth = 0) {
  if (Depth > 3)
    return false;
  return all_of(V->users(), [&](const User *U) {
    if (isa<ICmpInst>(U))
      return true;
    if (isa<BinaryOperator>(U) || isa<TruncInst>(U) || isa<ZExtInst>(U))
      return onlyFeedsComparisons(U, Depth + 1);
    return false;
  });
}

/// What \p I does to an active floating-point value, in source terms: "a
/// double is reinterpreted as a long here".
static std::string reinterpretation(const Instruction &I) {
  Type *From = nullptr;
  for (const Value *Op : I.operands())
    if (Op->getType()->isFPOrFPVectorTy() ||
        (!From && !isa<Constant>(Op) && !isa<BasicBlock>(Op)))
      From = Op->getType();
  if (isa<CastInst>(I) && From && From->isFPOrFPVectorTy())
    return "a " + describe(From) + " is reinterpreted as a " +
           describe(I.getType()) + " here";
  return "an active floating-point value is reinterpreted as a " +
         describe(I.getType()) + " here";
}

/// True if \p CB calls the target a std::function holds (its invoker,
/// loaded from the object).
static bool callsThroughStdFunction(const CallBase &CB) {
  auto *Target = dyn_cast<LoadInst>(CB.getCalledOperand());
  auto *GEP =
      Target ? dyn_cast<GEPOperator>(Target->getPointerOperand()) : nullptr;
  auto *ST = GEP ? dyn_cast<StructType>(GEP->getSourceElementType()) : nullptr;
  return ST && ST->hasName() &&
         (ST->getName().contains("std::function") ||
          ST->getName().contains("std::_Function_base"));
}

/// A pointer without a shadow (an enzyme_const argument, a global table)
/// stored into memory that has one gets itself as its shadow, the marker of
/// a constant pointer (Analysis/RuntimeActivity.h); every read of it in this
/// function tests for the marker. A callee differentiated on its own that
/// may read the memory would not: rejected, with what to do. Where the
/// memory goes cannot always be seen (a table filled through a pointer
/// advanced in a loop, a vector's storage): any callee argument that may
/// point to the same memory counts as a reader.
void SynthesizerBase::checkShadowlessPointerStore(StoreInst &SI) {
  Value *Val = SI.getValueOperand();
  if (isa<ConstantPointerNull>(Val) || isa<UndefValue>(Val))
    return; // its shadow is itself
  // A function's address is its own shadow too, in every function: no
  // derivative goes through it, and calls through it are dispatched on the
  // primal pointer (Synthesis/IndirectCalls.h).
  if (isa<Function>(Val->stripPointerCasts()))
    return;
  if (!Types)
    Types = std::make_unique<TypeInfo>(computeTypes(P));
  SmallVector<Type *, 4> Held = Types->typesAt(Val);
  if (!Held.empty() && none_of(Held, [](Type *T) {
        return T->isFPOrFPVectorTy() || T->isPointerTy();
      }))
    return; // integer data: nothing to differentiate behind it
  SmallVector<const Value *, 4> Stored = RA.roots(SI.getPointerOperand());
  const CallBase *Reader = nullptr;
  for (Instruction &I : instructions(P)) {
    auto *CB = dyn_cast<CallBase>(&I);
    Function *Callee = CB ? CB->getCalledFunction() : nullptr;
    if (Callee && !Callee->isDeclaration() && !Rules.isOpaque(Callee) &&
        any_of(CB->args(), [&](Value *A) {
          return A->getType()->isPointerTy() && AI.hasShadow(A) &&
                 mayShareObject(RA.roots(A), Stored);
        })) {
      Reader = CB;
      break;
    }
  }
  if (!Reader)
    return;
  fail(&SI, describe(Val->stripPointerCasts()) +
                " has no shadow (it is constant) but is stored into memory "
                "that has one, which '" +
                sourceName(*Reader->getCalledFunction()) +
                "', differentiated on its own, reads: it cannot tell the "
                "pointer is constant. Pass it as enzyme_dup with a zeroed "
                "shadow (a global table: copy it into an array passed that "
                "way)");
}

void SynthesizerBase::checkRuntimeConstantUse(Instruction &PI) {
  if (RA.MaybeConstant.empty())
    return;
  // Where the pointer turns out constant, the stored value's derivative
  // has nowhere to go: fine for a constant output, wrong if read back.
  if (auto *SI = dyn_cast<StoreInst>(&PI)) {
    if (RA.mayBeConstant(SI->getPointerOperand()) &&
        AI.isVaried(SI->getValueOperand()) && isReadBack(*SI))
      fail(&PI, "an active value is stored through a pointer read from "
                "memory that also holds pointers to constant data "
                "(enzyme_const or global), and is read back: where the "
                "pointer is constant at run time its derivative would be "
                "lost; pass the constant data as enzyme_dup with a zeroed "
                "shadow");
    return;
  }
  auto *CB = dyn_cast<CallBase>(&PI);
  if (!CB || isa<DbgInfoIntrinsic>(CB) || CB->isLifetimeStartOrEnd() ||
      isInactiveCall(*CB, &Rules))
    return;
  for (Use &A : CB->args())
    if (RA.mayBeConstant(A)) {
      fail(&PI, "argument " + Twine(A.getOperandNo() + 1) +
                    " of this call is a pointer read from memory that also "
                    "holds pointers to constant data (enzyme_const or "
                    "global), so whether it "
                    "points to constant data is only known at run time, and "
                    "this call cannot test it; pass the constant data as "
                    "enzyme_dup with a zeroed shadow, or access it "
                    "element by element here");
      return;
    }
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

void SynthesizerBase::checkSupported(Instruction &PI) {
  checkRuntimeConstantUse(PI);
  auto Varied = [&](Value *V) { return AI.isVaried(V); };
  auto Scalable = [](const Value *V) {
    return isa<ScalableVectorType>(V->getType());
  };
  if ((Scalable(&PI) || any_of(PI.operands(), Scalable)) &&
      (AI.isVaried(&PI) || any_of(PI.operands(), Varied))) {
    fail(&PI, "scalable vectors (SVE, RVV) are not supported yet; compile "
              "without scalable vectorisation (-fno-vectorize, or "
              "fixed-width vectors with -msve-vector-bits=N)");
    return;
  }
  if (auto *II = dyn_cast<IntrinsicInst>(&PI))
    if ((II->getIntrinsicID() == Intrinsic::masked_load ||
         II->getIntrinsicID() == Intrinsic::masked_gather) &&
        II->getType()->isPtrOrPtrVectorTy() && !II->use_empty() &&
        AI.hasShadow(II->getArgOperand(0))) {
      // The loaded pointers would have no shadows: every derivative
      // through them would be dropped.
      fail(&PI, "this loads pointers from differentiated memory with a "
                "masked vector load or gather, which is not supported yet; "
                "compile the function without vectorisation "
                "(-fno-vectorize) or read the pointers one by one");
      return;
    }
  if (auto *SI = dyn_cast<StoreInst>(&PI)) {
    Value *Val = SI->getValueOperand();
    if (Val->getType()->isPtrOrPtrVectorTy() && !AI.hasShadow(Val) &&
        AI.hasShadow(SI->getPointerOperand()))
      checkShadowlessPointerStore(*SI);
    if (AI.hasShadow(SI->getPointerOperand()) &&
        Val->getType()->isIntOrIntVectorTy() &&
        Val->getType()->getPrimitiveSizeInBits() >= 32)
      if (auto *LI = dyn_cast<LoadInst>(stripIntCasts(Val)))
        if (AI.hasShadow(LI->getPointerOperand())) {
          // An integer load whose every use stores it unchanged only moves
          // bytes (an aggregate copy emitted as i64 or <2 x i64>, a union's
          // integer member): the shadow bytes move with them, and the
          // reverse sweep moves the adjoints of the floating-point parts
          // (reverseStore).
          if (LI == Val && isCopyLoad(*LI))
            return;
          // Otherwise the integer is converted or computed with: only
          // memory known to hold no floating-point data there carries no
          // derivative (an iterator or a vector's bounds).
          if (!Types)
            Types = std::make_unique<TypeInfo>(computeTypes(P));
          const DataLayout &DL = module().getDataLayout();
          ByteLayout L = Types->layoutAt(LI->getPointerOperand(),
                                         DL.getTypeStoreSize(LI->getType()));
          bool HoldsFloat = !L.floatParts().empty();
          if (L.empty()) {
            SmallVector<Type *, 4> Held =
                Types->typesAt(LI->getPointerOperand());
            HoldsFloat = Held.empty() || any_of(Held, [](Type *T) {
                           return T->isFPOrFPVectorTy();
                         });
          }
          if (!HoldsFloat)
            return;
          fail(&PI, "this store copies memory that may hold floating-point "
                    "data as an integer; copy it as double or float, or use "
                    "memcpy");
        }
    return;
  }
  if (auto *CB = dyn_cast<CallBase>(&PI)) {
    if (!checkOpenMPCall(*CB) || isOpenMPForkCall(*CB))
      return;
    Function *Known = CB->getCalledFunction();
    if (Known && R.Mode == DiffMode::Forward && Rules.forwardDerivative(Known))
      return;
    if (Known && R.Mode == DiffMode::Reverse && Rules.gradient(Known))
      return;
    if (R.Mode == DiffMode::Reverse && CB->hasMetadata("tapestry.realloc") &&
        AI.hasShadow(CB->getArgOperand(0)))
      if (auto *A =
              dyn_cast<Argument>(getUnderlyingObject(CB->getArgOperand(0))))
        fail(&PI, "realloc of " + describe(A) +
                      ", which the caller passed with a shadow: the "
                      "derivative with respect to its old contents would be "
                      "left in the caller's shadow buffer, which is freed "
                      "with it; copy the data into a buffer the function "
                      "allocates (malloc and memcpy) and realloc that");
    if (Known && Rules.isDeclaredInactive(Known))
      return checkInactiveDeclaredCall(*CB);
    if (isa<DbgInfoIntrinsic>(CB) || isInactiveCall(*CB, &Rules) ||
        ruleFor(*CB) || isAllocationCall(*CB) || isOutParamAllocation(*CB) ||
        isShadowMirrorCall(*CB) || isDeallocationCall(*CB) ||
        isa<MemIntrinsic>(CB) || isVectorRuleCall(*CB) || isBlasCall(*CB) ||
        isMPICall(*CB))
      return;
    // Memory known to hold only integers (a local char buffer) carries no
    // derivative whatever the call does with it.
    auto HoldsOnlyIntegers = [&](Value *A) {
      if (!Types)
        Types = std::make_unique<TypeInfo>(computeTypes(P));
      SmallVector<Type *, 4> Held = Types->typesAt(A);
      return !Held.empty() &&
             all_of(Held, [](Type *T) { return T->isIntegerTy(); });
    };
    bool Touches =
        (AI.isVaried(CB) && AI.isActive(CB)) ||
        any_of(CB->args(), [&](Value *A) {
          return AI.isActive(A) || (AI.hasShadow(A) && !HoldsOnlyIntegers(A));
        });
    if (!Touches)
      return;
    Function *Callee = CB->getCalledFunction();
    if (CB->isInlineAsm()) {
      fail(&PI, "an inline assembly statement (asm) takes or gives active "
                "values, and Tapestry cannot differentiate assembly; write "
                "the computation in C, or move the asm into a function and "
                "register its derivative (__enzyme_register_gradient_NAME / "
                "__enzyme_register_derivative_NAME)");
      return;
    }
    if (Callee && Callee->isVarArg() && !Callee->isDeclaration() &&
        !Rules.isOpaque(Callee)) {
      std::string Shown = sourceName(*Callee);
      fail(&PI, "'" + Shown +
                    "' takes a variable number of arguments (...) and is "
                    "called with active values; Tapestry cannot "
                    "differentiate va_arg yet: pass the values in an array "
                    "(const double *) or as fixed parameters, or register "
                    "a derivative for '" +
                    Shown + "'");
      return;
    }
    if (!Callee && isUnknownCalleeFallback(*CB)) {
      stopAtUnknownCallee(*CB);
      return;
    }
    if (!Callee) {
      // Clang loads a virtual call's target from the vtable with
      // !invariant.load.
      // A virtual call loads its target from the vtable, itself loaded from
      // the object (clang marks it !invariant.load when optimising).
      auto *Target = dyn_cast<LoadInst>(CB->getCalledOperand());
      bool Virtual =
          Target &&
          (Target->hasMetadata(LLVMContext::MD_invariant_load) ||
           isa<LoadInst>(
               Target->getPointerOperand()->stripInBoundsConstantOffsets()));
      size_t Seen =
          indirectCallCandidates(module(), CB->getFunctionType()).size();
      std::string Why =
          Seen == 0 ? " no function of its type has its address taken in "
                      "this file (Tapestry differentiates such a call by "
                      "dispatching on the pointer over the functions it "
                      "may hold)"
          : Seen > maxIndirectCandidates()
              ? " " + std::to_string(Seen) +
                    " functions of its type have their address taken in "
                    "this file, more than Tapestry dispatches over (-mllvm "
                    "-tapestry-max-indirect-candidates=N)"
              : " Tapestry cannot dispatch it over the functions it may "
                "hold (a call that may throw to a handler here, or a "
                "musttail call)";
      if (Virtual)
        fail(&PI, "this virtual call takes active arguments, and" + Why +
                      "; define the classes that implement it in this "
                      "file, or call the method non-virtually "
                      "(Class::method)");
      else
        fail(&PI, "a call through a function pointer takes active "
                  "arguments, and" +
                      Why +
                      (callsThroughStdFunction(*CB)
                           ? "; define the callable in this file, or take "
                             "it as a template parameter, template <class "
                             "F> ... (F f), so that the call is direct"
                           : "; define the functions it may call in this "
                             "file"));
      return;
    }
    std::string Shown = sourceName(*Callee);
    std::string Name = sourceIdentifier(*Callee);
    std::string Suffix = registrationSuffix(*Callee);
    if (Rules.isOpaque(Callee)) {
      fail(&PI, "'" + Shown + "' has a registered " +
                    (R.Mode == DiffMode::Forward
                         ? "gradient but no forward derivative; register "
                           "one with __enzyme_register_derivative_" +
                               Suffix
                         : "forward derivative but no gradient; register "
                           "one with __enzyme_register_gradient_" +
                               Suffix));
      return;
    }
    if (!Callee->isDeclaration()) {
      // Differentiated on its own (calleeRequest), unless it returns a
      // pointer whose shadow the caller needs.
      if (CB->getType()->isPointerTy() && AI.hasShadow(CB))
        fail(&PI, "the call to '" + Shown +
                      "' is not inlined (it is recursive or too large) and "
                      "returns a pointer into differentiated memory; "
                      "return the data through an argument instead");
      return;
    }
    if (std::string Hint = vectorLibraryHint(*Callee); !Hint.empty())
      return fail(&PI, Hint);
    if (StringRef Blas = unsupportedBlasRoutine(Callee->getName());
        !Blas.empty())
      return fail(&PI,
                  "'" + Shown + "' is a BLAS/LAPACK routine (" + Blas +
                      ") Tapestry has no derivative for yet (it has dot, "
                      "axpy, scal, copy, nrm2, gemv, gemm, symv, spmv, trmv, "
                      "trsv, double and single, CBLAS and Fortran); register "
                      "a derivative for it with __enzyme_register_gradient_" +
                      Suffix + " or __enzyme_register_derivative_" + Suffix);
    if (isUnsupportedMPIFunction(Callee->getName())) // Core/MPIFunctions.h
      return fail(&PI, "'" + Shown + "' is an MPI routine " + mpiSupportNote());
    fail(&PI, "no derivative is known for external function '" + Shown +
                  "': give its body, register one with 'void "
                  "*__enzyme_register_gradient_" +
                  Suffix + "[3] = {(void*)" + Name +
                  ", (void*)aug, (void*)rev};' or 'void "
                  "*__enzyme_register_derivative_" +
                  Suffix + "[2] = {(void*)" + Name +
                  ", (void*)fwd};', or, only if nothing it returns or "
                  "writes depends on differentiated values (it only prints "
                  "or checks them), declare it inactive with 'void "
                  "*__enzyme_inactivefn[] = {(void*)" +
                  Name + "};'");
    return;
  }
  if (isa<FCmpInst>(PI) || isa<FPToSIInst>(PI) || isa<FPToUIInst>(PI) ||
      isa<ReturnInst>(PI) || PI.isTerminator())
    return;
  if (!AI.isActive(&PI) && any_of(PI.operands(), Varied) &&
      !onlyFeedsComparisons(&PI) && !PI.getType()->isFPOrFPVectorTy() &&
      !isa<SelectInst>(PI) && !isa<PHINode>(PI) &&
      !isa<StructType>(PI.getType()) && !isa<ArrayType>(PI.getType()))
    fail(&PI, reinterpretation(PI) +
                  "; derivatives cannot flow through bit manipulation (keep "
                  "the value as a floating-point number: fabs, copysign, "
                  "signbit)");
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&PI))
    if (AI.hasShadow(RMW->getPointerOperand()) &&
        RMW->getType()->isFPOrFPVectorTy() &&
        RMW->getOperation() != AtomicRMWInst::FAdd &&
        RMW->getOperation() != AtomicRMWInst::FSub)
      fail(&PI, "atomic read-modify-write of differentiable memory is not "
                "supported yet except += and -= (#pragma omp atomic x += "
                "v); write the update under '#pragma omp critical'");
}

} // namespace tapestry
