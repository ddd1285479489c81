//===- IgnoreDerivatives.cpp - Enzyme's __enzyme_ignore_derivatives -------===//
//
// Implements IgnoreDerivatives.h: recognising a well-formed call (one
// floating-point or integer value, or a vector or struct of them, returned
// unchanged), giving the declaration pure attributes, and replacing the
// calls by their argument when TapestryPass has resolved every request
// (calls in derivatives included). Its inactivity in differentiated code is
// Core/KnownInactive's list.
//
//===----------------------------------------------------------------------===//
#include "Core/IgnoreDerivatives.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace tapestry {

bool isIgnoreDerivativesName(StringRef Name) {
  return Name.contains("__enzyme_ignore_derivatives");
}

/// True if no pointer is in \p T: a value whose derivative can be ignored
/// by dropping it (a pointer's shadow would still be needed).
static bool holdsNoPointer(Type *T) {
  if (T->isPointerTy() || T->isPtrOrPtrVectorTy())
    return false;
  if (auto *ST = dyn_cast<StructType>(T))
    return all_of(ST->elements(), holdsNoPointer);
  if (auto *AT = dyn_cast<ArrayType>(T))
    return holdsNoPointer(AT->getElementType());
  return T->isFPOrFPVectorTy() || T->isIntOrIntVectorTy();
}

std::string ignoreDerivativesProblem(const CallBase &CB) {
  Type *T = CB.getType();
  if (CB.arg_size() == 1 && CB.getArgOperand(0)->getType() == T &&
      holdsNoPointer(T))
    return "";
  return "__enzyme_ignore_derivatives(x) takes one floating-point value and "
         "returns it with no derivative; declare it with the value's type, "
         "e.g. 'double __enzyme_ignore_derivatives(double);' (pointers are "
         "not supported: mark the data enzyme_const instead)";
}

void declareIgnoreDerivativesPure(Module &M) {
  for (Function &F : M)
    if (F.isDeclaration() && isIgnoreDerivativesName(F.getName())) {
      F.setDoesNotAccessMemory();
      F.setDoesNotThrow();
      F.setWillReturn();
    }
}

void lowerIgnoreDerivatives(Module &M) {
  SmallVector<CallBase *, 8> Calls;
  for (Function &F : M)
    if (!F.isDeclaration())
      for (Instruction &I : instructions(F))
        if (auto *CB = dyn_cast<CallBase>(&I))
          if (auto *Callee = dyn_cast<Function>(
                  CB->getCalledOperand()->stripPointerCasts());
              Callee && Callee->isDeclaration() &&
              isIgnoreDerivativesName(Callee->getName()) &&
              ignoreDerivativesProblem(*CB).empty())
            Calls.push_back(CB);
  for (CallBase *CB : Calls) {
    CB->replaceAllUsesWith(CB->getArgOperand(0));
    // A C++ call may be an invoke: its normal path continues.
    if (auto *II = dyn_cast<InvokeInst>(CB))
      CB = changeToCall(II);
    CB->eraseFromParent();
  }
}

} // namespace tapestry
