//===- HorizontalAdds.cpp - x86 horizontal adds as generic IR -------------===//
//
// Implements HorizontalAdds.h. For operands a and b of n lanes, lane i of
// the result is c[E[i]] op c[O[i]], where c is a followed by b: the 128-bit
// forms pair neighbours of a, then of b; the 256-bit forms do so within
// each 128-bit half.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/HorizontalAdds.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsX86.h"

using namespace llvm;

namespace tapestry {

namespace {

struct HorizontalOp {
  bool Subtract;
  /// Lanes per 128-bit half.
  unsigned LanesPerHalf;
};

std::optional<HorizontalOp> horizontalOp(const IntrinsicInst &II) {
  switch (II.getIntrinsicID()) {
  case Intrinsic::x86_sse3_hadd_pd:
  case Intrinsic::x86_avx_hadd_pd_256:
    return HorizontalOp{false, 2};
  case Intrinsic::x86_sse3_hadd_ps:
  case Intrinsic::x86_avx_hadd_ps_256:
    return HorizontalOp{false, 4};
  case Intrinsic::x86_sse3_hsub_pd:
  case Intrinsic::x86_avx_hsub_pd_256:
    return HorizontalOp{true, 2};
  case Intrinsic::x86_sse3_hsub_ps:
  case Intrinsic::x86_avx_hsub_ps_256:
    return HorizontalOp{true, 4};
  default:
    return std::nullopt;
  }
}

} // namespace

bool lowerHorizontalAdds(Function &F) {
  SmallVector<std::pair<IntrinsicInst *, HorizontalOp>, 4> Calls;
  for (Instruction &I : instructions(F))
    if (auto *II = dyn_cast<IntrinsicInst>(&I))
      if (std::optional<HorizontalOp> Op = horizontalOp(*II))
        Calls.push_back({II, *Op});
  for (auto [II, Op] : Calls) {
    auto *VT = cast<FixedVectorType>(II->getType());
    unsigned N = VT->getNumElements(), Half = Op.LanesPerHalf;
    // Within each 128-bit half: Half / 2 sums of a's neighbours, then as
    // many of b's.
    SmallVector<int, 8> Even, Odd;
    for (unsigned H = 0; H < N / Half; ++H)
      for (unsigned FromB = 0; FromB < 2; ++FromB)
        for (unsigned K = 0; K < Half / 2; ++K) {
          int Lane = H * Half + 2 * K + FromB * N;
          Even.push_back(Lane);
          Odd.push_back(Lane + 1);
        }
    IRBuilder<> B(II);
    Value *A = II->getArgOperand(0), *Bv = II->getArgOperand(1);
    Value *L = B.CreateShuffleVector(A, Bv, Even, "hadd.even");
    Value *R = B.CreateShuffleVector(A, Bv, Odd, "hadd.odd");
    Value *Result = Op.Subtract ? B.CreateFSub(L, R) : B.CreateFAdd(L, R);
    Result->takeName(II);
    II->replaceAllUsesWith(Result);
    II->eraseFromParent();
  }
  return !Calls.empty();
}

} // namespace tapestry
