//===- DerivativeRulesTest.cpp - The rules table ---------------------------===//
#include "Synthesis/DerivativeRules.h"

#include "gtest/gtest.h"

using namespace tapestry;

TEST(DerivativeRules, LibraryNamesMatchAllPrecisions) {
  for (const char *Name : {"sin", "sinf", "sinl"}) {
    const DerivativeRule *R = findLibraryRule(Name);
    ASSERT_NE(R, nullptr) << Name;
    EXPECT_STREQ(R->Name, "sin");
  }
  EXPECT_STREQ(findLibraryRule("exp2f")->Name, "exp2");
  EXPECT_STREQ(findLibraryRule("expm1")->Name, "expm1");
  EXPECT_STREQ(findLibraryRule("erfc")->Name, "erfc");
  EXPECT_STREQ(findLibraryRule("coshl")->Name, "cosh");
  EXPECT_EQ(findLibraryRule("sinus"), nullptr);
  EXPECT_EQ(findLibraryRule("fmaxx"), nullptr);
}
