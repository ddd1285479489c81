//===- MathFunctions.cpp - Recognise differentiable math functions --------===//
//
// Implements MathFunctions.h by expanding the TAPESTRY_MATH entries of
// DerivativeRules.def into a table of names, intrinsics and arities:
// findMathFunction matches a call by intrinsic or by C library name (double,
// float and long double spellings, and vector-function-ABI variants parsed by
// parseVectorVariant) only when its signature has the expected shape. The
// partial derivatives are built in Synthesis/DerivativeRules.cpp, not here.
//
//===----------------------------------------------------------------------===//
#include "Core/MathFunctions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/DerivedTypes.h"
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
  // The float and long double spellings of lgamma_r put the suffix inside.
  if (Name == "lgammaf_r" || Name == "lgammal_r")
    Name = "lgamma_r";
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
/// parameters of the return type (ldexp's and scalbn's second is an integer,
/// frexp's, modf's and lgamma_r's a pointer, remquo's third), and a
/// masked vector variant's mask after them.
static bool hasMathSignature(FunctionType *FT, const MathFunction &M,
                             bool Masked) {
  Type *RetTy = FT->getReturnType();
  if (!RetTy->isFPOrFPVectorTy() ||
      FT->getNumParams() != M.NumOperands + Masked || FT->isVarArg())
    return false;
  for (unsigned I = 0; I < M.NumOperands; ++I) {
    Type *PT = FT->getParamType(I);
    StringRef Lib = M.LibName;
    bool IntOperand =
        I == 1 && (M.IID == Intrinsic::ldexp || M.IID == Intrinsic::powi ||
                   Lib == "scalbn" || Lib == "scalbln");
    bool PtrOperand =
        (I == 1 && (Lib == "frexp" || Lib == "modf" || Lib == "lgamma_r")) ||
        (I == 2 && Lib == "remquo");
    if (PtrOperand   ? !PT->isPointerTy()
        : IntOperand ? !PT->isIntegerTy()
                     : PT != RetTy)
      return false;
  }
  return true;
}

static bool hasMathSignature(const CallBase &CB, const MathFunction &M,
                             bool Masked = false) {
  return hasMathSignature(CB.getFunctionType(), M, Masked);
}

bool hasMathSignature(FunctionType &FT, const MathFunction &M) {
  return hasMathSignature(&FT, M, /*Masked=*/false);
}

bool mathWritesMemory(const CallBase &CB) {
  return any_of(CB.args(),
                [](const Value *A) { return A->getType()->isPointerTy(); });
}

VectorVariant parseVectorVariant(StringRef Name) {
  // _ZGV <isa letter> <N|M> <lanes> <one 'v' per parameter> _ <scalar name>
  VectorVariant V;
  if (!Name.consume_front("_ZGV") || Name.size() < 4)
    return V;
  Name = Name.drop_front(); // the instruction set: b, c, d, e, n, s, ...
  bool Masked = Name.front() == 'M';
  if (!Masked && Name.front() != 'N')
    return V;
  Name = Name.drop_front();
  unsigned Lanes = 0;
  if (Name.consumeInteger(10, Lanes) || Lanes == 0)
    return V;
  size_t Params = Name.find_first_not_of('v');
  if (Params == 0 || Params == StringRef::npos || Name[Params] != '_')
    return V;
  V.ScalarName = Name.drop_front(Params + 1);
  V.Lanes = Lanes;
  V.NumParams = Params;
  V.Masked = Masked;
  return V;
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
  StringRef Name = Callee->getName();
  // A vector variant of a math function (libmvec's _ZGVdN4v_sin, which
  // -fveclib=libmvec makes the loop vectoriser call) has the scalar
  // function's derivative lane by lane.
  bool Masked = false;
  if (VectorVariant V = parseVectorVariant(Name)) {
    auto *VT = dyn_cast<FixedVectorType>(CB.getType());
    if (!VT || VT->getNumElements() != V.Lanes)
      return nullptr;
    Name = V.ScalarName;
    Masked = V.Masked;
  }
  const MathFunction *M = findMathLibraryFunction(Name);
  return M && hasMathSignature(CB, *M, Masked) ? M : nullptr;
}

} // namespace tapestry
