//===- SignBitOperations.cpp - Sign changes through the bits as math ------===//
//
// Implements SignBitOperations.h: each floating-point bitcast of an integer
// that clears, flips, sets or copies the sign bit becomes the floating-point
// operation it is.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/SignBitOperations.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace tapestry {

/// \p X, an integer, as the floating-point type \p T of its width: the
/// value it was bitcast from, if it was, else a bitcast.
static Value *asFloatingPoint(IRBuilderBase &B, Value *X, Type *T) {
  if (auto *BC = dyn_cast<BitCastInst>(X); BC && BC->getSrcTy() == T)
    return BC->getOperand(0);
  return B.CreateBitCast(X, T, X->getName() + ".fp");
}

/// The floating-point operation \p BC (`bitcast iN to T`) stands for, built
/// before it, or null.
static Value *signOperation(BitCastInst &BC) {
  Type *T = BC.getType();
  Type *IntTy = BC.getSrcTy();
  if (!T->isFPOrFPVectorTy() || !IntTy->isIntOrIntVectorTy())
    return nullptr;
  unsigned Bits = IntTy->getScalarSizeInBits();
  APInt Sign = APInt::getSignMask(Bits), Rest = ~Sign;
  Value *Int = BC.getOperand(0), *X = nullptr, *Y = nullptr;
  const APInt *C = nullptr, *D = nullptr, *E = nullptr;
  IRBuilder<> B(&BC);
  if (match(Int, m_Or(m_And(m_Value(X), m_APInt(C)),
                      m_And(m_Value(Y), m_APInt(D))))) {
    if (*C == Sign && *D == Rest)
      std::swap(X, Y);
    else if (!(*C == Rest && *D == Sign))
      return nullptr;
    return B.CreateBinaryIntrinsic(Intrinsic::copysign,
                                   asFloatingPoint(B, X, T),
                                   asFloatingPoint(B, Y, T));
  }
  if (match(Int, m_And(m_Value(X), m_APInt(E))) && *E == Rest)
    return B.CreateUnaryIntrinsic(Intrinsic::fabs, asFloatingPoint(B, X, T));
  if (match(Int, m_Xor(m_Value(X), m_APInt(E))) && *E == Sign)
    return B.CreateFNeg(asFloatingPoint(B, X, T));
  if (match(Int, m_Or(m_Value(X), m_APInt(E))) && *E == Sign)
    return B.CreateFNeg(
        B.CreateUnaryIntrinsic(Intrinsic::fabs, asFloatingPoint(B, X, T)));
  return nullptr;
}

bool lowerSignBitOperations(Function &F) {
  SmallVector<std::pair<BitCastInst *, Value *>, 4> Done;
  for (Instruction &I : instructions(F))
    if (auto *BC = dyn_cast<BitCastInst>(&I))
      if (Value *V = signOperation(*BC))
        Done.push_back({BC, V});
  for (auto [BC, V] : Done) {
    V->takeName(BC);
    BC->replaceAllUsesWith(V);
    RecursivelyDeleteTriviallyDeadInstructions(BC);
  }
  return !Done.empty();
}

} // namespace tapestry
