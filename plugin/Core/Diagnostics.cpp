//===- Diagnostics.cpp - Errors reported at the user's source line --------===//
//
// Implements Diagnostics.h: reportError and reportErrorAtGlobal raise a
// DiagnosticInfoUnsupported at the instruction's (or the registration's) debug
// location, and the helpers every layer uses to word a message in source terms:
// sourceName and sourceIdentifier (demangled names), sourceLocation, and
// describe, which names a value by its source variable, parameter or -O0 stack
// slot where debug information allows. It decides nothing about what is
// supported.
//
//===----------------------------------------------------------------------===//
#include "Core/Diagnostics.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/raw_ostream.h"
#include <set>
#include <tuple>

#define DEBUG_TYPE "tapestry"

using namespace llvm;

STATISTIC(NumErrors, "Errors reported (derivatives refused)");

namespace tapestry {

/// True for a file of the compiler's or the system's headers (libstdc++,
/// libc), or of Tapestry's own (<enzyme/enzyme>, <tapestry/...>, in the
/// source tree or installed), which users did not write.
static bool isSystemHeader(StringRef Dir, StringRef File) {
  SmallString<128> Path = Dir;
  if (!File.starts_with("/"))
    Path = (Dir + "/" + File).str();
  else
    Path = File;
  StringRef P = Path;
  return P.starts_with("/usr/include/") || P.starts_with("/usr/lib/gcc/") ||
         P.starts_with("/usr/lib/llvm-") ||
         P.starts_with("/usr/local/include/") ||
         P.contains("/include/tapestry/") || P.contains("/include/enzyme/");
}

DebugLoc userLocation(const Instruction *At, bool Nearby) {
  DebugLoc DL = At->getDebugLoc();
  for (const Instruction *I = At; Nearby && !DL && I; I = I->getNextNode())
    if (!isa<PHINode>(I))
      DL = I->getDebugLoc();
  const DILocation *L = DL.get();
  while (L && L->getInlinedAt() &&
         isSystemHeader(L->getDirectory(), L->getFilename()))
    L = L->getInlinedAt();
  return L ? DebugLoc(L) : DL;
}

/// Errors reported, keyed by module (and its name: a process compiles one
/// module per context, and a later module may reuse an address), place and
/// text.
static std::set<std::tuple<const Module *, std::string, std::string, unsigned,
                           unsigned, std::string>>
    Reported;

/// The innermost ErrorCapture, or null.
static ErrorCapture *Capturing = nullptr;

ErrorCapture::ErrorCapture() : Outer(Capturing) { Capturing = this; }

ErrorCapture::~ErrorCapture() {
  report();
  Capturing = Outer;
}

/// Reports an error as reportError does, at a location already found.
static void diagnoseError(const Function &Where, const DebugLoc &DL,
                          const std::string &Text);

void ErrorCapture::report() {
  std::vector<Error> Errors = std::move(Held);
  Held.clear();
  // To the enclosing capture while this one is still the innermost.
  ErrorCapture *Self = Capturing;
  Capturing = Outer;
  for (const Error &E : Errors)
    diagnoseError(*E.Where, E.Loc, E.Text);
  Capturing = Self;
}

bool anyErrorReportedIn(const Module &M) {
  for (ErrorCapture *C = Capturing; C; C = C->outer())
    if (any_of(C->errors(), [&](const ErrorCapture::Error &E) {
          return E.Where->getParent() == &M;
        }))
      return true;
  return any_of(Reported, [&](const auto &R) {
    return std::get<0>(R) == &M && std::get<1>(R) == M.getModuleIdentifier();
  });
}

/// The calls whose callees are being differentiated, outermost first.
static SmallVector<const Instruction *, 8> CallSites;

CallSiteScope::CallSiteScope(const Instruction &Call) {
  CallSites.push_back(&Call);
}

CallSiteScope::~CallSiteScope() { CallSites.pop_back(); }

static bool inSystemHeader(const DebugLoc &DL) {
  return DL && isSystemHeader(DL->getDirectory(), DL->getFilename());
}

/// ", reached from the call at file:line:col in 'f'" for an error at \p DL
/// in code the user did not write, naming the innermost call on the way
/// that the user did write (or, without debug information, the outermost
/// function); "" otherwise.
static std::string reachedFrom(const DebugLoc &DL) {
  if (CallSites.empty() || (DL && !inSystemHeader(DL)))
    return "";
  for (const Instruction *Call : reverse(CallSites)) {
    DebugLoc CL = userLocation(Call, /*Nearby=*/true);
    if (!CL || inSystemHeader(CL))
      continue;
    return (" (reached from the call at " + CL->getFilename() + ":" +
            Twine(CL.getLine()) + ":" + Twine(CL.getCol()) + " in '" +
            sourceName(*Call->getFunction()) + "')")
        .str();
  }
  if (DL)
    return "";
  // No debug information (IR from clang without -g): the function names.
  const Function &Outer = *CallSites.front()->getFunction();
  return " (reached from a call in '" + sourceName(Outer) + "')";
}

bool reportError(const Function &Where, const Instruction *At,
                 const Twine &Msg) {
  LLVM_DEBUG(dbgs() << "tapestry: error in " << Where.getName() << ": " << Msg
                    << (Capturing ? " (held)" : "") << "\n");
  DebugLoc DL = At ? userLocation(At, /*Nearby=*/true) : DebugLoc();
  diagnoseError(Where, DL, Msg.str() + reachedFrom(DL));
  return false;
}

static void diagnoseError(const Function &Where, const DebugLoc &DL,
                          const std::string &Text) {
  if (Capturing) {
    Capturing->hold({&Where, DL, Text});
    return;
  }
  ++NumErrors;
  DiagnosticLocation Loc;
  if (DL)
    Loc = DiagnosticLocation(DL);
  // The same error at the same place once: several derivatives of one
  // function (its shadows, both halves of split mode) meet the same
  // construct.
  // (Keyed by the module too: a process compiles one module per context,
  // and the same error again in a later module at the same address is the
  // same program's.)
  const Module *M = Where.getParent();
  if (!Reported
           .insert({M, M ? M->getModuleIdentifier() : "",
                    DL ? DL->getFilename().str() : Where.getName().str(),
                    DL ? DL.getLine() : 0, DL ? DL.getCol() : 0, Text})
           .second)
    return;
  Where.getContext().diagnose(
      DiagnosticInfoUnsupported(Where, "tapestry: " + Text, Loc, DS_Error));
}

static void diagnoseAtGlobal(const Function &Where, const GlobalVariable &GV,
                             const Twine &Msg, DiagnosticSeverity Severity) {
  SmallVector<DIGlobalVariableExpression *, 1> Exprs;
  GV.getDebugInfo(Exprs);
  DiagnosticLocation Loc;
  if (!Exprs.empty()) {
    // DiagnosticLocation takes its file and line from a subprogram: describe
    // the global's definition as one (unattached, so the module is unchanged).
    DIGlobalVariable *Var = Exprs.front()->getVariable();
    Loc = DiagnosticLocation(DISubprogram::getDistinct(
        GV.getContext(), Var->getScope(), Var->getName(), Var->getName(),
        Var->getFile(), Var->getLine(), /*Type=*/nullptr, Var->getLine(),
        /*ContainingType=*/nullptr, 0, 0, DINode::FlagZero,
        DISubprogram::SPFlagZero, /*Unit=*/nullptr));
  }
  Where.getContext().diagnose(
      DiagnosticInfoUnsupported(Where, "tapestry: " + Msg, Loc, Severity));
}

bool reportErrorAtGlobal(const Function &Where, const GlobalVariable &GV,
                         const Twine &Msg) {
  ++NumErrors;
  diagnoseAtGlobal(Where, GV, Msg, DS_Error);
  return false;
}

void reportWarningAtGlobal(const Function &Where, const GlobalVariable &GV,
                           const Twine &Msg) {
  diagnoseAtGlobal(Where, GV, Msg, DS_Warning);
}

/// The first template argument of the template whose argument list starts
/// at \p S[At], up to the first comma or '>' outside brackets.
static std::string firstTemplateArgument(StringRef S, size_t At) {
  int Depth = 0;
  for (size_t I = At; I < S.size(); ++I) {
    char C = S[I];
    if (C == '<' || C == '(' || C == '[')
      ++Depth;
    else if ((C == '>' || C == ')' || C == ']') && Depth > 0)
      --Depth;
    else if ((C == ',' || C == '>') && Depth == 0)
      return S.substr(At, I - At).str();
  }
  return "";
}

std::string sourceName(const Function &F) {
  // Clang's outlined OpenMP region (and Tapestry's copy of it).
  StringRef Name = F.getName();
  if (size_t P = Name.find(".omp_outlined"); P != StringRef::npos)
    return demangle(Name.substr(0, P).str()) + " (OpenMP parallel region)";
  // Tapestry's copies of a function (f.tapestry.const: specialised for a
  // request's constant arguments) are the function.
  if (size_t P = Name.find(".tapestry."); P != StringRef::npos)
    Name = Name.substr(0, P);
  std::string S = demangle(Name.str());
  // The C++ API's invokers (tapestry/detail/lowering.hpp) are named by
  // what they call: the member function, or the callable's operator().
  StringRef D = S;
  if (size_t P = D.find("tapestry::detail::invoke_member<&");
      P != StringRef::npos) {
    std::string Member = firstTemplateArgument(
        D, P + strlen("tapestry::detail::invoke_member<&"));
    if (!Member.empty())
      return Member;
  }
  // What a std::function calls: its handler's invoker, named by the
  // callable it holds (a lambda, a functor).
  if (D.starts_with("std::_Function_handler<") && D.contains(">::_M_invoke(")) {
    size_t First = strlen("std::_Function_handler<");
    std::string Sig = firstTemplateArgument(D, First);
    std::string Held = D.substr(First + Sig.size()).starts_with(", ")
                           ? firstTemplateArgument(D, First + Sig.size() + 2)
                           : "";
    if (!Held.empty() && Held.find('(') == std::string::npos)
      return Held + "::operator()";
  }
  if (size_t P = D.find("tapestry::detail::invoke_callable<");
      P != StringRef::npos) {
    std::string Callable = firstTemplateArgument(
        D, P + strlen("tapestry::detail::invoke_callable<"));
    if (!Callable.empty())
      return Callable + "::operator()";
  }
  return S;
}

std::string sourceIdentifier(const Function &F) {
  // A C++ function's name from the demangler's parse: a template's starts
  // with its result type ("double ns::f<double>(double)"), an anonymous
  // namespace with a parenthesis.
  StringRef Mangled = F.getName();
  ItaniumPartialDemangler D;
  if (Mangled.starts_with("_Z") && !Mangled.contains('.') &&
      !D.partialDemangle(Mangled.data()) && D.isFunction())
    if (char *N = D.getFunctionName(nullptr, nullptr)) {
      std::string Name = N;
      std::free(N);
      if (!Name.empty())
        return Name;
    }
  std::string S = sourceName(F);
  size_t Paren = S.find('(');
  return Paren == std::string::npos ? S : S.substr(0, Paren);
}

std::string registrationSuffix(const Function &F) {
  std::string S = sourceIdentifier(F), Out;
  for (char C : S)
    Out += isAlnum(C) || C == '_' ? C : '_';
  while (!Out.empty() && Out.back() == '_')
    Out.pop_back();
  return Out;
}

std::string sourceLocation(const Instruction *I) {
  if (!I)
    return "";
  DebugLoc DL = userLocation(I);
  if (!DL)
    return "";
  std::string S;
  raw_string_ostream OS(S);
  OS << DL->getFilename() << ':' << DL.getLine();
  return S;
}

/// The name of the source variable that \p V holds, from the debug info's
/// variable records (with -g), or "".
static std::string variableName(const Value *V) {
  // A variable of a header the user did not write (`rt` in
  // <enzyme/enzyme>'s wrappers) names nothing the user knows.
  auto Named = [](const DILocalVariable *Var) {
    const DIFile *File = Var ? Var->getFile() : nullptr;
    return Var && !Var->getName().empty() &&
           !(File && isSystemHeader(File->getDirectory(), File->getFilename()));
  };
  SmallVector<DbgValueInst *, 1> Intrinsics;
  SmallVector<DbgVariableRecord *, 1> Records;
  findDbgValues(Intrinsics, const_cast<Value *>(V), &Records);
  for (DbgVariableRecord *R : Records)
    if (Named(R->getVariable()))
      return R->getVariable()->getName().str();
  for (DbgValueInst *DVI : Intrinsics)
    if (Named(DVI->getVariable()))
      return DVI->getVariable()->getName().str();
  if (isa<AllocaInst>(V)) {
    for (DbgVariableRecord *R : findDVRDeclares(const_cast<Value *>(V)))
      if (Named(R->getVariable()))
        return R->getVariable()->getName().str();
    for (DbgDeclareInst *DDI : findDbgDeclares(const_cast<Value *>(V)))
      if (Named(DDI->getVariable()))
        return DDI->getVariable()->getName().str();
  }
  return "";
}

/// "a T" or "an T", as English wants for the spelled type \p T.
static std::string withArticle(const std::string &T) {
  bool Vowel = !T.empty() && StringRef("aeiou").contains(T.front());
  return (Vowel ? "an " : "a ") + T;
}

std::string atLine(const Instruction *I) {
  DebugLoc DL = userLocation(I);
  return DL && DL.getLine() ? " (line " + std::to_string(DL.getLine()) + ")"
                            : "";
}

/// The parameter that \p Slot (an -O0 stack slot) holds, if the function's
/// entry stores a parameter into it.
static const Argument *spilledParameter(const Value *Slot) {
  if (!isa<AllocaInst>(Slot))
    return nullptr;
  for (const User *U : Slot->users())
    if (auto *SI = dyn_cast<StoreInst>(U))
      if (SI->getPointerOperand() == Slot)
        if (auto *A = dyn_cast<Argument>(SI->getValueOperand()))
          return A;
  return nullptr;
}

std::string describe(const Value *V) {
  std::string S;
  raw_string_ostream OS(S);
  if (auto *A = dyn_cast<Argument>(V)) {
    OS << "parameter " << A->getArgNo() + 1;
    std::string Name = A->hasName() ? A->getName().str() : variableName(A);
    if (!Name.empty())
      OS << " ('" << Name << "')";
    return S;
  }
  if (V->hasName() && !isa<Instruction>(V)) {
    OS << demangle(V->getName().str()); // a C++ static local: f()::buf
    return S;
  }
  auto *I = dyn_cast<Instruction>(V);
  if (!I) {
    if (isa<ConstantPointerNull>(V))
      return "a null pointer";
    if (auto *CFP = dyn_cast<ConstantFP>(V)) {
      SmallString<16> Str;
      CFP->getValueAPF().toString(Str);
      return ("the constant " + Str).str();
    }
    if (auto *CI = dyn_cast<ConstantInt>(V))
      return "the constant " + toString(CI->getValue(), 10, /*Signed=*/true);
    return "a constant " + describe(V->getType());
  }
  // IR is not what users wrote: say what the value is in source terms.
  std::string Var = variableName(I);
  if (!Var.empty())
    return "the variable '" + Var + "'" + atLine(I);
  if (auto *LI = dyn_cast<LoadInst>(I)) {
    const Value *From = LI->getPointerOperand()->stripPointerCasts();
    if (auto *GV = dyn_cast<GlobalVariable>(From))
      return "the value of the " +
             std::string(GV->isConstant() ? "" : "non-constant ") + "global '" +
             demangle(GV->getName().str()) + "'";
    if (const Argument *A = spilledParameter(From))
      return describe(A);
    std::string Slot = variableName(From);
    if (!Slot.empty())
      return "the variable '" + Slot + "'" + atLine(I);
    // An element of a named array or the target of a named pointer.
    const Value *Base = getUnderlyingObject(From);
    std::string BaseName;
    if (auto *A = dyn_cast<Argument>(Base))
      BaseName = A->hasName() ? A->getName().str() : variableName(A);
    else if (auto *G = dyn_cast<GlobalVariable>(Base))
      BaseName = demangle(G->getName().str());
    else
      BaseName = variableName(Base);
    if (!BaseName.empty())
      return (Base == From ? "the value '" + BaseName + "' points to"
                           : "an element of '" + BaseName + "'") +
             atLine(I);
    return withArticle(describe(I->getType())) + " read from memory" +
           atLine(I);
  }
  if (isa<IntToPtrInst>(I))
    return "a pointer computed at run time (an integer cast to a pointer)" +
           atLine(I);
  if (auto *CI = dyn_cast<CastInst>(I))
    return withArticle(describe(CI->getSrcTy())) + " converted to " +
           describe(CI->getDestTy()) + atLine(I);
  if (isa<AllocaInst>(I)) {
    std::string Line = atLine(I);
    if (!Line.empty())
      return "a local variable" + Line;
    // A temporary with no name in the source (a library's argument slot):
    // where the code first uses it.
    for (const User *U : I->users())
      if (const auto *UI = dyn_cast<Instruction>(U))
        if (std::string UseLine = atLine(UI); !UseLine.empty())
          return "a temporary object used" + UseLine;
    // Without debug information there is neither a name nor a line.
    return I->getFunction()->getSubprogram()
               ? "a temporary object the compiler made"
               : "a local variable (compile with -g to see which)";
  }
  if (isa<PHINode>(I))
    return withArticle(describe(I->getType())) +
           (I->getType()->isIntegerTy() ? " loop counter or index"
                                        : " that changes from one iteration "
                                          "or branch to the next") +
           atLine(I);
  if (auto *CB = dyn_cast<CallBase>(I))
    if (const Function *Callee = CB->getCalledFunction()) {
      // llvm.fmuladd.f64 -> fmuladd: the operation, not the overload.
      StringRef Name = Callee->getName();
      std::string Shown = sourceName(*Callee);
      if (Callee->isIntrinsic() && Name.consume_front("llvm."))
        Shown = Name.take_until([](char C) { return C == '.'; }).str();
      return "the result of '" + Shown + "'" + atLine(I);
    }
  if (isa<GetElementPtrInst>(I))
    return "an address computed" + atLine(I);
  if (I->getType()->isVoidTy())
    return "a statement" + atLine(I);
  return withArticle(describe(I->getType())) + " computed" + atLine(I);
}

std::string describe(const Type *T) {
  if (T->isDoubleTy())
    return "double";
  if (T->isFloatTy())
    return "float";
  if (T->isX86_FP80Ty() || T->isFP128Ty())
    return "long double";
  if (T->isHalfTy())
    return "_Float16";
  if (T->isBFloatTy())
    return "__bf16";
  if (T->isPointerTy())
    return "pointer";
  if (T->isVoidTy())
    return "void";
  if (auto *IT = dyn_cast<IntegerType>(T)) {
    switch (IT->getBitWidth()) {
    case 1:
      return "bool";
    case 8:
      return "char";
    case 16:
      return "short";
    case 32:
      return "int";
    case 64:
      return "long";
    default:
      return std::to_string(IT->getBitWidth()) + "-bit integer";
    }
  }
  if (auto *VT = dyn_cast<FixedVectorType>(T))
    return "vector of " + std::to_string(VT->getNumElements()) + " " +
           describe(VT->getElementType());
  if (auto *AT = dyn_cast<ArrayType>(T))
    return describe(AT->getElementType()) + "[" +
           std::to_string(AT->getNumElements()) + "]";
  if (auto *FT = dyn_cast<FunctionType>(T)) {
    std::string S = describe(FT->getReturnType()) + " (";
    for (unsigned I = 0; I < FT->getNumParams(); ++I)
      S += (I ? ", " : "") + describe(FT->getParamType(I));
    if (FT->isVarArg())
      S += FT->getNumParams() ? ", ..." : "...";
    return S + ")";
  }
  if (auto *ST = dyn_cast<StructType>(T)) {
    std::string Members;
    for (unsigned I = 0; I < ST->getNumElements(); ++I)
      Members += (I ? ", " : "") + describe(ST->getElementType(I));
    if (!ST->hasName() || ST->isLiteral())
      return "struct { " + Members + " }";
    // clang names record types "struct.S", "class.ns::C", "union.U".
    StringRef Name = ST->getName();
    for (StringRef Kind : {"struct.", "class.", "union."})
      if (Name.consume_front(Kind)) {
        std::string Tag = Kind.drop_back().str();
        return Tag + " " + Name.str() + " { " + Members + " }";
      }
    return "struct { " + Members + " }";
  }
  std::string S;
  raw_string_ostream OS(S);
  T->print(OS);
  return S;
}

} // namespace tapestry
