//===- RequestOrder.h - The order of resolving requests ---------*- C++ -*-===//
//
// A request inside code that another request differentiates (the inner
// gradient of a Hessian-vector product, say) must be resolved first: the
// outer derivative then differentiates a call to a derivative instead of a
// request. What code a request differentiates is every function with a body
// its target reaches, through calls and through the functions whose
// addresses reached code names (a callback passed on, a table of
// functions), since a call through a pointer may land in any of them, and
// through the rules registered for a function reached (a custom reverse
// that computes its adjoint with __enzyme_autodiff), since a derivative
// calls them in its place.
//
// The order is one depth-first walk over a graph of requests, functions and
// globals (llvm::scc_iterator): linear in the size of the module. A request
// whose target reaches the request itself is in a cycle of that graph and
// cannot be resolved.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_PASSES_REQUESTORDER_H
#define TAPESTRY_PASSES_REQUESTORDER_H

#include "Passes/RequestDecoder.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

namespace llvm {
class CallBase;
class Function;
} // namespace llvm

namespace tapestry {

class CustomRules;

/// A request call to resolve and its entry point.
struct PendingRequest {
  llvm::CallBase *CB;
  EntryPoint Kind;
};

/// The functions registered as \p F's derivative rules: its augmented
/// forward and reverse (__enzyme_register_gradient) and its forward
/// derivative (__enzyme_register_derivative), those registered.
llvm::SmallVector<llvm::Function *, 3>
registeredRules(const llvm::Function &F, const CustomRules &Rules);

/// Functions with bodies reachable from \p Roots (those with bodies
/// included): through direct calls, through the functions whose addresses
/// the reached code names, directly or in the initialisers of the globals
/// it names, and through the rules registered for the functions named.
llvm::SmallPtrSet<llvm::Function *, 16>
reachableFunctions(llvm::ArrayRef<llvm::Function *> Roots,
                   const CustomRules &Rules);

/// How a request is placed in the order.
enum class Ordering {
  Resolve,         ///< After every request inside the code it differentiates.
  DependsOnItself, ///< Its target reaches the function making the request.
  Cycle, ///< It and others each differentiate code containing another one,
         ///< without reaching themselves (a target the call does not name
         ///< as a constant).
};

struct OrderedRequest {
  PendingRequest Req;
  Ordering How;
};

/// \p Pending in the order to resolve them: each request after every
/// request inside the code it differentiates, otherwise in the order given;
/// those that cannot be ordered where they would be resolved.
llvm::SmallVector<OrderedRequest, 8>
orderRequests(llvm::ArrayRef<PendingRequest> Pending, const CustomRules &Rules);

/// Sets \p R's nesting depths: FreedListDepth, in reverse mode, one deeper
/// than the lists of the derivatives its target's code runs
/// (Synthesis/FreedShadows.h), and GlobalDepth, one deeper than the
/// implicit shadows of globals they use (Analysis/GlobalShadows.h); each 0
/// if it runs none. Called when every request inside that code is resolved.
void setNestingDepths(DiffRequest &R, const CustomRules &Rules);

} // namespace tapestry

#endif // TAPESTRY_PASSES_REQUESTORDER_H
