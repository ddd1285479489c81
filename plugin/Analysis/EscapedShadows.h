//===- EscapedShadows.h - Shadowed memory other files reach -----*- C++ -*-===//
//
// A call to a function of another file that takes no differentiated
// argument still reaches every object whose address escaped: a global,
// or a local array or heap block whose address was stored into one. If
// such an object has a shadow, or receives values with derivatives, what
// the call writes into it changes the derivative without any derivative
// code, and what it returns from it is taken as constant. This analysis
// finds, for one prepared primal and its activity, where such memory
// becomes reachable that way, so that SupportedInstructions can refuse the
// calls that may see it (docs/no-silent-wrong-numbers.md).
//
// Escapes are found with LLVM's capture tracking, with these decisions:
// an address stored into a global other files can reach (not file-local,
// or whose own address escapes), into memory reached through a loaded
// pointer, or passed to a function without a body that is not a library
// or runtime function escapes; one stored into a local array or heap block
// escapes if that object does (followed to a depth of 3); one passed to a
// function with a body escapes if it escapes there; a global's address
// returned by a function other files may call (an accessor) escapes, and
// one returned by a file-local function escapes where its calls' results
// do; one freed, returned otherwise, compared, or turned into an integer
// only computed with (an alignment test) does not; one stored into memory an
// argument points to does not (the caller's object is reachable only if the
// caller let it escape, which this analysis cannot see: a path it leaves open,
// listed in the audit with the others). A global other files can name holds
// derivatives from the function's stores of them on, or from its entry if it
// only reads it.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_ANALYSIS_ESCAPEDSHADOWS_H
#define TAPESTRY_ANALYSIS_ESCAPEDSHADOWS_H

#include "llvm/ADT/SmallVector.h"
#include <memory>

namespace llvm {
class CallBase;
class DominatorTree;
class Function;
class Instruction;
class LoopInfo;
class Value;
} // namespace llvm

namespace tapestry {

class ActivityInfo;

/// One object with a shadow whose address other files can reach.
struct ShadowEscape {
  /// The global, alloca or allocation call.
  const llvm::Value *Object;
  /// The instruction of the function after which it is reachable; null if
  /// it is reachable from the function's entry (a global another file can
  /// name, or whose address escaped elsewhere).
  const llvm::Instruction *Where;
  /// For a global that other files reach through its address, where the
  /// address leaves: a store or a call in any function of the file, or
  /// the return of an accessor; null if they name the global itself.
  const llvm::Instruction *Published = nullptr;
};

class EscapedShadows {
public:
  EscapedShadows(const llvm::Function &F, const ActivityInfo &AI);

  ~EscapedShadows();

  /// The first escape that may have happened before \p Call runs, or null.
  const ShadowEscape *reachedBy(const llvm::CallBase &Call) const;

private:
  llvm::SmallVector<ShadowEscape, 4> Escapes;
  /// Of the function, for reachability; built only if something escapes.
  std::unique_ptr<llvm::DominatorTree> DT;
  std::unique_ptr<llvm::LoopInfo> LI;
};

/// True if \p Call may reach memory through escaped addresses in a way that
/// changes derivatives: it calls a function without a body that is not a
/// library, language-runtime or Tapestry/Enzyme function (or calls through
/// a pointer), returns, and may write memory, or read memory and return a
/// value that may carry a derivative (floating point or a pointer) that is
/// used.
bool mayChangeEscapedMemory(const llvm::CallBase &Call);

} // namespace tapestry

#endif // TAPESTRY_ANALYSIS_ESCAPEDSHADOWS_H
