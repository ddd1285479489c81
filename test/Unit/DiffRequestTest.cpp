//===- DiffRequestTest.cpp - Requests as names and memoisation keys -------===//
#include "Core/DiffRequest.h"

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace llvm;
using namespace tapestry;

namespace {

using A = Activity;

DiffRequest request(DiffMode Mode, std::initializer_list<Activity> Args,
                    bool ReturnActive = false, bool ReturnPrimal = false,
                    unsigned Width = 1, Function *Fn = nullptr) {
  DiffRequest R;
  R.Fn = Fn;
  R.Mode = Mode;
  R.Args.assign(Args.begin(), Args.end());
  R.ReturnActive = ReturnActive;
  R.ReturnPrimal = ReturnPrimal;
  R.Width = Width;
  return R;
}

TEST(DiffRequest, NamesOfActivitiesAndModes) {
  EXPECT_EQ(activityName(A::Const), "enzyme_const");
  EXPECT_EQ(activityName(A::Dup), "enzyme_dup");
  EXPECT_EQ(activityName(A::DupNoNeed), "enzyme_dupnoneed");
  EXPECT_EQ(activityName(A::Active), "enzyme_out");
  EXPECT_EQ(modeName(DiffMode::Reverse), "reverse");
  EXPECT_EQ(modeName(DiffMode::Forward), "forward");
}

TEST(DiffRequest, SuffixNamesModeActivitiesAndReturn) {
  EXPECT_EQ(request(DiffMode::Reverse, {A::Dup, A::Const}).suffix(), "rev_dc");
  EXPECT_EQ(request(DiffMode::Reverse, {A::Active}, true).suffix(), "rev_a_ra");
  EXPECT_EQ(
      request(DiffMode::Forward, {A::DupNoNeed, A::Active, A::Const, A::Dup})
          .suffix(),
      "fwd_nacd");
  EXPECT_EQ(
      request(DiffMode::Reverse, {A::Active, A::Dup}, true, true).suffix(),
      "rev_ad_ra_rp");
  EXPECT_EQ(request(DiffMode::Forward, {A::Dup}, false, true).suffix(),
            "fwd_d_rp");
  EXPECT_EQ(request(DiffMode::Forward, {A::Dup}, true, false, 4).suffix(),
            "fwd_d_ra_w4");
  EXPECT_EQ(request(DiffMode::Reverse, {}).suffix(), "rev_");
}

/// Every request over \p Fns with up to two parameters.
std::vector<DiffRequest> allRequests(ArrayRef<Function *> Fns) {
  const Activity Acts[] = {A::Const, A::Dup, A::DupNoNeed, A::Active};
  std::vector<std::vector<Activity>> ArgLists = {{}};
  for (Activity X : Acts) {
    ArgLists.push_back({X});
    for (Activity Y : Acts)
      ArgLists.push_back({X, Y});
  }
  std::vector<DiffRequest> Out;
  for (Function *Fn : Fns)
    for (DiffMode Mode : {DiffMode::Reverse, DiffMode::Forward})
      for (const std::vector<Activity> &Args : ArgLists)
        for (bool RA : {false, true})
          for (bool RP : {false, true})
            for (unsigned Width : {1u, 2u}) {
              DiffRequest R;
              R.Fn = Fn;
              R.Mode = Mode;
              R.Args.assign(Args.begin(), Args.end());
              R.ReturnActive = RA;
              R.ReturnPrimal = RP;
              R.Width = Width;
              Out.push_back(R);
            }
  return Out;
}

class DiffRequestKeys : public ::testing::Test {
protected:
  void SetUp() override {
    auto *FT = FunctionType::get(Type::getDoubleTy(Ctx),
                                 {Type::getDoubleTy(Ctx)}, false);
    F = Function::Create(FT, GlobalValue::ExternalLinkage, "f", M);
    G = Function::Create(FT, GlobalValue::ExternalLinkage, "g", M);
    Requests = allRequests({F, G});
  }

  LLVMContext Ctx;
  Module M{"requests", Ctx};
  Function *F = nullptr;
  Function *G = nullptr;
  std::vector<DiffRequest> Requests;
};

TEST_F(DiffRequestKeys, SuffixIsUniquePerFunction) {
  std::set<std::string> Seen;
  for (const DiffRequest &R : Requests) {
    if (R.Fn == F) {
      EXPECT_TRUE(Seen.insert(R.suffix()).second)
          << "two requests named " << R.suffix();
    }
  }
  EXPECT_EQ(Seen.size(), Requests.size() / 2);
}

TEST_F(DiffRequestKeys, EqualityComparesEveryField) {
  DiffRequest Base =
      request(DiffMode::Reverse, {A::Active, A::Dup}, true, false, 1, F);
  EXPECT_EQ(Base, Base);
  DiffRequest Copy = Base;
  EXPECT_EQ(Base, Copy);
  auto Differs = [&](DiffRequest R, const char *What) {
    EXPECT_FALSE(R == Base) << What;
    EXPECT_TRUE(R < Base || Base < R) << What;
  };
  DiffRequest R = Base;
  R.Fn = G;
  Differs(R, "Fn");
  R = Base;
  R.Mode = DiffMode::Forward;
  Differs(R, "Mode");
  R = Base;
  R.Args[1] = A::DupNoNeed;
  Differs(R, "Args");
  R = Base;
  R.Args.pop_back();
  Differs(R, "Args length");
  R = Base;
  R.ReturnActive = false;
  Differs(R, "ReturnActive");
  R = Base;
  R.ReturnPrimal = true;
  Differs(R, "ReturnPrimal");
  R = Base;
  R.Width = 2;
  Differs(R, "Width");
  R = Base;
  R.MaybeConstantArgs = 2;
  Differs(R, "MaybeConstantArgs");
  R = Base;
  R.MarkedMemoryArgs = 2;
  Differs(R, "MarkedMemoryArgs");
  R = Base;
  R.MarkedDeepArgs = 2;
  Differs(R, "MarkedDeepArgs");
}

TEST(DiffRequest, SuffixNamesRuntimeActivityPerParameter) {
  DiffRequest R = request(DiffMode::Reverse, {A::Dup, A::Dup, A::Const});
  EXPECT_EQ(R.suffix(), "rev_ddc");
  R.MaybeConstantArgs = 1;             // parameter 0 may be constant
  R.MarkedMemoryArgs = 2 | 1;          // 0 and 1 point to marked memory
  R.MarkedDeepArgs = 2;                // 1 reaches marked memory
  EXPECT_EQ(R.suffix(), "rev_ddc_rt360");
  DiffRequest S = R;
  S.MarkedDeepArgs = 0;
  EXPECT_NE(R.suffix(), S.suffix());
}

TEST_F(DiffRequestKeys, LessIsAStrictOrderConsistentWithEquality) {
  for (const DiffRequest &X : Requests) {
    EXPECT_FALSE(X < X) << X.suffix();
    for (const DiffRequest &Y : Requests) {
      bool Less = X < Y, Greater = Y < X, Equal = X == Y;
      // Exactly one of <, >, == holds: a total order whose equivalence is ==.
      if (Less + Greater + Equal != 1) {
        ADD_FAILURE() << X.Fn->getName().str() << "." << X.suffix() << " vs "
                      << Y.Fn->getName().str() << "." << Y.suffix() << ": < "
                      << Less << ", > " << Greater << ", == " << Equal;
        return;
      }
    }
  }
  // Transitivity: a sorted sequence is increasing between every pair.
  std::vector<DiffRequest> Sorted = Requests;
  std::sort(Sorted.begin(), Sorted.end());
  for (unsigned I = 0; I < Sorted.size(); ++I)
    for (unsigned J = I + 1; J < Sorted.size(); ++J)
      if (!(Sorted[I] < Sorted[J])) {
        ADD_FAILURE() << "not transitive at " << I << ", " << J;
        return;
      }
}

TEST_F(DiffRequestKeys, MapKeyedOnRequestsFindsEqualRequests) {
  std::map<DiffRequest, unsigned> Cache;
  for (unsigned I = 0; I < Requests.size(); ++I)
    EXPECT_TRUE(Cache.emplace(Requests[I], I).second);
  EXPECT_EQ(Cache.size(), Requests.size());
  for (unsigned I = 0; I < Requests.size(); ++I) {
    // An equal request built independently, as a second call site would.
    const DiffRequest &Orig = Requests[I];
    DiffRequest Key;
    Key.Fn = Orig.Fn;
    Key.Mode = Orig.Mode;
    for (Activity Act : Orig.Args)
      Key.Args.push_back(Act);
    Key.ReturnActive = Orig.ReturnActive;
    Key.ReturnPrimal = Orig.ReturnPrimal;
    Key.Width = Orig.Width;
    auto It = Cache.find(Key);
    ASSERT_NE(It, Cache.end()) << Key.suffix();
    EXPECT_EQ(It->second, I) << Key.suffix();
    EXPECT_EQ(It->first, Key);
  }
  // A second insertion of an equal key does not add an entry.
  EXPECT_FALSE(Cache.emplace(Requests.front(), 0).second);
  EXPECT_EQ(Cache.size(), Requests.size());
}

TEST_F(DiffRequestKeys, PrintDescribesTheRequest) {
  std::string S;
  raw_string_ostream OS(S);
  request(DiffMode::Reverse, {A::Dup, A::Const}, true, true, 1, F).print(OS);
  EXPECT_EQ(S, "reverse derivative of 'f' (enzyme_dup, enzyme_const) active "
               "return with primal return");
  S.clear();
  request(DiffMode::Forward, {A::Active}, false, false, 1, nullptr).print(OS);
  EXPECT_EQ(S, "forward derivative of '?' (enzyme_out)");
}

} // namespace
