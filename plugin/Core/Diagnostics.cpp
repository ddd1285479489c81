//===- Diagnostics.cpp ----------------------------------------------------===//
#include "Core/Diagnostics.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tapestry {

bool reportError(const Function &Where, const Instruction *At,
                 const Twine &Msg) {
  DiagnosticLocation Loc;
  if (At && At->getDebugLoc())
    Loc = DiagnosticLocation(At->getDebugLoc());
  Where.getContext().diagnose(
      DiagnosticInfoUnsupported(Where, "tapestry: " + Msg, Loc, DS_Error));
  return false;
}

bool reportErrorAtGlobal(const Function &Where, const GlobalVariable &GV,
                         const Twine &Msg) {
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
      DiagnosticInfoUnsupported(Where, "tapestry: " + Msg, Loc, DS_Error));
  return false;
}

std::string sourceName(const Function &F) {
  return demangle(F.getName().str());
}

std::string sourceIdentifier(const Function &F) {
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
  const DebugLoc &DL = I->getDebugLoc();
  if (!DL)
    return "";
  std::string S;
  raw_string_ostream OS(S);
  OS << DL->getFilename() << ':' << DL.getLine();
  return S;
}

std::string describe(const Value *V) {
  std::string S;
  raw_string_ostream OS(S);
  if (auto *A = dyn_cast<Argument>(V)) {
    OS << "parameter " << A->getArgNo() + 1;
    if (A->hasName())
      OS << " ('" << A->getName() << "')";
    return S;
  }
  if (V->hasName() && !isa<Instruction>(V)) {
    OS << demangle(V->getName().str()); // a C++ static local: f()::buf
    return S;
  }
  if (auto *I = dyn_cast<Instruction>(V)) {
    // IR is not what users wrote: say what the value is and where.
    OS << "a " << I->getOpcodeName();
    if (auto *CI = dyn_cast<CastInst>(I))
      OS << " from " << *CI->getSrcTy() << " to " << *CI->getDestTy();
    else if (!I->getType()->isVoidTy())
      OS << " producing " << *I->getType();
    std::string Loc = sourceLocation(I);
    if (!Loc.empty())
      OS << " at " << Loc;
    return S;
  }
  V->printAsOperand(OS, /*PrintType=*/true);
  return S;
}

std::string describe(const Type *T) {
  std::string S;
  raw_string_ostream OS(S);
  T->print(OS);
  return S;
}

} // namespace tapestry
