//===- ChosenLoopResultsTest.cpp - Loops whose result a choice drops ------===//
//
// Synthesis/ChosenLoopResults.h finds the loops whose reverse need run only
// when a select, fmin or fmax kept their result. These tests pin which
// loops qualify and by which choice and arm: a distance loop chosen by a
// select's true arm, its false arm, fmin's second operand, through a phi
// after an inner loop's guard; and which do not: a result also added up,
// a loop that stores or calls a function, two results in the two arms of
// one select, a result two selects keep.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/ChosenLoopResults.h"

#include "Analysis/ActivityAnalysis.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

#include <memory>
#include <string>

using namespace llvm;
using namespace tapestry;

namespace {

// Each function: for j < k { s = sum_l c[j*d + l]^2 (loop %dist); choice }.
// The prefix and suffix are shared; %CHOICE is what differs.
std::string centroids(const std::string &Name, const std::string &Body,
                      const std::string &Choice) {
  return "define double @" + Name +
         R"IR((ptr noalias %c, ptr %out, i64 %k, i64 %d) {
entry:
  br label %cent

cent:
  %j = phi i64 [ 0, %entry ], [ %j.next, %chosen ]
  %best = phi double [ 0x7FF0000000000000, %entry ], [ %best.next, %chosen ]
  %all = phi double [ 0.0, %entry ], [ %all.next, %chosen ]
  %row = mul i64 %j, %d
  %any = icmp sgt i64 %d, 0
  br i1 %any, label %dist.pre, label %chosen

dist.pre:
  br label %dist

dist:
  %l = phi i64 [ 0, %dist.pre ], [ %l.next, %dist ]
  %s = phi double [ 0.0, %dist.pre ], [ %s.next, %dist ]
  %ci = add i64 %row, %l
  %ca = getelementptr inbounds double, ptr %c, i64 %ci
  %cv = load double, ptr %ca, align 8
)IR" + Body +
         R"IR(
  %l.next = add nuw i64 %l, 1
  %l.done = icmp eq i64 %l.next, %d
  br i1 %l.done, label %dist.exit, label %dist

dist.exit:
  br label %chosen

chosen:
  %r = phi double [ 0.0, %cent ], [ %s.next, %dist.exit ]
)IR" + Choice +
         R"IR(
  %j.next = add nuw i64 %j, 1
  %j.done = icmp eq i64 %j.next, %k
  br i1 %j.done, label %done, label %cent

done:
  %res = fadd double %best.next, %all.next
  ret double %res
}
)IR";
}

const std::string PlainBody = R"IR(
  %sq = fmul double %cv, %cv
  %s.next = fadd double %s, %sq)IR";

struct Found {
  std::string Choice;
  unsigned Arm = 0;
};

class ChosenLoopResultsTest : public ::testing::Test {
protected:
  /// The chosen loop result of the function in \p Text (with every
  /// floating-point value active), or none; parse errors fail the test.
  std::optional<Found> find(const std::string &Text) {
    SMDiagnostic Err;
    M = parseAssemblyString("declare double @llvm.minnum.f64(double, double)\n"
                            "declare double @sin(double)\n" +
                                Text,
                            Err, Ctx);
    if (!M) {
      ADD_FAILURE() << Err.getMessage().str();
      return std::nullopt;
    }
    Function &F = *std::prev(M->end());
    DominatorTree DT(F);
    LoopInfo LI(DT);
    ActivityInfo AI;
    for (Instruction &I : instructions(F))
      if (I.getType()->isFloatingPointTy())
        AI.Active.insert(&I);
    auto Results = findChosenLoopResults(LI, AI);
    if (Results.empty())
      return std::nullopt;
    EXPECT_EQ(Results.size(), 1u);
    EXPECT_EQ(Results[0].L->getHeader()->getName(), "dist");
    return Found{Results[0].Choice->getName().str(), Results[0].Arm};
  }

  LLVMContext Ctx;
  std::unique_ptr<Module> M;
};

TEST_F(ChosenLoopResultsTest, SelectTrueArm) {
  auto R = find(centroids("f", PlainBody, R"IR(
  %closer = fcmp olt double %r, %best
  %best.next = select i1 %closer, double %r, double %best
  %all.next = fadd double %all, 0.0)IR"));
  ASSERT_TRUE(R);
  EXPECT_EQ(R->Choice, "best.next");
  EXPECT_EQ(R->Arm, 0u);
}

TEST_F(ChosenLoopResultsTest, SelectFalseArm) {
  auto R = find(centroids("f", PlainBody, R"IR(
  %farther = fcmp oge double %r, %best
  %best.next = select i1 %farther, double %best, double %r
  %all.next = fadd double %all, 0.0)IR"));
  ASSERT_TRUE(R);
  EXPECT_EQ(R->Choice, "best.next");
  EXPECT_EQ(R->Arm, 1u);
}

TEST_F(ChosenLoopResultsTest, FminSecondOperand) {
  auto R = find(centroids("f", PlainBody, R"IR(
  %best.next = call double @llvm.minnum.f64(double %best, double %r)
  %all.next = fadd double %all, 0.0)IR"));
  ASSERT_TRUE(R);
  EXPECT_EQ(R->Choice, "best.next");
  EXPECT_EQ(R->Arm, 1u);
}

TEST_F(ChosenLoopResultsTest, ResultAlsoAddedUp) {
  EXPECT_FALSE(find(centroids("f", PlainBody, R"IR(
  %closer = fcmp olt double %r, %best
  %best.next = select i1 %closer, double %r, double %best
  %all.next = fadd double %all, %r)IR")));
}

TEST_F(ChosenLoopResultsTest, LoopStores) {
  EXPECT_FALSE(find(centroids("f", PlainBody + R"IR(
  store double %s.next, ptr %out, align 8)IR",
                              R"IR(
  %closer = fcmp olt double %r, %best
  %best.next = select i1 %closer, double %r, double %best
  %all.next = fadd double %all, 0.0)IR")));
}

TEST_F(ChosenLoopResultsTest, LoopCallsFunction) {
  EXPECT_FALSE(find(centroids("f", R"IR(
  %sn = call double @sin(double %cv)
  %s.next = fadd double %s, %sn)IR",
                              R"IR(
  %closer = fcmp olt double %r, %best
  %best.next = select i1 %closer, double %r, double %best
  %all.next = fadd double %all, 0.0)IR")));
}

TEST_F(ChosenLoopResultsTest, TwoResultsInBothArms) {
  EXPECT_FALSE(find(centroids("f", PlainBody + R"IR(
  %t.next = fmul double %s, %cv)IR",
                              R"IR(
  %t = phi double [ 0.0, %cent ], [ %t.next, %dist.exit ]
  %closer = fcmp olt double %r, %best
  %best.next = select i1 %closer, double %r, double %t
  %all.next = fadd double %all, 0.0)IR")));
}

TEST_F(ChosenLoopResultsTest, ResultInTwoSelects) {
  // %all keeps the result too, and carries it to the next centroid: its
  // adjoint comes from either select.
  EXPECT_FALSE(find(centroids("f", PlainBody, R"IR(
  %closer = fcmp olt double %r, %best
  %best.next = select i1 %closer, double %r, double %best
  %all.next = select i1 %closer, double %r, double %all)IR")));
}

} // namespace
