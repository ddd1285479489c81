//===- CallerStoredGlobals.h - Memory handed over in globals ----*- C++ -*-===//
//
// A caller that stores the address of memory it passes to a request as
// differentiated (enzyme_dup) into a global the differentiated function
// then reads through: the global gets no shadow (nothing in the function
// stores into it), so what the function reads through it would be taken for
// constants, a silently wrong derivative (review30 p37). Such requests are
// refused at the call.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_PASSES_CALLERSTOREDGLOBALS_H
#define TAPESTRY_PASSES_CALLERSTOREDGLOBALS_H

#include "Passes/RequestOrder.h"
#include "llvm/ADT/ArrayRef.h"

namespace tapestry {

class CustomRules;
class GlobalShadows;

/// Reports an error at each request of \p Requests whose function reads
/// floating-point values through a global without a shadow (\p Globals)
/// into which the request's caller stored a pointer to memory it passes as
/// differentiated. Returns true if there is none.
bool reportCallerStoredGlobals(llvm::ArrayRef<PendingRequest> Requests,
                               const GlobalShadows &Globals,
                               const CustomRules &Rules);

} // namespace tapestry

#endif // TAPESTRY_PASSES_CALLERSTOREDGLOBALS_H
