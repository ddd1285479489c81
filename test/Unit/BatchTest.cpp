//===- BatchTest.cpp - Batch lanes: types, gathering, signatures ----------===//
#include "Core/Batch.h"
#include "Core/DiffRequest.h"
#include "Synthesis/DerivativeSignature.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace tapestry;

namespace {

class BatchTest : public ::testing::Test {
protected:
  LLVMContext Ctx;
  Type *Dbl = Type::getDoubleTy(Ctx);
  Type *Ptr = PointerType::getUnqual(Ctx);
};

TEST_F(BatchTest, WidthOneIsTheIdentity) {
  for (Type *T : {Dbl, Ptr, (Type *)StructType::get(Ctx, {Dbl, Dbl}),
                  (Type *)FixedVectorType::get(Dbl, 2)}) {
    EXPECT_EQ(batchType(T, 1), T);
    EXPECT_EQ(batchResultType(T, 1), T);
  }
  Module M("m", Ctx);
  Function *F = Function::Create(FunctionType::get(Dbl, {Dbl}, false),
                                 GlobalValue::ExternalLinkage, "f", M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));
  Value *X = F->getArg(0);
  EXPECT_EQ(extractLane(B, X, 0, 1), X);
  EXPECT_EQ(gatherLanes(B, Dbl, {X}), X);
  EXPECT_EQ(splatLanes(B, X, 1), X);
  EXPECT_EQ(toResult(B, X, Dbl, 1), X);
  EXPECT_EQ(fromResult(B, X, Dbl, 1), X);
  EXPECT_TRUE(B.GetInsertBlock()->empty()) << "width 1 emits no code";
}

TEST_F(BatchTest, ScalarsAreVectorsEverythingElseArrays) {
  EXPECT_EQ(batchType(Dbl, 4), FixedVectorType::get(Dbl, 4));
  EXPECT_EQ(batchType(Type::getFloatTy(Ctx), 8),
            FixedVectorType::get(Type::getFloatTy(Ctx), 8));
  EXPECT_EQ(batchType(Ptr, 3), ArrayType::get(Ptr, 3));
  Type *V2 = FixedVectorType::get(Dbl, 2);
  EXPECT_EQ(batchType(V2, 2), ArrayType::get(V2, 2));
  EXPECT_EQ(batchResultType(Dbl, 4), ArrayType::get(Dbl, 4));
  EXPECT_TRUE(batchType(Type::getVoidTy(Ctx), 4)->isVoidTy());
}

TEST_F(BatchTest, LanesRoundTrip) {
  Module M("m", Ctx);
  Function *F = Function::Create(
      FunctionType::get(ArrayType::get(Dbl, 3), {Dbl, Dbl, Dbl}, false),
      GlobalValue::ExternalLinkage, "f", M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));
  SmallVector<Value *, 3> Args{F->getArg(0), F->getArg(1), F->getArg(2)};
  Value *V = gatherLanes(B, Dbl, Args);
  EXPECT_EQ(V->getType(), FixedVectorType::get(Dbl, 3));
  Value *R = toResult(B, V, Dbl, 3);
  EXPECT_EQ(R->getType(), ArrayType::get(Dbl, 3));
  Value *Back = fromResult(B, R, Dbl, 3);
  EXPECT_EQ(Back->getType(), V->getType());
  B.CreateRet(R);
  EXPECT_FALSE(verifyFunction(*F, &errs()));
  Constant *One = ConstantFP::get(Dbl, 1.0);
  auto *Splat = dyn_cast<Constant>(splatLanes(B, One, 4));
  ASSERT_NE(Splat, nullptr) << "a splat constant stays a constant";
  EXPECT_EQ(Splat->getSplatValue(), One);
  Constant *Null =
      splatConstant(ConstantPointerNull::get(cast<PointerType>(Ptr)), 2);
  EXPECT_EQ(Null->getType(), ArrayType::get(Ptr, 2));
}

TEST_F(BatchTest, SignatureCarriesLanes) {
  Module M("m", Ctx);
  Function *F = Function::Create(FunctionType::get(Dbl, {Ptr, Dbl}, false),
                                 GlobalValue::ExternalLinkage, "f", M);
  DiffRequest R;
  R.Fn = F;
  R.Mode = DiffMode::Reverse;
  R.Args = {Activity::Dup, Activity::Active};
  R.ReturnActive = true;
  R.Width = 4;
  DerivativeSignature Sig = computeSignature(R);
  FunctionType *T = Sig.Type;
  ASSERT_EQ(T->getNumParams(), 4u);
  EXPECT_EQ(T->getParamType(0), Ptr);
  EXPECT_EQ(T->getParamType(1), ArrayType::get(Ptr, 4)) << "4 shadows";
  EXPECT_EQ(T->getParamType(2), Dbl);
  EXPECT_EQ(T->getParamType(3), FixedVectorType::get(Dbl, 4)) << "the seed";
  EXPECT_EQ(T->getReturnType(), ArrayType::get(Dbl, 4)) << "4 adjoints";
  R.Width = 1;
  Sig = computeSignature(R);
  EXPECT_EQ(Sig.Type, FunctionType::get(Dbl, {Ptr, Ptr, Dbl, Dbl}, false));
}

} // namespace
