//===- Batch.cpp - Values that carry several derivatives ------------------===//
//
// Implements Batch.h, the lane helpers of batch mode that both synthesizers
// use: the batched type of a value (a vector <W x T> for floating-point
// scalars, an array [W x T] for anything else), extracting and gathering lanes,
// splats, and the conversion between the vector form and the array form a
// derivative returns. Every helper is the identity at width 1; they emit IR
// with the caller's IRBuilder and decide nothing about activity.
//
//===----------------------------------------------------------------------===//
#include "Core/Batch.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"

using namespace llvm;

namespace tapestry {

/// True if W lanes of \p T are kept in an LLVM vector.
static bool isVectorLanes(Type *T) { return T->isFloatingPointTy(); }

Type *batchType(Type *T, unsigned W) {
  if (W == 1 || T->isVoidTy())
    return T;
  if (isVectorLanes(T))
    return FixedVectorType::get(T, W);
  return ArrayType::get(T, W);
}

Type *batchResultType(Type *T, unsigned W) {
  return W == 1 ? T : ArrayType::get(T, W);
}

Value *extractLane(IRBuilderBase &B, Value *V, unsigned K, unsigned W) {
  if (W == 1)
    return V;
  if (isa<VectorType>(V->getType()))
    return B.CreateExtractElement(V, B.getInt32(K));
  return B.CreateExtractValue(V, K);
}

Value *gatherLanes(IRBuilderBase &B, Type *T, ArrayRef<Value *> Lanes) {
  unsigned W = Lanes.size();
  if (W == 1)
    return Lanes.front();
  Type *BT = batchType(T, W);
  Value *V = PoisonValue::get(BT);
  for (unsigned K = 0; K < W; ++K)
    V = isa<VectorType>(BT) ? B.CreateInsertElement(V, Lanes[K], B.getInt32(K))
                            : B.CreateInsertValue(V, Lanes[K], K);
  return V;
}

Constant *splatConstant(Constant *C, unsigned W) {
  if (W == 1)
    return C;
  if (isVectorLanes(C->getType()))
    return ConstantVector::getSplat(ElementCount::getFixed(W), C);
  return ConstantArray::get(cast<ArrayType>(batchType(C->getType(), W)),
                            SmallVector<Constant *, 8>(W, C));
}

Value *splatLanes(IRBuilderBase &B, Value *V, unsigned W) {
  if (W == 1)
    return V;
  if (auto *C = dyn_cast<Constant>(V))
    return splatConstant(C, W);
  if (isVectorLanes(V->getType()))
    return B.CreateVectorSplat(W, V);
  return gatherLanes(B, V->getType(), SmallVector<Value *, 8>(W, V));
}

Value *perLane(IRBuilderBase &B, Type *ResultTy, unsigned W,
               function_ref<Value *(unsigned Lane)> Fn) {
  SmallVector<Value *, 8> Lanes;
  for (unsigned K = 0; K < W; ++K) {
    Value *L = Fn(K);
    if (!L)
      return nullptr;
    Lanes.push_back(L);
  }
  return gatherLanes(B, ResultTy, Lanes);
}

Value *toResult(IRBuilderBase &B, Value *V, Type *T, unsigned W) {
  if (W == 1 || !isVectorLanes(T))
    return V;
  Value *R = PoisonValue::get(batchResultType(T, W));
  for (unsigned K = 0; K < W; ++K)
    R = B.CreateInsertValue(R, extractLane(B, V, K, W), K);
  return R;
}

Value *fromResult(IRBuilderBase &B, Value *V, Type *T, unsigned W) {
  if (W == 1 || !isVectorLanes(T))
    return V;
  SmallVector<Value *, 8> Lanes;
  for (unsigned K = 0; K < W; ++K)
    Lanes.push_back(B.CreateExtractValue(V, K));
  return gatherLanes(B, T, Lanes);
}

} // namespace tapestry
