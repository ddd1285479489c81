//===- CustomRules.h - Derivatives and facts the user registers -*- C++ -*-===//
//
// Enzyme's registration globals, found by name:
//   void *__enzyme_register_gradient_NAME[3]   = {f, aug, rev};
//   void *__enzyme_register_derivative_NAME[2] = {f, fwd};
//   void *__enzyme_inactivefn[]                = {f, g, ...};
//   void *__enzyme_function_like[2]            = {f, "sin"};
//   void *__enzyme_allocation_like[4]          = {alloc, (void *)N,
//                                                 "INDICES", dealloc};
//     (recorded on the functions themselves: Core/AllocationLike.h)
// (a C++ static member counts by its unqualified name);
// and the ones the clang front end (Frontend/EnzymeAttributes.cpp) makes
// for Enzyme's attributes, __enzyme_<kind>_autoreg_<name> = {f or &global}:
//   inactivefn, inactivenoblockfn (enzyme_inactive, enzyme_inactive_noblock
//   on a function), inactive_global (enzyme_inactive on a global), nofree,
//   sparse_accumulate, shouldrecompute, elementwise_read, notypeanalysis
//   (hints with no effect on a derivative).
// A call to a registered function is never inlined or differentiated: its
// registered rule is used instead, in every mode the rule covers.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_CORE_CUSTOMRULES_H
#define TAPESTRY_CORE_CUSTOMRULES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace llvm {
class Constant;
class Function;
class GlobalVariable;
class Module;
} // namespace llvm

namespace tapestry {

struct CustomGradient {
  llvm::Function *Augmented = nullptr;
  llvm::Function *Reverse = nullptr;
};

class CustomRules {
public:
  /// Reads every registration global of \p M, reporting malformed ones.
  static CustomRules collect(llvm::Module &M);
  /// In a module optimised before Tapestry runs (opt, link time): a
  /// function with a registered derivative, forward derivative, inactivity
  /// or likeness inlined into code a request differentiates would be
  /// differentiated through its body, not by its registration: a wrong
  /// derivative nothing would reveal. With debug information, an inlined
  /// copy in a function reachable from \p Targets (the requests' functions)
  /// is an error; without, a registered function that nothing but its
  /// registration names any more gets a warning. True if any error.
  static bool
  reportInlinedRegistrations(llvm::Module &M,
                             llvm::ArrayRef<llvm::Function *> Targets);
  /// Marks the registered functions of \p M noinline, so that code
  /// optimised before Tapestry runs again (a -flto compile, whose requests
  /// may wait for the link) keeps calling them. True if any was marked.
  static bool keepRegisteredCalls(llvm::Module &M);
  /// Gives functions the IR attributes Enzyme's nofree and
  /// no_escaping_allocation registrations stand for, and removes those
  /// registrations: in every module, whether or not it differentiates
  /// anything (a file compiled apart carries them on its functions, as
  /// Enzyme's do). True if anything changed.
  static bool applyFunctionAttributes(llvm::Module &M);
  /// Keeps every registration global of \p M (llvm.compiler.used) in the
  /// bitcode of a -flto compile: nothing refers to them, and link-time
  /// optimisation would drop them before the plugin runs on the whole
  /// program, whose requests in other files need them. True if any.
  static bool keepForLinkTime(llvm::Module &M);
  /// Erases the registrations Tapestry's clang part made
  /// (`__enzyme_<kind>_autoreg_<name>`, internal) once every request of
  /// \p M is resolved: they have done their work, and left in the object
  /// they would keep what they name alive, so that an `extern` global or
  /// function the program declares but never defines (its only use
  /// optimised away) fails the link. Registrations the user wrote stay.
  /// True if any was erased.
  static bool eraseFrontEndRegistrations(llvm::Module &M);

  const CustomGradient *gradient(const llvm::Function *F) const {
    auto It = Gradients.find(F);
    return It == Gradients.end() ? nullptr : &It->second;
  }
  llvm::Function *forwardDerivative(const llvm::Function *F) const {
    return Forward.lookup(F);
  }
  /// Declared inactive (__enzyme_inactivefn), or a known inactive library
  /// function (Core/KnownInactive.h).
  bool isInactive(const llvm::Function *F) const;
  /// Listed in __enzyme_inactivefn by the user.
  bool isDeclaredInactive(const llvm::Function *F) const {
    return Inactive.count(F);
  }
  /// The math function \p F behaves like ("sin"), or "".
  llvm::StringRef functionLike(const llvm::Function *F) const {
    auto It = Like.find(F);
    return It == Like.end() ? llvm::StringRef() : llvm::StringRef(It->second);
  }
  /// Declared inactive (enzyme_inactive on a global, or
  /// -enzyme-globals-default-inactive): what is stored there carries no
  /// derivative.
  bool isInactiveGlobal(const llvm::GlobalVariable *GV) const;
  /// True if calls to \p F must stay calls (never inlined): registered
  /// derivatives, inactive functions, and allocators and deallocators
  /// (__enzyme_allocation_like, Core/AllocationLike.h).
  bool isOpaque(const llvm::Function *F) const;

private:
  static bool collectAttribute(CustomRules &Rules, llvm::GlobalVariable &GV,
                               llvm::ArrayRef<llvm::Constant *> Elts);
  static void collectInactiveFiles(CustomRules &Rules, llvm::Module &M);

  llvm::DenseMap<const llvm::Function *, CustomGradient> Gradients;
  llvm::DenseMap<const llvm::Function *, llvm::Function *> Forward;
  llvm::SmallPtrSet<const llvm::Function *, 8> Inactive;
  llvm::DenseMap<const llvm::Function *, std::string> Like;
  llvm::SmallPtrSet<const llvm::GlobalVariable *, 4> InactiveGlobals;
};

} // namespace tapestry

#endif // TAPESTRY_CORE_CUSTOMRULES_H
