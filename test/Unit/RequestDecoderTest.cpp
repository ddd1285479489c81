//===- RequestDecoderTest.cpp - Entry points and markers -------------------===//
#include "Passes/RequestDecoder.h"

#include "gtest/gtest.h"

using namespace tapestry;

TEST(RequestDecoder, ClassifiesEntryPointsByContainedName) {
  EXPECT_EQ(classifyEntryPoint("__enzyme_autodiff"), EntryPoint::Autodiff);
  EXPECT_EQ(classifyEntryPoint("__enzyme_autodiff_g2"), EntryPoint::Autodiff);
  EXPECT_EQ(classifyEntryPoint("_Z17__enzyme_autodiffIdEJT_Pvz"),
            EntryPoint::Autodiff);
  EXPECT_EQ(classifyEntryPoint("__enzyme_fwddiff2"), EntryPoint::ForwardDiff);
  EXPECT_EQ(classifyEntryPoint("__enzyme_augmentfwd"),
            EntryPoint::Unsupported);
  EXPECT_EQ(classifyEntryPoint("autodiff"), EntryPoint::None);
}
