//===- DerivativeCache.h - One synthesised function per request -*- C++ -*-===//
//
// The Driver: for each distinct request, prepare the primal once
// (Synthesis/PrimalPreparation.h), run the analyses, synthesise the
// derivative with the synthesizer of its mode, cut it into split halves
// when the request is split (Split/TapeSplitter.h), verify it and keep it.
// Recursive functions get a declaration while their derivative is built;
// callees that stay calls get their split wrappers (Split/CalleeSplits.h)
// declared before and defined after the callee's split exists. A function
// calling through a pointer whose candidates include one that cannot be
// differentiated gets a derivative that stops where the pointer holds that
// one (Driver/StoppedCandidates.cpp). The cache orchestrates; it builds no
// IR of its own beyond those declarations.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_DRIVER_DERIVATIVECACHE_H
#define TAPESTRY_DRIVER_DERIVATIVECACHE_H

#include "Analysis/GlobalShadows.h"
#include "Analysis/VariableActivity.h"
#include "Core/CustomRules.h"
#include "Core/DiffRequest.h"
#include "Split/TapeSplitter.h"
#include "Synthesis/PrimalPreparation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/PassManager.h"
#include <functional>
#include <map>
#include <optional>
#include <vector>

namespace tapestry {

/// Memoises derivatives by request and prepared primals by function, so a
/// function is prepared once and each distinct request synthesised once.
class DerivativeCache {
public:
  DerivativeCache(llvm::FunctionAnalysisManager &FAM, const CustomRules &Rules,
                  const GlobalShadows &Globals)
      : FAM(FAM), Rules(Rules), Globals(Globals) {}
  ~DerivativeCache();
  DerivativeCache(const DerivativeCache &) = delete;
  DerivativeCache &operator=(const DerivativeCache &) = delete;

  /// The derivative rules the user registered in the module.
  const CustomRules &rules() const { return Rules; }

  /// The derivative for \p R, or null after reporting why it cannot exist.
  llvm::Function *get(const DiffRequest &R);
  /// The augmented forward, reverse and release for split request \p R,
  /// or null after reporting why they cannot exist.
  const SplitDerivative *getSplit(const DiffRequest &R);
  /// How a caller's reverse-mode derivative calls the split derivative of
  /// callee request \p R (null members after reporting why it cannot).
  CalleeSplit getCalleeSplit(const DiffRequest &R);

  /// How to find the globals with shadows in a shadow context
  /// (Passes/ShadowContexts.h), for requests made in one.
  using ContextGlobalsFn = std::function<const GlobalShadows &(unsigned)>;
  void setContextGlobals(ContextGlobalsFn F) { ContextGlobals = std::move(F); }
  /// The implicit shadows of globals at a nesting depth > 0
  /// (DiffRequest::GlobalDepth) that a derivative of the given function
  /// uses.
  using DepthGlobalsFn =
      std::function<const GlobalShadows &(unsigned, llvm::Function &)>;
  void setDepthGlobals(DepthGlobalsFn F) { DepthGlobals = std::move(F); }

  /// From now on, keep each request's variable activities
  /// (-tapestry-explain shows them).
  void keepVariableActivities() { KeepVariables = true; }
  /// The local variables of the function request \p R differentiates, each
  /// with its activity there: empty unless kept, or without debug
  /// information.
  llvm::ArrayRef<VariableActivity>
  variableActivities(const DiffRequest &R) const;

private:
  llvm::Function *synthesize(const DiffRequest &R,
                             SplitDerivative *Split = nullptr);
  /// The primal of \p F prepared, with the candidates in \p Stopped
  /// stopped (kept until the cache goes).
  PreparedPrimal prepare(llvm::Function &F,
                         const StoppedCandidates *Stopped = nullptr);
  /// Synthesises \p R from the prepared primal \p PP.
  llvm::Function *synthesizeFrom(const DiffRequest &R, const PreparedPrimal &PP,
                                 SplitDerivative *Split);
  /// synthesizeFrom, and where that fails, again with the candidates of
  /// the calls PP dispatches whose derivatives cannot be built stopped
  /// (StoppedCandidates.cpp).
  llvm::Function *synthesizeStoppingCandidates(const DiffRequest &R,
                                               const PreparedPrimal &PP,
                                               SplitDerivative *Split);
  /// Removes the failures recorded since \p Mark from the memo tables, so
  /// that asking again reports why (their errors were held and dropped).
  void forgetFailuresSince(size_t Mark);
  /// The globals with shadows that the derivative for \p R uses.
  const GlobalShadows &globalsFor(const DiffRequest &R) const {
    if (R.Context && ContextGlobals)
      return ContextGlobals(R.Context);
    if (R.GlobalDepth && DepthGlobals)
      return DepthGlobals(R.GlobalDepth, *R.Fn);
    return Globals;
  }
  /// Verifies a synthesised function; reports and erases it if invalid.
  bool verify(const DiffRequest &R, llvm::Function *&F);

  llvm::FunctionAnalysisManager &FAM;
  const CustomRules &Rules;
  const GlobalShadows &Globals;
  ContextGlobalsFn ContextGlobals;
  DepthGlobalsFn DepthGlobals;
  std::map<DiffRequest, llvm::Function *> Derivatives;
  std::map<DiffRequest, std::optional<SplitDerivative>> Splits;
  std::map<DiffRequest, CalleeSplit> CalleeSplits;
  llvm::DenseMap<llvm::Function *, PreparedPrimal> Prepared;
  /// Primals prepared with stopped candidates.
  std::vector<llvm::Function *> PreparedStopping;
  /// The requests that failed, in order, and which table holds them.
  enum class Table { Derivatives, Splits, CalleeSplits };
  std::vector<std::pair<Table, DiffRequest>> Failures;
  bool KeepVariables = false;
  /// The split requests being synthesised, innermost last.
  std::vector<DiffRequest> SplitsBuilding;
  std::map<DiffRequest, llvm::SmallVector<VariableActivity, 8>> Variables;
};

} // namespace tapestry

#endif // TAPESTRY_DRIVER_DERIVATIVECACHE_H
