//===- TapestryPass.h - The module pass that resolves requests --*- C++ -*-===//
//
// The module pass at the top of the pipeline (Core <- Analysis <- Synthesis <-
// Split <- Driver <- Passes): it finds every request in the module, has the
// Driver synthesise (or reuse) the derivative each asks for, and rewrites the
// request call into a call of it; afterwards no entry point or marker is left.
// plugin/Plugin.cpp registers it for opt (-passes=tapestry or enzyme) and at
// the start of every clang pipeline.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_PASSES_TAPESTRYPASS_H
#define TAPESTRY_PASSES_TAPESTRYPASS_H

#include "llvm/IR/PassManager.h"

namespace tapestry {

/// Finds every __enzyme_* request in the module, synthesises the derivative
/// it asks for, and replaces the call with a call to it. Afterwards no
/// reference to an entry point or marker remains.
class TapestryPass : public llvm::PassInfoMixin<TapestryPass> {
public:
  /// \p AtCompileStart: run at the start of a compile pipeline. When that
  /// compile is the first half of -flto, requests that need code from
  /// other translation units are left for the link-time run.
  explicit TapestryPass(bool AtCompileStart = false)
      : AtCompileStart(AtCompileStart) {}

  llvm::PreservedAnalyses run(llvm::Module &M,
                              llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }

private:
  bool AtCompileStart;
};

} // namespace tapestry

#endif // TAPESTRY_PASSES_TAPESTRYPASS_H
