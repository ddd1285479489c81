//===- ShadowContexts.h - Enzyme's shadow contexts of globals ---*- C++ -*-===//
//
// Enzyme's shadow contexts give a program the shadows of its global
// variables:
//
//   void *ctx = __enzyme_context(W);          // W lanes of shadows
//   double *dg = __enzyme_shadow(ctx, &g, 0); // lane 0 of g's shadow
//   __enzyme_zero_shadows(ctx);               // every shadow of ctx zero
//   __enzyme_autodiff(f, enzyme_context, ctx, x);
//
// Each call of __enzyme_context in the source is one context, with shadows
// of its own (GlobalShadows::contextShadowOf); a request that passes it
// after enzyme_context has width W and uses those shadows, in every
// function it differentiates, instead of the implicit ones. The context
// value must reach its uses within the function that makes it (locals
// stored once included), as Enzyme requires.
//
// Lowering is early, before any request is resolved: __enzyme_context
// becomes the address of a constant descriptor of the context,
// __enzyme_shadow the address of the shadow (a constant), and
// __enzyme_zero_shadows a call of the context's zeroing function, whose
// body is written once every derivative exists (finish()), when the
// context's shadows are all known.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_PASSES_SHADOWCONTEXTS_H
#define TAPESTRY_PASSES_SHADOWCONTEXTS_H

#include "Analysis/GlobalShadows.h"
#include "llvm/ADT/SmallVector.h"
#include <map>
#include <optional>

namespace llvm {
class APInt;
class CallBase;
class Function;
class GlobalVariable;
class Module;
class Value;
} // namespace llvm

namespace tapestry {

class CustomRules;

/// A context's number and width.
struct ShadowContext {
  unsigned Number;
  unsigned Width;
};

/// The context that \p V (a request's argument after enzyme_context, or the
/// first argument of __enzyme_shadow) holds, if it is one.
std::optional<ShadowContext> shadowContextOf(llvm::Value *V);

/// True if request call \p CB passes `enzyme_context, ctx`.
bool requestNamesContext(const llvm::CallBase &CB);

class ShadowContexts {
public:
  /// Lowers the context calls of \p M, reporting misuse at the call.
  explicit ShadowContexts(llvm::Module &M);

  /// True if the module made no context.
  bool empty() const { return Contexts.empty(); }
  /// Records that request \p CB differentiates \p Target (if it names a
  /// context).
  void noteRequest(llvm::CallBase &CB, llvm::Function *Target);
  /// The globals with shadows in context \p Number, collected on first
  /// use, from the code reachable then (inner requests resolved).
  const GlobalShadows &globals(unsigned Number, const CustomRules &Rules);
  /// Writes the zeroing functions' bodies.
  void finish();

private:
  struct Info {
    unsigned Width = 1;
    llvm::SmallVector<llvm::GlobalVariable *, 4> Queried;
    llvm::SmallVector<llvm::Function *, 4> Targets;
    llvm::Function *Zero = nullptr;
    std::optional<GlobalShadows> Globals;
  };
  void lowerContext(llvm::CallBase &CB);
  void lowerShadow(llvm::CallBase &CB);
  /// Enzyme's query without a context, `__enzyme_shadow(&g, width,
  /// lane)`: the implicit shadow of that lane of g, which the program then
  /// manages (GlobalShadows::markQueried).
  void lowerGlobalQuery(llvm::CallBase &CB);
  /// The global \p CB's argument \p ArgNo points into, and the offset
  /// into it; reports the error at \p CB and returns null if there is
  /// none, or if it is constant.
  llvm::GlobalVariable *queriedGlobal(llvm::CallBase &CB, unsigned ArgNo,
                                      llvm::APInt &Offset);
  void lowerZeroShadows(llvm::CallBase &CB);
  /// Reports stores of pointers into \p G outside \p Reachable: its shadow
  /// would keep pointing where the initial value points.
  void
  checkPointerStores(llvm::GlobalVariable &G,
                     const llvm::SmallPtrSetImpl<llvm::Function *> &Reachable);

  llvm::Module &M;
  std::map<unsigned, Info> Contexts;
};

} // namespace tapestry

#endif // TAPESTRY_PASSES_SHADOWCONTEXTS_H
