//===- EnzymeOptions.cpp - Enzyme's command-line options ------------------===//
//
// Enzyme's options as its users spell them, with Enzyme's types and
// defaults. In clang they need the plugin loaded before clang parses
// -mllvm: `-fplugin=TapestryPlugin-19.so` (or Enzyme's spelling
// `-Xclang -load -Xclang TapestryPlugin-19.so`); `opt` loads
// -load-pass-plugin first.
//
// What each option does in Tapestry:
//
// | option                     | type   | in Tapestry                        |
// |----------------------------|--------|------------------------------------|
// | -enzyme-enable             | bool   | false: the pass does nothing       |
// | -enzyme-print              | bool   | each derivative to stderr          |
// | -enzyme-print-activity     | bool   | activity of every value, stderr    |
// | -enzyme-print-type         | bool   | type analysis results, stderr      |
// | -enzyme-print-perf         | bool   | what each derivative tapes, stderr |
// | -enzyme-inline             | bool   | inline all callees before AD       |
// | -enzyme-inline-count       | int    | at most this many inlined calls    |
// | -enzyme-globals-default-   | bool   | every global is inactive           |
// |   inactive                 |        |                                    |
// | -enzyme-truncate-all       | string | every function in op mode, e.g.    |
// |                            |        | 64to32 (Passes/TruncateRequest.h)  |
// | -enzyme-load-inactive-file | string | functions named in the file, one a |
// |   (repeatable)             |        | line, are inactive                 |
// | -enzyme-strong-zero,       | bool,  | an error (unsupportedEnzymeOption) |
// | -enzyme-separate-          | list   |                                    |
// |   compilation, -enzyme-    |        |                                    |
// |   export-derivatives       |        |                                    |
// | everything else below      |        | accepted, no effect (see desc)     |
//
// The options with no effect either tune how Enzyme builds a derivative
// (caching, allocation, post-processing) in ways that do not change its
// value, or relax Enzyme's analyses where Tapestry's never guess: where
// Tapestry cannot prove what a value is, it reports an error instead of
// computing a wrong number.
//
//===----------------------------------------------------------------------===//
#include "Core/EnzymeOptions.h"

#include "llvm/Support/CommandLine.h"
#include <memory>
#include <vector>

using namespace llvm;

namespace {

// Options with a meaning in Tapestry.
cl::opt<bool> Enable("enzyme-enable", cl::init(true), cl::Hidden,
                     cl::desc("Run Tapestry on __enzyme_* requests (Enzyme's "
                              "option; false leaves them unresolved)"));
cl::opt<bool> Print("enzyme-print", cl::init(false), cl::Hidden,
                    cl::desc("Print each synthesised derivative function to "
                             "stderr"));
cl::opt<bool> PrintActivity("enzyme-print-activity", cl::init(false),
                            cl::Hidden,
                            cl::desc("Print the activity of every value of "
                                     "each function differentiated"));
cl::opt<bool> PrintType("enzyme-print-type", cl::init(false), cl::Hidden,
                        cl::desc("Print the type analysis of each function "
                                 "differentiated"));
cl::opt<bool> PrintPerf("enzyme-print-perf", cl::init(false), cl::Hidden,
                        cl::desc("Print what each derivative stores on its "
                                 "tape"));
cl::opt<bool> Inline("enzyme-inline", cl::init(false), cl::Hidden,
                     cl::desc("Inline every callee into the function "
                              "differentiated, whatever its size"));
cl::opt<int> InlineCount("enzyme-inline-count", cl::init(10000), cl::Hidden,
                         cl::desc("With -enzyme-inline: the most calls "
                                  "inlined into one function"));
cl::opt<bool>
    GlobalsInactive("enzyme-globals-default-inactive", cl::init(false),
                    cl::Hidden,
                    cl::desc("Treat every global as marked enzyme_inactive"));
// Enzyme's separate compilation: derivatives of a function are exported
// from the file defining it and called from other files. Tapestry
// differentiates across files with link-time optimisation instead.
cl::opt<bool> SeparateCompilation(
    "enzyme-separate-compilation", cl::Hidden,
    cl::desc("Enzyme's separate compilation; not supported by Tapestry (an "
             "error): compile with -flto instead"));
cl::list<std::string> ExportDerivatives(
    "enzyme-export-derivatives", cl::Hidden, cl::CommaSeparated,
    cl::desc("Enzyme's derivative export for separate compilation; not "
             "supported by Tapestry (an error): compile with -flto instead"));
cl::list<std::string> InactiveFiles(
    "enzyme-load-inactive-file", cl::Hidden,
    cl::desc("A file naming functions to treat as enzyme_inactive, one name "
             "a line (may be given several times)"));
// Enzyme's strong zero: a derivative term whose adjoint or tangent is zero
// is zero even when the partial derivative it multiplies is infinite or
// NaN. Tapestry does not make that check in every rule, so asking for it
// is an error.
cl::opt<bool> StrongZero(
    "enzyme-strong-zero", cl::init(false), cl::Hidden,
    cl::desc("Enzyme's strong zero (0 times an infinite or NaN partial is "
             "0); not supported by Tapestry (an error when true)"));
cl::opt<std::string>
    TruncateAll("enzyme-truncate-all", cl::init(""), cl::Hidden,
                cl::desc("Compute every function of the module in a narrower "
                         "floating-point format (op mode), e.g. \"64to32\" or "
                         "\"11-52to8-23\""));

// Accepted with no effect in Tapestry, each for the reason its description
// gives. Declared as Enzyme declares them, so that every spelling Enzyme
// accepts (-enzyme-x, -enzyme-x=0, -enzyme-x=true, -enzyme-x=N) parses.
struct NoEffectBool {
  const char *Name;
  bool Default;
  const char *Why;
};
const NoEffectBool NoEffectBools[] = {
    {"enzyme-preopt", true,
     "Tapestry always simplifies the function before differentiating it: "
     "its analyses need the simplified form"},
    {"enzyme-disable-preopt", true,
     "Tapestry always simplifies the function before differentiating it"},
    {"enzyme-postopt", false,
     "Tapestry always simplifies each derivative it synthesises"},
    {"enzyme-attributor", false,
     "clang's own pipeline optimises the derivatives after Tapestry"},
    {"enzyme-omp-opt", false, "Tapestry does not differentiate OpenMP"},
    {"enzyme-loose-types", false,
     "Tapestry's type analysis never guesses; an undeducible type is an "
     "error"},
    {"enzyme-strict-aliasing", true,
     "Tapestry reads TBAA only where clang emitted it; -fno-strict-aliasing "
     "removes it"},
    {"enzyme-rust-type", false, "Tapestry differentiates C and C++"},
    {"enzyme-runtime-activity", false,
     "Tapestry always uses run-time activity where a pointer's activity is "
     "only known at run time (Analysis/RuntimeActivity.h)"},
    {"enzyme-global-activity", false,
     "Tapestry's activity of globals is always exact: a global that would "
     "carry a derivative is an error"},
    {"enzyme_nonmarkedglobals_inactiveloads", true,
     "loads from globals never carry derivatives in Tapestry; a global "
     "written with one is an error"},
    {"enzyme-emptyfn-inactive", false,
     "a call to a function without a body that would need a derivative is "
     "an error in Tapestry; mark it __attribute__((enzyme_inactive))"},
    {"enzyme-lapack-copy", false,
     "how BLAS/LAPACK arguments are cached does not change the derivative"},
    {"enzyme-blas-copy", true,
     "how BLAS arguments are cached does not change the derivative"},
    {"enzyme-auto-sparsity", false,
     "a performance rewrite that does not change the derivative"},
    {"enzyme-max-cache", false, "Tapestry sizes its tape itself"},
    {"enzyme-coalese", false, "Tapestry sizes its tape itself"},
    {"enzyme-cache-always", false,
     "Tapestry decides what to tape from what may be overwritten"},
    {"enzyme-zero-cache", false,
     "Tapestry reads no tape entry it did not write"},
    {"enzyme-smallbool", false, "Tapestry lays out its tape itself"},
    {"enzyme-new-cache", true, "Tapestry lays out its tape itself"},
    {"enzyme-mincut-cache", true,
     "Tapestry decides what to tape and what to recompute itself"},
    {"enzyme-vectorize", false,
     "clang's vectorisers run on the derivatives after Tapestry"},
    {"enzyme-vectorize-at-leaf-nodes", false,
     "clang's vectorisers run on the derivatives after Tapestry"},
    {"enzyme-detect-readthrow", true,
     "Tapestry drops the paths that throw before differentiating"},
    {"enzyme-noalias", false, "a performance hint"},
    {"enzyme-aggressive-aa", false, "a performance hint"},
    {"enzyme-lower-globals", false, "a performance hint"},
    {"enzyme-phi-restructure", false, "a performance hint"},
    {"enzyme-select-opt", true, "a performance hint"},
    {"enzyme-always-inline", false,
     "clang's inliner decides about the derivatives after Tapestry"},
    {"enzyme-inactive-dynamic", true, "a performance hint"},
    {"enzyme-shared-forward", false, "a performance hint"},
    {"enzyme-name-instructions", false,
     "Tapestry names derivative values after the primal's"},
    {"enzyme-print-unnecessary", false, "Enzyme's internal debugging output"},
    {"enzyme-print-diffuse", false, "Enzyme's internal debugging output"},
    {"enzyme-type-warning", true,
     "Tapestry's type analysis has no depth limit to warn about"},
    {"enzyme-memmove-warning", true,
     "Tapestry differentiates memmove itself and has no fallback to warn "
     "about"},
    {"enzyme-runtime-error", false,
     "what Tapestry cannot differentiate is a compile-time error, never a "
     "run-time one"},
    {"enzyme-fast-math", true,
     "Tapestry's derivative arithmetic is not reassociated (as with "
     "-enzyme-fast-math=0)"},
    {"enzyme-free-internal-allocations", true,
     "Tapestry frees the memory a derivative allocates for itself when the "
     "derivative ends"},
    {"enzyme-assume-unknown-nofree", false,
     "Tapestry decides what to tape from what may be freed itself"},
    {"enzyme-julia-addr-load", false, "Tapestry differentiates C and C++"},
    {"enzyme-non-power2-cache", false, "Tapestry lays out its tape itself"},
    {"enzyme-loop-invariant-cache", true,
     "Tapestry decides what to tape and where itself"},
    {"enzyme-rematerialize", true,
     "Tapestry decides what to tape and what to recompute itself"},
    {"enzyme-register-reduce", false, "a performance hint"},
    {"enzyme-speculate-phis", false, "a performance hint"},
    {"enzyme-vector-split-phi", true, "a performance hint"},
    {"enzyme-checkpoint-split-steps", false,
     "it steers the checkpointing schemes of __enzyme_checkpoint_for and "
     "__enzyme_checkpoint_while, which are an error in Tapestry"},
};
struct NoEffectInt {
  const char *Name;
  int Default;
  const char *Why;
};
const NoEffectInt NoEffectInts[] = {
    {"enzyme-post-opt-level", 0,
     "Tapestry always simplifies each derivative it synthesises"},
    {"enzyme-max-type-offset", 500, "Tapestry's type analysis has no limit"},
    {"enzyme-max-int-offset", 100, "Tapestry's type analysis has no limit"},
    {"enzyme-max-type-depth", 6, "Tapestry's type analysis has no limit"},
};

/// The no-effect options, created once when the plugin is loaded.
struct NoEffectOptions {
  NoEffectOptions() {
    for (const NoEffectBool &O : NoEffectBools)
      Bools.push_back(std::make_unique<cl::opt<bool>>(
          StringRef(O.Name), cl::init(O.Default), cl::Hidden,
          cl::desc(describe(O.Why))));
    for (const NoEffectInt &O : NoEffectInts)
      Ints.push_back(std::make_unique<cl::opt<int>>(
          StringRef(O.Name), cl::init(O.Default), cl::Hidden,
          cl::desc(describe(O.Why))));
  }
  /// cl::desc keeps a StringRef: the text lives as long as the option.
  StringRef describe(const char *Why) {
    Descriptions.push_back(std::make_unique<std::string>(
        std::string("Enzyme's option; no effect in Tapestry: ") + Why));
    return *Descriptions.back();
  }
  std::vector<std::unique_ptr<std::string>> Descriptions;
  std::vector<std::unique_ptr<cl::opt<bool>>> Bools;
  std::vector<std::unique_ptr<cl::opt<int>>> Ints;
};
NoEffectOptions TheNoEffectOptions;

} // namespace

namespace tapestry {

bool enzymeEnabled() { return Enable; }
bool enzymePrintDerivatives() { return Print; }
bool enzymePrintActivity() { return PrintActivity; }
bool enzymePrintTypes() { return PrintType; }
bool enzymePrintPerf() { return PrintPerf; }
bool enzymeForceInline() { return Inline; }
unsigned enzymeInlineCount() {
  return InlineCount < 0 ? 0u : static_cast<unsigned>(InlineCount);
}
bool enzymeGlobalsInactive() { return GlobalsInactive; }

std::string enzymeTruncateAll() { return TruncateAll; }

std::vector<std::string> enzymeInactiveFiles() {
  return std::vector<std::string>(InactiveFiles.begin(), InactiveFiles.end());
}

std::string unsupportedEnzymeOption() {
  const char *Lto =
      "Tapestry differentiates a function whose body is in another file "
      "when the files are compiled and linked with -flto (see "
      "docs/multi-file-lto.md); drop the option and add -flto to the "
      "compile and link lines";
  if (!ExportDerivatives.empty())
    return std::string("-enzyme-export-derivatives (exporting derivatives "
                       "for separate compilation) is not supported: ") +
           Lto;
  if (SeparateCompilation)
    return std::string("-enzyme-separate-compilation is not supported: ") + Lto;
  if (StrongZero)
    return "-enzyme-strong-zero (a zero adjoint or tangent times an infinite "
           "or NaN partial derivative gives 0) is not supported: Tapestry "
           "does not guarantee it in every derivative rule (some compute "
           "that product as IEEE arithmetic does, NaN); drop the option, or "
           "guard the operations whose partial derivatives can be infinite";
  return "";
}

} // namespace tapestry
