//===- MathFunctions.cpp --------------------------------------------------===//
#include "Core/MathFunctions.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"

using namespace llvm;

namespace tapestry {

namespace {
const MathFunction Table[] = {
#define TAPESTRY_MATH(Name, IID, Lib, N, D0, D1, D2) {#Name, N, IID, Lib},
#include "Core/DerivativeRules.def"
};
} // namespace

ArrayRef<MathFunction> mathFunctions() { return Table; }

const MathFunction *findMathLibraryFunction(StringRef Name) {
  for (const MathFunction &M : Table) {
    StringRef Lib = M.LibName;
    if (Lib.empty() || !Name.starts_with(Lib))
      continue;
    StringRef Rest = Name.drop_front(Lib.size());
    if (Rest.empty() || Rest == "f" || Rest == "l")
      return &M;
  }
  return nullptr;
}

/// A library function matches only with the expected shape: N floating-point
/// parameters of the return type (ldexp's second is an integer).
static bool hasMathSignature(const CallBase &CB, const MathFunction &M) {
  FunctionType *FT = CB.getFunctionType();
  Type *RetTy = FT->getReturnType();
  if (!RetTy->isFPOrFPVectorTy() || FT->getNumParams() != M.NumOperands ||
      FT->isVarArg())
    return false;
  for (unsigned I = 0; I < M.NumOperands; ++I) {
    Type *PT = FT->getParamType(I);
    bool IntOperand =
        I == 1 && (M.IID == Intrinsic::ldexp || M.IID == Intrinsic::powi);
    if (IntOperand ? !PT->isIntegerTy() : PT != RetTy)
      return false;
  }
  return true;
}

const MathFunction *findMathFunction(const CallBase &CB) {
  const Function *Callee = CB.getCalledFunction();
  if (!Callee)
    return nullptr;
  if (Intrinsic::ID IID = Callee->getIntrinsicID()) {
    for (const MathFunction &M : Table)
      if (M.IID == IID)
        return &M;
    return nullptr;
  }
  const MathFunction *M = findMathLibraryFunction(Callee->getName());
  return M && hasMathSignature(CB, *M) ? M : nullptr;
}

} // namespace tapestry
