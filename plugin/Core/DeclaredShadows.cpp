//===- DeclaredShadows.cpp - Shadows of globals the program names ---------===//
//
// Implements DeclaredShadows.h with Enzyme's metadata on the global,
// !enzyme_shadow !{ptr @s}.
//
//===----------------------------------------------------------------------===//
#include "Core/DeclaredShadows.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Metadata.h"

using namespace llvm;

namespace tapestry {

static constexpr const char *ShadowMD = "enzyme_shadow";

void declareShadow(GlobalVariable &G, GlobalVariable &Shadow) {
  G.setMetadata(ShadowMD, MDNode::get(G.getContext(),
                                      {ConstantAsMetadata::get(&Shadow)}));
}

GlobalVariable *declaredShadowOf(const GlobalVariable &G) {
  MDNode *MD = G.getMetadata(ShadowMD);
  if (!MD || MD->getNumOperands() != 1)
    return nullptr;
  auto *C = dyn_cast_or_null<ConstantAsMetadata>(MD->getOperand(0).get());
  return C ? dyn_cast<GlobalVariable>(C->getValue()->stripPointerCasts())
           : nullptr;
}

} // namespace tapestry
