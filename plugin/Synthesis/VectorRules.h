//===- VectorRules.h - Derivatives of vector operations ---------*- C++ -*-===//
//
// Optimised IR (clang -O3, opt -O2: the loop and SLP vectorisers' output)
// holds operations on whole vectors that the rules table does not describe
// element by element: reductions (llvm.vector.reduce.fadd/fmul/fmax/...),
// masked memory accesses (llvm.masked.load/store/gather/scatter), lane
// shuffles (shufflevector, llvm.vector.extract/insert/reverse). Forward
// mode applies them to tangents (ForwardModeSynthesizer::visitVectorCall),
// reverse mode transposes them (ReverseModeSynthesizer::reverseVectorCall,
// reverseShuffle); the IR both need is built by the helpers here.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_VECTORRULES_H
#define TAPESTRY_SYNTHESIS_VECTORRULES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/IRBuilder.h"
#include <string>

namespace tapestry {

enum class VectorOp {
  None,
  /// llvm.vector.reduce.fadd(start, v): start + v[0] + ... + v[N-1].
  ReduceFAdd,
  /// llvm.vector.reduce.fmul(start, v): start * v[0] * ... * v[N-1].
  ReduceFMul,
  /// llvm.vector.reduce.fmax/fmin/fmaximum/fminimum(v): one element of v.
  ReduceSelect,
  /// llvm.masked.load(ptr, align, mask, passthru).
  MaskedLoad,
  /// llvm.masked.store(value, ptr, align, mask).
  MaskedStore,
  /// llvm.masked.gather(ptrs, align, mask, passthru).
  Gather,
  /// llvm.masked.scatter(value, ptrs, align, mask).
  Scatter,
  /// llvm.vector.extract(v, idx), llvm.vector.insert(v, sub, idx),
  /// llvm.vector.reverse(v): lanes moved, not combined.
  Extract,
  Insert,
  Reverse,
};

/// The vector operation \p CB performs, or VectorOp::None.
VectorOp classifyVectorCall(const llvm::CallBase &CB);
inline bool isVectorRuleCall(const llvm::CallBase &CB) {
  return classifyVectorCall(CB) != VectorOp::None;
}

/// For each lane i of the vector \p V, the product of all other lanes
/// (computed with prefix and suffix products, so a zero lane is exact).
llvm::Value *exclusiveProducts(llvm::IRBuilderBase &B, llvm::Value *V);

/// An <N x i1> with exactly the first lane of \p V equal to \p Y set (none
/// if Y is NaN or no lane equals it): the element a min/max reduction
/// returned, which receives its derivative.
llvm::Value *selectedLane(llvm::IRBuilderBase &B, llvm::Value *V,
                          llvm::Value *Y);

/// The transpose of shufflevector with \p Mask on the adjoint \p D of its
/// result: the adjoint of operand \p Operand (of \p InWidth lanes), each
/// lane the sum of the result lanes it was copied to (poison mask lanes
/// copy nothing).
llvm::Value *shuffleAdjoint(llvm::IRBuilderBase &B, llvm::Value *D,
                            llvm::ArrayRef<int> Mask, unsigned InWidth,
                            unsigned Operand);

/// The message for a call to a vector math library routine Tapestry has no
/// derivative for (SVML's __svml_sin4, from -fveclib=SVML, say), naming
/// the -fveclib option that made the vectoriser call it; empty if \p F is
/// not one.
std::string vectorLibraryHint(const llvm::Function &F);

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_VECTORRULES_H
