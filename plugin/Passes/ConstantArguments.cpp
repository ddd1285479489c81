//===- ConstantArguments.cpp - Requests specialised for constants ---------===//
//
// Implements ConstantArguments.h.
//
//===----------------------------------------------------------------------===//
#include "Passes/ConstantArguments.h"

#include "Passes/RequestDecoder.h"
#include "Passes/RequestOrder.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace tapestry {

/// On a specialised copy: the function it copies, then (parameter index,
/// constant) per parameter replaced.
static constexpr const char *SpecializedFromMD = "tapestry.specialized.from";

/// True for the entry points whose halves meet through a tape.
static bool isSplitHalf(EntryPoint Kind) {
  return Kind == EntryPoint::AugmentedForward ||
         Kind == EntryPoint::SplitReverse || Kind == EntryPoint::AugmentSize ||
         Kind == EntryPoint::ForwardSplit;
}

SplitConstants SplitConstants::collect(ArrayRef<PendingRequest> Pending) {
  SplitConstants S;
  for (const PendingRequest &Req : Pending) {
    if (!isSplitHalf(Req.Kind) || Req.Kind == EntryPoint::AugmentSize)
      continue;
    std::optional<DecodedCall> D = peekRequest(*Req.CB, Req.Kind);
    if (!D)
      continue;
    for (unsigned I = 0; I < D->Primals.size(); ++I) {
      if (D->Request.Args[I] != Activity::Const || !D->Primals[I] ||
          !D->Primals[I]->getType()->isPointerTy())
        continue;
      auto *Callback = dyn_cast<Function>(D->Primals[I]->stripPointerCasts());
      S.Passed[{D->Request.Fn, I}].push_back(Callback);
    }
  }
  return S;
}

Constant *SplitConstants::agreed(const Function *Fn, unsigned Arg) const {
  auto It = Passed.find({Fn, Arg});
  if (It == Passed.end() || !all_equal(It->second))
    return nullptr;
  return It->second.front();
}

bool SplitConstants::unknown(const Function *Fn, unsigned Arg) const {
  auto It = Passed.find({Fn, Arg});
  return It != Passed.end() && is_contained(It->second, nullptr);
}

void specializeConstantArguments(DecodedCall &D, Specializations &Specs,
                                 EntryPoint Kind, const SplitConstants &Split) {
  if (Kind == EntryPoint::Thunk)
    return;
  bool Half = isSplitHalf(Kind);
  SmallVector<std::pair<unsigned, Constant *>, 2> Known;
  Function *Fn = D.Request.Fn;
  for (unsigned I = 0; I < D.Request.Args.size(); ++I) {
    if (D.Request.Args[I] != Activity::Const || Fn->getArg(I)->use_empty())
      continue;
    if (Half) {
      if (Split.unknown(Fn, I))
        continue;
      // Also for __enzyme_augmentsize, which passes no values.
      if (Constant *Callback = Split.agreed(Fn, I)) {
        Known.push_back({I, Callback});
        continue;
      }
      // Different functions in different requests: each its own, and the
      // halves' comparison (SplitCallSites.h) reports a tape made with one
      // and used with another.
    }
    Value *Primal = I < D.Primals.size() ? D.Primals[I] : nullptr;
    if (!Primal)
      continue;
    if (auto *Callback = dyn_cast<Function>(Primal->stripPointerCasts()))
      Known.push_back({I, Callback});
    else if (!Half && isa<ConstantPointerNull>(Primal) &&
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
