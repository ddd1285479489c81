//===- Plugin.cpp - Tapestry's entry point for clang and opt --------------===//
//
// Registers the `tapestry` module pass (also under Enzyme's name, `enzyme`,
// so that Enzyme users' `opt -passes=enzyme` lines run unchanged) and the
// analysis printers by name for `opt -passes=...`, and at the start of every
// clang pipeline, -O0 included, so that a clang with the plugin resolves
// requests before the optimiser runs over their results.
//
//===----------------------------------------------------------------------===//
#include "Analysis/ActivityAnalysis.h"
#include "Analysis/TypeAnalysis.h"
#include "Passes/ReverseSweepVectorizing.h"
#include "Passes/TapestryPass.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static void registerCallbacks(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name != "tapestry" && Name != "enzyme")
          return false;
        MPM.addPass(tapestry::TapestryPass());
        return true;
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "print<tapestry-activity>") {
          FPM.addPass(tapestry::ActivityPrinterPass(outs()));
          return true;
        }
        if (Name == "tapestry-reverse-vectorizing") {
          FPM.addPass(tapestry::ReverseSweepVectorizingPass());
          return true;
        }
        if (Name == "print<tapestry-types>") {
          FPM.addPass(tapestry::TypePrinterPass(outs()));
          return true;
        }
        return false;
      });
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(tapestry::TapestryPass(/*AtCompileStart=*/true));
      });
  // Just before the loop vectoriser: reverse sweeps of loops that update
  // an array in place, in the shape it vectorises.
  PB.registerVectorizerStartEPCallback(
      [](FunctionPassManager &FPM, OptimizationLevel) {
        FPM.addPass(tapestry::ReverseSweepVectorizingPass());
      });
  // -flto: what the compile left for want of other units' code is resolved
  // when the linker (ld.lld --load-pass-plugin=...) has the whole program.
  PB.registerFullLinkTimeOptimizationEarlyEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(tapestry::TapestryPass());
      });
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "Tapestry", "0.1.0", registerCallbacks};
}
