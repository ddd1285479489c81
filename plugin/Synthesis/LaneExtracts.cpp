//===- LaneExtracts.cpp - Vector lanes read through integers --------------===//
//
// Implements LaneExtracts.h: restoreLaneExtracts finds each bitcast of an
// integer made by a shift and a truncation of a bitcast floating-point vector,
// and replaces the chain by the extractelement or shufflevector it stands for.
// Primal preparation runs it as part of simplification; it changes no value,
// only the form AD sees.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/LaneExtracts.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace tapestry {

/// A read of lanes of a floating-point vector through integers, ending in
/// \p BC (`bitcast iE to T`): the vector, the first lane and the number of
/// lanes (T is the element type, or a vector of it).
struct LaneRead {
  Value *Vec;
  unsigned First, Count;
};

static std::optional<LaneRead> laneRead(BitCastInst &BC) {
  Type *T = BC.getType();
  if (!T->isFPOrFPVectorTy() || isa<ScalableVectorType>(T))
    return std::nullopt;
  Value *Wide = nullptr;
  if (!match(BC.getOperand(0), m_Trunc(m_Value(Wide))))
    return std::nullopt;
  uint64_t Shift = 0;
  const APInt *C;
  if (match(Wide, m_LShr(m_Value(Wide), m_APInt(C))))
    Shift = C->getLimitedValue();
  Value *Vec = nullptr;
  if (!match(Wide, m_BitCast(m_Value(Vec))))
    return std::nullopt;
  auto *VT = dyn_cast<FixedVectorType>(Vec->getType());
  if (!VT || VT->getElementType() != T->getScalarType())
    return std::nullopt;
  uint64_t Bits = T->getScalarSizeInBits();
  auto *RT = dyn_cast<FixedVectorType>(T);
  unsigned Count = RT ? RT->getNumElements() : 1;
  if (Shift % Bits || Shift / Bits + Count > VT->getNumElements())
    return std::nullopt;
  return LaneRead{Vec, static_cast<unsigned>(Shift / Bits), Count};
}

bool restoreLaneExtracts(Function &F) {
  if (!F.getParent()->getDataLayout().isLittleEndian())
    return false;
  SmallVector<std::pair<BitCastInst *, LaneRead>, 4> Reads;
  for (Instruction &I : instructions(F))
    if (auto *BC = dyn_cast<BitCastInst>(&I))
      if (auto Lanes = laneRead(*BC))
        Reads.push_back({BC, *Lanes});
  for (auto &[BC, L] : Reads) {
    IRBuilder<> B(BC);
    Value *E;
    if (BC->getType()->isVectorTy()) {
      SmallVector<int, 16> Mask;
      for (unsigned I = 0; I < L.Count; ++I)
        Mask.push_back(L.First + I);
      E = B.CreateShuffleVector(L.Vec, Mask, BC->getName());
    } else {
      E = B.CreateExtractElement(L.Vec, B.getInt64(L.First), BC->getName());
    }
    BC->replaceAllUsesWith(E);
    RecursivelyDeleteTriviallyDeadInstructions(BC);
  }
  return !Reads.empty();
}

} // namespace tapestry
