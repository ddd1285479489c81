//===- RequestDecoder.cpp - Enzyme's calling convention, decoded ----------===//
#include "Passes/RequestDecoder.h"

#include "Core/Batch.h"
#include "Core/CustomRules.h"
#include "Core/Diagnostics.h"
#include "Core/IterationCounter.h"
#include "Core/LinkTimePhase.h"
#include "Core/Markers.h"
#include "Core/SourceTypes.h"
#include "Passes/StructArguments.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tapestry {

bool isSplitEntryPoint(EntryPoint E) {
  return E == EntryPoint::AugmentedForward || E == EntryPoint::SplitReverse ||
         E == EntryPoint::AugmentSize || E == EntryPoint::Thunk;
}

EntryPoint classifyEntryPoint(StringRef Name) {
  if (Name.contains("__tapestry_thunk"))
    return EntryPoint::Thunk;
  if (!Name.contains("__enzyme_"))
    return EntryPoint::None;
  if (Name.contains("__enzyme_autodiff"))
    return EntryPoint::Autodiff;
  if (Name.contains("__enzyme_fwddiff"))
    return EntryPoint::ForwardDiff;
  if (Name.contains("__enzyme_fwdsplit"))
    return EntryPoint::ForwardSplit;
  if (Name.contains("__enzyme_augmentfwd"))
    return EntryPoint::AugmentedForward;
  if (Name.contains("__enzyme_reverse"))
    return EntryPoint::SplitReverse;
  if (Name.contains("__enzyme_augmentsize"))
    return EntryPoint::AugmentSize;
  if (Name.contains("__enzyme_batch"))
    return EntryPoint::Batch;
  if (Name.contains("__enzyme_virtualreverse"))
    return EntryPoint::VirtualReverse;
  if (Name.contains("__enzyme_error_estimate"))
    return EntryPoint::ErrorEstimate;
  if (isIterationCounterName(Name))
    return EntryPoint::IterationCounter;
  for (StringRef Truncate :
       {"__enzyme_truncate_op_func", "__enzyme_truncate_mem_func",
        "__enzyme_truncate_mem_value", "__enzyme_expand_mem_value"})
    if (Name.contains(Truncate))
      return EntryPoint::Truncate;
  if (Name.contains("__enzyme_todense") ||
      Name.contains("__enzyme_post_sparse_todense"))
    return EntryPoint::ToDense;
  for (StringRef Hint : {"__enzyme_float", "__enzyme_double",
                         "__enzyme_integer", "__enzyme_pointer"})
    if (Name.contains(Hint))
      return EntryPoint::TypeHint;
  // Every other function of Enzyme's API: a clear error at the call rather
  // than a link error (or, worse, a user definition silently used).
  return EntryPoint::Unsupported;
}

std::string unsupportedEntryPointMessage(StringRef Name) {
  static const struct {
    StringRef Prefix, Feature;
  } Features[] = {
      // Older spellings; the current ones are implemented.
      {"__enzyme_truncate",
       "floating-point truncation under an older name (Tapestry implements "
       "__enzyme_truncate_op_func, __enzyme_truncate_mem_func, "
       "__enzyme_truncate_mem_value and __enzyme_expand_mem_value)"},
      {"__enzyme_expand_value",
       "floating-point truncation under an older name (Tapestry implements "
       "__enzyme_expand_mem_value)"},
      {"__enzyme_call_inactive", "calls marked inactive at the call site"},
      {"__enzyme_trace", "probabilistic programming (traces)"},
      {"__enzyme_condition", "probabilistic programming (traces)"},
      {"__enzyme_sample", "probabilistic programming (traces)"},
      {"__enzyme_set_checkpointing", "user control of checkpointing"},
      {"__enzyme_checkpoint_for", "user control of checkpointing"},
      {"__enzyme_context", "shadows of global variables held in a context "
                           "(give the data to the function as an enzyme_dup "
                           "argument instead)"},
      {"__enzyme_shadow", "shadows of global variables held in a context "
                          "(give the data to the function as an enzyme_dup "
                          "argument instead)"},
      {"__enzyme_zero_shadows", "shadows of global variables held in a "
                                "context (give the data to the function as "
                                "an enzyme_dup argument instead)"},
      {"__enzyme_fixed_point", "derivatives of fixed-point iterations"},
      {"__enzyme_set_fixed_point", "derivatives of fixed-point iterations"},
      {"__enzyme_set_mincut", "user control of checkpointing"},
  };
  std::string Entry = Name.str();
  for (const auto &F : Features)
    if (Name.contains(F.Prefix))
      return Entry + " is Enzyme's entry point for " + F.Feature.str() +
             "; Tapestry does not support it yet. Use __enzyme_autodiff, "
             "__enzyme_fwddiff or split mode (__enzyme_augmentfwd and "
             "__enzyme_reverse)";
  return Entry +
         " is not an Enzyme entry point Tapestry knows; Tapestry supports "
         "__enzyme_autodiff, __enzyme_fwddiff, __enzyme_fwdsplit, "
         "__enzyme_augmentfwd, __enzyme_reverse, __enzyme_augmentsize, "
         "__enzyme_batch, __enzyme_virtualreverse, __enzyme_error_estimate, "
         "__enzyme_iter, __enzyme_truncate_op_func, "
         "__enzyme_truncate_mem_func, __enzyme_truncate_mem_value, "
         "__enzyme_expand_mem_value, __enzyme_todense and "
         "__enzyme_post_sparse_todense";
}

StringRef markerName(const Value *V) {
  V = V->stripPointerCasts();
  while (auto *CI = dyn_cast<CastInst>(V))
    V = CI->getOperand(0);
  if (auto *LI = dyn_cast<LoadInst>(V))
    V = LI->getPointerOperand()->stripPointerCasts();
  if (auto *GV = dyn_cast<GlobalVariable>(V))
    if (GV->getName().starts_with("enzyme_") ||
        GV->getName().starts_with("tapestry_"))
      return GV->getName();
  return "";
}

static bool isDebugOrLifetime(const User *U) {
  return isa<DbgInfoIntrinsic>(U) ||
         (isa<IntrinsicInst>(U) &&
          cast<IntrinsicInst>(U)->isLifetimeStartOrEnd());
}

/// True if the address held by local \p Holder (stored into it once) is
/// only ever read through: each load of \p Holder is only loaded from or
/// passed on to another such holder. This is how an inlined C++ wrapper
/// chain keeps a reference parameter, e.g. to the temporary holding `&f`,
/// spilling it once per inlined level at -O0.
static bool holdsReadOnlyAddress(const AllocaInst *Holder, unsigned Depth = 0) {
  if (Depth > 16)
    return false;
  unsigned Stores = 0;
  for (const User *U : Holder->users()) {
    if (isDebugOrLifetime(U))
      continue;
    if (const auto *SI = dyn_cast<StoreInst>(U)) {
      if (SI->getPointerOperand() != Holder || ++Stores > 1)
        return false;
      continue;
    }
    const auto *LI = dyn_cast<LoadInst>(U);
    if (!LI)
      return false;
    for (const User *V : LI->users()) {
      if (isDebugOrLifetime(V))
        continue;
      if (const auto *Read = dyn_cast<LoadInst>(V);
          Read && Read->getPointerOperand() == LI)
        continue;
      const auto *Pass = dyn_cast<StoreInst>(V);
      const auto *Next = Pass && Pass->getValueOperand() == LI
                             ? dyn_cast<AllocaInst>(Pass->getPointerOperand())
                             : nullptr;
      if (!Next || Next == Holder || !holdsReadOnlyAddress(Next, Depth + 1))
        return false;
    }
  }
  return Stores == 1;
}

/// The value of a local variable (an alloca) that is stored exactly once and
/// otherwise only read, directly or through a local holding its address
/// that is itself only read: how -O0 code and inlined wrappers hold a
/// function pointer.
static Value *onlyStoredValue(Value *Ptr) {
  auto *AI = dyn_cast<AllocaInst>(Ptr->stripPointerCasts());
  if (!AI)
    return nullptr;
  StoreInst *Only = nullptr;
  for (User *U : AI->users()) {
    if (isa<LoadInst>(U) || isDebugOrLifetime(U))
      continue;
    auto *SI = dyn_cast<StoreInst>(U);
    if (SI && SI->getValueOperand() == AI && SI->getPointerOperand() != AI) {
      auto *Holder =
          dyn_cast<AllocaInst>(SI->getPointerOperand()->stripPointerCasts());
      if (Holder && holdsReadOnlyAddress(Holder))
        continue;
      return nullptr;
    }
    if (!SI || SI->getPointerOperand() != AI || Only)
      return nullptr;
    Only = SI;
  }
  return Only ? Only->getValueOperand() : nullptr;
}

/// The local variable a pointer operand names: the alloca itself, or the
/// value of a local stored once that holds its address.
static Value *localAddress(Value *Ptr) {
  for (unsigned Depth = 0; Depth < 4; ++Depth) {
    Ptr = Ptr->stripPointerCasts();
    auto *LI = dyn_cast<LoadInst>(Ptr);
    if (!LI)
      return Ptr;
    Value *Stored = onlyStoredValue(LI->getPointerOperand());
    if (!Stored)
      return Ptr;
    Ptr = Stored;
  }
  return Ptr;
}

/// The function a request's first argument names, through casts, aliases,
/// constant globals holding the pointer and local variables stored once.
static Function *resolveFunction(Value *V, unsigned Nesting = 0) {
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    V = V->stripPointerCasts();
    if (auto *F = dyn_cast<Function>(V))
      return F;
    if (auto *GA = dyn_cast<GlobalAlias>(V)) {
      V = GA->getAliasee();
      continue;
    }
    if (auto *LI = dyn_cast<LoadInst>(V))
      if (Value *Stored =
              onlyStoredValue(localAddress(LI->getPointerOperand()))) {
        V = Stored;
        continue;
      }
    // A call whose every return gives the same function: a captureless
    // lambda's conversion to a function pointer (`+[](double x) {...}`).
    if (auto *Call = dyn_cast<CallBase>(V))
      if (Function *Callee = Call->getCalledFunction();
          Callee && !Callee->isDeclaration() && Nesting < 4) {
        Function *Same = nullptr;
        bool Agree = true;
        for (BasicBlock &BB : *Callee)
          if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator())) {
            Function *Given =
                Ret->getReturnValue()
                    ? resolveFunction(Ret->getReturnValue(), Nesting + 1)
                    : nullptr;
            Agree &= Given && (!Same || Same == Given);
            Same = Given;
          }
        if (Agree && Same)
          return Same;
      }
    if (auto *LI = dyn_cast<LoadInst>(V))
      if (auto *GV = dyn_cast<GlobalVariable>(
              LI->getPointerOperand()->stripPointerCasts()))
        if (GV->isConstant() && GV->hasDefinitiveInitializer()) {
          V = GV->getInitializer();
          continue;
        }
    return nullptr;
  }
  return nullptr;
}

/// The constant an integer argument holds, as -O0 code passes it too: through
/// integer casts, a local variable stored once (`const int w = 4;`) or a
/// constant global; null if it is not a constant.
static Constant *constantValue(Value *V) {
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    if (auto *C = dyn_cast<Constant>(V))
      return C;
    if (auto *CI = dyn_cast<CastInst>(V)) {
      if (!CI->getType()->isIntegerTy() ||
          !CI->getOperand(0)->getType()->isIntegerTy())
        return nullptr;
      Constant *Op = constantValue(CI->getOperand(0));
      return Op ? ConstantFoldIntegerCast(Op, CI->getType(), isa<SExtInst>(CI),
                                          CI->getModule()->getDataLayout())
                : nullptr;
    }
    auto *LI = dyn_cast<LoadInst>(V);
    if (!LI || LI->isVolatile())
      return nullptr;
    if (Value *Stored = onlyStoredValue(LI->getPointerOperand())) {
      V = Stored;
      continue;
    }
    auto *GV =
        dyn_cast<GlobalVariable>(LI->getPointerOperand()->stripPointerCasts());
    if (!GV || !GV->isConstant() || !GV->hasDefinitiveInitializer() ||
        GV->getValueType() != LI->getType())
      return nullptr;
    V = GV->getInitializer();
  }
  return nullptr;
}

StringRef entryPointName(const CallBase &CB) {
  StringRef N = CB.getCalledOperand()->stripPointerCasts()->getName();
  // A C++ declaration (a template such as enzyme's): its mangled name
  // holds the identifier after its length, e.g. "17__enzyme_autodiffI...".
  if (!N.starts_with("_Z"))
    return N;
  size_t At = N.find("__enzyme_");
  if (At == StringRef::npos)
    At = N.find("__tapestry_");
  size_t Digits = At;
  while (Digits != StringRef::npos && Digits > 0 && isDigit(N[Digits - 1]))
    --Digits;
  unsigned Length = 0;
  if (At == StringRef::npos || Digits == At ||
      N.substr(Digits, At - Digits).getAsInteger(10, Length) ||
      At + Length > N.size())
    return N;
  return N.substr(At, Length);
}

Function *requestTarget(CallBase &CB) {
  unsigned First = CB.hasStructRetAttr() ? 1 : 0;
  if (CB.arg_size() <= First)
    return nullptr;
  return resolveFunction(CB.getArgOperand(First));
}

/// Forward mode for __enzyme_fwddiff, __enzyme_fwdsplit and
/// __enzyme_error_estimate (whose tangents are error estimates).
static DiffMode modeOf(EntryPoint Kind) {
  return Kind == EntryPoint::ForwardDiff || Kind == EntryPoint::ForwardSplit ||
                 Kind == EntryPoint::ErrorEstimate
             ? DiffMode::Forward
             : DiffMode::Reverse;
}

namespace {

class Decoder {
public:
  Decoder(CallBase &CB, EntryPoint Kind, bool DryRun = false,
          const CustomRules *Rules = nullptr)
      : CB(CB), Rules(Rules), DryRun(DryRun), Mode(modeOf(Kind)), Kind(Kind),
        Split(isSplitEntryPoint(Kind)),
        FwdSplit(Kind == EntryPoint::ForwardSplit),
        MarkersOnly(Kind == EntryPoint::AugmentSize ||
                    Kind == EntryPoint::Thunk),
        B(&CB) {}

  std::optional<DecodedCall> run();

private:
  /// True if the user registered a derivative of \p F for this request's
  /// mode (a gradient for reverse and split mode, a derivative for forward).
  bool hasRegisteredRule(const Function &F) const {
    if (!Rules || FwdSplit)
      return false;
    return Mode == DiffMode::Forward ? Rules->forwardDerivative(&F) != nullptr
                                     : Rules->gradient(&F) != nullptr;
  }
  /// An internal function of F's type that only calls F.
  static Function &callerOfRegistered(Function &F) {
    Module &M = *F.getParent();
    std::string Name = (F.getName() + ".tapestry.registered").str();
    if (Function *W = M.getFunction(Name))
      return *W;
    Function *W = Function::Create(F.getFunctionType(),
                                   GlobalValue::InternalLinkage, Name, M);
    // The same parameters (byval, sret...) and convention as F's.
    AttributeList Params = F.getAttributes().removeFnAttributes(M.getContext());
    W->setAttributes(Params);
    W->setCallingConv(F.getCallingConv());
    IRBuilder<> WB(BasicBlock::Create(M.getContext(), "entry", W));
    SmallVector<Value *, 8> Args;
    for (Argument &A : W->args())
      Args.push_back(&A);
    CallInst *Call = WB.CreateCall(&F, Args);
    Call->setAttributes(Params);
    Call->setCallingConv(F.getCallingConv());
    if (W->getReturnType()->isVoidTy())
      WB.CreateRetVoid();
    else
      WB.CreateRet(Call);
    return *W;
  }

  /// Records an error; run() reports them at the call when decoding ends
  /// (or, if a struct value passed in pieces explains them, that instead).
  bool error(const Twine &Msg) {
    Failed = true;
    if (!DryRun)
      Errors.push_back(Msg.str());
    return false;
  }
  std::optional<DecodedCall> decode();
  StringRef entryName() const { return entryPointName(CB); }
  /// Converts a call-site value to the parameter type, as a C call would.
  Value *convert(Value *V, Type *To, unsigned ParamNo, StringRef What);
  bool decodeParam(unsigned ParamNo, std::optional<Activity> Marked,
                   bool Strided);
  /// Reads the constant after enzyme_width.
  bool decodeWidth(unsigned MarkerPos);
  /// " (with enzyme_width N, ...)": how batch mode counts shadows, for
  /// messages about miscounted arguments.
  std::string batchHint() const;
  /// A split-mode marker at the current position (its operands consumed);
  /// false if \p M is not one.
  bool decodeSplitMarker(StringRef M);
  /// The values after the parameters: the reverse's seed and tape.
  bool decodeSplitTail();
  /// __enzyme_fwdsplit: the tape after the parameters.
  bool decodeForwardSplitTail();
  /// A marker that applies to the whole request (its operands consumed);
  /// false if \p M is not one.
  bool decodeRequestMarker(StringRef M, bool &ConstReturn);
  /// Finds enzyme_interleave: the primal values end there and the shadows
  /// follow it, in the same order.
  bool findInterleave();
  /// The next argument, which must be a value, for \p What.
  Value *nextValue(const Twine &What);

  // Structs passed by value (StructArguments.h).
  /// The struct parameter of Fn that IR parameter \p ParamNo belongs to.
  const AbiStruct *structParamOf(unsigned ParamNo) const;
  /// Decodes struct parameter \p S when the call passes a struct value
  /// there in its source spelling; sets \p Handled if it did (else the
  /// pieces are decoded one by one, as Enzyme does).
  bool decodeStructParam(const AbiStruct &S, std::optional<Activity> Marked,
                         bool Strided, bool &Handled);
  /// Every struct value the call passes in pieces must give all its pieces
  /// the same role (values, or tangents/shadows) of consecutive parameters:
  /// the message saying how one does not, if one does not.
  std::optional<std::string> structMisalignment() const;
  /// A struct returned in registers (an IR literal struct with a
  /// floating-point member): forward mode returns its tangent, a struct of
  /// the same type; reverse mode has no seed for it.
  void decodeStructReturn(Type *RetTy);
  /// Markers without values (__tapestry_thunk, __enzyme_augmentsize) apply
  /// to the ABI's pieces: one marker per source parameter, when a struct is
  /// split, means something else than it says.
  void checkMarkersOnlyStructs();
  /// What role \p Role of parameter \p ParamNo is, for messages.
  std::string roleName(unsigned ParamNo, unsigned Role) const;
  /// A copy of the struct at \p Ptr (of type \p Ty), made before the call:
  /// what a byval parameter receives.
  Value *copyByVal(Value *Ptr, Type *Ty);
  /// Records that operand \p OpNo is the value (\p Role 0) or shadow
  /// Role - 1 of parameter \p ParamNo.
  void noteRole(unsigned OpNo, unsigned ParamNo, unsigned Role) {
    Roles[OpNo] = {ParamNo, Role};
  }

  CallBase &CB;
  /// Decode without reporting errors or inserting conversions.
  /// Derivatives the user registered (null: none known).
  const CustomRules *Rules;
  bool DryRun;
  DiffMode Mode;
  EntryPoint Kind;
  bool Split;
  /// __enzyme_fwdsplit: forward mode with the tape of an augmented forward.
  bool FwdSplit;
  /// One past the last operand that can be a primal value or marker:
  /// enzyme_interleave's position, else the number of operands.
  unsigned PrimalEnd = 0;
  /// With enzyme_interleave: the next shadow operand.
  std::optional<unsigned> ShadowNext;
  /// With enzyme_interleave, an unmarked parameter takes the activity of
  /// the one before it (Enzyme's rule; enzyme_dup for the first).
  Activity LastActivity = Activity::Dup;
  /// __enzyme_augmentsize and thunks name activities without values.
  bool MarkersOnly;
  IRBuilder<> B;
  DecodedCall Out;
  Function *Fn = nullptr;
  unsigned Next = 0;
  unsigned Width = 1;
  bool Failed = false;
  /// Fn's parameters that are structs passed by value.
  SmallVector<AbiStruct, 4> StructParams;
  /// Call operands consumed as values or shadows: (parameter, role).
  DenseMap<unsigned, std::pair<unsigned, unsigned>> Roles;
  /// Parameters decoded piece by piece whose activity a marker gave.
  SmallVector<unsigned, 8> MarkedParams;
  /// Call operands decoded as whole struct values (their pieces together).
  SmallVector<unsigned, 4> WholeValues;
  SmallVector<std::string, 2> Errors;
};

} // namespace

Value *Decoder::convert(Value *V, Type *To, unsigned ParamNo, StringRef What) {
  Type *From = V->getType();
  if (From == To || DryRun)
    return V;
  if (From->isFloatingPointTy() && To->isFloatingPointTy())
    return B.CreateFPCast(V, To);
  if (From->isIntegerTy() && To->isIntegerTy())
    return B.CreateSExtOrTrunc(V, To);
  if (From->isPointerTy() && To->isPointerTy())
    return B.CreatePointerCast(V, To);
  error("the " + What + " passed for parameter " + Twine(ParamNo + 1) +
        " of '" + sourceIdentifier(*Fn) + "' has type " + describe(From) +
        " but the parameter has type " + describe(To) + batchHint());
  return nullptr;
}

std::string Decoder::batchHint() const {
  if (Width == 1)
    return "";
  return (" (with enzyme_width " + Twine(Width) +
          ", enzyme_dup is followed by the value and " + Twine(Width) +
          " shadows, enzyme_dupv by the stride, the value and one shadow)")
      .str();
}

bool Decoder::decodeWidth(unsigned MarkerPos) {
  unsigned First = Out.SRet ? 1 : 0;
  if (MarkerPos != First + 1)
    return error("enzyme_width must come first, right after the function "
                 "to differentiate, in the call to " +
                 entryName());
  if (Next >= CB.arg_size())
    return error("enzyme_width must be followed by the batch width, a "
                 "compile-time constant integer");
  Value *V = CB.getArgOperand(Next++);
  auto *C = dyn_cast_or_null<ConstantInt>(constantValue(V));
  if (!C)
    return error("the batch width after enzyme_width must be a compile-time "
                 "constant integer; got '" +
                 describe(V) + "'");
  if (C->isNegative() || C->isZero() || C->getZExtValue() > MaxBatchWidth)
    return error("the batch width after enzyme_width must be between 1 and " +
                 Twine(MaxBatchWidth) + "; got " + Twine(C->getSExtValue()));
  Width = C->getZExtValue();
  Out.Request.Width = Width;
  return true;
}

bool Decoder::decodeParam(unsigned ParamNo, std::optional<Activity> Marked,
                          bool Strided) {
  Type *T = Fn->getFunctionType()->getParamType(ParamNo);
  bool IsFP = T->isFPOrFPVectorTy();
  Activity A;
  if (Marked) {
    A = *Marked;
  } else if (ShadowNext) {
    A = LastActivity;
  } else if (T->isPointerTy()) {
    A = Activity::Dup;
  } else if (IsFP) {
    A = Mode == DiffMode::Reverse ? Activity::Active : Activity::Dup;
  } else {
    A = Activity::Const;
  }
  // With debug information, and where IR parameters are the source's (no
  // struct the ABI split or passed in memory), the parameter's name and
  // type as declared.
  SourceParameter SP;
  if (Fn->getSubprogram() && StructParams.empty())
    SP = sourceParameter(*Fn, ParamNo);
  std::string Param = ("parameter " + Twine(ParamNo + 1) +
                       (SP.Name.empty() ? "" : " '" + SP.Name + "'") + " of '" +
                       sourceIdentifier(*Fn) + "' (" +
                       (SP.Type.empty() ? describe(T) : SP.Type) + ")")
                          .str();
  if (const AbiStruct *S = structParamOf(ParamNo)) {
    if (S->ByVal)
      Param += ", which is " + S->describe() +
               " passed by value in memory (the C ABI passes a pointer to a "
               "copy)";
    else if (S->Count > 1)
      Param += ", piece " + std::to_string(ParamNo - S->First + 1) + " of " +
               std::to_string(S->Count) + " of " + S->describe() +
               ", which the C ABI passes by value as " +
               std::to_string(S->Count) + " values";
    else if (!T->isFPOrFPVectorTy())
      Param += ", which is " + S->describe() +
               " that the C ABI passes by value as one " + describe(T);
  }
  if (Fn->hasParamAttribute(ParamNo, Attribute::StructRet))
    Param += ", the memory its class or struct result is returned in (pass "
             "a result object and its shadow as enzyme_dup first, or return "
             "a floating-point value)";
  if (A == Activity::Active && Mode == DiffMode::Forward)
    return error("enzyme_out is not valid in forward mode (" + entryName() +
                 "); pass " + Param + " as enzyme_dup followed by its " +
                 (Kind == EntryPoint::ErrorEstimate
                      ? "error (0.0 for an exact input)"
                      : "tangent"));
  if (A == Activity::Active && !IsFP)
    return error("enzyme_out marks an active floating-point value, but " +
                 Param +
                 " is not one; use enzyme_dup with a shadow for "
                 "pointers or enzyme_const");
  if ((A == Activity::Dup || A == Activity::DupNoNeed) && !T->isPointerTy() &&
      !(IsFP && Mode == DiffMode::Forward))
    return error(activityName(A) +
                 " needs a pointer (or, in forward mode, a "
                 "floating-point value with its tangent), "
                 "but " +
                 Param + " is neither; use " +
                 (IsFP ? "enzyme_out" : "enzyme_const"));
  StringRef MarkerShown =
      Strided ? (A == Activity::Dup ? "enzyme_dupv" : "enzyme_dupnoneedv")
              : activityName(A);
  if (Strided && !T->isPointerTy())
    return error(MarkerShown +
                 " (a strided batch of shadows) needs a pointer, but " + Param +
                 " is not one; use enzyme_dup followed by the value "
                 "and its " +
                 Twine(Width) + " tangents");

  if (MarkersOnly) {
    Out.Request.Args.push_back(A);
    Out.Primals.push_back(nullptr);
    Out.Shadows.push_back(nullptr);
    return true;
  }
  LastActivity = A;
  unsigned NumArgs = CB.arg_size();
  unsigned NumValues = PrimalEnd;
  Value *Stride = nullptr;
  if (Strided) {
    if (Next >= NumValues)
      return error("too few arguments: " + MarkerShown + " on " + Param +
                   " must be followed by the byte stride, the value and the "
                   "first shadow");
    Stride = CB.getArgOperand(Next++);
    if (!markerName(Stride).empty() || !Stride->getType()->isIntegerTy())
      return error("expected the byte stride between the shadows of " + Param +
                   " after " + MarkerShown + " but found '" + describe(Stride) +
                   "'");
  }
  if (Next >= NumValues)
    return error("too few arguments: '" + sourceIdentifier(*Fn) + "' takes " +
                 Twine(Fn->arg_size()) + " parameters but the call to " +
                 entryName() + " ends before the value of parameter " +
                 Twine(ParamNo + 1) + batchHint());
  Value *Primal = CB.getArgOperand(Next++);
  if (!markerName(Primal).empty())
    return error("expected the value of " + Param + " but found the marker " +
                 markerName(Primal) + batchHint());
  noteRole(Next - 1, ParamNo, 0);
  bool ParamByVal = Fn->hasParamAttribute(ParamNo, Attribute::ByVal);
  // A struct passed by value in memory: the function gets its own copy.
  auto Copied = [&](Value *V, unsigned OpNo) {
    return ParamByVal && CB.paramHasAttr(OpNo, Attribute::ByVal)
               ? copyByVal(V, Fn->getParamByValType(ParamNo))
               : V;
  };
  Value *P = convert(Primal, T, ParamNo, "value");
  if (!P)
    return false;
  P = Copied(P, Next - 1);
  SmallVector<Value *, 8> Lanes;
  bool HasShadow = A == Activity::Dup || A == Activity::DupNoNeed;
  unsigned NumShadows = !HasShadow ? 0 : Strided ? 1 : Width;
  StringRef ShadowWord = Mode == DiffMode::Forward ? "tangent" : "shadow";
  // With enzyme_interleave the shadows come after it, in parameter order.
  unsigned &SNext = ShadowNext ? *ShadowNext : Next;
  for (unsigned K = 0; K < NumShadows; ++K) {
    if (SNext >= NumArgs) {
      if (Width == 1)
        return error("too few arguments: " + activityName(A) + " on " + Param +
                     " must be followed by the value and its " + ShadowWord);
      return error("too few arguments: " + MarkerShown + " on " + Param +
                   " must be followed by the value and " +
                   (Strided ? Twine("the first shadow")
                            : Twine(Width) + " " + ShadowWord +
                                  "s (enzyme_width " + Twine(Width) +
                                  "); the call ends after " + Twine(K)));
    }
    Value *Shadow = CB.getArgOperand(SNext++);
    if (!markerName(Shadow).empty()) {
      if (Width == 1)
        return error("expected the shadow of " + Param +
                     " but found the marker " + markerName(Shadow));
      return error("expected " + ShadowWord + " " + Twine(K + 1) + " of " +
                   Twine(NumShadows) + " of " + Param +
                   " but found the marker " + markerName(Shadow) + batchHint());
    }
    noteRole(SNext - 1, ParamNo, K + 1);
    if (ParamByVal && Mode == DiffMode::Reverse &&
        CB.paramHasAttr(SNext - 1, Attribute::ByVal))
      return error("the shadow of " + Param +
                   " is a struct passed by value: the adjoint would be "
                   "accumulated into a copy of it and lost; pass pointers "
                   "(enzyme_dup, &v, &dv), or write enzyme_out, v to get "
                   "the adjoint returned");
    Value *S = convert(Shadow, T, ParamNo, ShadowWord);
    if (!S)
      return false;
    Lanes.push_back(Copied(S, SNext - 1));
  }
  if (Strided) {
    // Shadow k is at base + k * stride bytes.
    Value *Step = B.CreateSExtOrTrunc(Stride, B.getInt64Ty());
    for (unsigned K = 1; K < Width; ++K)
      Lanes.push_back(B.CreateGEP(B.getInt8Ty(), Lanes.front(),
                                  B.CreateMul(Step, B.getInt64(K)),
                                  "shadow.lane"));
  }
  if (Marked)
    MarkedParams.push_back(ParamNo);
  Out.Request.Args.push_back(A);
  Out.Primals.push_back(P);
  Out.Shadows.push_back(Lanes.empty() ? nullptr : gatherLanes(B, T, Lanes));
  return true;
}

/// What the user passed where a function belongs, in source terms.
static std::string describeFirstArgument(const Value *V) {
  if (auto *GV = dyn_cast<GlobalVariable>(V->stripPointerCasts()))
    return "the " + std::string(GV->isConstant() ? "constant " : "") +
           "data object '" + describe(GV) + "'";
  if (auto *CE = dyn_cast<ConstantExpr>(V))
    if (CE->getOpcode() == Instruction::IntToPtr)
      return "an integer cast to a pointer";
  return describe(V);
}

std::optional<DecodedCall> Decoder::run() {
  std::optional<DecodedCall> R = decode();
  if (MarkersOnly && Fn && !Failed)
    checkMarkersOnlyStructs();
  // A struct value whose pieces went to different roles explains whatever
  // else went wrong: report that alone.
  if (!MarkersOnly && Fn)
    if (std::optional<std::string> Msg = structMisalignment()) {
      Failed = true;
      Errors.assign(1, *Msg);
    }
  if (!Failed)
    return R;
  for (const std::string &Msg : Errors)
    reportError(*CB.getFunction(), &CB, Msg);
  return std::nullopt;
}

std::optional<DecodedCall> Decoder::decode() {
  unsigned First = 0;
  if (CB.hasStructRetAttr()) {
    Out.SRet = CB.getArgOperand(0);
    First = 1;
  }
  if (CB.arg_size() <= First) {
    error("the call to " + entryName() +
          " needs the function to differentiate as its first argument");
    return std::nullopt;
  }
  Value *FnArg = CB.getArgOperand(First);
  Fn = resolveFunction(FnArg);
  if (!Fn) {
    error("the first argument of " + entryName() +
          " must be a function, e.g. (void *)f; got " +
          describeFirstArgument(FnArg) +
          (FnArg->getType()->isPointerTy() && !isa<Constant>(FnArg)
               ? ", a function pointer whose value is known only at run "
                 "time: name the function itself at the request"
               : ""));
    return std::nullopt;
  }
  if (Fn->isDeclaration() && !hasRegisteredRule(*Fn)) {
    if (isThinLTOPreLink(*CB.getModule())) {
      error("'" + sourceIdentifier(*Fn) +
            "' has no body in this translation unit, and ThinLTO "
            "(-flto=thin) optimises each file on its own, so its derivative "
            "cannot be synthesised at link time either; compile and link "
            "with full LTO instead (-flto, and link with -flto -fuse-ld=lld "
            "-Wl,--load-pass-plugin=<the Tapestry plugin>), define it here, "
            "or register a derivative for it");
      return std::nullopt;
    }
    error("'" + sourceIdentifier(*Fn) +
          "' has no body in this translation unit, so its derivative cannot "
          "be synthesised; define it here, register a derivative for it, or "
          "compile every file with -flto and link with -flto "
          "-fuse-ld=lld -Wl,--load-pass-plugin=<the Tapestry plugin>");
    return std::nullopt;
  }
  if (Fn->isVarArg()) {
    error("'" + sourceIdentifier(*Fn) +
          "' is variadic; variadic functions cannot be "
          "differentiated");
    return std::nullopt;
  }
  Out.Request.Fn = Fn;
  Out.Request.Mode = Mode;
  // The user's registered derivative of Fn serves a request for Fn itself
  // as it serves calls of Fn: differentiate a function that calls it.
  if (hasRegisteredRule(*Fn) && !DryRun)
    Out.Request.Fn = &callerOfRegistered(*Fn);
  Out.Request.ErrorEstimate = Kind == EntryPoint::ErrorEstimate;
  // Enzyme calls these per operation when the program defines them (their
  // signature changed between Enzyme versions); a program counting on
  // them would silently see no calls.
  for (StringRef Logger : {"enzymeLogError", "enzymeLogValue"})
    if (const Function *L = CB.getModule()->getFunction(Logger);
        L && Kind == EntryPoint::ErrorEstimate && !L->isDeclaration())
      error("this program defines " + Logger +
            ", the per-operation logger Enzyme calls during " + entryName() +
            "; Tapestry does not call it (it returns the error estimate "
            "only): remove or rename it");
  StructParams = structParams(*Fn);
  Next = First + 1;
  PrimalEnd = CB.arg_size();
  if (!findInterleave())
    return std::nullopt;
  bool ConstReturn = false;
  for (unsigned ParamNo = 0; ParamNo < Fn->arg_size() && !Failed;) {
    std::optional<Activity> Marked;
    bool Strided = false;
    // Markers that apply to the whole request may come before any value.
    while (Next < PrimalEnd) {
      StringRef M = markerName(CB.getArgOperand(Next));
      if (M.empty())
        break;
      std::optional<Activity> Act =
          StringSwitch<std::optional<Activity>>(M)
              .Case("enzyme_const", Activity::Const)
              .Case("enzyme_dup", Activity::Dup)
              .Case("enzyme_dupnoneed", Activity::DupNoNeed)
              .Case("enzyme_out", Activity::Active)
              .Case("enzyme_dupv", Activity::Dup)
              .Case("enzyme_dupnoneedv", Activity::DupNoNeed)
              .Default(std::nullopt);
      unsigned MarkerPos = Next++;
      if (Act) {
        if (Marked)
          error("two activity markers in a row before parameter " +
                Twine(ParamNo + 1) + " of '" + sourceIdentifier(*Fn) + "'");
        Marked = Act;
        Strided = M == "enzyme_dupv" || M == "enzyme_dupnoneedv";
        if (MarkersOnly)
          break; // The next marker describes the next parameter.
      } else if (M == "enzyme_width") {
        if (Kind == EntryPoint::ErrorEstimate)
          error("batch mode (enzyme_width) is not supported with " +
                entryName() +
                ", which propagates one error per value; make one call per "
                "set of input errors");
        else if (Split || FwdSplit)
          error("batch mode (enzyme_width) is not supported in split mode "
                "yet; use __enzyme_autodiff or __enzyme_fwddiff with "
                "enzyme_width");
        else
          decodeWidth(MarkerPos);
      } else if (decodeRequestMarker(M, ConstReturn) || decodeSplitMarker(M)) {
      } else if (M == "enzyme_vector" || M == "enzyme_scalar") {
        error(M +
              " marks an argument of __enzyme_batch (one value per lane, "
              "or one shared by all lanes); it is not valid in " +
              entryName() +
              "; there, enzyme_width N with enzyme_dup takes N shadows");
      } else if (markerKind(M)) {
        // In Markers.def but decoded nowhere above: the table and the
        // decoder disagree.
        error("internal error: the marker '" + M +
              "' is listed in Markers.def but not decoded; please report "
              "this");
      } else {
        error("unknown marker '" + M + "' in the call to " + entryName() +
              "; Tapestry knows " + knownMarkerList());
      }
    }
    if (Failed)
      break;
    if (const AbiStruct *S = structParamOf(ParamNo);
        S && S->First == ParamNo && !ShadowNext) {
      bool Handled = false;
      if (!decodeStructParam(*S, Marked, Strided, Handled))
        break;
      if (Handled) {
        ParamNo += S->Count;
        continue;
      }
    }
    if (!decodeParam(ParamNo, Marked, Strided))
      break;
    ++ParamNo;
  }
  // Trailing request-wide markers (with enzyme_interleave: before it, and
  // after the shadows).
  auto TrailingMarkers = [&](unsigned End) {
    while (!Failed && Next < End) {
      StringRef M = markerName(CB.getArgOperand(Next));
      if (M.empty())
        break;
      ++Next;
      if (!decodeRequestMarker(M, ConstReturn) && !decodeSplitMarker(M)) {
        --Next;
        break;
      }
    }
  };
  TrailingMarkers(PrimalEnd);
  if (ShadowNext && !Failed) {
    if (Next < PrimalEnd)
      error("too many arguments before enzyme_interleave: '" +
            sourceIdentifier(*Fn) + "' takes " + Twine(Fn->arg_size()) +
            " parameters but the call to " + entryName() + " passes " +
            Twine(PrimalEnd - Next) + " more value(s) than they need");
    Next = *ShadowNext;
    TrailingMarkers(CB.arg_size());
  }
  Type *RetTy = Fn->getReturnType();
  Out.Request.ReturnActive = !ConstReturn && RetTy->isFPOrFPVectorTy();
  if (!Failed && !ConstReturn)
    decodeStructReturn(RetTy);
  if (Split) {
    // The augmented forward always returns the primal result; the reverse
    // never does.
    Out.Request.Split = true;
    Out.Request.ReturnPrimal = false;
    if (!Failed && Kind == EntryPoint::SplitReverse)
      decodeSplitTail();
  }
  if (FwdSplit && !Failed)
    decodeForwardSplitTail();
  if (!Failed && Next < CB.arg_size())
    error("too many arguments: '" + sourceIdentifier(*Fn) + "' takes " +
          Twine(Fn->arg_size()) + " parameters but the call to " + entryName() +
          " passes " + Twine(CB.arg_size() - Next) +
          " more value(s) than they need" + batchHint());
  if (Failed)
    return std::nullopt;
  return Out; // a copy: run() still reads Out
}

const AbiStruct *Decoder::structParamOf(unsigned ParamNo) const {
  for (const AbiStruct &S : StructParams)
    if (ParamNo >= S.First && ParamNo < S.First + S.Count)
      return &S;
  return nullptr;
}

Value *Decoder::copyByVal(Value *Ptr, Type *Ty) {
  if (DryRun)
    return Ptr;
  Function &F = *CB.getFunction();
  const DataLayout &DL = F.getDataLayout();
  IRBuilder<> EB(&F.getEntryBlock(), F.getEntryBlock().begin());
  AllocaInst *Copy = EB.CreateAlloca(Ty, nullptr, "tapestry.byval");
  Align A = DL.getPrefTypeAlign(Ty);
  Copy->setAlignment(A);
  B.CreateMemCpy(Copy, A, Ptr, DL.getABITypeAlign(Ty), DL.getTypeAllocSize(Ty));
  return Copy;
}

/// Struct value \p V spelled member by member, each after \p Marker and
/// followed by its shadow if \p WithShadow ("enzyme_dup, v.a, dv.a,
/// enzyme_dup, v.b, dv.b"), or "" if that is not a spelling that lines up
/// (debug info does not name the members, or one piece holds several).
static std::string memberSpelling(const AbiStruct &V, StringRef Name,
                                  StringRef Marker, bool WithShadow) {
  if (V.Members.size() != V.Count || Name.empty())
    return "";
  std::string S;
  for (const std::string &M : V.Members) {
    if (M.empty())
      return "";
    S += (S.empty() ? "" : ", ") + (Marker + ", " + Name + "." + M).str();
    if (WithShadow)
      S += (", d" + Name + "." + M).str();
  }
  return S;
}

bool Decoder::decodeStructParam(const AbiStruct &S,
                                std::optional<Activity> Marked, bool Strided,
                                bool &Handled) {
  if (MarkersOnly)
    return true;
  std::optional<AbiStruct> V = structValueAt(CB, Next);
  // The caller's name for the struct, if known, else the parameter's.
  std::string Name = V && !V->Name.empty() ? V->Name
                     : S.Name.empty()      ? "v"
                                           : S.Name;
  std::string What = "parameter " + std::to_string(S.First + 1) + " of '" +
                     sourceIdentifier(*Fn) + "', " + S.describe();
  FunctionType *FT = Fn->getFunctionType();
  bool Whole = V && V->ByVal == S.ByVal && V->Count == S.Count;
  for (unsigned I = 0; Whole && I < S.Count; ++I)
    Whole =
        CB.getArgOperand(Next + I)->getType() == FT->getParamType(S.First + I);
  if (!Whole)
    return true; // piece by piece, as Enzyme reads it
  if (S.ByVal) {
    // The struct spelled by value, passed in memory.
    if (Mode == DiffMode::Forward)
      return true; // enzyme_dup, v, dv or enzyme_const, v: copies suffice
    Activity A = Marked.value_or(Activity::Active);
    if (A == Activity::Dup || A == Activity::DupNoNeed)
      return error(activityName(A) + " on " + What +
                   ", which the C ABI passes by value in memory: its adjoint "
                   "would be accumulated into a copy of the shadow and lost; "
                   "write enzyme_out, " +
                   Name + " to get its adjoint returned (as a " +
                   (S.TypeName.empty() ? "struct" : S.TypeName) +
                   "), or pass pointers: enzyme_dup, &" + Name + ", &d" + Name);
    if (A == Activity::Const)
      return true;
    if (Split || Width != 1)
      return error("enzyme_out on " + What +
                   ", passed by value in memory, is not supported in " +
                   (Split ? "split mode" : "batch mode") +
                   "; pass pointers instead: enzyme_dup, &" + Name + ", &d" +
                   Name);
    // Active: differentiate with a zeroed shadow and return what it holds.
    Value *Primal = CB.getArgOperand(Next++);
    noteRole(Next - 1, S.First, 0);
    WholeValues.push_back(Next - 1);
    Type *Ty = Fn->getParamByValType(S.First);
    Value *Shadow = Primal;
    if (!DryRun) {
      Function &F = *CB.getFunction();
      const DataLayout &DL = F.getDataLayout();
      IRBuilder<> EB(&F.getEntryBlock(), F.getEntryBlock().begin());
      AllocaInst *Buf = EB.CreateAlloca(Ty, nullptr, "tapestry.adjoint");
      Buf->setAlignment(DL.getPrefTypeAlign(Ty));
      B.CreateMemSet(Buf, B.getInt8(0), DL.getTypeAllocSize(Ty),
                     Buf->getAlign());
      Shadow = Buf;
      Primal = copyByVal(Primal, Ty);
    }
    Out.Request.Args.push_back(Activity::Dup);
    Out.Primals.push_back(Primal);
    Out.Shadows.push_back(Shadow);
    Out.ByValAdjoints.push_back({S.First, Shadow, Ty});
    Handled = true;
    return true;
  }
  if (S.Count < 2)
    return true; // one piece: the markers line up already
  std::string Members = memberSpelling(S, Name, "enzyme_dup", true);
  std::string PieceSpelling =
      Members.empty() ? ""
                      : ", or each member after its own marker: " + Members;
  bool AnyFloat = false;
  for (unsigned I = 0; I < S.Count; ++I)
    AnyFloat |= FT->getParamType(S.First + I)->isFPOrFPVectorTy();
  std::optional<Activity> A = Marked;
  if (!A && Mode == DiffMode::Reverse)
    A = Activity::Active; // per piece: floating point active, others constant
  if (!A) {
    // Forward mode without a marker: enzyme_dup if tangents follow.
    std::optional<AbiStruct> T = structValueAt(CB, Next + S.Count);
    if (!T || T->ByVal || T->Count != S.Count)
      return true;
    A = Activity::Dup;
  }
  if (*A == Activity::Active && Mode == DiffMode::Forward)
    return true; // decodeParam says enzyme_out is for reverse mode
  if (*A != Activity::Const && !S.HiddenFloat.empty())
    return error(What + " is passed by value as " + Twine(S.Count) +
                 " values, and the C ABI packs its floating-point member '" +
                 S.HiddenFloat +
                 "' with integer members into an integer register, where "
                 "its derivative cannot be followed; change '" +
                 sourceIdentifier(*Fn) +
                 "' to take a pointer to the struct (then pass enzyme_dup, &" +
                 Name + ", &d" + Name + ") or mark it enzyme_const");
  if (*A == Activity::Active && !AnyFloat)
    return error("enzyme_out marks active floating-point values, but " + What +
                 " has no floating-point member the C ABI passes as one");
  if (*A == Activity::Active && Width != 1)
    // Each piece's adjoint would come back as its lanes, piece after piece,
    // not as one struct per lane.
    return error("enzyme_out on " + What +
                 ", which the C ABI passes by "
                 "value as " +
                 Twine(S.Count) +
                 " values, is not supported in batch mode (enzyme_width); "
                 "request one lane at a time, or change '" +
                 sourceIdentifier(*Fn) +
                 "' to take a pointer to the struct (then enzyme_dup with "
                 "one shadow per lane)");
  bool HasShadow = *A == Activity::Dup || *A == Activity::DupNoNeed;
  if (HasShadow && Mode == DiffMode::Reverse)
    return error(activityName(*A) + " on " + What +
                 ", which the C ABI passes by value as " + Twine(S.Count) +
                 " values: in reverse mode write enzyme_out, " + Name +
                 " to get its adjoint returned (a struct of the same type), "
                 "or change '" +
                 sourceIdentifier(*Fn) +
                 "' to take a pointer and pass enzyme_dup, &" + Name + ", &d" +
                 Name);
  if (HasShadow && Strided)
    return error("enzyme_dupv on " + What +
                 ", which the C ABI passes by value as " + Twine(S.Count) +
                 " values, is not supported; pass each tangent after "
                 "enzyme_dup");
  // The values: the struct, then (with a shadow) Width tangents of its type.
  unsigned Lanes = HasShadow ? Width : 0;
  for (unsigned L = 1; L <= Lanes; ++L) {
    unsigned At = Next + L * S.Count;
    std::optional<AbiStruct> T = structValueAt(CB, At);
    bool Match = T && !T->ByVal && T->Count == S.Count;
    for (unsigned I = 0; Match && I < S.Count; ++I)
      Match =
          CB.getArgOperand(At + I)->getType() == FT->getParamType(S.First + I);
    if (!Match)
      return error(
          activityName(*A) + " on " + What +
          ", which the C ABI passes by value as " + Twine(S.Count) +
          " values, must be followed by the struct and " +
          (Width == 1 ? Twine("its tangent") : Twine(Width) + " tangents") +
          " of the same type (enzyme_dup, " + Name + ", d" + Name + ")" +
          PieceSpelling);
  }
  for (unsigned I = 0; I < S.Count; ++I) {
    unsigned ParamNo = S.First + I;
    Type *PT = FT->getParamType(ParamNo);
    bool IsFP = PT->isFPOrFPVectorTy();
    Activity PA = IsFP ? *A : Activity::Const;
    Out.Request.Args.push_back(PA);
    Out.Primals.push_back(CB.getArgOperand(Next + I));
    noteRole(Next + I, ParamNo, 0);
    SmallVector<Value *, 8> Shadows;
    for (unsigned L = 1; L <= Lanes; ++L) {
      noteRole(Next + L * S.Count + I, ParamNo, L);
      if (IsFP)
        Shadows.push_back(CB.getArgOperand(Next + L * S.Count + I));
    }
    Out.Shadows.push_back(Shadows.empty() || DryRun
                              ? (Shadows.empty() ? nullptr : Shadows.front())
                              : gatherLanes(B, PT, Shadows));
  }
  for (unsigned L = 0; L <= Lanes; ++L)
    WholeValues.push_back(Next + L * S.Count);
  Next += (Lanes + 1) * S.Count;
  Handled = true;
  return true;
}

/// "struct V2" or "a struct": the type \p F returns, as debug info names it.
static std::string returnedStructName(const Function &F) {
  if (DISubprogram *SP = F.getSubprogram())
    if (DISubroutineType *T = SP->getType())
      if (T->getTypeArray().size() > 0)
        if (DIType *R = T->getTypeArray()[0]; R && !R->getName().empty())
          return "struct " + R->getName().str();
  return "a struct";
}

void Decoder::decodeStructReturn(Type *RetTy) {
  auto *ST = dyn_cast<StructType>(RetTy);
  if (!ST || !ST->isLiteral() ||
      none_of(ST->elements(), [](Type *E) { return E->isFPOrFPVectorTy(); }))
    return;
  std::string Fun = "'" + sourceIdentifier(*Fn) + "'";
  if (any_of(ST->elements(), [](Type *E) { return !E->isFPOrFPVectorTy(); })) {
    error(Fun + " returns " + returnedStructName(*Fn) +
          " by value, which mixes floating-point and other members; the "
          "derivative of such a result is not supported: return it through a "
          "pointer parameter (enzyme_dup, &out, &dout), or add "
          "enzyme_const_return if the result is not to be differentiated");
    return;
  }
  if (Mode == DiffMode::Forward && !Split) {
    if (Width != 1) {
      error(Fun + " returns " + returnedStructName(*Fn) +
            " by value; batch mode (enzyme_width) "
            "does not return the tangents of a struct yet: request "
            "one direction at a time, or add enzyme_const_return");
      return;
    }
    Out.Request.ReturnActive = true;
    return;
  }
  error(Fun + " returns " + returnedStructName(*Fn) +
        " by value (the C ABI returns its " + Twine(ST->getNumElements()) +
        " pieces in registers), and " + entryName() +
        " has no seed for a struct: differentiate a function that "
        "returns one scalar (a member, or a weighted sum of them), use "
        "__enzyme_fwddiff (which returns the struct's tangent, a struct of "
        "the same type), or add enzyme_const_return if the result is not to "
        "be differentiated");
}

void Decoder::checkMarkersOnlyStructs() {
  unsigned Markers = 0;
  for (unsigned Op = 0; Op < CB.arg_size(); ++Op) {
    StringRef M = markerName(CB.getArgOperand(Op));
    Markers += markerKind(M) == MarkerKind::Activity;
  }
  unsigned SourceParams = Fn->arg_size();
  const AbiStruct *Split = nullptr;
  for (const AbiStruct &S : StructParams)
    if (S.Count > 1) {
      SourceParams -= S.Count - 1;
      Split = Split ? Split : &S;
    }
  if (!Split || Markers != SourceParams || Markers == Fn->arg_size())
    return;
  error("'" + sourceIdentifier(*Fn) + "' takes " + Split->describe() +
        " by value, which the C ABI passes as " + Twine(Split->Count) +
        " values, and the markers of " + entryName() +
        " apply to each of them: give one marker per value, " +
        Twine(Fn->arg_size()) + " markers rather than " + Twine(Markers) +
        " (parameters " + Twine(Split->First + 1) + " to " +
        Twine(Split->First + Split->Count) + " are the struct's pieces)");
}

std::string Decoder::roleName(unsigned ParamNo, unsigned Role) const {
  std::string P = "parameter " + std::to_string(ParamNo + 1);
  if (Role == 0)
    return "the value of " + P;
  std::string Word = Mode == DiffMode::Forward ? "tangent" : "shadow";
  if (Width == 1)
    return "the " + Word + " of " + P;
  return Word + " " + std::to_string(Role) + " of " + P;
}

std::optional<std::string> Decoder::structMisalignment() const {
  unsigned First = (Out.SRet ? 1 : 0) + 1;
  for (unsigned Op = First; Op < CB.arg_size(); ++Op) {
    if (is_contained(WholeValues, Op))
      continue;
    std::optional<AbiStruct> V = structValueAt(CB, Op);
    if (!V || V->ByVal || V->Count < 2)
      continue;
    // The roles its pieces got; consistent if the same role of
    // consecutive parameters.
    SmallVector<std::string, 4> Got;
    bool Consistent = true;
    std::optional<std::pair<unsigned, unsigned>> Prev;
    for (unsigned I = 0; I < V->Count; ++I) {
      auto It = Roles.find(Op + I);
      if (It == Roles.end()) {
        Got.push_back("left over");
        continue;
      }
      auto [ParamNo, Role] = It->second;
      Got.push_back(roleName(ParamNo, Role));
      if (Prev && (Prev->second != Role || Prev->first + 1 != ParamNo))
        Consistent = false;
      Prev = It->second;
    }
    std::string Name = V->Name.empty() ? "v" : V->Name;
    bool Fwd = Mode == DiffMode::Forward;
    auto FirstRole = Roles.find(Op);
    if (Consistent && FirstRole != Roles.end() &&
        is_contained(MarkedParams, FirstRole->second.first)) {
      // A marker before the struct applies to its first piece only: the
      // others get the default activity, which had better agree.
      unsigned P0 = FirstRole->second.first;
      FunctionType *FT = Fn->getFunctionType();
      for (unsigned I = 1; I < V->Count && Consistent; ++I) {
        unsigned P = P0 + I;
        if (P < Out.Request.Args.size() &&
            FT->getParamType(P)->isFPOrFPVectorTy() &&
            Out.Request.Args[P] != Out.Request.Args[P0])
          Consistent = false;
      }
      if (!Consistent) {
        StringRef Marker = activityName(Out.Request.Args[P0]);
        std::string Members =
            memberSpelling(*V, Name, Marker,
                           Out.Request.Args[P0] == Activity::Dup ||
                               Out.Request.Args[P0] == Activity::DupNoNeed);
        return ("the C ABI passes " + V->describe() + " as " + Twine(V->Count) +
                " values to " + entryPointName(CB) +
                ", and Enzyme's markers apply to each of them: " + Marker +
                " before it marks only the first (parameter " + Twine(P0 + 1) +
                " of '" + sourceIdentifier(*Fn) +
                "'), and the others get the default activity; mark each "
                "member after its own marker" +
                (Members.empty() ? "" : " (" + Members + ")"))
            .str();
      }
    }
    if (Consistent) {
      Op += V->Count - 1;
      continue;
    }
    std::string Msg = "the C ABI passes " + V->describe() + " as " +
                      std::to_string(V->Count) + " values to " +
                      entryPointName(CB).str() +
                      ", and Enzyme's markers apply to each of them, so its "
                      "pieces do not line up with the parameters of '" +
                      sourceIdentifier(*Fn) + "': they would be ";
    for (unsigned I = 0; I < Got.size(); ++I)
      Msg += (I ? I + 1 == Got.size() ? " and " : ", " : "") + Got[I];
    Msg += "; ";
    bool TakesStruct = false;
    for (const AbiStruct &S : StructParams)
      TakesStruct |= S.Count == V->Count && !S.ByVal;
    if (TakesStruct && Fwd)
      Msg += "pass the struct and its tangent whole (enzyme_dup, " + Name +
             ", d" + Name + ", both of type " +
             (V->TypeName.empty() ? "struct" : V->TypeName) + ") or ";
    else if (TakesStruct)
      Msg += "pass the struct whole (enzyme_out, " + Name +
             " returns its adjoint, enzyme_const, " + Name + " none) or ";
    std::string Members =
        memberSpelling(*V, Name, Fwd ? "enzyme_dup" : "enzyme_out", Fwd);
    Msg += "pass each member after its own marker" +
           (Members.empty() ? std::string() : " (" + Members + ")");
    return Msg;
  }
  return std::nullopt;
}

Value *Decoder::nextValue(const Twine &What) {
  if (Next >= CB.arg_size()) {
    error("too few arguments: the call to " + entryName() + " ends before " +
          What);
    return nullptr;
  }
  Value *V = CB.getArgOperand(Next++);
  if (!markerName(V).empty()) {
    error("expected " + What + " but found the marker " + markerName(V));
    return nullptr;
  }
  return V;
}

bool Decoder::decodeSplitMarker(StringRef M) {
  bool Known = M == "enzyme_allocated" || M == "enzyme_tape" ||
               M == "enzyme_nofree" || M == "tapestry_reusable_tape";
  if (!Known)
    return false;
  if (!Split && !(FwdSplit && M != "tapestry_reusable_tape")) {
    error(M +
          " is a split-mode marker; it is valid with __enzyme_augmentfwd, "
          "__enzyme_reverse, __enzyme_fwdsplit and __enzyme_augmentsize, not "
          "with " +
          entryName());
    return true;
  }
  if (M == "tapestry_reusable_tape") {
    Out.Request.ReusableTape = true;
  } else if (M == "enzyme_nofree") {
    Out.NoFree = true;
  } else if (MarkersOnly) {
    error(M + " takes a value, but " + entryName() +
          " takes markers only (no values)");
  } else if (M == "enzyme_allocated") {
    if (Value *N = nextValue("the byte size after enzyme_allocated")) {
      if (!N->getType()->isIntegerTy())
        error("enzyme_allocated must be followed by the tape buffer's size in "
              "bytes (an integer); got " +
              describe(N->getType()));
      else
        Out.AllocatedBytes =
            DryRun ? N : B.CreateZExtOrTrunc(N, B.getInt64Ty());
    }
  } else if (M == "enzyme_tape") {
    if (Value *Buf = nextValue("the tape buffer after enzyme_tape")) {
      if (!Buf->getType()->isPointerTy())
        error("enzyme_tape must be followed by a pointer to the tape buffer; "
              "got " +
              describe(Buf->getType()));
      else
        Out.TapeBuffer = Buf;
    }
  }
  return true;
}

bool Decoder::decodeSplitTail() {
  Type *RetTy = Fn->getReturnType();
  if (Out.Request.ReturnActive) {
    Value *Seed =
        nextValue("the seed of the return value of '" + sourceIdentifier(*Fn) +
                  "' (the reverse takes it after the arguments)");
    if (!Seed)
      return false;
    if (!Seed->getType()->isFloatingPointTy() && Seed->getType() != RetTy)
      return error("the return seed of '" + sourceIdentifier(*Fn) +
                   "' must be " + describe(RetTy) + "; got " +
                   describe(Seed->getType()));
    Out.Seed =
        Seed->getType() == RetTy || DryRun ? Seed : B.CreateFPCast(Seed, RetTy);
  }
  if ((Out.AllocatedBytes != nullptr) != (Out.TapeBuffer != nullptr))
    return error("enzyme_allocated and enzyme_tape go together: the buffer's "
                 "size and the buffer");
  if (!Out.TapeBuffer) {
    Value *Tape = nextValue("the tape returned by __enzyme_augmentfwd (the "
                            "reverse takes it last)");
    if (!Tape)
      return false;
    if (!Tape->getType()->isPointerTy())
      return error("the last argument of " + entryName() +
                   " must be the tape (a pointer) returned by "
                   "__enzyme_augmentfwd; got " +
                   describe(Tape->getType()));
    Out.Tape = Tape;
  }
  return true;
}

bool Decoder::decodeRequestMarker(StringRef M, bool &ConstReturn) {
  if (M == "enzyme_primal_return") {
    Out.Request.ReturnPrimal = true;
  } else if (M == "enzyme_const_return") {
    ConstReturn = true;
  } else if (M == "enzyme_noret") {
    // Enzyme: do not return the primal (the default here).
    Out.Request.ReturnPrimal = false;
  } else if (M == "enzyme_active_return" || M == "enzyme_dup_return") {
    // The default for a floating-point return.
  } else if (M == "enzyme_runtime_activity") {
    // Tapestry decides where activity must be tested at run time itself
    // (Analysis/RuntimeActivity.h); what it cannot do, a shadow argument
    // equal to its value, is checked at the call.
    Out.RuntimeActivity = true;
  } else if (M == "enzyme_not_overwritten" || M == "enzyme_nocache") {
    // Enzyme's promise that the next argument's memory is not overwritten
    // (between the augmented forward and the reverse, for enzyme_nocache),
    // to cache less; Tapestry decides what to cache without it, so a broken
    // promise cannot change a derivative.
  } else if (M == "enzyme_interleave") {
    // Found by findInterleave; a second one is an error there.
  } else {
    return false;
  }
  return true;
}

bool Decoder::findInterleave() {
  unsigned First = Out.SRet ? 1 : 0;
  for (unsigned I = First + 1; I < CB.arg_size(); ++I) {
    if (markerName(CB.getArgOperand(I)) != "enzyme_interleave")
      continue;
    if (ShadowNext)
      return error("enzyme_interleave appears twice in the call to " +
                   entryName() +
                   "; it comes once, between the values and "
                   "their shadows");
    if (MarkersOnly)
      return error("enzyme_interleave separates values from their shadows; " +
                   entryName() + " takes markers only (no values)");
    PrimalEnd = I;
    ShadowNext = I + 1;
  }
  return true;
}

bool Decoder::decodeForwardSplitTail() {
  if ((Out.AllocatedBytes != nullptr) != (Out.TapeBuffer != nullptr))
    return error("enzyme_allocated and enzyme_tape go together: the buffer's "
                 "size and the buffer");
  if (Out.TapeBuffer)
    return true;
  Value *Tape = nextValue("the tape returned by __enzyme_augmentfwd (" +
                          entryName() + " takes it last)");
  if (!Tape)
    return false;
  if (!Tape->getType()->isPointerTy())
    return error("the last argument of " + entryName() +
                 " must be the tape (a pointer) returned by "
                 "__enzyme_augmentfwd; got " +
                 describe(Tape->getType()));
  Out.Tape = Tape;
  return true;
}

std::optional<int64_t> constantIntegerArgument(Value *V) {
  if (auto *C = dyn_cast_or_null<ConstantInt>(constantValue(V)))
    return C->getSExtValue();
  return std::nullopt;
}

std::optional<DecodedCall> decodeRequest(CallBase &CB, EntryPoint Kind,
                                         const CustomRules *Rules) {
  return Decoder(CB, Kind, /*DryRun=*/false, Rules).run();
}

std::optional<DecodedCall> peekRequest(CallBase &CB, EntryPoint Kind) {
  return Decoder(CB, Kind, /*DryRun=*/true).run();
}

} // namespace tapestry
