//===- RequestDecoderTest.cpp - Entry points and markers ------------------===//
//
// Decodes __enzyme_autodiff / __enzyme_fwddiff calls parsed from IR and checks
// the resulting DiffRequest, the call-site values, and the error messages
// (captured by a diagnostic handler on the LLVMContext).
//
//===----------------------------------------------------------------------===//
#include "Passes/RequestDecoder.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ValueSymbolTable.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace llvm;
using namespace tapestry;

namespace {

TEST(RequestDecoder, ClassifiesEntryPointsByContainedName) {
  EXPECT_EQ(classifyEntryPoint("__enzyme_autodiff"), EntryPoint::Autodiff);
  EXPECT_EQ(classifyEntryPoint("__enzyme_autodiff_g2"), EntryPoint::Autodiff);
  EXPECT_EQ(classifyEntryPoint("_Z17__enzyme_autodiffIdEJT_Pvz"),
            EntryPoint::Autodiff);
  EXPECT_EQ(classifyEntryPoint("__enzyme_fwddiff2"), EntryPoint::ForwardDiff);
  EXPECT_EQ(classifyEntryPoint("__enzyme_augmentfwd"),
            EntryPoint::AugmentedForward);
  EXPECT_EQ(classifyEntryPoint("__enzyme_reverse_2"), EntryPoint::SplitReverse);
  EXPECT_EQ(classifyEntryPoint("__enzyme_augmentsize"),
            EntryPoint::AugmentSize);
  EXPECT_EQ(classifyEntryPoint("__tapestry_thunk"), EntryPoint::Thunk);
  EXPECT_EQ(classifyEntryPoint("__enzyme_virtualreverse"),
            EntryPoint::VirtualReverse);
  EXPECT_EQ(classifyEntryPoint("_Z23__enzyme_virtualreverseIPvET_S1_"),
            EntryPoint::VirtualReverse);
  EXPECT_EQ(classifyEntryPoint("__enzyme_fwdsplit"), EntryPoint::ForwardSplit);
  EXPECT_EQ(classifyEntryPoint("__enzyme_batch"), EntryPoint::Batch);
  EXPECT_EQ(classifyEntryPoint("__enzyme_double"), EntryPoint::TypeHint);
  EXPECT_EQ(classifyEntryPoint("__enzyme_error_estimate"),
            EntryPoint::ErrorEstimate);
  EXPECT_EQ(classifyEntryPoint("__enzyme_iter"), EntryPoint::IterationCounter);
  EXPECT_EQ(classifyEntryPoint("__enzyme_somethingnew"),
            EntryPoint::Unsupported);
  EXPECT_EQ(classifyEntryPoint("autodiff"), EntryPoint::None);
}

/// Marker globals, entry points and the functions the tests differentiate.
const char *const Prelude = R"IR(
@enzyme_const = external global i32
@enzyme_dup = external global i32
@enzyme_dupnoneed = external global i32
@enzyme_out = external global i32
@enzyme_primal_return = external global i32
@enzyme_const_return = external global i32
@enzyme_width = external global i32
@enzyme_dupv = external global i32
@enzyme_foo = external global i32
@other = external global i32

@fconst = constant ptr @sq
@fvar = global ptr @sq
@sqalias = alias double (double), ptr @sq

declare double @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)
; As clang declares `double __enzyme_autodiff_knr();` (no prototype): calls
; pass their own function type.
declare double @__enzyme_autodiff_knr(...)

define double @f(double %x, ptr %p, i32 %n) {
  %v = load double, ptr %p
  %m = fmul double %x, %v
  ret double %m
}
define double @sq(double %x) {
  %y = fmul double %x, %x
  ret double %y
}
define double @two(double %x, double %y) {
  %z = fmul double %x, %y
  ret double %z
}
define float @sqf(float %x) {
  %y = fmul float %x, %x
  ret float %y
}
define double @k() {
  ret double 1.0
}
define void @vf(ptr %p) {
  ret void
}
define i32 @ifn(i32 %n) {
  ret i32 %n
}
define double @va(double %x, ...) {
  ret double %x
}
declare double @ext(double)
)IR";

class RequestDecoderTest : public ::testing::Test {
protected:
  void SetUp() override {
    Ctx.setDiagnosticHandlerCallBack(&RequestDecoderTest::handleDiagnostic,
                                     this);
  }

  static void handleDiagnostic(const DiagnosticInfo *DI, void *Self) {
    std::string S;
    raw_string_ostream OS(S);
    DiagnosticPrinterRawOStream DP(OS);
    DI->print(DP);
    auto *T = static_cast<RequestDecoderTest *>(Self);
    if (DI->getSeverity() == DS_Error)
      T->Errors.push_back(S);
    else
      T->OtherDiagnostics.push_back(S);
  }

  /// Parses the prelude and \p Body; @caller must contain one entry call.
  void parse(StringRef Body) {
    Errors.clear();
    OtherDiagnostics.clear();
    CB = nullptr;
    SMDiagnostic Err;
    M = parseAssemblyString((Prelude + Body).str(), Err, Ctx);
    if (!M) {
      std::string S;
      raw_string_ostream OS(S);
      Err.print("RequestDecoderTest", OS);
      FAIL() << S;
    }
    Caller = M->getFunction("caller");
    ASSERT_NE(Caller, nullptr);
    // As TapestryPass finds requests: calls of an entry-point declaration,
    // whatever function type the call site uses.
    for (Instruction &I : instructions(*Caller))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (auto *Callee = dyn_cast<Function>(Call->getCalledOperand()))
          if (classifyEntryPoint(Callee->getName()) != EntryPoint::None) {
            ASSERT_EQ(CB, nullptr) << "more than one entry call";
            CB = Call;
          }
    ASSERT_NE(CB, nullptr) << "no entry call in @caller";
  }

  EntryPoint kindOfCall() const {
    StringRef Name = cast<Function>(CB->getCalledOperand())->getName();
    return classifyEntryPoint(Name);
  }

  /// Parses \p Body and decodes its entry call in the mode its name denotes.
  std::optional<DecodedCall> decode(StringRef Body) {
    parse(Body);
    if (!CB)
      return std::nullopt;
    return decodeRequest(*CB, kindOfCall());
  }

  /// A named value (argument or instruction) of @caller.
  Value *val(StringRef Name) {
    Value *V = Caller->getValueSymbolTable()->lookup(Name);
    EXPECT_NE(V, nullptr) << "no value %" << Name.str();
    return V;
  }
  Function *fn(StringRef Name) { return M->getFunction(Name); }

  /// Asserts the decode failed with exactly one error containing \p Text.
  void expectError(const std::optional<DecodedCall> &D, StringRef Text) {
    EXPECT_FALSE(D.has_value());
    ASSERT_EQ(Errors.size(), 1u) << (Errors.empty() ? "" : Errors.front());
    EXPECT_NE(Errors.front().find(Text.str()), std::string::npos)
        << "expected: " << Text.str() << "\nactual:   " << Errors.front();
  }

  LLVMContext Ctx;
  std::unique_ptr<Module> M;
  Function *Caller = nullptr;
  CallBase *CB = nullptr;
  std::vector<std::string> Errors;
  std::vector<std::string> OtherDiagnostics;
};

using A = Activity;

//===----------------------------------------------------------------------===//
// Requests that decode.
//===----------------------------------------------------------------------===//

TEST_F(RequestDecoderTest, ReverseModeExplicitMarkers) {
  auto D = decode(R"IR(
define void @caller(double %a, ptr %p, ptr %dp, i32 %k) {
  %out = load i32, ptr @enzyme_out
  %dup = load i32, ptr @enzyme_dup
  %const = load i32, ptr @enzyme_const
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %out, double %a, i32 %dup, ptr %p, ptr %dp, i32 %const, i32 %k)
  ret void
}
)IR");
  ASSERT_TRUE(D.has_value()) << (Errors.empty() ? "" : Errors.front());
  EXPECT_TRUE(Errors.empty());
  const DiffRequest &R = D->Request;
  EXPECT_EQ(R.Fn, fn("f"));
  EXPECT_EQ(R.Mode, DiffMode::Reverse);
  EXPECT_EQ(R.Args, (SmallVector<Activity, 8>{A::Active, A::Dup, A::Const}));
  EXPECT_TRUE(R.ReturnActive);
  EXPECT_FALSE(R.ReturnPrimal);
  EXPECT_EQ(R.Width, 1u);
  ASSERT_EQ(D->Primals.size(), 3u);
  ASSERT_EQ(D->Shadows.size(), 3u);
  EXPECT_EQ(D->Primals[0], val("a"));
  EXPECT_EQ(D->Primals[1], val("p"));
  EXPECT_EQ(D->Primals[2], val("k"));
  EXPECT_EQ(D->Shadows[0], nullptr);
  EXPECT_EQ(D->Shadows[1], val("dp"));
  EXPECT_EQ(D->Shadows[2], nullptr);
  EXPECT_EQ(D->SRet, nullptr);
}

TEST_F(RequestDecoderTest, ReverseModeDefaults) {
  // double: enzyme_out; ptr: enzyme_dup (value and shadow); int: enzyme_const.
  auto D = decode(R"IR(
define void @caller(double %a, ptr %p, ptr %dp, i32 %k) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %a, ptr %p, ptr %dp, i32 %k)
  ret void
}
)IR");
  ASSERT_TRUE(D.has_value()) << (Errors.empty() ? "" : Errors.front());
  EXPECT_EQ(D->Request.Args,
            (SmallVector<Activity, 8>{A::Active, A::Dup, A::Const}));
  EXPECT_EQ(D->Primals,
            (SmallVector<Value *, 8>{val("a"), val("p"), val("k")}));
  EXPECT_EQ(D->Shadows, (SmallVector<Value *, 8>{nullptr, val("dp"), nullptr}));
  EXPECT_TRUE(D->Request.ReturnActive);
}

TEST_F(RequestDecoderTest, ForwardModeDefaults) {
  // double: enzyme_dup followed by its tangent; ptr: enzyme_dup; int: const.
  auto D = decode(R"IR(
define void @caller(double %a, ptr %p, ptr %dp, i32 %k) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %a, double 1.0, ptr %p, ptr %dp, i32 %k)
  ret void
}
)IR");
  ASSERT_TRUE(D.has_value()) << (Errors.empty() ? "" : Errors.front());
  const DiffRequest &R = D->Request;
  EXPECT_EQ(R.Fn, fn("f"));
  EXPECT_EQ(R.Mode, DiffMode::Forward);
  EXPECT_EQ(R.Args, (SmallVector<Activity, 8>{A::Dup, A::Dup, A::Const}));
  EXPECT_TRUE(R.ReturnActive);
  EXPECT_FALSE(R.ReturnPrimal);
  EXPECT_EQ(D->Primals,
            (SmallVector<Value *, 8>{val("a"), val("p"), val("k")}));
  auto *Tangent = dyn_cast_or_null<ConstantFP>(D->Shadows[0]);
  ASSERT_NE(Tangent, nullptr);
  EXPECT_TRUE(Tangent->isExactlyValue(1.0));
  EXPECT_EQ(D->Shadows[1], val("dp"));
  EXPECT_EQ(D->Shadows[2], nullptr);
}

TEST_F(RequestDecoderTest, ForwardModeExplicitMarkers) {
  auto D = decode(R"IR(
define void @caller(double %a, double %b, double %db) {
  %const = load i32, ptr @enzyme_const
  %dup = load i32, ptr @enzyme_dup
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @two, i32 %const, double %a, i32 %dup, double %b, double %db)
  ret void
}
)IR");
  ASSERT_TRUE(D.has_value()) << (Errors.empty() ? "" : Errors.front());
  EXPECT_EQ(D->Request.Args, (SmallVector<Activity, 8>{A::Const, A::Dup}));
  EXPECT_EQ(D->Primals, (SmallVector<Value *, 8>{val("a"), val("b")}));
  EXPECT_EQ(D->Shadows, (SmallVector<Value *, 8>{nullptr, val("db")}));
}

TEST_F(RequestDecoderTest, DupNoNeedTakesAShadow) {
  auto D = decode(R"IR(
define void @caller(ptr %p, ptr %dp) {
  %dupnoneed = load i32, ptr @enzyme_dupnoneed
  call void (ptr, ...) @__enzyme_autodiff(ptr @vf, i32 %dupnoneed, ptr %p, ptr %dp)
  ret void
}
)IR");
  ASSERT_TRUE(D.has_value()) << (Errors.empty() ? "" : Errors.front());
  EXPECT_EQ(D->Request.Args, (SmallVector<Activity, 8>{A::DupNoNeed}));
  EXPECT_EQ(D->Primals[0], val("p"));
  EXPECT_EQ(D->Shadows[0], val("dp"));
  EXPECT_FALSE(D->Request.ReturnActive);
}

TEST_F(RequestDecoderTest, MarkersMayBeGlobalsOrCastLoads) {
  // The marker's address itself, and a load widened to i64.
  auto D = decode(R"IR(
define void @caller(double %a, ptr %p, ptr %dp, i32 %k) {
  %dup = load i32, ptr @enzyme_dup
  %dup64 = sext i32 %dup to i64
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @enzyme_out, double %a, i64 %dup64, ptr %p, ptr %dp, ptr @enzyme_const, i32 %k)
  ret void
}
)IR");
  ASSERT_TRUE(D.has_value()) << (Errors.empty() ? "" : Errors.front());
  EXPECT_EQ(D->Request.Args,
            (SmallVector<Activity, 8>{A::Active, A::Dup, A::Const}));
}

TEST_F(RequestDecoderTest, PrimalReturnBeforeOrAfterTheArguments) {
  for (const char *Call : {"(ptr @sq, i32 %primal_return, double %a)",
                           "(ptr @sq, double %a, i32 %primal_return)"}) {
    SCOPED_TRACE(Call);
    auto D = decode(std::string(R"IR(
define void @caller(double %a) {
  %primal_return = load i32, ptr @enzyme_primal_return
  %r = call { double, double } (ptr, ...) @__enzyme_autodiff)IR") +
                    Call + "\n  ret void\n}\n");
    ASSERT_TRUE(D.has_value()) << (Errors.empty() ? "" : Errors.front());
    EXPECT_TRUE(D->Request.ReturnPrimal);
    EXPECT_TRUE(D->Request.ReturnActive);
    EXPECT_EQ(D->Request.Args, (SmallVector<Activity, 8>{A::Active}));
    EXPECT_EQ(D->Primals[0], val("a"));
  }
}

TEST_F(RequestDecoderTest, PrimalReturnOnAFunctionWithoutParameters) {
  auto D = decode(R"IR(
define void @caller() {
  %primal_return = load i32, ptr @enzyme_primal_return
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @k, i32 %primal_return)
  ret void
}
)IR");
  ASSERT_TRUE(D.has_value()) << (Errors.empty() ? "" : Errors.front());
  EXPECT_EQ(D->Request.Fn, fn("k"));
  EXPECT_TRUE(D->Request.Args.empty());
  EXPECT_TRUE(D->Request.ReturnPrimal);
}

TEST_F(RequestDecoderTest, ConstReturnMakesTheReturnInactive) {
  for (const char *Call : {"(ptr @sq, i32 %const_return, double %a)",
                           "(ptr @sq, double %a, i32 %const_return)"}) {
    SCOPED_TRACE(Call);
    auto D = decode(std::string(R"IR(
define void @caller(double %a) {
  %const_return = load i32, ptr @enzyme_const_return
  %r = call double (ptr, ...) @__enzyme_autodiff)IR") +
                    Call + "\n  ret void\n}\n");
    ASSERT_TRUE(D.has_value()) << (Errors.empty() ? "" : Errors.front());
    EXPECT_FALSE(D->Request.ReturnActive);
    EXPECT_FALSE(D->Request.ReturnPrimal);
  }
}

TEST_F(RequestDecoderTest, NonFloatingPointReturnsAreInactive) {
  auto D = decode(R"IR(
define void @caller(i32 %n) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @ifn, i32 %n)
  ret void
}
)IR");
  ASSERT_TRUE(D.has_value()) << (Errors.empty() ? "" : Errors.front());
  EXPECT_EQ(D->Request.Args, (SmallVector<Activity, 8>{A::Const}));
  EXPECT_FALSE(D->Request.ReturnActive);
}

TEST_F(RequestDecoderTest, ValuesAreConvertedToTheParameterTypes) {
  // A float passed for a double parameter, a double for a float one, and an
  // i64 for an i32, as C's default argument promotions produce.
  auto D = decode(R"IR(
define void @caller(float %x, float %dx) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @sq, float %x, float %dx)
  ret void
}
)IR");
  ASSERT_TRUE(D.has_value()) << (Errors.empty() ? "" : Errors.front());
  for (Value *V : {D->Primals[0], D->Shadows[0]}) {
    auto *Ext = dyn_cast_or_null<FPExtInst>(V);
    ASSERT_NE(Ext, nullptr);
    EXPECT_TRUE(Ext->getType()->isDoubleTy());
    EXPECT_TRUE(Ext->comesBefore(CB));
  }
  EXPECT_EQ(cast<FPExtInst>(D->Primals[0])->getOperand(0), val("x"));
  EXPECT_EQ(cast<FPExtInst>(D->Shadows[0])->getOperand(0), val("dx"));

  D = decode(R"IR(
define void @caller(double %x) {
  %r = call float (ptr, ...) @__enzyme_autodiff(ptr @sqf, double %x)
  ret void
}
)IR");
  ASSERT_TRUE(D.has_value()) << (Errors.empty() ? "" : Errors.front());
  ASSERT_TRUE(isa<FPTruncInst>(D->Primals[0]));
  EXPECT_TRUE(D->Primals[0]->getType()->isFloatTy());

  D = decode(R"IR(
define void @caller(i64 %n) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @ifn, i64 %n)
  ret void
}
)IR");
  ASSERT_TRUE(D.has_value()) << (Errors.empty() ? "" : Errors.front());
  ASSERT_TRUE(isa<TruncInst>(D->Primals[0]));
  EXPECT_TRUE(D->Primals[0]->getType()->isIntegerTy(32));
}

TEST_F(RequestDecoderTest, FunctionThroughCastsAliasesAndConstantGlobals) {
  const char *Cases[] = {
      // A constant global holding the function's address.
      "  %g = load ptr, ptr @fconst\n"
      "  %r = call double (ptr, ...) @__enzyme_autodiff(ptr %g, double %a)\n",
      // An alias.
      "  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @sqalias, "
      "double %a)\n",
      // A bitcast instruction.
      "  %c = bitcast ptr @sq to ptr\n"
      "  %r = call double (ptr, ...) @__enzyme_autodiff(ptr %c, double %a)\n",
      // An address-space cast.
      "  %r = call double (ptr addrspace(1), ...) @__enzyme_autodiff(ptr "
      "addrspace(1) addrspacecast (ptr @sq to ptr addrspace(1)), double %a)\n",
  };
  for (const char *Body : Cases) {
    SCOPED_TRACE(Body);
    auto D = decode(std::string("define void @caller(double %a) {\n") + Body +
                    "  ret void\n}\n");
    ASSERT_TRUE(D.has_value()) << (Errors.empty() ? "" : Errors.front());
    EXPECT_EQ(D->Request.Fn, fn("sq"));
    EXPECT_EQ(D->Request.Args, (SmallVector<Activity, 8>{A::Active}));
  }
}

TEST_F(RequestDecoderTest, CallSiteTypeMayDifferFromTheDeclaration) {
  // What clang emits for `double __enzyme_autodiff_knr();` in C.
  auto D = decode(R"IR(
define void @caller(double %a) {
  %r = call double (ptr, double) @__enzyme_autodiff_knr(ptr @sq, double %a)
  ret void
}
)IR");
  ASSERT_TRUE(D.has_value()) << (Errors.empty() ? "" : Errors.front());
  EXPECT_EQ(D->Request.Fn, fn("sq"));
  EXPECT_EQ(D->Request.Args, (SmallVector<Activity, 8>{A::Active}));
  EXPECT_EQ(D->Primals[0], val("a"));
}

TEST_F(RequestDecoderTest, StructReturnThroughSRet) {
  auto D = decode(R"IR(
define void @caller(ptr %out, double %a, double %b) {
  call void (ptr, ...) @__enzyme_autodiff(ptr sret({ double, double }) %out, ptr @two, double %a, double %b)
  ret void
}
)IR");
  ASSERT_TRUE(D.has_value()) << (Errors.empty() ? "" : Errors.front());
  EXPECT_EQ(D->SRet, val("out"));
  EXPECT_EQ(D->Request.Fn, fn("two"));
  EXPECT_EQ(D->Request.Args, (SmallVector<Activity, 8>{A::Active, A::Active}));
  EXPECT_EQ(D->Primals, (SmallVector<Value *, 8>{val("a"), val("b")}));
}

TEST_F(RequestDecoderTest, MarkerNameOfLoadsGlobalsAndOtherValues) {
  parse(R"IR(
define void @caller(double %a, i32 %k) {
  %dup = load i32, ptr @enzyme_dup
  %dup64 = sext i32 %dup to i64
  %out = load i32, ptr @enzyme_out
  %o = load i32, ptr @other
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @sq, double %a)
  ret void
}
)IR");
  ASSERT_NE(Caller, nullptr);
  EXPECT_EQ(markerName(val("dup")), "enzyme_dup");
  EXPECT_EQ(markerName(val("dup64")), "enzyme_dup");
  EXPECT_EQ(markerName(val("out")), "enzyme_out");
  EXPECT_EQ(markerName(M->getNamedGlobal("enzyme_const")), "enzyme_const");
  EXPECT_EQ(markerName(M->getNamedGlobal("enzyme_primal_return")),
            "enzyme_primal_return");
  EXPECT_EQ(markerName(val("o")), "");
  EXPECT_EQ(markerName(M->getNamedGlobal("other")), "");
  EXPECT_EQ(markerName(val("a")), "");
  EXPECT_EQ(markerName(val("k")), "");
  EXPECT_EQ(markerName(ConstantInt::get(Type::getInt32Ty(Ctx), 0)), "");
  EXPECT_EQ(markerName(fn("sq")), "");
}

//===----------------------------------------------------------------------===//
// Malformed requests: an error at the call, and no request.
//===----------------------------------------------------------------------===//

/// The body of @caller(double %a, double %b, ptr %p, ptr %dp, i32 %k) with all
/// the markers loaded, followed by \p CallLine.
std::string callerWith(StringRef CallLine) {
  return (R"IR(
define void @caller(double %a, double %b, ptr %p, ptr %dp, i32 %k) {
  %const = load i32, ptr @enzyme_const
  %dup = load i32, ptr @enzyme_dup
  %dupnoneed = load i32, ptr @enzyme_dupnoneed
  %out = load i32, ptr @enzyme_out
  %width = load i32, ptr @enzyme_width
  %foo = load i32, ptr @enzyme_foo
)IR" + CallLine +
          "\n  ret void\n}\n")
      .str();
}

TEST_F(RequestDecoderTest, ErrorTooFewArguments) {
  expectError(decode(callerWith("  %r = call double (ptr, ...) "
                                "@__enzyme_autodiff(ptr @two, double %a)")),
              "too few arguments: 'two' takes 2 parameters but the call to "
              "__enzyme_autodiff ends before the value of parameter 2");
}

TEST_F(RequestDecoderTest, ErrorTooFewArgumentsForAShadow) {
  expectError(
      decode(callerWith("  %r = call double (ptr, ...) "
                        "@__enzyme_autodiff(ptr @vf, i32 %dup, ptr %p)")),
      "too few arguments: enzyme_dup on parameter 1 of 'vf' (pointer) must be "
      "followed by the value and its shadow");
}

TEST_F(RequestDecoderTest, ErrorTooManyArguments) {
  expectError(
      decode(callerWith("  %r = call double (ptr, ...) "
                        "@__enzyme_autodiff(ptr @sq, double %a, double %b)")),
      "too many arguments: 'sq' takes 1 parameters but the call to "
      "__enzyme_autodiff passes 1 more value(s) than they need");
}

TEST_F(RequestDecoderTest, ErrorEnzymeOutOnAPointer) {
  expectError(
      decode(callerWith("  %r = call double (ptr, ...) "
                        "@__enzyme_autodiff(ptr @vf, i32 %out, ptr %p)")),
      "enzyme_out marks an active floating-point value, but parameter 1 of "
      "'vf' (pointer) is not one");
}

TEST_F(RequestDecoderTest, ErrorFirstArgumentIsNotAFunction) {
  expectError(decode(callerWith("  %r = call double (ptr, ...) "
                                "@__enzyme_autodiff(ptr %p, double %a)")),
              "the first argument of __enzyme_autodiff must be a function, "
              "e.g. (void *)f; got parameter 3");
  // How the value is rendered is up to Diagnostics; it names the parameter.
  EXPECT_NE(Errors.front().find("p'"), std::string::npos) << Errors.front();
  // A mutable global may hold another function by the time of the call.
  expectError(decode(callerWith("  %g = load ptr, ptr @fvar\n"
                                "  %r = call double (ptr, ...) "
                                "@__enzyme_autodiff(ptr %g, double %a)")),
              "the first argument of __enzyme_autodiff must be a function");
}

TEST_F(RequestDecoderTest, ErrorIsReportedInTheCallingFunction) {
  expectError(decode(callerWith("  %r = call double (ptr, ...) "
                                "@__enzyme_autodiff(ptr @two, double %a)")),
              "in function caller");
  EXPECT_NE(Errors.front().find("tapestry: "), std::string::npos)
      << Errors.front();
}

TEST_F(RequestDecoderTest, ErrorWhenTheCallSiteTypeDiffersFromTheDeclaration) {
  // The same malformed request through an unprototyped declaration, whose
  // calls pass their own function type (getCalledFunction() is null).
  parse(callerWith("  %r = call double (ptr, double, double) "
                   "@__enzyme_autodiff_knr(ptr @sq, double %a, double %b)"));
  ASSERT_NE(CB, nullptr);
  const std::string Expected =
      "too many arguments: 'sq' takes 1 parameters but the call to "
      "__enzyme_autodiff_knr passes 1 more value(s) than they need";
  expectError(decodeRequest(*CB, EntryPoint::Autodiff), Expected);
}

TEST_F(RequestDecoderTest, ErrorNoFunctionArgument) {
  expectError(decode(callerWith("  %r = call double (...) "
                                "@__enzyme_autodiff_knr()")),
              "the call to __enzyme_autodiff_knr needs the function to "
              "differentiate as its first argument");
}

TEST_F(RequestDecoderTest, ErrorFunctionWithoutBody) {
  expectError(decode(callerWith("  %r = call double (ptr, ...) "
                                "@__enzyme_autodiff(ptr @ext, double %a)")),
              "'ext' has no body in this translation unit");
}

TEST_F(RequestDecoderTest, ErrorVariadicFunction) {
  expectError(decode(callerWith("  %r = call double (ptr, ...) "
                                "@__enzyme_autodiff(ptr @va, double %a)")),
              "'va' is variadic");
}

TEST_F(RequestDecoderTest, ErrorEnzymeOutInForwardMode) {
  expectError(
      decode(callerWith("  %r = call double (ptr, ...) "
                        "@__enzyme_fwddiff(ptr @sq, i32 %out, double %a)")),
      "enzyme_out is not valid in forward mode (__enzyme_fwddiff); pass "
      "parameter 1 of 'sq' (double) as enzyme_dup followed by its tangent");
}

TEST_F(RequestDecoderTest, ErrorDupOnAScalarInReverseMode) {
  expectError(decode(callerWith("  %r = call double (ptr, ...) "
                                "@__enzyme_autodiff(ptr @sq, i32 %dup, "
                                "double %a, double %b)")),
              "enzyme_dup needs a pointer (or, in forward mode, a "
              "floating-point value with its tangent), but parameter 1 of "
              "'sq' (double) is neither; use enzyme_out");
  expectError(decode(callerWith("  %r = call double (ptr, ...) "
                                "@__enzyme_fwddiff(ptr @ifn, i32 %dupnoneed, "
                                "i32 %k, i32 %k)")),
              "enzyme_dupnoneed needs a pointer (or, in forward mode, a "
              "floating-point value with its tangent), but parameter 1 of "
              "'ifn' (int) is neither; use enzyme_const");
}

TEST_F(RequestDecoderTest, ErrorMarkerInPlaceOfAShadow) {
  expectError(decode(callerWith("  %r = call double (ptr, ...) "
                                "@__enzyme_autodiff(ptr @vf, ptr %p, "
                                "i32 %const)")),
              "expected the shadow of parameter 1 of 'vf' (pointer) but found "
              "the marker enzyme_const");
}

TEST_F(RequestDecoderTest, ErrorTwoActivityMarkersInARow) {
  expectError(decode(callerWith("  %r = call double (ptr, ...) "
                                "@__enzyme_autodiff(ptr @sq, i32 %out, "
                                "i32 %const, double %a)")),
              "two activity markers in a row before parameter 1 of 'sq'");
}

TEST_F(RequestDecoderTest, ErrorUnknownAndUnsupportedMarkers) {
  expectError(decode(callerWith("  %r = call double (ptr, ...) "
                                "@__enzyme_autodiff(ptr @sq, i32 %foo, "
                                "double %a)")),
              "unknown marker 'enzyme_foo' in the call to __enzyme_autodiff");
  expectError(decode(callerWith("  %r = call double (ptr, ...) "
                                "@__enzyme_fwddiff(ptr @sq, i32 %width, "
                                "i32 %k, double %a, double 1.0, double 0.0)")),
              "the batch width after enzyme_width must be a compile-time "
              "constant integer");
}

TEST_F(RequestDecoderTest, ErrorBatchWidthNotFirst) {
  expectError(decode(callerWith("  %r = call double (ptr, ...) "
                                "@__enzyme_autodiff(ptr @two, double %a, "
                                "i32 %width, i32 2, double %b)")),
              "enzyme_width must come first");
}

TEST_F(RequestDecoderTest, ErrorBatchTooFewShadows) {
  expectError(
      decode(callerWith("  %r = call double (ptr, ...) "
                        "@__enzyme_autodiff(ptr @vf, i32 %width, i32 3, "
                        "i32 %dup, ptr %p, ptr %dp, ptr %dp)")),
      "too few arguments: enzyme_dup on parameter 1 of 'vf' (pointer) must be "
      "followed by the value and 3 shadows (enzyme_width 3); the call ends "
      "after 2");
}

//===----------------------------------------------------------------------===//
// Batch mode.
//===----------------------------------------------------------------------===//

TEST_F(RequestDecoderTest, BatchForwardScalarTakesWidthTangents) {
  auto D = decode(R"IR(
define void @caller(double %a) {
  %width = load i32, ptr @enzyme_width
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @sq, i32 %width, i32 3, double %a, double 1.0, double 2.0, double 3.0)
  ret void
}
)IR");
  ASSERT_TRUE(D.has_value()) << (Errors.empty() ? "" : Errors.front());
  EXPECT_EQ(D->Request.Width, 3u);
  EXPECT_EQ(D->Request.Args, (SmallVector<Activity, 8>{A::Dup}));
  EXPECT_EQ(D->Primals[0], val("a"));
  // The three tangents, gathered into one <3 x double>.
  Type *VT = FixedVectorType::get(Type::getDoubleTy(Ctx), 3);
  ASSERT_NE(D->Shadows[0], nullptr);
  EXPECT_EQ(D->Shadows[0]->getType(), VT);
}

TEST_F(RequestDecoderTest, BatchDupTakesWidthShadowsAndDupvAStride) {
  auto D = decode(R"IR(
define void @caller(ptr %p, ptr %dp, double %a, i64 %s) {
  %width = load i32, ptr @enzyme_width
  %dup = load i32, ptr @enzyme_dup
  %dupv = load i32, ptr @enzyme_dupv
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %width, i32 2, double %a, i32 %dupv, i64 %s, ptr %p, ptr %dp, i32 5)
  ret void
}
)IR");
  ASSERT_TRUE(D.has_value()) << (Errors.empty() ? "" : Errors.front());
  EXPECT_EQ(D->Request.Width, 2u);
  EXPECT_EQ(D->Request.Args,
            (SmallVector<Activity, 8>{A::Active, A::Dup, A::Const}));
  EXPECT_EQ(D->Shadows[0], nullptr);
  ASSERT_NE(D->Shadows[1], nullptr);
  EXPECT_EQ(D->Shadows[1]->getType(),
            ArrayType::get(PointerType::getUnqual(Ctx), 2));
}

TEST_F(RequestDecoderTest, BatchWidthOneIsScalarMode) {
  auto D = decode(R"IR(
define void @caller(ptr %p, ptr %dp) {
  %width = load i32, ptr @enzyme_width
  call void (ptr, ...) @__enzyme_autodiff(ptr @vf, i32 %width, i32 1, ptr %p, ptr %dp)
  ret void
}
)IR");
  ASSERT_TRUE(D.has_value()) << (Errors.empty() ? "" : Errors.front());
  EXPECT_EQ(D->Request.Width, 1u);
  EXPECT_EQ(D->Shadows[0], val("dp"));
}

TEST_F(RequestDecoderTest, ErrorValueOfTheWrongType) {
  expectError(decode(callerWith("  %r = call double (ptr, ...) "
                                "@__enzyme_autodiff(ptr @sq, ptr %p)")),
              "the value passed for parameter 1 of 'sq' (double) has type "
              "pointer, not the parameter's type");
}

} // namespace
