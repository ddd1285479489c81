//===- Diagnostics.h - Errors at the user's source line ---------*- C++ -*-===//
//
// Every rejected request or construct is reported through
// LLVMContext::diagnose as a DiagnosticInfoUnsupported error, which clang
// prints as "file:line:col: error: ..." when debug locations exist and at the
// enclosing function's declaration otherwise; clang then exits non-zero.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_CORE_DIAGNOSTICS_H
#define TAPESTRY_CORE_DIAGNOSTICS_H

#include "llvm/ADT/Twine.h"
#include "llvm/IR/DebugLoc.h"
#include <string>
#include <vector>

namespace llvm {
class Function;
class GlobalVariable;
class Instruction;
class Module;
class Value;
class Type;
} // namespace llvm

namespace tapestry {

/// Reports an error located at \p At (an instruction of \p Where, or null for
/// the function itself). Returns false so callers can `return reportError()`.
bool reportError(const llvm::Function &Where, const llvm::Instruction *At,
                 const llvm::Twine &Msg);

/// While alive, says that the callee of \p Call (a call in a function being
/// differentiated) is being differentiated for it: an error inside code the
/// user did not write (a library header, or code without debug
/// information) then also names the user's call that reached it.
class CallSiteScope {
public:
  explicit CallSiteScope(const llvm::Instruction &Call);
  ~CallSiteScope();
  CallSiteScope(const CallSiteScope &) = delete;
  CallSiteScope &operator=(const CallSiteScope &) = delete;
};

/// Reports an error about the global \p GV (a registration), located at its
/// definition when the module has debug info for it, and otherwise at
/// \p Where (clang then points at that function's definition).
bool reportErrorAtGlobal(const llvm::Function &Where,
                         const llvm::GlobalVariable &GV,
                         const llvm::Twine &Msg);

/// The same, as a warning: something the user should know that may be
/// right as it is.
void reportWarningAtGlobal(const llvm::Function &Where,
                           const llvm::GlobalVariable &GV,
                           const llvm::Twine &Msg);

/// True if reportError has reported an error in \p M (a derivative request
/// refused), or one is held by an ErrorCapture: errors that would only
/// follow from it can be left out.
bool anyErrorReportedIn(const llvm::Module &M);

/// While one exists, reportError keeps its errors here instead of reporting
/// them (the innermost capture, when nested): the Driver tries a derivative
/// that may not be needed (a function a pointer might call), and reports
/// what went wrong only if it is. Errors neither reported nor discarded
/// when the capture ends are reported then.
class ErrorCapture {
public:
  ErrorCapture();
  ~ErrorCapture();
  ErrorCapture(const ErrorCapture &) = delete;
  ErrorCapture &operator=(const ErrorCapture &) = delete;

  struct Error {
    const llvm::Function *Where;
    llvm::DebugLoc Loc;
    std::string Text;
  };

  bool empty() const { return Held.empty(); }
  const std::vector<Error> &errors() const { return Held; }
  /// Keeps \p E (reportError does).
  void hold(Error E) { Held.push_back(std::move(E)); }
  /// Reports the errors held (to the enclosing capture, if any).
  void report();
  /// Forgets the errors held.
  void discard() { Held.clear(); }
  /// The capture this one is nested in, or null.
  ErrorCapture *outer() const { return Outer; }

private:
  std::vector<Error> Held;
  ErrorCapture *Outer;
};

/// Where a message about \p I is best shown: its own location, or for code
/// inlined from a system header (std::vector's operator[]), the location
/// of the user's code the header's code was inlined into. With \p Nearby,
/// an instruction without a location (a phi) takes the nearest one after
/// it in its block. Empty without debug info.
llvm::DebugLoc userLocation(const llvm::Instruction *I, bool Nearby = false);

/// "file:line" of an instruction's debug location, or "" without debug info.
std::string sourceLocation(const llvm::Instruction *I);

/// A function's name as its source spells it (C++ names demangled).
std::string sourceName(const llvm::Function &F);
/// sourceName without a C++ parameter list: what names the function in code.
std::string sourceIdentifier(const llvm::Function &F);
/// sourceIdentifier made a valid C identifier (std::f<double> ->
/// std__f_double): the suffix of a registration global suggested for it.
std::string registrationSuffix(const llvm::Function &F);

/// A short, human-readable rendering of a value or type for messages.
std::string describe(const llvm::Value *V);
std::string describe(const llvm::Type *T);
/// " (line N)" for an instruction with a debug location in the user's
/// code, else "".
std::string atLine(const llvm::Instruction *I);

} // namespace tapestry

#endif // TAPESTRY_CORE_DIAGNOSTICS_H
