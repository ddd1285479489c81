//===- EmulatedRoundingTest.cpp - Constants rounded to emulated formats ---===//
#include "Synthesis/EmulatedRounding.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Type.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace llvm;
using namespace tapestry;

namespace {

class EmulatedRoundingTest : public ::testing::Test {
protected:
  /// \p X rounded at compile time to the format of \p E and \p M bits.
  double round(double X, int E, int M) {
    Constant *C = ConstantFP::get(Type::getDoubleTy(Ctx), X);
    auto *R = dyn_cast_or_null<ConstantFP>(roundConstantToLayout(C, {E, M}));
    EXPECT_NE(R, nullptr);
    return R ? R->getValueAPF().convertToDouble() : NAN;
  }
  LLVMContext Ctx;
};

// (4, 3): bias 7, exponents -6 to 7, values 1.xxx * 2^e; the largest is
// 1.875 * 2^7 = 240, the smallest subnormal 2^-9.
TEST_F(EmulatedRoundingTest, NearestEven) {
  EXPECT_EQ(round(1.0625, 4, 3), 1.0);             // tie, to even
  EXPECT_EQ(round(1.1875, 4, 3), 1.25);            // tie, to even
  EXPECT_EQ(round(1.07, 4, 3), 1.125);             // nearest
  EXPECT_EQ(round(-3.3, 4, 3), -3.25);             // sign kept
  EXPECT_EQ(round(0.1, 5, 3), 0.1015625);          // 1.625 * 2^-4
  EXPECT_EQ(round(1.0 / 3, 11, 20), 0x1.55555p-2); // next bits 0101...
}

TEST_F(EmulatedRoundingTest, OverflowAndSubnormals) {
  EXPECT_EQ(round(240, 4, 3), 240.0);
  EXPECT_EQ(round(247.9, 4, 3), 240.0);
  EXPECT_EQ(round(248, 4, 3), INFINITY); // tie with 256: even, overflows
  EXPECT_EQ(round(-1e10, 4, 3), -INFINITY);
  EXPECT_EQ(round(std::ldexp(1.0, -9), 4, 3), std::ldexp(1.0, -9));
  EXPECT_EQ(round(std::ldexp(1.0, -10), 4, 3), 0.0); // tie with 0
  EXPECT_EQ(round(std::ldexp(3.0, -10), 4, 3), std::ldexp(1.0, -8));
  EXPECT_EQ(round(std::ldexp(5.0, -11), 4, 3), std::ldexp(1.0, -9));
  EXPECT_TRUE(std::signbit(round(-std::ldexp(1.0, -11), 4, 3)));
}

TEST_F(EmulatedRoundingTest, RangeOfFormats) {
  Type *Dbl = Type::getDoubleTy(Ctx), *Half = Type::getHalfTy(Ctx);
  EXPECT_EQ(emulationError(Dbl, {11, 50}), "");
  EXPECT_EQ(emulationError(Dbl, {2, 1}), "");
  EXPECT_NE(emulationError(Dbl, {11, 51}), "");
  EXPECT_NE(emulationError(Dbl, {12, 20}), "");
  EXPECT_NE(emulationError(Dbl, {1, 20}), "");
  EXPECT_EQ(emulationError(Half, {5, 8}), "");
  EXPECT_NE(emulationError(Half, {5, 9}), "");
  EXPECT_NE(emulationError(Half, {6, 3}), "");
}

} // namespace
