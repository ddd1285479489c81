//===- BatchRequest.cpp - __enzyme_batch: the primal over lanes -----------===//
//
// Implements BatchRequest.h: lowerBatchRequest decodes an __enzyme_batch call
// (enzyme_width, then each argument per lane or enzyme_scalar), calls the
// primal once per lane in order, and stores the N results into the shape the
// caller declared, reporting misuse at the call. No derivative is involved and
// the Driver is not asked; vectorising the lanes is left to the optimiser.
//
//===----------------------------------------------------------------------===//
#include "Passes/BatchRequest.h"

#include "Core/Batch.h"
#include "Core/Diagnostics.h"
#include "Core/Markers.h"
#include "Passes/RequestDecoder.h"
#include "Passes/StructArguments.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tapestry {

namespace {

class BatchLowering {
public:
  explicit BatchLowering(CallBase &CB) : CB(CB), B(&CB) {}
  bool run();

private:
  bool error(const Twine &Msg) {
    return reportError(*CB.getFunction(), &CB, Msg);
  }
  StringRef entryName() const { return entryPointName(CB); }
  std::string param(unsigned I) const {
    return ("parameter " + Twine(I + 1) + " of '" + sourceIdentifier(*Fn) +
            "' (" + describe(Fn->getFunctionType()->getParamType(I)) + ")")
        .str();
  }
  /// The next operand, converted to parameter \p I's type.
  Value *nextValue(unsigned I, const Twine &What);
  /// Hands the lanes' results to the caller in its declared shape.
  bool deliver(Value *Results);

  CallBase &CB;
  IRBuilder<> B;
  Function *Fn = nullptr;
  unsigned Next = 0;
  unsigned Width = 0;
  Value *SRet = nullptr;
};

} // namespace

Value *BatchLowering::nextValue(unsigned I, const Twine &What) {
  Type *T = Fn->getFunctionType()->getParamType(I);
  if (Next >= CB.arg_size()) {
    error("too few arguments: the call to " + entryName() + " ends before " +
          What + " of " + param(I) + " (enzyme_vector takes " + Twine(Width) +
          " values, one per lane; enzyme_scalar one value for all lanes)");
    return nullptr;
  }
  Value *V = CB.getArgOperand(Next++);
  if (StringRef M = markerName(V); !M.empty()) {
    error("expected " + What + " of " + param(I) + " but found the marker " +
          M + " (enzyme_vector takes " + Twine(Width) +
          " values, one per lane; enzyme_scalar one value for all lanes)");
    return nullptr;
  }
  if (Value *Converted = convertAsArgument(B, V, T))
    return Converted;
  error(What + " passed for " + param(I) + " has type " +
        describe(V->getType()));
  return nullptr;
}

/// The scalars \p T is made of, in memory order.
static void scalarsOf(Type *T, SmallVectorImpl<Type *> &Out) {
  if (auto *ST = dyn_cast<StructType>(T)) {
    for (Type *E : ST->elements())
      scalarsOf(E, Out);
  } else if (auto *AT = dyn_cast<ArrayType>(T)) {
    for (uint64_t I = 0; I < AT->getNumElements(); ++I)
      scalarsOf(AT->getElementType(), Out);
  } else if (auto *VT = dyn_cast<FixedVectorType>(T)) {
    for (unsigned I = 0; I < VT->getNumElements(); ++I)
      Out.push_back(VT->getElementType());
  } else {
    Out.push_back(T);
  }
}

bool BatchLowering::deliver(Value *Results) {
  Type *Declared = SRet ? CB.getParamStructRetType(0) : CB.getType();
  if (!SRet && (Declared->isVoidTy() || CB.use_empty()))
    return true;
  if (!Results)
    return error("the call to " + entryName() + " uses a result, but '" +
                 sourceIdentifier(*Fn) + "' returns nothing");
  Type *Actual = Results->getType();
  SmallVector<Type *, 8> Want, Have;
  scalarsOf(Declared, Want);
  scalarsOf(Actual, Have);
  const DataLayout &DL = CB.getModule()->getDataLayout();
  if (Want != Have ||
      DL.getTypeAllocSize(Declared) != DL.getTypeAllocSize(Actual))
    return error(
        "the call to " + entryName() + " is declared to return " +
        describe(Declared) + ", but its " + Twine(Width) + " lanes return " +
        describe(Actual) + "; declare it to return a struct (or array) of " +
        Twine(Width) + " " + describe(Fn->getReturnType()) + " values");
  if (SRet) {
    B.CreateStore(Results, SRet);
    return true;
  }
  Value *V = Results;
  if (Actual != Declared) {
    // Same scalars, another IR shape (the C ABI's coercion): via memory.
    Function &F = *CB.getFunction();
    IRBuilder<> EB(&F.getEntryBlock(), F.getEntryBlock().begin());
    AllocaInst *Tmp = EB.CreateAlloca(Actual, nullptr, "tapestry.batch");
    Tmp->setAlignment(
        std::max(DL.getPrefTypeAlign(Actual), DL.getPrefTypeAlign(Declared)));
    B.CreateStore(Results, Tmp);
    V = B.CreateLoad(Declared, Tmp);
  }
  CB.replaceAllUsesWith(V);
  return true;
}

bool BatchLowering::run() {
  unsigned First = 0;
  if (CB.hasStructRetAttr()) {
    SRet = CB.getArgOperand(0);
    First = 1;
  }
  Fn = requestTarget(CB);
  if (!Fn)
    return error("the first argument of " + entryName() +
                 " must be a function, e.g. (void *)f");
  if (Fn->isVarArg())
    return error("'" + sourceIdentifier(*Fn) +
                 "' is variadic; __enzyme_batch needs a fixed parameter list");
  Next = First + 1;
  if (Next >= CB.arg_size() ||
      markerName(CB.getArgOperand(Next)) != "enzyme_width")
    return error(entryName() + " takes enzyme_width, N right after the "
                               "function: the number of lanes");
  ++Next;
  std::optional<int64_t> N =
      Next < CB.arg_size() ? constantIntegerArgument(CB.getArgOperand(Next))
                           : std::nullopt;
  if (!N || *N < 1 || *N > int64_t(MaxBatchWidth))
    return error("the width after enzyme_width in " + entryName() +
                 " must be a compile-time constant between 1 and " +
                 Twine(MaxBatchWidth));
  ++Next;
  Width = *N;
  // A struct passed by value reaches the IR as several parameters (or
  // byval): lanes taken per IR parameter would mix the structs' members.
  if (SmallVector<AbiStruct, 4> Structs = structParams(*Fn); !Structs.empty())
    return error(Structs.front().describe() + ", a parameter of '" +
                 sourceName(*Fn) + "', is a struct passed by value, which " +
                 entryName() +
                 " does not take yet; pass a pointer to it instead");
  // Per parameter: its value in each lane.
  SmallVector<SmallVector<Value *, 8>, 8> Lanes(Width);
  for (unsigned I = 0; I < Fn->arg_size(); ++I) {
    bool Scalar = false;
    if (Next < CB.arg_size()) {
      StringRef M = markerName(CB.getArgOperand(Next));
      if (M == "enzyme_scalar" || M == "enzyme_vector") {
        Scalar = M == "enzyme_scalar";
        ++Next;
      } else if (std::string Why = unsupportedEnzymeMarker(M); !Why.empty()) {
        return error(Why + " (before " + param(I) + " in the call to " +
                     entryName() + ")");
      } else if (!M.empty()) {
        return error("unexpected marker " + M + " before " + param(I) +
                     " in the call to " + entryName() +
                     "; its arguments take enzyme_vector (one value per "
                     "lane, the default) or enzyme_scalar (one value for "
                     "all lanes)");
      }
    }
    if (Scalar) {
      Value *V = nextValue(I, "the shared value");
      if (!V)
        return false;
      for (unsigned L = 0; L < Width; ++L)
        Lanes[L].push_back(V);
      continue;
    }
    for (unsigned L = 0; L < Width; ++L) {
      Value *V = nextValue(I, "the value of lane " + Twine(L));
      if (!V)
        return false;
      Lanes[L].push_back(V);
    }
  }
  if (Next < CB.arg_size())
    return error("too many arguments: '" + sourceIdentifier(*Fn) + "' takes " +
                 Twine(Fn->arg_size()) + " parameters but the call to " +
                 entryName() + " passes " + Twine(CB.arg_size() - Next) +
                 " more value(s) than " + Twine(Width) + " lanes need");
  Type *RetTy = Fn->getReturnType();
  Value *Results = nullptr;
  if (!RetTy->isVoidTy())
    Results = PoisonValue::get(ArrayType::get(RetTy, Width));
  for (unsigned L = 0; L < Width; ++L) {
    CallInst *Call = B.CreateCall(Fn, Lanes[L]);
    Call->setDebugLoc(CB.getDebugLoc());
    if (Results)
      Results = B.CreateInsertValue(Results, Call, L);
  }
  if (!deliver(Results))
    return false;
  if (auto *II = dyn_cast<InvokeInst>(&CB)) {
    II->getUnwindDest()->removePredecessor(II->getParent());
    BranchInst::Create(II->getNormalDest(), II);
  }
  CB.eraseFromParent();
  return true;
}

bool lowerBatchRequest(CallBase &CB) { return BatchLowering(CB).run(); }

} // namespace tapestry
