//===- ByteLayoutTest.cpp - Windows of bytes: filling untyped elements ----===//
#include "Analysis/TypeAnalysis.h"

#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/LLVMContext.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace tapestry;

namespace {

class ByteLayoutTest : public ::testing::Test {
protected:
  LLVMContext Ctx;
  DataLayout DL{"e-m:e-i64:64-f80:128-n8:16:32:64-S128"};
  Type *Dbl = Type::getDoubleTy(Ctx);
  Type *Flt = Type::getFloatTy(Ctx);
  Type *I32 = Type::getInt32Ty(Ctx);
  Type *Ptr = PointerType::getUnqual(Ctx);

  static std::vector<std::pair<uint64_t, Type *>> parts(const ByteLayout &L) {
    std::vector<std::pair<uint64_t, Type *>> Out;
    for (const ByteLayout::Part &P : L.Parts)
      Out.push_back({P.Offset, P.T});
    return Out;
  }
};

TEST_F(ByteLayoutTest, FillsUntouchedElementsOfAnArray) {
  ByteLayout L;
  L.Parts.push_back({8, Dbl});
  L.fillGaps(Dbl, 24, DL);
  std::vector<std::pair<uint64_t, Type *>> Want = {
      {0, Dbl}, {8, Dbl}, {16, Dbl}};
  EXPECT_EQ(parts(L), Want);
}

TEST_F(ByteLayoutTest, FillsWithinThePeriod) {
  ByteLayout L;
  L.Period = 16;
  L.Parts.push_back({0, Dbl});
  L.fillGaps(Dbl, 0, DL);
  std::vector<std::pair<uint64_t, Type *>> Want = {{0, Dbl}, {8, Dbl}};
  EXPECT_EQ(parts(L), Want);
}

TEST_F(ByteLayoutTest, LeavesBytesOtherPartsCover) {
  // {double, int32, 4 bytes of padding}: the padding cannot hold a double.
  ByteLayout L;
  L.Parts.push_back({0, Dbl});
  L.Parts.push_back({8, I32});
  L.fillGaps(Dbl, 16, DL);
  std::vector<std::pair<uint64_t, Type *>> Want = {{0, Dbl}, {8, I32}};
  EXPECT_EQ(parts(L), Want);
  // A pointer's bytes are the pointer's.
  ByteLayout P;
  P.Parts.push_back({0, Dbl});
  P.Parts.push_back({8, Ptr});
  P.fillGaps(Dbl, 24, DL);
  std::vector<std::pair<uint64_t, Type *>> WantP = {
      {0, Dbl}, {8, Ptr}, {16, Dbl}};
  EXPECT_EQ(parts(P), WantP);
}

TEST_F(ByteLayoutTest, LeavesLayoutsOffTheElementGrid) {
  // A float at offset 2 (a packed record) is no array of floats.
  ByteLayout L;
  L.Parts.push_back({2, Flt});
  L.fillGaps(Flt, 12, DL);
  ASSERT_EQ(L.Parts.size(), 1u);
  EXPECT_EQ(L.Parts[0].Offset, 2u);
}

TEST_F(ByteLayoutTest, NeedsAKnownWindow) {
  // Neither a period nor a size: nothing to fill.
  ByteLayout L;
  L.Parts.push_back({8, Dbl});
  L.fillGaps(Dbl, 0, DL);
  EXPECT_EQ(L.Parts.size(), 1u);
}

} // namespace
