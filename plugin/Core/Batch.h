//===- Batch.h - Values that carry several derivatives ----------*- C++ -*-===//
//
// Batch mode (enzyme_width N) carries N derivatives per value. A scalar
// floating-point value's N tangents or adjoints are one LLVM vector <N x T>,
// so the derivative arithmetic vectorises; anything else (pointers' shadows,
// aggregates, vectors) is an array [N x T] of per-lane values. At width 1
// every helper returns its input unchanged, so scalar mode's code is exactly
// what it was.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_CORE_BATCH_H
#define TAPESTRY_CORE_BATCH_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/IRBuilder.h"

namespace tapestry {

/// The largest width a request may ask for.
constexpr unsigned MaxBatchWidth = 64;

/// The type carrying \p W derivatives (or shadows) of a value of type \p T.
llvm::Type *batchType(llvm::Type *T, unsigned W);
/// The type in which \p W derivatives of type \p T are returned to the
/// user: [W x T] (T at width 1).
llvm::Type *batchResultType(llvm::Type *T, unsigned W);

/// Lane \p K of the batch value \p V (of batchType(T, W)).
llvm::Value *extractLane(llvm::IRBuilderBase &B, llvm::Value *V, unsigned K,
                         unsigned W);
/// The batch value of type batchType(T, Lanes.size()) made of \p Lanes (each
/// of type \p T).
llvm::Value *gatherLanes(llvm::IRBuilderBase &B, llvm::Type *T,
                         llvm::ArrayRef<llvm::Value *> Lanes);
/// The batch value with \p V (of type T) in every lane; constants stay
/// constants.
llvm::Value *splatLanes(llvm::IRBuilderBase &B, llvm::Value *V, unsigned W);
/// The constant \p C in every lane.
llvm::Constant *splatConstant(llvm::Constant *C, unsigned W);
/// Applies \p Fn to each lane and gathers the results, of type \p ResultTy.
llvm::Value *perLane(llvm::IRBuilderBase &B, llvm::Type *ResultTy, unsigned W,
                     llvm::function_ref<llvm::Value *(unsigned Lane)> Fn);
/// Converts between the internal batch form of a value of type \p T and the
/// form returned to the user (batchResultType).
llvm::Value *toResult(llvm::IRBuilderBase &B, llvm::Value *V, llvm::Type *T,
                      unsigned W);
llvm::Value *fromResult(llvm::IRBuilderBase &B, llvm::Value *V, llvm::Type *T,
                        unsigned W);

} // namespace tapestry

#endif // TAPESTRY_CORE_BATCH_H
