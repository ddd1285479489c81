//===- TruncateRequest.cpp - Enzyme's floating-point truncation -----------===//
//
// Implements TruncateRequest.h: lowerTruncateRequest decodes the formats of a
// __enzyme_truncate_* or __enzyme_expand_mem_value call and replaces it with
// the function (or value) computed in the narrower format by
// Synthesis/FloatTruncation, and truncateAllFunctions applies
// -enzyme-truncate-all to every function of the module. Malformed or
// unsupported formats are reported here, at the call; what each mode computes
// is FloatTruncation's business.
//
//===----------------------------------------------------------------------===//
#include "Passes/TruncateRequest.h"

#include "Core/Diagnostics.h"
#include "Passes/RequestDecoder.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

static cl::opt<bool> EmulateNativeFormats(
    "tapestry-emulate-native-formats", cl::Hidden, cl::init(false),
    cl::desc("Emulate formats given by exponent and mantissa bits even when "
             "the target has them (5-10 half, 8-7 bfloat): to test the "
             "emulation against the native types"));

namespace tapestry {

namespace {

const char *const SupportedWidths =
    "a width must be 64 (double), 32 (float) or 16 (half); other formats "
    "are given by their exponent and mantissa bits";

/// Checks that \p To is narrower than \p From.
bool narrower(Type *From, Type *To, std::string &Error) {
  if (To->getPrimitiveSizeInBits() < From->getPrimitiveSizeInBits())
    return true;
  Error = "the format to truncate to (" + formatName(To) +
          ") must be narrower than the one truncated (" + formatName(From) +
          ")";
  return false;
}

/// The truncation of \p From to the format of \p Exponent and \p Mantissa
/// bits: native if the target has it, else emulated; or an error message.
std::optional<Truncation> layoutTruncation(TruncationMode Mode, Type *From,
                                           int64_t Exponent, int64_t Mantissa,
                                           std::string &Error) {
  Type *To = floatTypeOfLayout(From->getContext(), Exponent, Mantissa);
  if (To && (!EmulateNativeFormats || To == From)) {
    if (!narrower(From, To, Error))
      return std::nullopt;
    return Truncation{Mode, From, To};
  }
  if (Exponent < 0 || Exponent > 64 || Mantissa < 0 || Mantissa > 128) {
    Error = "a format with " + std::to_string(Exponent) + " exponent and " +
            std::to_string(Mantissa) + " mantissa bits is not one Tapestry " +
            "can emulate";
    return std::nullopt;
  }
  FloatLayout L{int(Exponent), int(Mantissa)};
  Error = emulationError(From, L);
  if (!Error.empty())
    return std::nullopt;
  return Truncation{Mode, From, From, L};
}

class TruncateLowering {
public:
  explicit TruncateLowering(CallBase &CB) : CB(CB), Name(entryPointName(CB)) {}
  bool run(TLIGetter GetTLI);

private:
  bool error(const Twine &Msg) {
    return reportError(*CB.getFunction(), &CB, Name + ": " + Msg);
  }
  /// FROM and TO (or FROM, EXPONENT, MANTISSA) after the first argument.
  std::optional<Truncation> formats(TruncationMode Mode);
  void replaceCall(Value *V);

  CallBase &CB;
  StringRef Name;
};

} // namespace

std::optional<Truncation> TruncateLowering::formats(TruncationMode Mode) {
  LLVMContext &Ctx = CB.getContext();
  unsigned N = CB.arg_size();
  if (N != 3 && N != 4) {
    error("expected 3 arguments (f or a value, FROM, TO) or 4 (f or a value, "
          "FROM, EXPONENT, MANTISSA), got " +
          Twine(N));
    return std::nullopt;
  }
  SmallVector<int64_t, 3> Ints;
  for (unsigned I = 1; I < N; ++I) {
    std::optional<int64_t> C = constantIntegerArgument(CB.getArgOperand(I));
    if (!C) {
      error("argument " + Twine(I + 1) +
            " must be a compile-time integer constant (a width in bits, or "
            "exponent and mantissa bits)");
      return std::nullopt;
    }
    Ints.push_back(*C);
  }
  Type *From = floatTypeOfWidth(Ctx, Ints[0]);
  if (!From) {
    error("FROM is " + Twine(Ints[0]) +
          " bits, which is not a format Tapestry truncates; it must be 64 "
          "(double), 32 (float) or 16 (half)");
    return std::nullopt;
  }
  std::string Error;
  std::optional<Truncation> T;
  if (N == 3) {
    Type *To = floatTypeOfWidth(Ctx, Ints[1]);
    if (!To)
      Error = "TO is " + std::to_string(Ints[1]) + " bits; " + SupportedWidths;
    else if (narrower(From, To, Error))
      T = Truncation{Mode, From, To};
  } else {
    T = layoutTruncation(Mode, From, Ints[1], Ints[2], Error);
  }
  if (!T)
    error(Error);
  return T;
}

void TruncateLowering::replaceCall(Value *V) {
  CB.replaceAllUsesWith(V);
  if (auto *II = dyn_cast<InvokeInst>(&CB)) {
    II->getUnwindDest()->removePredecessor(II->getParent());
    BranchInst::Create(II->getNormalDest(), II);
  }
  CB.eraseFromParent();
}

bool TruncateLowering::run(TLIGetter GetTLI) {
  bool IsFunction = Name.contains("_func");
  TruncationMode Mode = Name.contains("__enzyme_truncate_op_func")
                            ? TruncationMode::Op
                            : TruncationMode::Mem;
  if (CB.hasStructRetAttr())
    return error("its result must be returned directly, not through memory");
  std::optional<Truncation> T = formats(Mode);
  if (!T)
    return false;
  if (IsFunction) {
    Function *Fn = requestTarget(CB);
    if (!Fn)
      return error("the first argument must be a function, e.g. (void *)f");
    if (Fn->isDeclaration())
      return error("the body of '" + sourceIdentifier(*Fn) +
                   "' is not in this file, so Tapestry cannot truncate it");
    if (!CB.getType()->isPointerTy())
      return error("it returns a pointer to the truncated function; declare "
                   "it to return a function pointer");
    Function *Copy = truncatedFunction(*Fn, *T, Name, GetTLI);
    if (!Copy)
      return false;
    replaceCall(ConstantExpr::getPointerCast(Copy, CB.getType()));
    return true;
  }
  // __enzyme_truncate_mem_value / __enzyme_expand_mem_value.
  Value *V = CB.getArgOperand(0);
  if (!V->getType()->isFloatingPointTy())
    return error("the first argument must be a floating-point value, not " +
                 describe(V->getType()));
  if (CB.getType() != T->From)
    return error("it returns a " + formatName(T->From) +
                 " (the FROM format); declare it to return that type");
  IRBuilder<> B(&CB);
  // A float passed through `...` arrives as a double: back to FROM.
  V = B.CreateFPCast(V, T->From);
  replaceCall(Name.contains("__enzyme_expand_mem_value")
                  ? fromMemRepresentation(B, V, *T)
                  : toMemRepresentation(B, V, *T));
  return true;
}

bool lowerTruncateRequest(CallBase &CB, TLIGetter GetTLI) {
  return TruncateLowering(CB).run(GetTLI);
}

/// "64" or "11-52": a width or exponent-mantissa bits, the latter in
/// \p Exponent and \p Mantissa; the type of a width, else null with
/// \p Error set if \p S is neither.
static Type *parseFormat(LLVMContext &Ctx, StringRef S, int64_t &Exponent,
                         int64_t &Mantissa, std::string &Error) {
  auto [E, M] = S.split('-');
  Exponent = Mantissa = -1;
  int64_t Width = 0;
  if (M.empty() && !E.getAsInteger(10, Width)) {
    if (Type *T = floatTypeOfWidth(Ctx, Width))
      return T;
    Error = S.str() + " bits is not a format Tapestry truncates; " +
            SupportedWidths;
    return nullptr;
  }
  if (!E.getAsInteger(10, Exponent) && !M.getAsInteger(10, Mantissa))
    return nullptr;
  Exponent = Mantissa = -1;
  Error = "'" + S.str() +
          "' is neither a width (64) nor exponent-mantissa bits (11-52)";
  return nullptr;
}

bool truncateAllFunctions(Module &M, StringRef Spec, TLIGetter GetTLI) {
  if (Spec.empty())
    return true;
  auto Defined = find_if(M, [](Function &F) { return !F.isDeclaration(); });
  if (Defined == M.end())
    return true;
  auto [FromS, ToS] = Spec.split("to");
  std::string Error;
  LLVMContext &Ctx = M.getContext();
  int64_t E = -1, Mant = -1;
  Type *From = parseFormat(Ctx, FromS, E, Mant, Error);
  if (!From && Error.empty()) {
    From = floatTypeOfLayout(Ctx, E, Mant);
    if (!From)
      Error = "the format truncated (" + FromS.str() +
              ") must be one the target has: 11-52, 8-23 or 5-10";
  }
  std::optional<Truncation> T;
  if (From) {
    Type *To = parseFormat(Ctx, ToS, E, Mant, Error);
    if (To && narrower(From, To, Error))
      T = Truncation{TruncationMode::Op, From, To};
    else if (!To && Error.empty())
      T = layoutTruncation(TruncationMode::Op, From, E, Mant, Error);
  }
  if (!T)
    return reportError(*Defined, nullptr,
                       "-enzyme-truncate-all=" + Spec + ": " + Error +
                           " (expected e.g. 64to32 or 11-52to8-23)");
  bool OK = true;
  for (Function &F : M)
    if (!F.isDeclaration())
      OK &= truncateInPlace(F, *T, GetTLI);
  return OK;
}

} // namespace tapestry
