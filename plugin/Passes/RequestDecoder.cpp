//===- RequestDecoder.cpp - Enzyme's calling convention, decoded ----------===//
//
// Implements RequestDecoder.h (with the Decoder class of RequestDecoderImpl.h):
// decodeRequest walks a request call's arguments in Enzyme's calling
// convention, parameter by parameter, with the activity markers, enzyme_width,
// enzyme_interleave, shadow contexts and the request-wide return markers, into
// a DecodedCall; peekRequest does the same without reporting errors. Split
// mode's markers and structs passed by value are decoded in
// SplitMarkerDecoding.cpp and StructArgumentDecoding.cpp.
//
//===----------------------------------------------------------------------===//
#include "Passes/RequestDecoderImpl.h"

#include "Core/Batch.h"
#include "Core/CustomRules.h"
#include "Core/Diagnostics.h"
#include "Core/LinkTimePhase.h"
#include "Core/Markers.h"
#include "Core/SourceTypes.h"
#include "Passes/ShadowContexts.h"
#include "Passes/StructArguments.h"
#include "Synthesis/ForwardModeSynthesizer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tapestry {

/// Forward mode for __enzyme_fwddiff, __enzyme_fwdsplit and
/// __enzyme_error_estimate (whose tangents are error estimates).
static DiffMode modeOf(EntryPoint Kind) {
  return Kind == EntryPoint::ForwardDiff || Kind == EntryPoint::ForwardSplit ||
                 Kind == EntryPoint::ErrorEstimate
             ? DiffMode::Forward
             : DiffMode::Reverse;
}

Decoder::Decoder(CallBase &CB, EntryPoint Kind, bool DryRun,
                 const CustomRules *Rules)
    : CB(CB), Rules(Rules), DryRun(DryRun), Mode(modeOf(Kind)), Kind(Kind),
      Split(isSplitEntryPoint(Kind)),
      FwdSplit(Kind == EntryPoint::ForwardSplit),
      MarkersOnly(Kind == EntryPoint::AugmentSize || Kind == EntryPoint::Thunk),
      B(&CB) {}

/// The name of the caller of a function with a registered derivative.
static std::string registeredCallerName(const Function &F) {
  return (F.getName() + ".tapestry.registered").str();
}

bool isCallerOfRegistered(const Function &W, const Function &F) {
  return W.hasLocalLinkage() && W.getName() == registeredCallerName(F);
}

Function &Decoder::callerOfRegistered(Function &F) {
  Module &M = *F.getParent();
  std::string Name = registeredCallerName(F);
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

Value *Decoder::convert(Value *V, Type *To, unsigned ParamNo, StringRef What) {
  Type *From = V->getType();
  if (DryRun)
    return V;
  if (Value *Converted = convertAsArgument(B, V, To))
    return Converted;
  bool SRetParam = ParamNo == 0 && Fn->arg_size() &&
                   Fn->hasParamAttribute(0, Attribute::StructRet);
  error("the " + What + " passed for " + parameterText(ParamNo, To) +
        " has type " + describe(From) + ", not the parameter's type" +
        (From->isIntegerTy() && To->isFloatingPointTy()
             ? " (arguments after the function are passed through '...', "
               "where an integer is not converted: write 2.0, not 2)"
         : SRetParam ? " (pass a result object and its shadow first, as "
                       "enzyme_dupnoneed, &out, &dout in forward mode or "
                       "enzyme_dup, &out, &dout in reverse mode, then the "
                       "arguments)"
                     : "") +
        batchHint());
  return nullptr;
}

std::string Decoder::parameterText(unsigned ParamNo, Type *T) const {
  // A struct result the C ABI returns in memory is the first IR parameter
  // (sret); the source's parameters come after it.
  bool SRet = Fn->arg_size() && Fn->hasParamAttribute(0, Attribute::StructRet);
  if (SRet && ParamNo == 0)
    return "the " + (Fn->getSubprogram() ? sourceReturnType(*Fn) : "struct") +
           " result of '" + sourceIdentifier(*Fn) +
           "' (which the C ABI returns in memory the caller passes first)";
  unsigned SourceNo = ParamNo - SRet;
  // With debug information, and where IR parameters are the source's (no
  // struct the ABI split or passed in memory), the parameter's name and
  // type as declared.
  SourceParameter SP;
  if (Fn->getSubprogram() && StructParams.empty())
    SP = sourceParameter(*Fn, SourceNo);
  return ("parameter " + Twine(SourceNo + 1) +
          (SP.Name.empty() ? "" : " '" + SP.Name + "'") + " of '" +
          sourceIdentifier(*Fn) + "' (" +
          (SP.Type.empty() ? describe(T) : SP.Type) + ")")
      .str();
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
  std::string Param = parameterText(ParamNo, T);
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
    Param += " (pass a result object and its shadow first, as "
             "enzyme_dup or, in forward mode, enzyme_dupnoneed, or return a "
             "floating-point value)";
  if (A == Activity::Active && Mode == DiffMode::Forward)
    return error("enzyme_out is not valid in forward mode (" + entryName() +
                 "); pass " + Param + " as enzyme_dup followed by its " +
                 (Kind == EntryPoint::ErrorEstimate
                      ? "error (0.0 for an exact input)"
                      : "tangent"));
  // Markers written for the source's parameters of a function whose
  // result the C ABI returns in memory are one off: say why.
  std::string SRetHint;
  if (ParamNo > 0 && Fn->hasParamAttribute(0, Attribute::StructRet))
    SRetHint = " ('" + sourceName(*Fn) + "' returns " +
               describe(Fn->getParamStructRetType(0)) +
               " in memory, so its result comes first: pass a result object "
               "and its shadow before the markers of its parameters, "
               "enzyme_dup, &result, &dresult)";
  if (A == Activity::Active && !IsFP)
    return error("enzyme_out marks an active floating-point value, but " +
                 Param +
                 " is not one; use enzyme_dup with a shadow for "
                 "pointers or enzyme_const" +
                 SRetHint);
  if ((A == Activity::Dup || A == Activity::DupNoNeed) && !T->isPointerTy() &&
      !(IsFP && Mode == DiffMode::Forward))
    return error(activityName(A) +
                 " needs a pointer (or, in forward mode, a "
                 "floating-point value with its tangent), "
                 "but " +
                 Param + " is neither; use " +
                 (IsFP ? "enzyme_out" : "enzyme_const") + SRetHint);
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
  if (Next >= NumValues) {
    // A struct returned in memory is an extra first parameter the source
    // does not show: say so, or the count reads as one too many.
    bool SRet =
        Fn->arg_size() && Fn->hasParamAttribute(0, Attribute::StructRet);
    return error("too few arguments: '" + sourceIdentifier(*Fn) + "' takes " +
                 Twine(Fn->arg_size()) + " parameters but the call to " +
                 entryName() + " ends before the value of parameter " +
                 Twine(ParamNo + 1) +
                 (SRet ? "; its result is a struct returned in memory, "
                         "whose object is its first parameter: pass a "
                         "result object and its shadow first, as enzyme_dup, "
                         "&out, &dout in reverse mode or enzyme_dupnoneed, "
                         "&out, &dout in forward mode, then the arguments"
                       : "") +
                 batchHint());
  }
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

bool Decoder::decodeImplicitStructResult() {
  // Batch mode would need a result object per lane: say so, rather than
  // counting the result's hidden parameter among the arguments.
  // (enzyme_width comes first, before the width is read.)
  bool Batch =
      Width != 1 || (Next < PrimalEnd &&
                     markerName(CB.getArgOperand(Next)) == "enzyme_width");
  if (Mode == DiffMode::Forward && Kind == EntryPoint::ForwardDiff && Batch &&
      !Split && Out.SRet && Fn->arg_size() &&
      Fn->hasParamAttribute(0, Attribute::StructRet)) {
    error("'" + sourceIdentifier(*Fn) +
          "' returns a struct by value; batch mode (enzyme_width) does not "
          "return the tangents of a struct yet: request one direction at a "
          "time, or add enzyme_const_return");
    return false;
  }
  if (Mode != DiffMode::Forward || Kind != EntryPoint::ForwardDiff ||
      Width != 1 || Split || FwdSplit || MarkersOnly || ShadowNext ||
      !Out.SRet || !Fn->arg_size() ||
      !Fn->hasParamAttribute(0, Attribute::StructRet) || Next >= PrimalEnd)
    return false;
  // The first value, after the first parameter's activity marker if any:
  // a pointer is the result object the user passes (the explicit
  // spelling), or the first source parameter's value if the function's
  // first parameter is a pointer (or a struct passed by value): without
  // markers, the number of values tells which, since the explicit
  // spelling passes two more.
  unsigned First = Next;
  if (StringRef M = markerName(CB.getArgOperand(First)); !M.empty()) {
    if (M != "enzyme_dup" && M != "enzyme_const" && M != "enzyme_dupnoneed")
      return false;
    ++First;
  }
  if (First >= PrimalEnd || !markerName(CB.getArgOperand(First)).empty())
    return false;
  if (CB.getArgOperand(First)->getType()->isPointerTy()) {
    // Read as the source's parameters (sret's excluded), the values must
    // end where the call's do: a marker and its value, and a shadow after
    // enzyme_dup or enzyme_dupnoneed; without a marker, a pointer or
    // floating-point value and its tangent, or a value alone. The explicit
    // spelling passes two or three values more.
    unsigned At = Next;
    for (unsigned I = 1; I < Fn->arg_size(); ++I) {
      if (At >= PrimalEnd)
        return false;
      StringRef M = markerName(CB.getArgOperand(At));
      Type *T = Fn->getArg(I)->getType();
      if (M == "enzyme_dup" || M == "enzyme_dupnoneed")
        At += 3;
      else if (M == "enzyme_const")
        At += 2;
      else if (!M.empty())
        return false;
      else
        At += T->isPointerTy() || T->isFPOrFPVectorTy() ? 2 : 1;
    }
    if (At != PrimalEnd)
      return false;
  }
  Type *ResultTy = Fn->getParamStructRetType(0);
  const DataLayout &DL = CB.getModule()->getDataLayout();
  if (DL.getTypeAllocSize(ResultTy) !=
      DL.getTypeAllocSize(CB.getParamStructRetType(0)))
    return false;
  Value *Primal = Out.SRet;
  if (!DryRun) {
    Function &Caller = *CB.getFunction();
    IRBuilder<> EB(&Caller.getEntryBlock(),
                   Caller.getEntryBlock().getFirstInsertionPt());
    AllocaInst *Slot = EB.CreateAlloca(ResultTy, nullptr, "primal.result");
    Slot->setAlignment(DL.getPrefTypeAlign(ResultTy));
    Primal = Slot;
  }
  Out.Request.Args.push_back(Activity::DupNoNeed);
  Out.Primals.push_back(Primal);
  Out.Shadows.push_back(Out.SRet);
  // The derivative returns nothing: its tangent is in that memory.
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
  if (!Failed) {
    // enzyme_runtime_activity: pointers reached through the arguments may
    // have themselves as shadows (a shadow struct whose constant members
    // point to the primal's data, as a copy of the primal makes): the
    // derivative tests them at run time (Analysis/RuntimeActivity.h).
    if (R && R->RuntimeActivity)
      for (unsigned I = 0; I < R->Request.Args.size() &&
                           I < DiffRequest::MaxRuntimeActivityArgs;
           ++I)
        if ((R->Request.Args[I] == Activity::Dup ||
             R->Request.Args[I] == Activity::DupNoNeed) &&
            R->Request.Fn->getArg(I)->getType()->isPointerTy()) {
          R->Request.MarkedMemoryArgs |= uint64_t(1) << I;
          R->Request.MarkedDeepArgs |= uint64_t(1) << I;
        }
    return R;
  }
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
                 "time: name the function itself at the request, or "
                 "differentiate a function that calls the pointer, given "
                 "as enzyme_const (double call(double *x, fn f) { return "
                 "f(x); }): calls through it are dispatched over this "
                 "file's functions"
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
  // them would silently see no calls. Tapestry calls enzymeLogError with
  // Enzyme's current signature (Synthesis/ErrorModel.cpp).
  for (StringRef Logger : {"enzymeLogError", "enzymeLogValue", "enzymeLogGrad"})
    if (Function *L = CB.getModule()->getFunction(Logger);
        L && Kind == EntryPoint::ErrorEstimate && !L->isDeclaration() &&
        L != ForwardModeSynthesizer::errorLogger(*CB.getModule()))
      error("this program defines " + Logger +
            ", a per-operation logger Enzyme calls during " + entryName() +
            "; Tapestry calls only enzymeLogError(double res, double err, "
            "const char *opcode, const char *callee, const char *module, "
            "const char *function, const char *block), Enzyme's current "
            "logger, and returns the error estimate: give it that "
            "signature, or remove or rename " +
            Logger);
  // Enzyme built with its floating-point profiler (FPOpt) calls these in
  // reverse mode for each operation, with signatures that changed between
  // its versions; a program counting the calls would silently see none.
  // (C++'s mangled names too, which Enzyme accepts.)
  if (Mode == DiffMode::Reverse)
    for (StringRef Logger : {"enzymeLogGrad", "enzymeLogValue"})
      if (any_of(*CB.getModule(), [&](const Function &L) {
            return !L.isDeclaration() && L.getName().contains(Logger);
          }))
        error("this program defines " + Logger +
              ", a per-operation logger that Enzyme built with its "
              "floating-point profiler calls in reverse-mode derivatives; "
              "Tapestry does not call it (the derivative is the same): "
              "remove or rename " +
              Logger);
  StructParams = structParams(*Fn);
  // The function's file was compiled with the plugin, which recorded its
  // struct parameters, but the request's was not: which of the request's
  // values are one struct is known nowhere, and the two spellings give
  // different numbers.
  if (!StructParams.empty() && structParamsRecorded(*Fn) &&
      !structOperandsRecorded(CB)) {
    const AbiStruct &S = StructParams.front();
    error("'" + sourceIdentifier(*Fn) + "' takes " + S.describe() +
          " by value (parameter " + std::to_string(S.First + 1) +
          "), but the file making this request was compiled without the "
          "Tapestry plugin, so nothing says which of its values are one "
          "struct; compile this file with the plugin too "
          "(-fpass-plugin=<the Tapestry plugin>), as the -flto recipe says");
    return std::nullopt;
  }
  // (The C++ API's thunk, tapestry/split.hpp, whose name is mangled; C's
  // __tapestry_thunk keeps Enzyme's rule, one marker per ABI value.)
  Function *Callee = CB.getCalledFunction();
  MarkersPerSourceParam = Kind == EntryPoint::Thunk && MarkersOnly && Callee &&
                          Callee->getName().starts_with("_Z") &&
                          sourceParams() != Fn->arg_size() &&
                          activityMarkers() == sourceParams();
  Next = First + 1;
  PrimalEnd = CB.arg_size();
  if (!findInterleave())
    return std::nullopt;
  bool ConstReturn = false;
  for (unsigned ParamNo = 0; ParamNo < Fn->arg_size() && !Failed;) {
    if (ParamNo == 0 && decodeImplicitStructResult()) {
      ++ParamNo;
      continue;
    }
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
      } else if (std::string Why = unsupportedEnzymeMarker(M); !Why.empty()) {
        error(Why + " (in the call to " + entryName() + ")");
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
  } else if (M == "enzyme_context") {
    decodeContext();
  } else if (M == "enzyme_interleave") {
    // Found by findInterleave; a second one is an error there.
  } else {
    return false;
  }
  return true;
}

bool Decoder::decodeContext() {
  Value *V = nextValue("the context after enzyme_context");
  if (!V)
    return false;
  std::optional<ShadowContext> Ctx = shadowContextOf(V);
  if (!Ctx)
    return error("enzyme_context must be followed by a context that "
                 "__enzyme_context made in this function (each call of "
                 "__enzyme_context is one context, made in the function "
                 "that uses it; in C++, an enzyme::context made in this "
                 "function and not copied); got '" +
                 describe(V) + "'");
  if (Out.Request.Context && Out.Request.Context != Ctx->Number)
    return error("enzyme_context appears twice in the call to " + entryName() +
                 "; a derivative uses the shadows of one context");
  if (Kind == EntryPoint::ErrorEstimate)
    return error("enzyme_context is not supported with " + entryName() +
                 ", which propagates round-off errors, not derivatives, "
                 "through globals; remove the context");
  if (Ctx->Width != Width) {
    if (Width != 1)
      return error("the context after enzyme_context has width " +
                   Twine(Ctx->Width) + " but enzyme_width says " +
                   Twine(Width) + "; a request in a context has its width");
    if (Split || FwdSplit)
      return error("a context of width " + Twine(Ctx->Width) +
                   " makes a batch derivative, which split mode does not "
                   "support yet; use __enzyme_autodiff or __enzyme_fwddiff "
                   "in it, or a context of width 1");
    if (!Roles.empty())
      return error(
          "enzyme_context with a context of width " + Twine(Ctx->Width) +
          " must come before the arguments in "
          "the call to " +
          entryName() + ": the width says how many shadows each takes");
    Width = Ctx->Width;
    Out.Request.Width = Width;
  }
  Out.Request.Context = Ctx->Number;
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

std::optional<DecodedCall> decodeRequest(CallBase &CB, EntryPoint Kind,
                                         const CustomRules *Rules) {
  return Decoder(CB, Kind, /*DryRun=*/false, Rules).run();
}

std::optional<DecodedCall> peekRequest(CallBase &CB, EntryPoint Kind) {
  return Decoder(CB, Kind, /*DryRun=*/true).run();
}

std::optional<SmallVector<Value *, 8>>
peekRequestPrimals(CallBase &CB, EntryPoint Kind,
                   SmallVectorImpl<bool> *Shadowed) {
  // Decoding may build shadow values before the call (a batch's lanes):
  // what this look adds is removed again.
  BasicBlock &BB = *CB.getParent();
  SmallPtrSet<Instruction *, 32> Before;
  for (Instruction &I : BB)
    Before.insert(&I);
  std::optional<SmallVector<Value *, 8>> Primals;
  if (std::optional<DecodedCall> D = peekRequest(CB, Kind)) {
    Primals.emplace();
    for (Value *V : D->Primals) {
      auto *I = dyn_cast_or_null<Instruction>(V);
      bool Added = I && I->getParent() == &BB && !Before.contains(I);
      Primals->push_back(Added ? nullptr : V);
    }
    if (Shadowed)
      for (unsigned P = 0; P < D->Primals.size(); ++P)
        Shadowed->push_back(P < D->Shadows.size() && D->Shadows[P]);
  }
  SmallVector<Instruction *, 8> Added;
  for (Instruction &I : BB)
    if (!Before.contains(&I))
      Added.push_back(&I);
  for (Instruction *I : reverse(Added))
    if (I->use_empty())
      I->eraseFromParent();
  return Primals;
}

} // namespace tapestry