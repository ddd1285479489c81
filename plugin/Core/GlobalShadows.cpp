//===- GlobalShadows.cpp - Shadows of global variables --------------------===//
#include "Core/GlobalShadows.h"

#include "Core/Batch.h"
#include "Core/CustomRules.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

#define DEBUG_TYPE "tapestry"

using namespace llvm;

namespace tapestry {

static bool holdsFloatingPoint(Type *T) {
  if (T->isFPOrFPVectorTy())
    return true;
  if (auto *ST = dyn_cast<StructType>(T))
    return any_of(ST->elements(), holdsFloatingPoint);
  if (auto *AT = dyn_cast<ArrayType>(T))
    return holdsFloatingPoint(AT->getElementType());
  return false;
}

/// The global that \p I writes a non-constant floating-point value into,
/// or null.
static GlobalVariable *writtenGlobal(Instruction &I) {
  Value *Ptr = nullptr;
  if (auto *SI = dyn_cast<StoreInst>(&I)) {
    Value *V = SI->getValueOperand();
    if (isa<Constant>(V) || !holdsFloatingPoint(V->getType()))
      return nullptr;
    Ptr = SI->getPointerOperand();
  } else if (auto *MT = dyn_cast<MemTransferInst>(&I)) {
    auto *From = dyn_cast<GlobalVariable>(getUnderlyingObject(MT->getSource()));
    if (From && From->isConstant())
      return nullptr;
    Ptr = MT->getDest();
  } else {
    return nullptr;
  }
  auto *GV = dyn_cast<GlobalVariable>(getUnderlyingObject(Ptr));
  if (!GV || GV->isConstant() || !holdsFloatingPoint(GV->getValueType()))
    return nullptr;
  return GV;
}

GlobalShadows
GlobalShadows::collect(Module &M, const SmallPtrSetImpl<Function *> &Reachable,
                       const CustomRules &Rules) {
  GlobalShadows S;
  for (Function &F : M)
    if (Reachable.count(&F))
      for (Instruction &I : instructions(F))
        if (GlobalVariable *GV = writtenGlobal(I))
          if (!Rules.isInactiveGlobal(GV) && S.Globals.insert(GV))
            LLVM_DEBUG(dbgs() << "tapestry: global '" << GV->getName()
                              << "' gets a shadow\n");
  // The functions that use a shadowed global (through constant
  // expressions too), then their callers.
  SmallVector<User *, 16> Work;
  for (GlobalVariable *GV : S.Globals)
    Work.append(GV->user_begin(), GV->user_end());
  while (!Work.empty()) {
    User *U = Work.pop_back_val();
    if (auto *I = dyn_cast<Instruction>(U))
      S.Touching.insert(I->getFunction());
    else if (isa<ConstantExpr>(U))
      Work.append(U->user_begin(), U->user_end());
  }
  for (bool Changed = !S.Touching.empty(); Changed;) {
    Changed = false;
    for (Function &F : M)
      if (Reachable.count(&F) && !S.Touching.count(&F) &&
          any_of(instructions(F), [&](Instruction &I) {
            auto *CB = dyn_cast<CallBase>(&I);
            return CB && CB->getCalledFunction() &&
                   S.Touching.count(CB->getCalledFunction());
          }))
        Changed = S.Touching.insert(&F).second;
  }
  return S;
}

bool GlobalShadows::contains(const Value *V) const {
  auto *GV = dyn_cast<GlobalVariable>(V);
  return GV && Globals.count(const_cast<GlobalVariable *>(GV));
}

GlobalVariable *GlobalShadows::shadowOf(GlobalVariable &G, unsigned Lane) {
  Module &M = *G.getParent();
  std::string Name = (G.getName() + ".tapestry.shadow").str();
  if (Lane)
    Name += std::to_string(Lane);
  if (GlobalVariable *S = M.getGlobalVariable(Name, /*AllowInternal=*/true))
    return S;
  auto *S = new GlobalVariable(
      M, G.getValueType(), /*isConstant=*/false, GlobalValue::InternalLinkage,
      Constant::getNullValue(G.getValueType()), Name, nullptr,
      G.getThreadLocalMode(), G.getAddressSpace());
  S->setAlignment(G.getAlign());
  return S;
}

Constant *GlobalShadows::batchShadowOf(GlobalVariable &G, unsigned W) {
  if (W == 1)
    return shadowOf(G);
  SmallVector<Constant *, 4> Lanes;
  for (unsigned K = 0; K < W; ++K)
    Lanes.push_back(shadowOf(G, K));
  return ConstantArray::get(cast<ArrayType>(batchType(G.getType(), W)), Lanes);
}

} // namespace tapestry
