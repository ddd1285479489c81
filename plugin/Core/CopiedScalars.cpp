//===- CopiedScalars.cpp - What a memcpy moves, as the source says --------===//
//
// Implements CopiedScalars.h: !tapestry.copy.types read and written.
//
//===----------------------------------------------------------------------===//
#include "Core/CopiedScalars.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tapestry {

static constexpr const char *CopyTypesMD = "tapestry.copy.types";
static constexpr const char *DescribedMD = "tapestry.copy.types.described";

std::optional<CopiedScalars> copiedScalars(const Instruction &I) {
  MDNode *N = I.getMetadata(CopyTypesMD);
  if (!N || N->getNumOperands() % 2 != 1)
    return std::nullopt;
  auto *Stride = mdconst::dyn_extract<ConstantInt>(N->getOperand(0));
  if (!Stride)
    return std::nullopt;
  CopiedScalars C;
  C.Stride = Stride->getZExtValue();
  for (unsigned K = 1; K + 1 < N->getNumOperands(); K += 2) {
    auto *Off = mdconst::dyn_extract<ConstantInt>(N->getOperand(K));
    auto *Val = mdconst::dyn_extract<Constant>(N->getOperand(K + 1));
    if (!Off || !Val)
      return std::nullopt;
    C.Scalars.push_back({Off->getZExtValue(), Val->getType()});
  }
  return C;
}

void setCopiedScalars(Instruction &I, const CopiedScalars &C) {
  LLVMContext &Ctx = I.getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  SmallVector<Metadata *, 16> Ops = {
      ConstantAsMetadata::get(ConstantInt::get(I64, C.Stride))};
  for (const auto &[Off, T] : C.Scalars) {
    Ops.push_back(ConstantAsMetadata::get(ConstantInt::get(I64, Off)));
    Ops.push_back(ConstantAsMetadata::get(PoisonValue::get(T)));
  }
  I.setMetadata(CopyTypesMD, MDNode::get(Ctx, Ops));
}

void setCopiesDescribed(Module &M) { M.getOrInsertNamedMetadata(DescribedMD); }

bool copiesDescribed(const Module &M) {
  return M.getNamedMetadata(DescribedMD);
}

} // namespace tapestry
