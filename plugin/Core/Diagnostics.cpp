//===- Diagnostics.cpp ----------------------------------------------------===//
#include "Core/Diagnostics.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
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
  if (V->hasName() && !isa<Instruction>(V)) {
    OS << V->getName();
    return S;
  }
  V->print(OS);
  StringRef Trimmed = StringRef(S).trim();
  return Trimmed.str();
}

std::string describe(const Type *T) {
  std::string S;
  raw_string_ostream OS(S);
  T->print(OS);
  return S;
}

} // namespace tapestry
