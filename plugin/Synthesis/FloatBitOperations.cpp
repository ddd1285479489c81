//===- FloatBitOperations.cpp - Float operations on the bits as math ------===//
//
// Implements FloatBitOperations.h: each floating-point bitcast of an integer
// that clears, flips, sets or copies the sign bit, or that picks lanes by a
// compare's mask, becomes the floating-point operation it is.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/FloatBitOperations.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Utils/Local.h"
#include <optional>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace tapestry {

/// \p V without the bitcasts around it.
static Value *stripBitCasts(Value *V) {
  while (auto *BC = dyn_cast<BitCastInst>(V))
    V = BC->getOperand(0);
  return V;
}

/// \p X, an integer, as the floating-point type \p T of its width: the
/// value it was bitcast from, if it was, else a bitcast.
static Value *asFloatingPoint(IRBuilderBase &B, Value *X, Type *T) {
  if (auto *BC = dyn_cast<BitCastInst>(X); BC && BC->getSrcTy() == T)
    return BC->getOperand(0);
  return B.CreateBitCast(X, T, X->getName() + ".fp");
}

/// A mask that keeps whole lanes: the lane-by-lane sign extension of a
/// condition (through bitcasts: Eigen's compares return the mask as
/// doubles), its complement (`xor m, -1`), or a constant whose lanes are
/// each all ones or all zeros (a blend the optimiser folded). Lanes where
/// Cond holds keep their bits, unless Inverted.
struct LaneMask {
  Value *Cond = nullptr;
  bool Inverted = false;
};

static std::optional<LaneMask> laneMask(Value *M, Type *IntTy) {
  LaneMask L;
  Value *Inner = nullptr;
  if (match(M, m_Not(m_Value(Inner)))) {
    L.Inverted = true;
    M = Inner;
  }
  Value *C = nullptr;
  Value *Bare = stripBitCasts(M);
  if (Bare->getType() == IntTy && match(Bare, m_SExt(m_Value(C))) &&
      C->getType()->getScalarType()->isIntegerTy(1)) {
    L.Cond = C;
    return L;
  }
  auto *K = dyn_cast<Constant>(M);
  if (!K || K->getType() != IntTy || L.Inverted)
    return std::nullopt;
  // Lanes all ones or all zeros: the condition as an i1 constant.
  auto LaneBit = [](Constant *E) -> std::optional<bool> {
    if (auto *CI = dyn_cast_or_null<ConstantInt>(E))
      if (CI->isZero() || CI->isMinusOne())
        return CI->isMinusOne();
    return std::nullopt;
  };
  LLVMContext &Ctx = IntTy->getContext();
  if (auto *VT = dyn_cast<FixedVectorType>(IntTy)) {
    SmallVector<Constant *, 8> Bits;
    for (unsigned I = 0; I < VT->getNumElements(); ++I) {
      std::optional<bool> B = LaneBit(K->getAggregateElement(I));
      if (!B)
        return std::nullopt;
      Bits.push_back(ConstantInt::getBool(Ctx, *B));
    }
    L.Cond = ConstantVector::get(Bits);
    return L;
  }
  std::optional<bool> B = LaneBit(K);
  if (!B)
    return std::nullopt;
  L.Cond = ConstantInt::getBool(Ctx, *B);
  return L;
}

/// If \p V is `and x, m` (either order) with m a lane mask: x and the mask.
static std::optional<std::pair<Value *, LaneMask>> masked(Value *V,
                                                          Type *IntTy) {
  Value *A = nullptr, *B = nullptr;
  if (!match(V, m_And(m_Value(A), m_Value(B))))
    return std::nullopt;
  for (auto [X, M] : {std::pair(A, B), std::pair(B, A)})
    if (std::optional<LaneMask> L = laneMask(M, IntTy))
      return std::pair(X, *L);
  return std::nullopt;
}

/// Whether the two masks keep complementary lanes.
static bool complementary(const LaneMask &P, const LaneMask &Q) {
  if (P.Cond == Q.Cond)
    return P.Inverted != Q.Inverted;
  auto *A = dyn_cast<Constant>(P.Cond), *B = dyn_cast<Constant>(Q.Cond);
  if (!A || !B || P.Inverted || Q.Inverted)
    return false;
  return ConstantExpr::getXor(A, B) == Constant::getAllOnesValue(A->getType());
}

/// The floating-point select \p BC (`bitcast iN to T`) stands for, built
/// before it, or null.
static Value *maskSelect(BitCastInst &BC, IRBuilderBase &B) {
  Type *T = BC.getType(), *IntTy = BC.getSrcTy();
  Value *Int = BC.getOperand(0), *L = nullptr, *R = nullptr;
  if (match(Int, m_Or(m_Value(L), m_Value(R)))) {
    auto X = masked(L, IntTy), Y = masked(R, IntTy);
    if (!X || !Y || !complementary(X->second, Y->second))
      return nullptr;
    // Where X's mask keeps its lanes, X; elsewhere Y.
    if (X->second.Inverted)
      std::swap(X, Y);
    return B.CreateSelect(X->second.Cond, asFloatingPoint(B, X->first, T),
                          asFloatingPoint(B, Y->first, T));
  }
  auto X = masked(Int, IntTy);
  if (!X)
    return nullptr;
  Value *Kept = asFloatingPoint(B, X->first, T);
  Constant *Zero = Constant::getNullValue(T);
  return X->second.Inverted ? B.CreateSelect(X->second.Cond, Zero, Kept)
                            : B.CreateSelect(X->second.Cond, Kept, Zero);
}

/// The floating-point operation \p BC (`bitcast iN to T`) stands for, built
/// before it, or null.
static Value *floatOperation(BitCastInst &BC) {
  Type *T = BC.getType();
  Type *IntTy = BC.getSrcTy();
  // Integer lanes exactly the floating-point lanes: a sign bit or a mask
  // of another lane width would change part of a value (or several).
  auto Lanes = [](Type *Ty) {
    auto *VT = dyn_cast<FixedVectorType>(Ty);
    return VT ? VT->getNumElements() : 1u;
  };
  if (!T->isFPOrFPVectorTy() || !IntTy->isIntOrIntVectorTy() ||
      isa<ScalableVectorType>(T) || Lanes(T) != Lanes(IntTy) ||
      T->getScalarSizeInBits() != IntTy->getScalarSizeInBits())
    return nullptr;
  unsigned Bits = IntTy->getScalarSizeInBits();
  APInt Sign = APInt::getSignMask(Bits), Rest = ~Sign;
  Value *Int = BC.getOperand(0), *X = nullptr, *Y = nullptr;
  const APInt *C = nullptr, *D = nullptr, *E = nullptr;
  IRBuilder<> B(&BC);
  // Constants on either side: this runs before InstCombine puts them
  // on the right (_mm_andnot_pd(_mm_set1_pd(-0.0), v)).
  if (match(Int, m_c_Or(m_c_And(m_Value(X), m_APInt(C)),
                        m_c_And(m_Value(Y), m_APInt(D))))) {
    if (*C == Sign && *D == Rest)
      std::swap(X, Y);
    else if (!(*C == Rest && *D == Sign))
      return nullptr;
    return B.CreateBinaryIntrinsic(Intrinsic::copysign,
                                   asFloatingPoint(B, X, T),
                                   asFloatingPoint(B, Y, T));
  }
  // The same once InstCombine has turned the magnitude's mask into fabs:
  // `or (and (bitcast s), SIGN), (bitcast (fabs m))` (probe42 F3).
  Value *M = nullptr;
  if (match(Int, m_c_Or(m_c_And(m_Value(X), m_APInt(C)), m_Value(Y))) &&
      *C == Sign && match(stripBitCasts(Y), m_FAbs(m_Value(M))) &&
      M->getType() == T)
    return B.CreateBinaryIntrinsic(Intrinsic::copysign, M,
                                   asFloatingPoint(B, X, T));
  if (match(Int, m_c_And(m_Value(X), m_APInt(E))) && *E == Rest)
    return B.CreateUnaryIntrinsic(Intrinsic::fabs, asFloatingPoint(B, X, T));
  if (match(Int, m_c_Xor(m_Value(X), m_APInt(E))) && *E == Sign)
    return B.CreateFNeg(asFloatingPoint(B, X, T));
  if (match(Int, m_c_Or(m_Value(X), m_APInt(E))) && *E == Sign)
    return B.CreateFNeg(
        B.CreateUnaryIntrinsic(Intrinsic::fabs, asFloatingPoint(B, X, T)));
  return maskSelect(BC, B);
}

bool lowerFloatBitOperations(Function &F) {
  bool Changed = false;
  // An operation's operand may be another one on the bits, seen as a
  // floating-point value only once the first became one: copysign's sign
  // taken from a sign flipped by xor (probe42 F3). Each round lowers the
  // bitcasts the previous one made; the chain is as long as the code's.
  for (unsigned Round = 0; Round < 8; ++Round) {
    SmallVector<std::pair<BitCastInst *, Value *>, 4> Done;
    for (Instruction &I : instructions(F))
      if (auto *BC = dyn_cast<BitCastInst>(&I))
        if (Value *V = floatOperation(*BC))
          Done.push_back({BC, V});
    for (auto [BC, V] : Done) {
      V->takeName(BC);
      BC->replaceAllUsesWith(V);
      RecursivelyDeleteTriviallyDeadInstructions(BC);
    }
    if (Done.empty())
      break;
    Changed = true;
  }
  return Changed;
}

} // namespace tapestry
