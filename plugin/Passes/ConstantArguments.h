//===- ConstantArguments.h - Requests specialised for constants -*- C++ -*-===//
//
// A request that passes a function as an enzyme_const argument
// (`enzyme_const, callback`) differentiates a copy of its function in which
// that parameter is the function itself, so calls through it are direct;
// one that passes a null pointer (`enzyme_const, (double *)0`, an optional
// output not wanted) a copy in which the parameter is null, so that what is
// done only when it is not (`if (out) memcpy(out, u, n)`) is gone.
//
// The halves of a split request (__enzyme_augmentfwd, __enzyme_reverse,
// __enzyme_fwdsplit, and __enzyme_augmentsize, which passes no values) meet
// only at run time, through the tape, so they must differentiate the same
// function: a parameter is specialised in all of a function's split
// requests when all of them that pass values pass the same function there,
// and in none when one of them passes a value known only at run time (a
// callback a helper receives). Split requests are never specialised for
// nulls (one half may pass null where the other passes a variable), nor
// are thunks (their halves are called with run-time values).
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_PASSES_CONSTANTARGUMENTS_H
#define TAPESTRY_PASSES_CONSTANTARGUMENTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <map>
#include <utility>

namespace llvm {
class Constant;
class Function;
} // namespace llvm

namespace tapestry {

struct DecodedCall;
struct PendingRequest;
enum class EntryPoint;

/// Functions specialised for the constant arguments requests pass, shared
/// by a module's requests.
using Specializations = std::map<
    std::pair<llvm::Function *,
              llvm::SmallVector<std::pair<unsigned, llvm::Constant *>, 2>>,
    llvm::Function *>;

/// Per function split requests differentiate, the enzyme_const parameters
/// decided for all of them at once (ConstantArguments.h).
class SplitConstants {
public:
  /// Looks at every split request of \p Pending.
  static SplitConstants collect(llvm::ArrayRef<PendingRequest> Pending);
  /// The function every split request of \p Fn that passes values passes
  /// at parameter \p Arg, or null.
  llvm::Constant *agreed(const llvm::Function *Fn, unsigned Arg) const;
  /// True if some split request of \p Fn passes a value at parameter
  /// \p Arg that is not a function known at compile time.
  bool unknown(const llvm::Function *Fn, unsigned Arg) const;

private:
  /// Per (function, parameter): the functions passed there, null for a
  /// value known only at run time.
  std::map<std::pair<const llvm::Function *, unsigned>,
           llvm::SmallVector<llvm::Constant *, 2>>
      Passed;
};

/// Points \p D's request, made by an entry point of kind \p Kind, at the
/// copy of its function specialised for the callbacks (and, outside split
/// mode, the null pointers) it passes as enzyme_const arguments, made once
/// per function and constants in \p Specs.
void specializeConstantArguments(DecodedCall &D, Specializations &Specs,
                                 EntryPoint Kind, const SplitConstants &Split);

/// The function \p Spec is a specialised copy of, or null.
llvm::Function *specializedFrom(const llvm::Function &Spec);

/// True if \p Spec is the copy specializeConstantArguments makes for
/// \p Peeked, a request decoded without it (the other half of a split
/// request, looked at to compare).
bool isSpecializationFor(const llvm::Function &Spec, const DecodedCall &Peeked);

} // namespace tapestry

#endif // TAPESTRY_PASSES_CONSTANTARGUMENTS_H
