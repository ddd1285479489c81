//===- FloatingPointReturns.cpp - Adjoints returned in SSE registers ------===//
//
// Implements FloatingPointReturns.h: counts the float and double scalars of
// each synthesised function's returned struct, and where they outnumber
// XMM0 and XMM1 (the x87 stack would take the rest) switches the function
// and its direct calls to x86_regcallcc, whose returns use XMM0-XMM15.
// Functions whose address is taken, that are variadic, or that pass
// memory arguments (byval, sret) or long doubles keep the C convention.
//
//===----------------------------------------------------------------------===//
#include "Passes/FloatingPointReturns.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

#define DEBUG_TYPE "tapestry"

using namespace llvm;

namespace tapestry {

/// The float and double scalars of \p T (a struct of adjoints), or -1 if it
/// holds a long double, which the x87 stack returns in either convention.
static int floatingPointScalars(Type *T) {
  if (T->isX86_FP80Ty() || T->isFP128Ty())
    return -1;
  if (T->isFloatTy() || T->isDoubleTy())
    return 1;
  auto Sum = [](ArrayRef<Type *> Elements) {
    int N = 0;
    for (Type *E : Elements) {
      int K = floatingPointScalars(E);
      if (K < 0)
        return -1;
      N += K;
    }
    return N;
  };
  if (auto *ST = dyn_cast<StructType>(T))
    return Sum(ST->elements());
  if (auto *AT = dyn_cast<ArrayType>(T)) {
    int K = floatingPointScalars(AT->getElementType());
    return K < 0 ? -1 : K * (int)AT->getNumElements();
  }
  return 0;
}

/// True if \p F's arguments all pass in registers or as plain stack slots
/// under either convention.
static bool hasPlainArguments(const Function &F) {
  return none_of(F.args(), [](const Argument &A) {
    return A.hasByValAttr() || A.hasStructRetAttr() || A.hasInAllocaAttr() ||
           A.hasPreallocatedAttr() || A.getType()->isX86_FP80Ty() ||
           A.getType()->isFP128Ty();
  });
}

/// True if every use of \p F is a direct call of it.
static bool onlyCalledDirectly(const Function &F) {
  return all_of(F.uses(), [](const Use &U) {
    const auto *CB = dyn_cast<CallBase>(U.getUser());
    return CB && CB->isCallee(&U);
  });
}

bool returnFloatingPointInRegisters(Module &M) {
  Triple T(M.getTargetTriple());
  if (T.getArch() != Triple::x86_64 || T.isOSWindows())
    return false;
  bool Changed = false;
  for (Function &F : M) {
    if (F.isDeclaration() || !F.hasLocalLinkage() || F.isVarArg() ||
        F.getCallingConv() != CallingConv::C ||
        !F.getName().contains(".tapestry."))
      continue;
    auto *ST = dyn_cast<StructType>(F.getReturnType());
    if (!ST || floatingPointScalars(ST) <= 2 || !hasPlainArguments(F) ||
        !onlyCalledDirectly(F))
      continue;
    F.setCallingConv(CallingConv::X86_RegCall);
    for (User *U : F.users())
      cast<CallBase>(U)->setCallingConv(CallingConv::X86_RegCall);
    Changed = true;
  }
  return Changed;
}

} // namespace tapestry
