//===- ConstantArguments.h - Requests specialised for constants -*- C++ -*-===//
//
// A request that passes a function as an enzyme_const argument
// (`enzyme_const, callback`) differentiates a copy of its function in which
// that parameter is the function itself, so calls through it are direct;
// one that passes a null pointer (`enzyme_const, (double *)0`, an optional
// output not wanted) a copy in which the parameter is null, so that what is
// done only when it is not (`if (out) memcpy(out, u, n)`) is gone. The two
// halves of a split request must name the same function: both are
// specialised for the same callbacks, and neither for nulls (one half may
// pass null where the other passes a variable).
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_PASSES_CONSTANTARGUMENTS_H
#define TAPESTRY_PASSES_CONSTANTARGUMENTS_H

#include "llvm/ADT/SmallVector.h"
#include <map>
#include <utility>

namespace llvm {
class Constant;
class Function;
} // namespace llvm

namespace tapestry {

struct DecodedCall;

/// Functions specialised for the constant arguments requests pass, shared
/// by a module's requests.
using Specializations = std::map<
    std::pair<llvm::Function *,
              llvm::SmallVector<std::pair<unsigned, llvm::Constant *>, 2>>,
    llvm::Function *>;

/// Points \p D's request at the copy of its function specialised for the
/// callbacks (and, with \p Nulls, the null pointers) it passes as
/// enzyme_const arguments, made once per function and constants in
/// \p Specs.
void specializeConstantArguments(DecodedCall &D, Specializations &Specs,
                                 bool Nulls);

/// The function \p Spec is a specialised copy of, or null.
llvm::Function *specializedFrom(const llvm::Function &Spec);

/// True if \p Spec is the copy specializeConstantArguments makes for
/// \p Peeked, a request decoded without it (the other half of a split
/// request, looked at to compare).
bool isSpecializationFor(const llvm::Function &Spec, const DecodedCall &Peeked);

} // namespace tapestry

#endif // TAPESTRY_PASSES_CONSTANTARGUMENTS_H
