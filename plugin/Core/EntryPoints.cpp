//===- EntryPoints.cpp - Which entry point a call calls -------------------===//
//
// Implements EntryPoints.h: classifyEntryPoint maps a called name (mangled or
// with a suffix) to an EntryPoint, the entry points Tapestry does not implement
// included, so that unsupportedEntryPointMessage can name the feature and say
// what to use instead; entryPointName gives the name a message quotes. Decoding
// the call's arguments is Passes/RequestDecoder.
//
//===----------------------------------------------------------------------===//
#include "Core/EntryPoints.h"

#include "Core/IgnoreDerivatives.h"
#include "Core/IterationCounter.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/InstrTypes.h"

using namespace llvm;

namespace tapestry {

bool isSplitEntryPoint(EntryPoint E) {
  return E == EntryPoint::AugmentedForward || E == EntryPoint::SplitReverse ||
         E == EntryPoint::AugmentSize || E == EntryPoint::Thunk;
}

EntryPoint classifyEntryPoint(StringRef Name) {
  if (Name.contains("__tapestry_thunk"))
    return EntryPoint::Thunk;
  if (!Name.contains("__enzyme_"))
    return EntryPoint::None;
  if (Name.contains("__enzyme_autodiff"))
    return EntryPoint::Autodiff;
  if (Name.contains("__enzyme_fwddiff"))
    return EntryPoint::ForwardDiff;
  if (Name.contains("__enzyme_fwdsplit"))
    return EntryPoint::ForwardSplit;
  if (Name.contains("__enzyme_augmentfwd"))
    return EntryPoint::AugmentedForward;
  if (Name.contains("__enzyme_reverse"))
    return EntryPoint::SplitReverse;
  if (Name.contains("__enzyme_augmentsize"))
    return EntryPoint::AugmentSize;
  if (Name.contains("__enzyme_batch"))
    return EntryPoint::Batch;
  if (Name.contains("__enzyme_virtualreverse"))
    return EntryPoint::VirtualReverse;
  if (Name.contains("__enzyme_error_estimate"))
    return EntryPoint::ErrorEstimate;
  if (isIterationCounterName(Name))
    return EntryPoint::IterationCounter;
  if (isIgnoreDerivativesName(Name))
    return EntryPoint::IgnoreDerivatives;
  for (StringRef Truncate :
       {"__enzyme_truncate_op_func", "__enzyme_truncate_mem_func",
        "__enzyme_truncate_mem_value", "__enzyme_expand_mem_value"})
    if (Name.contains(Truncate))
      return EntryPoint::Truncate;
  for (StringRef Context :
       {"__enzyme_context", "__enzyme_shadow", "__enzyme_zero_shadows"})
    if (Name.contains(Context))
      return EntryPoint::ShadowContext;
  if (Name.contains("__enzyme_todense") ||
      Name.contains("__enzyme_post_sparse_todense"))
    return EntryPoint::ToDense;
  for (StringRef Hint :
       {"__enzyme_float", "__enzyme_double", "__enzyme_integer",
        "__enzyme_pointer", "__enzyme_ptr_size_hint"})
    if (Name.contains(Hint))
      return EntryPoint::TypeHint;
  // Every other function of Enzyme's API: a clear error at the call rather
  // than a link error (or, worse, a user definition silently used).
  return EntryPoint::Unsupported;
}

std::string unsupportedEntryPointMessage(StringRef Name) {
  // What to write instead, unless the feature says.
  static constexpr StringLiteral UseOthers =
      "Use __enzyme_autodiff, __enzyme_fwddiff or split mode "
      "(__enzyme_augmentfwd and __enzyme_reverse)";
  static constexpr StringLiteral PlainSteps =
      "Remove it and write the loop itself (for "
      "__enzyme_checkpoint_for(step, start, n, markers..., args...), "
      "`for (int64_t i = start; i < start + n; i++) step(i, args...);`; for "
      "__enzyme_checkpoint_while, `int64_t i = 0; while (step(i++, "
      "args...));`): Tapestry differentiates it with its own choice of what "
      "to store and what to recompute, and a checkpointing scheme's "
      "callbacks and statistics are not used";
  static const struct {
    StringRef Prefix, Feature, Advice = UseOthers;
  } Features[] = {
      // Older spellings; the current ones are implemented.
      {"__enzyme_truncate",
       "floating-point truncation under an older name (Tapestry implements "
       "__enzyme_truncate_op_func, __enzyme_truncate_mem_func, "
       "__enzyme_truncate_mem_value and __enzyme_expand_mem_value)"},
      {"__enzyme_expand_value",
       "floating-point truncation under an older name (Tapestry implements "
       "__enzyme_expand_mem_value)"},
      {"__enzyme_call_inactive", "calls marked inactive at the call site"},
      {"__enzyme_trace", "probabilistic programming (traces)"},
      {"__enzyme_condition", "probabilistic programming (traces)"},
      {"__enzyme_sample", "probabilistic programming (traces)"},
      {"__enzyme_set_checkpointing", "user control of checkpointing"},
      {"__enzyme_checkpoint_for", "user control of checkpointing", PlainSteps},
      {"__enzyme_checkpoint_while", "user control of checkpointing",
       PlainSteps},
      {"__enzyme_set_mincut", "user control of checkpointing"},
  };
  std::string Entry = Name.str();
  for (const auto &F : Features)
    if (Name.contains(F.Prefix))
      return Entry + " is Enzyme's entry point for " + F.Feature.str() +
             "; Tapestry does not support it yet. " + F.Advice.str();
  return Entry +
         " is not an Enzyme entry point Tapestry knows; Tapestry supports "
         "__enzyme_autodiff, __enzyme_fwddiff, __enzyme_fwdsplit, "
         "__enzyme_augmentfwd, __enzyme_reverse, __enzyme_augmentsize, "
         "__enzyme_batch, __enzyme_virtualreverse, __enzyme_error_estimate, "
         "__enzyme_iter, __enzyme_ignore_derivatives, "
         "__enzyme_truncate_op_func, "
         "__enzyme_truncate_mem_func, __enzyme_truncate_mem_value, "
         "__enzyme_expand_mem_value, __enzyme_todense, "
         "__enzyme_post_sparse_todense, __enzyme_context, __enzyme_shadow "
         "and __enzyme_zero_shadows";
}

StringRef entryPointName(const CallBase &CB) {
  StringRef N = CB.getCalledOperand()->stripPointerCasts()->getName();
  // A C++ declaration (a template such as enzyme's): its mangled name
  // holds the identifier after its length, e.g. "17__enzyme_autodiffI...".
  if (!N.starts_with("_Z"))
    return N;
  size_t At = N.find("__enzyme_");
  if (At == StringRef::npos)
    At = N.find("__tapestry_");
  size_t Digits = At;
  while (Digits != StringRef::npos && Digits > 0 && isDigit(N[Digits - 1]))
    --Digits;
  unsigned Length = 0;
  if (At == StringRef::npos || Digits == At ||
      N.substr(Digits, At - Digits).getAsInteger(10, Length) ||
      At + Length > N.size())
    return N;
  return N.substr(At, Length);
}

} // namespace tapestry
