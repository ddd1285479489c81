//===- ActivityAnalysis.h - Which values carry derivatives ------*- C++ -*-===//
//
// For one request on one prepared primal, decides which floating-point values
// are *active* (depend on an active input and influence an active output) and
// which pointers need a *shadow* (point into memory that holds derivatives).
// Only active values and shadowed pointers get derivative code.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_ANALYSIS_ACTIVITYANALYSIS_H
#define TAPESTRY_ANALYSIS_ACTIVITYANALYSIS_H

#include "Analysis/GlobalShadows.h"
#include "Core/CustomRules.h"
#include "Core/DiffRequest.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/PassManager.h"

namespace llvm {
class Function;
class Value;
class CallBase;
class IntToPtrInst;
class Type;
} // namespace llvm

namespace tapestry {

class ActivityInfo {
public:
  /// V is a floating-point value that carries a derivative.
  bool isActive(const llvm::Value *V) const { return Active.count(V); }
  /// V is a floating-point value that depends on an active input.
  bool isVaried(const llvm::Value *V) const { return Varied.count(V); }
  /// V is a pointer whose memory has a shadow.
  bool hasShadow(const llvm::Value *V) const { return Shadowed.count(V); }

  llvm::SmallPtrSet<const llvm::Value *, 32> Varied;
  llvm::SmallPtrSet<const llvm::Value *, 32> Useful;
  llvm::SmallPtrSet<const llvm::Value *, 32> Active;
  llvm::SmallPtrSet<const llvm::Value *, 32> Shadowed;
  /// Reads of an owner's old block from a global with a shadow, only to
  /// release it before a new block is stored (unique_ptr::reset): the
  /// shadow global holds the shadow the last derivative stored, which is
  /// this block's only if that derivative stored this block (a plain call
  /// may have stored another since, or another derivative the "no
  /// derivative" marker). Their shadow is the shadow global's pointer where
  /// its companion (GlobalShadows::companionOf) says it was stored for this
  /// block, else the block itself (the marker, Analysis/RuntimeActivity.h):
  /// the release frees the old shadow and nothing else.
  llvm::SmallPtrSet<const llvm::Value *, 2> OwnerReleaseReads;
};

/// True if a value of type \p T can carry a derivative: floating-point
/// scalars and vectors, and aggregates with at least one such member whose
/// other members are integers (a C struct {double d; int n;} returned by
/// value is {double, i32}); the integer members carry none.
bool isDifferentiableType(llvm::Type *T);
/// True if \p CB only links or walks a libstdc++ red-black tree (std::map,
/// std::set) or doubly linked list (std::list): it reads and writes node
/// pointers and colours, never values, so the shadows get the same call
/// (Synthesis/MirroredCalls.cpp).
bool isShadowMirrorCall(const llvm::CallBase &CB);
/// True if \p CB is one of the strto* functions (strtod, strtol, ...,
/// __isoc23_ forms too), whose second argument receives a pointer into the
/// text: the derivative stores the matching pointer into its shadow.
bool isEndPointerCall(const llvm::CallBase &CB);
/// True if a call can never affect derivatives (I/O, timing, debug
/// intrinsics, functions the user declared inactive): it gets no derivative
/// code.
bool isInactiveCall(const llvm::CallBase &CB,
                    const CustomRules *Rules = nullptr);

/// True if the pointer \p Result (of a call that stays a call) may lead to
/// floating-point data in its function: it, or an address computed from
/// it, is read or written as floating point or as pointers, copied, stored,
/// returned, or passed to a call other than a deallocation. Comparisons
/// and frees do not count.
bool mayReachDifferentiableData(const llvm::Value *Result);

/// True if \p CB, a call of a function with a body that stays a call,
/// returns a pointer whose shadow the caller needs: the callee's
/// derivative then returns it (DiffRequest::returnsShadow in reverse mode,
/// as the result's tangent in forward mode).
bool returnsShadowedPointer(const llvm::CallBase &CB, const CustomRules *Rules);

/// The pointer whose address \p I rounds through an integer
/// (inttoptr((ptrtoint(P) & -32) + 32), as Eigen's and other hand-made
/// aligned allocators do): P, if the integer is computed from ptrtoint(P)
/// by adding, subtracting or masking constants; else null. Its shadow is
/// P's shadow at the same byte offset.
const llvm::Value *roundedPointerBase(const llvm::IntToPtrInst &I);

/// Computes activity for request \p R on the prepared function \p F, whose
/// parameters correspond one to one with R.Args. The globals in \p Globals
/// have shadows (Analysis/GlobalShadows.h).
ActivityInfo computeActivity(llvm::Function &F, const DiffRequest &R,
                             const CustomRules *Rules = nullptr,
                             const GlobalShadows *Globals = nullptr);

/// Prints each argument's and instruction's activity in \p AI (active,
/// shadowed, varied or inactive): print<tapestry-activity> and
/// -enzyme-print-activity.
void printActivity(llvm::raw_ostream &OS, const llvm::Function &F,
                   const ActivityInfo &AI);

/// `opt -passes='print<tapestry-activity>'`: prints, for every function with
/// the attribute "tapestry-activity"="<marker letters>", each instruction's
/// activity. Marker letters: c const, d dup, n dupnoneed, a active.
class ActivityPrinterPass : public llvm::PassInfoMixin<ActivityPrinterPass> {
public:
  explicit ActivityPrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
  static bool isRequired() { return true; }

private:
  llvm::raw_ostream &OS;
};

} // namespace tapestry

#endif // TAPESTRY_ANALYSIS_ACTIVITYANALYSIS_H
