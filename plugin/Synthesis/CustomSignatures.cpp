//===- CustomSignatures.cpp - Types registered derivatives must have ------===//
//
// Implements CustomSignatures.h: the function types Enzyme's conventions give a
// registered forward derivative, augmented forward and reverse of a function
// (forwardDerivativeType, augmentedType, reverseType), and whether an augmented
// forward returns a tape or the primal result. The synthesizers compare a
// registration against these types (SynthesizerBase's checkCustomSignature)
// before they call it; nothing here emits IR.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/CustomSignatures.h"

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"

using namespace llvm;

namespace tapestry {

static SmallVector<Type *, 8> withShadows(const Function &F, bool FPToo) {
  SmallVector<Type *, 8> Params;
  for (Type *T : F.getFunctionType()->params()) {
    Params.push_back(T);
    if (T->isPointerTy() || (FPToo && T->isFPOrFPVectorTy()))
      Params.push_back(T);
  }
  return Params;
}

FunctionType *forwardDerivativeType(const Function &F) {
  return FunctionType::get(F.getReturnType(), withShadows(F, true), false);
}

bool augmentedReturnsTape(const Function &F, const Function &Aug) {
  Type *R = Aug.getReturnType(), *FR = F.getReturnType();
  if (auto *ST = dyn_cast<StructType>(R))
    return ST->getNumElements() == 2 && ST->getElementType(0)->isPointerTy();
  return R->isPointerTy() && !FR->isPointerTy();
}

bool augmentedReturnsPrimal(const Function &F, const Function &Aug) {
  Type *R = Aug.getReturnType(), *FR = F.getReturnType();
  if (FR->isVoidTy())
    return false;
  if (auto *ST = dyn_cast<StructType>(R))
    return ST->getNumElements() == 2 && ST->getElementType(1) == FR;
  return R == FR;
}

FunctionType *augmentedType(const Function &F, const Function &Aug) {
  LLVMContext &C = F.getContext();
  Type *FR = F.getReturnType(), *Ptr = PointerType::getUnqual(C);
  Type *R = Aug.getReturnType();
  bool Allowed = R->isVoidTy() || R == Ptr || R == FR ||
                 (isa<StructType>(R) && augmentedReturnsTape(F, Aug) &&
                  augmentedReturnsPrimal(F, Aug));
  if (!Allowed)
    R = Ptr;
  return FunctionType::get(R, withShadows(F, false), false);
}

FunctionType *reverseType(const Function &F, bool HasTape) {
  LLVMContext &C = F.getContext();
  SmallVector<Type *, 8> Params = withShadows(F, false);
  Type *FR = F.getReturnType();
  if (FR->isFPOrFPVectorTy())
    Params.push_back(FR);
  if (HasTape)
    Params.push_back(PointerType::getUnqual(C));
  SmallVector<Type *, 4> Adjoints;
  for (Type *T : F.getFunctionType()->params())
    if (T->isFPOrFPVectorTy())
      Adjoints.push_back(T);
  Type *R = Adjoints.empty()       ? Type::getVoidTy(C)
            : Adjoints.size() == 1 ? Adjoints.front()
                                   : StructType::get(C, Adjoints);
  return FunctionType::get(R, Params, false);
}

} // namespace tapestry
