//===- DiffRequest.cpp - What a derivative request asks for ---------------===//
//
// Implements DiffRequest.h: the names of activities and modes, the strict
// ordering that makes a DiffRequest a map key (so that the Driver's
// DerivativeCache memoises one function per distinct request), the name suffix
// of a synthesised function, and print for messages. Decoding a request from a
// call is Passes/RequestDecoder.
//
//===----------------------------------------------------------------------===//
#include "Core/DiffRequest.h"

#include "llvm/IR/Function.h"
#include "llvm/Support/raw_ostream.h"
#include <tuple>

using namespace llvm;

namespace tapestry {

StringRef activityName(Activity A) {
  switch (A) {
  case Activity::Const:
    return "enzyme_const";
  case Activity::Dup:
    return "enzyme_dup";
  case Activity::DupNoNeed:
    return "enzyme_dupnoneed";
  case Activity::Active:
    return "enzyme_out";
  }
  llvm_unreachable("unknown activity");
}

StringRef modeName(DiffMode M) {
  return M == DiffMode::Reverse ? "reverse" : "forward";
}

bool DiffRequest::operator<(const DiffRequest &O) const {
  auto Key = [](const DiffRequest &R) {
    return std::make_tuple(R.Fn, R.Mode, R.ReturnPrimal, R.ReturnActive,
                           R.Width, R.Split, R.ReusableTape, R.ErrorEstimate,
                           R.Parallel, R.LifoTapes, R.FreedListDepth, R.Context,
                           R.GlobalDepth, R.MaybeConstantArgs,
                           R.MarkedMemoryArgs, R.MarkedDeepArgs);
  };
  if (Key(*this) != Key(O))
    return Key(*this) < Key(O);
  return std::lexicographical_compare(Args.begin(), Args.end(), O.Args.begin(),
                                      O.Args.end());
}

std::string DiffRequest::suffix() const {
  std::string S = ErrorEstimate               ? "err"
                  : Mode == DiffMode::Forward ? "fwd"
                  : Split                     ? "split"
                                              : "rev";
  S += '_';
  for (Activity A : Args) {
    switch (A) {
    case Activity::Const:
      S += 'c';
      break;
    case Activity::Dup:
      S += 'd';
      break;
    case Activity::DupNoNeed:
      S += 'n';
      break;
    case Activity::Active:
      S += 'a';
      break;
    }
  }
  if (ReturnActive)
    S += "_ra";
  if (ReturnPrimal)
    S += "_rp";
  if (Width != 1)
    S += "_w" + std::to_string(Width);
  if (ReusableTape)
    S += "_reusable";
  if (Parallel)
    S += "_omp";
  if (Context)
    S += "_ctx" + std::to_string(Context);
  if (GlobalDepth)
    S += "_g" + std::to_string(GlobalDepth);
  // Run-time activity of parameters, a digit each: 1 may be constant, 2
  // points to memory that may hold constant pointers, 4 reaches such
  // memory through pointers it holds; their sum.
  if (MaybeConstantArgs || MarkedMemoryArgs || MarkedDeepArgs) {
    S += "_rt";
    for (unsigned I = 0; I < Args.size() && I < MaxRuntimeActivityArgs; ++I)
      S +=
          char('0' + (MaybeConstantArgs >> I & 1) +
               2 * (MarkedMemoryArgs >> I & 1) + 4 * (MarkedDeepArgs >> I & 1));
  }
  return S;
}

bool DiffRequest::returnsShadow() const {
  return Mode == DiffMode::Reverse && ReturnActive && Fn &&
         Fn->getReturnType()->isPointerTy();
}

void DiffRequest::print(raw_ostream &OS) const {
  if (ErrorEstimate)
    OS << "forward error estimate of '";
  else
    OS << (Split ? "split " : "") << modeName(Mode) << " derivative of '";
  OS << (Fn ? Fn->getName() : "?") << "' (";
  for (unsigned I = 0; I < Args.size(); ++I)
    OS << (I ? ", " : "") << activityName(Args[I]);
  OS << ")";
  if (ReturnActive)
    OS << " active return";
  if (ReturnPrimal)
    OS << " with primal return";
  if (Context)
    OS << " in shadow context " << Context;
}

} // namespace tapestry
