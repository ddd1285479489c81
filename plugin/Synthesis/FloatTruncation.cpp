//===- FloatTruncation.cpp - Compute a function in a narrower format ------===//
//
// Implements FloatTruncation.h: the Truncator, an llvm::InstVisitor over a copy
// of the function, rewrites each floating-point operation in op or mem mode
// (narrow, compute, widen or pack), the Copier makes the truncated copies of
// callees that do From work, and errors name each construct that cannot be
// truncated at its source line. The requests reach it through
// Passes/TruncateRequest; emulated formats round through
// Synthesis/EmulatedRounding.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/FloatTruncation.h"

#include "Core/Diagnostics.h"
#include "Core/MathFunctions.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/InstVisitor.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace tapestry {

Type *floatTypeOfWidth(LLVMContext &Ctx, int64_t Bits) {
  switch (Bits) {
  case 64:
    return Type::getDoubleTy(Ctx);
  case 32:
    return Type::getFloatTy(Ctx);
  case 16:
    return Type::getHalfTy(Ctx);
  default:
    return nullptr;
  }
}

Type *floatTypeOfLayout(LLVMContext &Ctx, int64_t Exponent, int64_t Mantissa) {
  for (Type *T : {Type::getDoubleTy(Ctx), Type::getFloatTy(Ctx),
                  Type::getHalfTy(Ctx), Type::getBFloatTy(Ctx)}) {
    const fltSemantics &S = T->getFltSemantics();
    int64_t Precision = APFloat::semanticsPrecision(S); // with the hidden bit
    int64_t Bits = APFloat::semanticsSizeInBits(S);
    if (Precision - 1 == Mantissa && Bits - Precision == Exponent)
      return T;
  }
  return nullptr;
}

std::string formatName(const Type *T) {
  if (T->isDoubleTy())
    return "double";
  if (T->isFloatTy())
    return "float";
  if (T->isHalfTy())
    return "half";
  if (T->isBFloatTy())
    return "bfloat";
  return describe(T);
}

std::string Truncation::tag() const {
  if (Emulated)
    return std::to_string(From->getPrimitiveSizeInBits()) + "to" +
           layoutTag(*Emulated);
  return std::to_string(From->getPrimitiveSizeInBits()) + "to" +
         (To->isBFloatTy() ? "bf" : "") +
         std::to_string(To->getPrimitiveSizeInBits());
}

std::string Truncation::toName() const {
  if (!Emulated)
    return formatName(To);
  return "the format with " + std::to_string(Emulated->Exponent) +
         " exponent and " + std::to_string(Emulated->Mantissa) +
         " mantissa bits";
}

namespace {

/// \p T with its scalar type replaced by \p S (a vector keeps its lanes).
Type *withScalar(Type *T, Type *S) {
  if (auto *VT = dyn_cast<VectorType>(T))
    return VectorType::get(S, VT->getElementCount());
  return S;
}

bool containsType(Type *T, Type *S) {
  if (T->getScalarType() == S)
    return true;
  if (auto *ST = dyn_cast<StructType>(T))
    return any_of(ST->elements(), [&](Type *E) { return containsType(E, S); });
  if (auto *AT = dyn_cast<ArrayType>(T))
    return containsType(AT->getElementType(), S);
  return false;
}

Type *intOfWidth(Type *T, Type *Float) {
  return withScalar(
      T, IntegerType::get(T->getContext(), Float->getPrimitiveSizeInBits()));
}

/// The To value \p Narrow stored in a From slot: its bits first, zeros after.
Value *pack(IRBuilderBase &B, Value *Narrow, const Truncation &T,
            bool BigEndian) {
  Type *Ty = Narrow->getType();
  Value *Wide = B.CreateZExt(B.CreateBitCast(Narrow, intOfWidth(Ty, T.To)),
                             intOfWidth(Ty, T.From));
  if (BigEndian) // The first bytes are the most significant ones.
    Wide = B.CreateShl(Wide, T.From->getPrimitiveSizeInBits() -
                                 T.To->getPrimitiveSizeInBits());
  return B.CreateBitCast(Wide, withScalar(Ty, T.From));
}

/// The To value held in the first bytes of the From slot \p V.
Value *unpack(IRBuilderBase &B, Value *V, const Truncation &T, bool BigEndian) {
  Type *Ty = V->getType();
  Value *Wide = B.CreateBitCast(V, intOfWidth(Ty, T.From));
  if (BigEndian)
    Wide = B.CreateLShr(Wide, T.From->getPrimitiveSizeInBits() -
                                  T.To->getPrimitiveSizeInBits());
  return B.CreateBitCast(B.CreateTrunc(Wide, intOfWidth(Ty, T.To)),
                         withScalar(Ty, T.To));
}

bool isBigEndian(IRBuilderBase &B) {
  return B.GetInsertBlock()->getModule()->getDataLayout().isBigEndian();
}

/// Intrinsics whose meaning on a narrower format is the same operation:
/// the math functions of the rules table and a few more.
bool isNarrowableIntrinsic(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::frexp: // returns a struct: not rebuilt
    return false;
  case Intrinsic::is_fpclass:
  case Intrinsic::canonicalize:
  case Intrinsic::lround:
  case Intrinsic::llround:
  case Intrinsic::lrint:
  case Intrinsic::llrint:
  case Intrinsic::fptosi_sat:
  case Intrinsic::fptoui_sat:
  case Intrinsic::vector_reduce_fadd:
  case Intrinsic::vector_reduce_fmul:
  case Intrinsic::vector_reduce_fmax:
  case Intrinsic::vector_reduce_fmin:
  case Intrinsic::vector_reduce_fmaximum:
  case Intrinsic::vector_reduce_fminimum:
    return true;
  default:
    return any_of(mathFunctions(),
                  [&](const MathFunction &M) { return M.IID == ID; });
  }
}

/// printf and its relatives only print the values they are passed.
bool onlyPrints(LibFunc F) {
  switch (F) {
  case LibFunc_printf:
  case LibFunc_fprintf:
  case LibFunc_sprintf:
  case LibFunc_snprintf:
    return true;
  default:
    return false;
  }
}

/// Makes and caches the truncated copies of one module's functions.
class Copier {
public:
  Copier(Module &M, const Truncation &T, StringRef Entry, TLIGetter GetTLI)
      : M(M), T(T), Entry(Entry), GetTLI(GetTLI) {}
  /// The copy of \p F (made at most once), whatever errors it has.
  Function *copyOf(Function &F);
  /// The function a truncated caller calls in place of \p F: its copy if
  /// it (or what it calls) handles From values, else F itself.
  Function *calleeFor(Function &F) { return needsCopy(F) ? copyOf(F) : &F; }
  bool Failed = false;

private:
  bool needsCopy(Function &F);
  bool mentionsFrom(const Instruction &I) const;
  bool usesFromGlobal(const Value *V) const;
  /// Mem mode: maps the constant globals holding From values that \p F
  /// uses to packed copies; reports the mutable ones.
  void mapGlobals(Function &F, ValueToValueMapTy &VMap);
  Constant *packConstant(Constant *C);

  Module &M;
  const Truncation &T;
  StringRef Entry;
  TLIGetter GetTLI;
  DenseMap<Function *, bool> NeedsCopy;
};

/// Rewrites the From operations of one function into To operations.
class Truncator : public InstVisitor<Truncator> {
public:
  /// \p Origin: the function the user wrote, for messages.
  Truncator(const Truncation &T, StringRef Entry, TLIGetter GetTLI,
            Copier *Callees, Function &Origin)
      : T(T), Entry(Entry), GetTLI(GetTLI), Callees(Callees), Origin(Origin) {}

  bool run(Function &F);

  void visitInstruction(Instruction &I);
  void visitUnaryOperator(UnaryOperator &I);
  void visitBinaryOperator(BinaryOperator &I);
  void visitFCmpInst(FCmpInst &I);
  void visitCastInst(CastInst &I);
  void visitCallBase(CallBase &CB);

private:
  bool isWide(Type *Ty) const { return Ty->getScalarType() == T.From; }
  bool mentionsFrom(const Instruction &I) const;
  bool error(Instruction &I, const Twine &Msg);
  Value *narrow(IRBuilderBase &B, Value *V);
  Value *widen(IRBuilderBase &B, Value *V);
  /// Replaces \p I by \p New, widened if \p I produced a From value.
  void replace(Instruction &I, Value *New);
  void visitIntrinsic(CallBase &CB, Function &Callee);
  void visitMathCall(CallBase &CB, Function &Callee, const MathFunction &MF);
  /// Emulated formats: \p Callee (an intrinsic or math function, as
  /// called) on rounded inputs; sqrt and fma rounded once, others
  /// computed in From and their result rounded.
  void emulateCall(CallBase &CB, Function &Callee, Intrinsic::ID ID);
  /// Emulated formats: a conversion to or from From.
  void emulateCast(CastInst &I);
  void visitExternalCall(CallBase &CB, Function &Callee);
  /// The format math functions run in: To, or float below float (no C
  /// library has half functions); the result is rounded to To.
  Type *mathType() const {
    return T.To->getPrimitiveSizeInBits() < 32
               ? Type::getFloatTy(T.To->getContext())
               : T.To;
  }

  const Truncation &T;
  StringRef Entry;
  TLIGetter GetTLI;
  Copier *Callees; ///< Null when truncating in place.
  Function &Origin;
  bool BigEndian = false;
  bool Failed = false;
  /// Emulated formats: results already rounded to the format.
  SmallPtrSet<Value *, 32> InFormat;
};

} // namespace

bool Truncator::mentionsFrom(const Instruction &I) const {
  if (containsType(I.getType(), T.From))
    return true;
  return any_of(I.operands(), [&](const Use &U) {
    return containsType(U->getType(), T.From);
  });
}

bool Copier::mentionsFrom(const Instruction &I) const {
  if (containsType(I.getType(), T.From))
    return true;
  return any_of(I.operands(), [&](const Use &U) {
    return containsType(U->getType(), T.From) || usesFromGlobal(U.get());
  });
}

bool Copier::usesFromGlobal(const Value *V) const {
  if (auto *GV = dyn_cast<GlobalVariable>(V))
    return containsType(GV->getValueType(), T.From);
  if (auto *CE = dyn_cast<ConstantExpr>(V))
    return any_of(CE->operands(),
                  [&](const Use &U) { return usesFromGlobal(U.get()); });
  return false;
}

bool Truncator::error(Instruction &I, const Twine &Msg) {
  Failed = true;
  return reportError(Origin, &I,
                     Entry + " cannot compute '" + sourceIdentifier(Origin) +
                         "' in " + T.toName() + " instead of " +
                         formatName(T.From) + ": " + Msg);
}

Value *Truncator::narrow(IRBuilderBase &B, Value *V) {
  // Emulated: mem-mode values are in the format; op-mode ones rounded.
  if (T.Emulated)
    return T.Mode == TruncationMode::Mem || InFormat.count(V)
               ? V
               : roundToLayout(B, V, *T.Emulated);
  if (T.Mode == TruncationMode::Mem)
    return unpack(B, V, T, BigEndian);
  return B.CreateFPTrunc(V, withScalar(V->getType(), T.To));
}

Value *Truncator::widen(IRBuilderBase &B, Value *V) {
  if (T.Emulated) // results are rounded where they are computed
    return V;
  if (T.Mode == TruncationMode::Mem)
    return pack(B, V, T, BigEndian);
  return B.CreateFPExt(V, withScalar(V->getType(), T.From));
}

void Truncator::replace(Instruction &I, Value *New) {
  IRBuilder<> B(&I);
  if (isWide(I.getType()))
    New = widen(B, New);
  if (T.Emulated && isWide(I.getType()))
    InFormat.insert(New);
  I.replaceAllUsesWith(New);
  if (auto *NI = dyn_cast<Instruction>(New))
    NI->takeName(&I);
  I.eraseFromParent();
}

bool Truncator::run(Function &F) {
  BigEndian = F.getParent()->getDataLayout().isBigEndian();
  SmallVector<Instruction *, 64> Work;
  for (Instruction &I : instructions(F))
    Work.push_back(&I);
  for (Instruction *I : Work)
    visit(*I);
  return !Failed;
}

void Truncator::visitInstruction(Instruction &I) {
  // Moving a value (or its bits in memory) does not round it.
  if (isa<LoadInst, StoreInst, PHINode, SelectInst, ExtractElementInst,
          InsertElementInst, ShuffleVectorInst, ExtractValueInst,
          InsertValueInst, AllocaInst, GetElementPtrInst, ReturnInst,
          FreezeInst, VAArgInst, LandingPadInst, ResumeInst>(I))
    return;
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I);
      RMW && !RMW->isFloatingPointOperation())
    return;
  if (mentionsFrom(I))
    error(I, "Tapestry does not truncate the instruction '" +
                 Twine(I.getOpcodeName()) + "' on " + formatName(T.From) +
                 " values");
}

void Truncator::visitUnaryOperator(UnaryOperator &I) {
  if (!isWide(I.getType()))
    return;
  IRBuilder<> B(&I);
  replace(I, B.CreateFNegFMF(narrow(B, I.getOperand(0)), &I));
}

void Truncator::visitBinaryOperator(BinaryOperator &I) {
  if (!isWide(I.getType()))
    return;
  IRBuilder<> B(&I);
  if (T.Emulated) {
    Value *X = narrow(B, I.getOperand(0)), *Y = narrow(B, I.getOperand(1));
    std::optional<EmulatedOp> Op;
    switch (I.getOpcode()) {
    case Instruction::FAdd:
      Op = EmulatedOp::Add;
      break;
    case Instruction::FSub:
      Op = EmulatedOp::Sub;
      break;
    case Instruction::FMul:
      Op = EmulatedOp::Mul;
      break;
    case Instruction::FDiv:
      Op = EmulatedOp::Div;
      break;
    default: // frem: the remainder of two values of the format is one
      break;
    }
    replace(I, Op ? emulateOperation(B, *Op, {X, Y}, *T.Emulated)
                  : B.CreateBinOp(I.getOpcode(), X, Y));
    return;
  }
  Value *R = B.CreateBinOp(I.getOpcode(), narrow(B, I.getOperand(0)),
                           narrow(B, I.getOperand(1)));
  if (auto *RI = dyn_cast<Instruction>(R))
    RI->copyIRFlags(&I);
  replace(I, R);
}

void Truncator::visitFCmpInst(FCmpInst &I) {
  if (!isWide(I.getOperand(0)->getType()))
    return;
  IRBuilder<> B(&I);
  B.setFastMathFlags(I.getFastMathFlags());
  replace(I, B.CreateFCmp(I.getPredicate(), narrow(B, I.getOperand(0)),
                          narrow(B, I.getOperand(1))));
}

void Truncator::visitCastInst(CastInst &I) {
  Type *Src = I.getSrcTy(), *Dst = I.getDestTy();
  if (!isWide(Src) && !isWide(Dst))
    return;
  Instruction::CastOps Op = I.getOpcode();
  if (Op != Instruction::FPTrunc && Op != Instruction::FPExt &&
      Op != Instruction::FPToSI && Op != Instruction::FPToUI &&
      Op != Instruction::SIToFP && Op != Instruction::UIToFP) {
    // A bitcast moves the bits: harmless in op mode, where a From value is
    // one; in mem mode it would expose the packed representation (an
    // emulated format has none).
    if (T.Mode == TruncationMode::Mem && !T.Emulated)
      error(I, "it reinterprets the bits of a " + formatName(T.From) +
                   " value, which in mem mode holds a " + formatName(T.To) +
                   " in its first bytes; use __enzyme_truncate_op_func, or "
                   "keep bit manipulations out of the truncated function");
    return;
  }
  if (T.Emulated)
    return emulateCast(I);
  IRBuilder<> B(&I);
  Value *In = isWide(Src) ? narrow(B, I.getOperand(0)) : I.getOperand(0);
  Type *To = isWide(Dst) ? withScalar(Dst, T.To) : Dst;
  Value *R;
  if (Op == Instruction::FPTrunc || Op == Instruction::FPExt)
    R = B.CreateFPCast(In, To);
  else
    R = B.CreateCast(Op, In, To);
  replace(I, R);
}

void Truncator::visitCallBase(CallBase &CB) {
  if (isa<DbgInfoIntrinsic>(CB))
    return;
  Function *Callee = CB.getCalledFunction();
  if (Callee && isEmulationHelper(*Callee)) // already rounds
    return;
  if (CB.isInlineAsm()) {
    if (mentionsFrom(CB))
      error(CB, "inline assembly handles " + formatName(T.From) + " values");
    return;
  }
  if (!Callee) {
    if (Callees) // In place, the function called is truncated too.
      error(CB, "the call goes through a function pointer, so Tapestry "
                "cannot call a truncated copy of the function called; "
                "call it directly");
    return;
  }
  if (Callee->isIntrinsic())
    return visitIntrinsic(CB, *Callee);
  if (Callee->isDeclaration())
    if (const MathFunction *MF = findMathFunction(CB);
        MF && *MF->LibName && mentionsFrom(CB))
      return visitMathCall(CB, *Callee, *MF);
  if (!Callees)
    return;
  if (!Callee->isDeclaration()) {
    if (Function *Copy = Callees->calleeFor(*Callee))
      CB.setCalledFunction(Copy);
    return;
  }
  visitExternalCall(CB, *Callee);
}

void Truncator::visitIntrinsic(CallBase &CB, Function &Callee) {
  if (!mentionsFrom(CB))
    return;
  Intrinsic::ID ID = Callee.getIntrinsicID();
  if (!isNarrowableIntrinsic(ID) || !isa<CallInst>(CB) ||
      (containsType(CB.getType(), T.From) && !isWide(CB.getType()))) {
    error(CB, "Tapestry does not truncate the intrinsic " + Callee.getName());
    return;
  }
  if (T.Emulated)
    return emulateCall(CB, Callee, ID);
  SmallVector<Type *, 4> Overloads;
  if (!Intrinsic::getIntrinsicSignature(&Callee, Overloads)) {
    error(CB, "the intrinsic " + Callee.getName() + " has no known signature");
    return;
  }
  Type *Math = mathType();
  for (Type *&Ty : Overloads)
    if (isWide(Ty))
      Ty = withScalar(Ty, Math);
  IRBuilder<> B(&CB);
  if (auto *FPOp = dyn_cast<FPMathOperator>(&CB))
    B.setFastMathFlags(FPOp->getFastMathFlags());
  SmallVector<Value *, 4> Args;
  for (Value *A : CB.args())
    Args.push_back(
        isWide(A->getType())
            ? B.CreateFPCast(narrow(B, A), withScalar(A->getType(), Math))
            : A);
  Function *Narrow = Intrinsic::getDeclaration(CB.getModule(), ID, Overloads);
  Value *R = B.CreateCall(Narrow, Args);
  if (isWide(CB.getType()))
    R = B.CreateFPCast(R, withScalar(CB.getType(), T.To));
  replace(CB, R);
}

void Truncator::visitMathCall(CallBase &CB, Function &Callee,
                              const MathFunction &MF) {
  StringRef Lib = MF.LibName;
  if (parseVectorVariant(Callee.getName()) || Lib == "modf" ||
      Lib == "lgamma_r" || !isa<CallInst>(CB) || !isWide(CB.getType())) {
    error(CB, "Tapestry does not truncate this call to " + Callee.getName());
    return;
  }
  if (T.Emulated)
    return emulateCall(CB, Callee,
                       Lib == "sqrt"  ? Intrinsic::sqrt
                       : Lib == "fma" ? Intrinsic::fma
                                      : Intrinsic::not_intrinsic);
  Type *Math = mathType();
  // The C library's float variant: sin -> sinf.
  SmallVector<Type *, 3> Params;
  for (Type *P : CB.getFunctionType()->params())
    Params.push_back(isWide(P) ? Math : P);
  FunctionType *FT = FunctionType::get(Math, Params, false);
  FunctionCallee Narrow =
      CB.getModule()->getOrInsertFunction((Lib + "f").str(), FT);
  IRBuilder<> B(&CB);
  if (auto *FPOp = dyn_cast<FPMathOperator>(&CB))
    B.setFastMathFlags(FPOp->getFastMathFlags());
  SmallVector<Value *, 3> Args;
  for (Value *A : CB.args())
    Args.push_back(isWide(A->getType()) ? B.CreateFPCast(narrow(B, A), Math)
                                        : A);
  CallInst *Call = B.CreateCall(Narrow, Args);
  Call->setAttributes(cast<CallInst>(CB).getAttributes());
  replace(CB, B.CreateFPCast(Call, T.To));
}

void Truncator::emulateCall(CallBase &CB, Function &Callee, Intrinsic::ID ID) {
  if (ID == Intrinsic::vector_reduce_fadd ||
      ID == Intrinsic::vector_reduce_fmul) {
    error(CB, "Tapestry does not round the steps of the vector reduction " +
                  Callee.getName() + " to an emulated format");
    return;
  }
  IRBuilder<> B(&CB);
  SmallVector<Value *, 4> Args;
  for (Value *A : CB.args())
    Args.push_back(isWide(A->getType()) ? narrow(B, A) : A);
  FloatLayout L = *T.Emulated;
  Value *R;
  if (ID == Intrinsic::sqrt)
    R = emulateOperation(B, EmulatedOp::Sqrt, Args, L);
  else if (ID == Intrinsic::fma)
    R = emulateOperation(B, EmulatedOp::FMA, Args, L);
  else if (ID == Intrinsic::fmuladd) // unfused, as fmuladd allows
    R = emulateOperation(
        B, EmulatedOp::Add,
        {emulateOperation(B, EmulatedOp::Mul, {Args[0], Args[1]}, L), Args[2]},
        L);
  else {
    if (auto *FPOp = dyn_cast<FPMathOperator>(&CB))
      B.setFastMathFlags(FPOp->getFastMathFlags());
    CallInst *Call = B.CreateCall(CB.getFunctionType(), &Callee, Args);
    Call->setAttributes(CB.getAttributes());
    R = Call;
    if (isWide(CB.getType()))
      R = roundToLayout(B, R, L);
  }
  replace(CB, R);
}

void Truncator::emulateCast(CastInst &I) {
  IRBuilder<> B(&I);
  Type *Dst = I.getDestTy();
  Value *In = I.getOperand(0);
  FloatLayout L = *T.Emulated;
  Value *R;
  if (isWide(In->getType())) // from the format: exact, or rounded once
    R = B.CreateCast(I.getOpcode(), narrow(B, In), Dst);
  else if (I.getOpcode() == Instruction::SIToFP ||
           I.getOpcode() == Instruction::UIToFP) {
    if (In->getType()->getScalarSizeInBits() > 64) {
      error(I, "Tapestry converts integers of at most 64 bits to emulated "
               "formats");
      return;
    }
    R = emulateIntToFP(B, In, I.getOpcode() == Instruction::SIToFP, Dst, L);
  } else // another floating-point type to From, then rounded
    R = roundToLayout(B, B.CreateFPCast(In, Dst), L);
  replace(I, R);
}

void Truncator::visitExternalCall(CallBase &CB, Function &Callee) {
  LibFunc LF;
  bool Known = GetTLI(*CB.getFunction()).getLibFunc(Callee, LF);
  std::string Name = "'" + sourceIdentifier(Callee) + "'";
  if (mentionsFrom(CB)) {
    if ((T.Mode == TruncationMode::Op || T.Emulated) && Known && onlyPrints(LF))
      return;
    error(CB, Name + ", whose body is not in this file, takes or returns " +
                  formatName(T.From) + " values" +
                  (T.Mode == TruncationMode::Mem && !T.Emulated
                       ? " and would misread their mem-mode representation"
                       : " and would compute with them untruncated") +
                  (Known ? "; call it outside the truncated function"
                         : "; define it in this file or call it outside the "
                           "truncated function"));
    return;
  }
  if (Known || none_of(CB.args(), [](const Use &A) {
        return A->getType()->isPointerTy();
      }))
    return;
  error(CB, "it passes memory to " + Name +
                ", whose body is not in this file, so Tapestry cannot know "
                "whether it computes with (or misreads) the " +
                formatName(T.From) +
                " values there; define it in this file or call it outside "
                "the truncated function");
}

bool Copier::needsCopy(Function &F) {
  if (F.isDeclaration() || isEmulationHelper(F))
    return false;
  // While F is being looked at (a recursion), assume it needs one.
  auto [It, New] = NeedsCopy.try_emplace(&F, true);
  if (!New)
    return It->second;
  bool Needs = false;
  for (Instruction &I : instructions(F)) {
    if (mentionsFrom(I)) {
      Needs = true;
      break;
    }
    auto *CB = dyn_cast<CallBase>(&I);
    if (!CB || isa<DbgInfoIntrinsic>(CB) || CB->isInlineAsm())
      continue;
    Function *Callee = CB->getCalledFunction();
    LibFunc LF;
    if (!Callee || (!Callee->isDeclaration() && needsCopy(*Callee)) ||
        (Callee->isDeclaration() && !Callee->isIntrinsic() &&
         !GetTLI(F).getLibFunc(*Callee, LF) &&
         any_of(CB->args(),
                [](const Use &A) { return A->getType()->isPointerTy(); }))) {
      Needs = true;
      break;
    }
  }
  NeedsCopy[&F] = Needs;
  return Needs;
}

Constant *Copier::packConstant(Constant *C) {
  Type *Ty = C->getType();
  if (!containsType(Ty, T.From) || isa<UndefValue>(C) || C->isNullValue())
    return C; // +0.0 packs to zero bits
  if (isa<ConstantExpr>(C))
    C = ConstantFoldConstant(C, M.getDataLayout());
  if (isa<ConstantExpr>(C))
    return nullptr;
  if (Ty->getScalarType() == T.From && T.Emulated)
    return roundConstantToLayout(C, *T.Emulated);
  if (Ty->getScalarType() == T.From) {
    IRBuilder<> B(M.getContext()); // folds: no instruction is made
    return dyn_cast<Constant>(pack(B, B.CreateFPTrunc(C, withScalar(Ty, T.To)),
                                   T, M.getDataLayout().isBigEndian()));
  }
  unsigned N = isa<StructType>(Ty) ? Ty->getStructNumElements()
                                   : Ty->getArrayNumElements();
  SmallVector<Constant *, 8> Elements;
  for (unsigned I = 0; I < N; ++I) {
    Constant *E = packConstant(C->getAggregateElement(I));
    if (!E)
      return nullptr;
    Elements.push_back(E);
  }
  if (auto *ST = dyn_cast<StructType>(Ty))
    return ConstantStruct::get(ST, Elements);
  return ConstantArray::get(cast<ArrayType>(Ty), Elements);
}

void Copier::mapGlobals(Function &F, ValueToValueMapTy &VMap) {
  for (Instruction &I : instructions(F))
    for (Value *Op : I.operands()) {
      // Globals appear directly or inside constant expressions (GEPs).
      SmallVector<Value *, 4> Stack{Op};
      while (!Stack.empty()) {
        Value *V = Stack.pop_back_val();
        if (auto *CE = dyn_cast<ConstantExpr>(V))
          append_range(Stack, CE->operands());
        auto *GV = dyn_cast<GlobalVariable>(V);
        if (!GV || VMap.count(GV) || !containsType(GV->getValueType(), T.From))
          continue;
        Constant *Packed = GV->isConstant() && GV->hasDefinitiveInitializer()
                               ? packConstant(GV->getInitializer())
                               : nullptr;
        if (!Packed) {
          Failed = true;
          reportError(F, &I,
                      Entry + " keeps " + formatName(T.From) +
                          " values in mem mode " +
                          (T.Emulated ? "rounded to " + T.toName()
                                      : "as " + formatName(T.To) +
                                            " values in their first bytes") +
                          ", but the global '" + GV->getName() +
                          "' holds ordinary ones shared with the rest of the "
                          "program; pass its values as arguments converted "
                          "with __enzyme_truncate_mem_value, or use "
                          "__enzyme_truncate_op_func");
          VMap[GV] = GV;
          continue;
        }
        std::string Name = (GV->getName() + ".mem" + T.tag()).str();
        GlobalVariable *Copy = M.getGlobalVariable(Name, true);
        if (!Copy) {
          Copy = new GlobalVariable(M, GV->getValueType(), true,
                                    GlobalValue::PrivateLinkage, Packed, Name);
          Copy->setAlignment(GV->getAlign());
          Copy->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
        }
        VMap[GV] = Copy;
      }
    }
}

Function *Copier::copyOf(Function &F) {
  std::string Name = ("__tapestry_truncate_" +
                      Twine(T.Mode == TruncationMode::Op ? "op_" : "mem_") +
                      T.tag() + "." + F.getName())
                         .str();
  if (Function *Existing = M.getFunction(Name))
    return Existing;
  ValueToValueMapTy VMap;
  if (T.Mode == TruncationMode::Mem)
    mapGlobals(F, VMap);
  Function *Copy = CloneFunction(&F, VMap);
  Copy->setName(Name);
  Copy->setLinkage(GlobalValue::InternalLinkage);
  Copy->setVisibility(GlobalValue::DefaultVisibility);
  Copy->setDLLStorageClass(GlobalValue::DefaultStorageClass);
  Copy->setComdat(nullptr);
  if (T.Mode == TruncationMode::Mem) {
    // Constants become packed values wherever they appear.
    for (Instruction &I : instructions(*Copy))
      for (Use &U : I.operands()) {
        auto *C = dyn_cast<Constant>(U.get());
        if (!C || isa<GlobalValue>(C) || !containsType(C->getType(), T.From))
          continue;
        if (Constant *P = packConstant(C)) {
          U.set(P);
          continue;
        }
        Failed = true;
        reportError(F, &I,
                    Entry + " cannot convert the constant " + describe(C) +
                        " to its mem-mode representation");
      }
  }
  if (!Truncator(T, Entry, GetTLI, this, F).run(*Copy))
    Failed = true;
  return Copy;
}

Function *truncatedFunction(Function &F, const Truncation &T, StringRef Entry,
                            TLIGetter GetTLI) {
  Copier C(*F.getParent(), T, Entry, GetTLI);
  Function *Copy = C.copyOf(F);
  return C.Failed ? nullptr : Copy;
}

bool truncateInPlace(Function &F, const Truncation &T, TLIGetter GetTLI) {
  if (isEmulationHelper(F))
    return true;
  return Truncator(T, "-enzyme-truncate-all", GetTLI, nullptr, F).run(F);
}

Value *toMemRepresentation(IRBuilderBase &B, Value *V, const Truncation &T) {
  if (T.Emulated)
    return roundToLayout(B, V, *T.Emulated);
  return pack(B, B.CreateFPTrunc(V, withScalar(V->getType(), T.To)), T,
              isBigEndian(B));
}

Value *fromMemRepresentation(IRBuilderBase &B, Value *V, const Truncation &T) {
  if (T.Emulated)
    return V;
  return B.CreateFPExt(unpack(B, V, T, isBigEndian(B)),
                       withScalar(V->getType(), T.From));
}

} // namespace tapestry
