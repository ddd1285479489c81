//===- ConstantArguments.cpp - Requests specialised for constants ---------===//
//
// Implements ConstantArguments.h.
//
//===----------------------------------------------------------------------===//
#include "Passes/ConstantArguments.h"

#include "Passes/RequestDecoder.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace tapestry {

/// On a specialised copy: the function it copies, then (parameter index,
/// constant) per parameter replaced.
static constexpr const char *SpecializedFromMD = "tapestry.specialized.from";

void specializeConstantArguments(DecodedCall &D, Specializations &Specs,
                                 bool Nulls) {
  SmallVector<std::pair<unsigned, Constant *>, 2> Known;
  Function *Fn = D.Request.Fn;
  for (unsigned I = 0; I < D.Primals.size(); ++I) {
    if (D.Request.Args[I] != Activity::Const || !D.Primals[I] ||
        Fn->getArg(I)->use_empty())
      continue;
    if (auto *Callback = dyn_cast<Function>(D.Primals[I]->stripPointerCasts()))
      Known.push_back({I, Callback});
    else if (Nulls && isa<ConstantPointerNull>(D.Primals[I]) &&
             Fn->getArg(I)->getType()->isPointerTy())
      Known.push_back({I, Constant::getNullValue(Fn->getArg(I)->getType())});
  }
  if (Known.empty())
    return;
  Function *&Spec = Specs[{Fn, Known}];
  if (!Spec) {
    ValueToValueMapTy VMap;
    Spec = CloneFunction(Fn, VMap);
    Spec->setName(Fn->getName() + ".tapestry.const");
    Spec->setLinkage(GlobalValue::InternalLinkage);
    Spec->setCallingConv(CallingConv::C);
    LLVMContext &C = Fn->getContext();
    SmallVector<Metadata *, 5> From{ValueAsMetadata::get(Fn)};
    for (auto [I, Value] : Known) {
      Spec->getArg(I)->replaceAllUsesWith(Value);
      From.push_back(
          ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(C), I)));
      From.push_back(ConstantAsMetadata::get(Value));
    }
    Spec->setMetadata(SpecializedFromMD, MDNode::get(C, From));
  }
  D.Request.Fn = Spec;
}

Function *specializedFrom(const Function &Spec) {
  MDNode *From = Spec.getMetadata(SpecializedFromMD);
  return From ? mdconst::dyn_extract<Function>(From->getOperand(0)) : nullptr;
}

bool isSpecializationFor(const Function &Spec, const DecodedCall &Peeked) {
  MDNode *From = Spec.getMetadata(SpecializedFromMD);
  if (!From || From->getNumOperands() % 2 != 1)
    return false;
  auto *Base = mdconst::dyn_extract<Function>(From->getOperand(0));
  if (Base != Peeked.Request.Fn)
    return false;
  for (unsigned K = 1; K + 1 < From->getNumOperands(); K += 2) {
    auto *I = mdconst::dyn_extract<ConstantInt>(From->getOperand(K));
    auto *Value = mdconst::dyn_extract<Constant>(From->getOperand(K + 1));
    if (!I || !Value || I->getZExtValue() >= Peeked.Primals.size())
      return false;
    unsigned Arg = I->getZExtValue();
    const llvm::Value *Passed = Peeked.Primals[Arg];
    if (Peeked.Request.Args[Arg] != Activity::Const || !Passed ||
        Passed->stripPointerCasts() != Value)
      return false;
  }
  return true;
}

} // namespace tapestry
