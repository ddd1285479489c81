//===- ExplainRequest.cpp - What Tapestry made of each request ------------===//
//
// Implements ExplainRequest.h: the -tapestry-explain option, and explainRequest
// and explainSplitRequest, called once a request's derivative exists, which
// print its activities, mode, variables (from Analysis/VariableActivity),
// split-mode tape facts and an annotated listing of the derivative to standard
// error. It only prints; nothing it does changes the code generated.
//
//===----------------------------------------------------------------------===//
//-------------===//
#include "Passes/ExplainRequest.h"

#include "Core/Diagnostics.h"
#include "Core/SourceTypes.h"
#include "Passes/RequestDecoder.h"
#include "Split/TapeSplitter.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static cl::opt<bool>
    Explain("tapestry-explain",
            cl::desc("Describe every derivative request on standard error: "
                     "the decoded request in source terms, split-mode tapes "
                     "and reusability, and the synthesised derivative"),
            cl::init(false));

namespace tapestry {

bool explainRequested() { return Explain; }

/// What an activity means for the caller, in mode \p R.
static StringRef meaning(Activity A, const DiffRequest &R) {
  bool Rev = R.Mode == DiffMode::Reverse;
  switch (A) {
  case Activity::Const:
    return "not differentiated";
  case Activity::Active:
    return Rev ? "its derivative is returned" : "differentiated by value";
  case Activity::Dup:
    return Rev ? "its shadow accumulates the derivative (+=)"
               : "its shadow holds the tangent, in and out";
  case Activity::DupNoNeed:
    return Rev ? "its shadow accumulates the derivative (+=); the primal "
                 "results written through it are not needed"
               : "its shadow holds the tangent; the primal results written "
                 "through it are not needed";
  }
  return "";
}

static StringRef markerName(Activity A) {
  switch (A) {
  case Activity::Const:
    return "enzyme_const";
  case Activity::Active:
    return "enzyme_out";
  case Activity::Dup:
    return "enzyme_dup";
  case Activity::DupNoNeed:
    return "enzyme_dupnoneed";
  }
  return "";
}

static std::string modeDescription(const DiffRequest &R) {
  std::string S = R.Mode == DiffMode::Reverse ? "reverse" : "forward";
  if (R.ErrorEstimate)
    S = "forward, round-off error estimate";
  if (R.Split)
    S += ", split (augmented forward + reverse)";
  if (R.Width > 1)
    S += ", batch of " + std::to_string(R.Width) + " lanes";
  if (R.ReturnPrimal)
    S += ", primal result returned too";
  return S;
}

static void printHeader(raw_ostream &OS, const CallBase &CB,
                        const DecodedCall &D) {
  const DiffRequest &R = D.Request;
  const Function &F = *R.Fn;
  std::string Where = sourceLocation(&CB);
  OS << "tapestry-explain: " << entryPointName(CB) << " at "
     << (Where.empty() ? "'" + sourceName(*CB.getFunction()) + "'" : Where)
     << "\n";
  OS << "  function: " << sourceReturnType(F) << " " << sourceIdentifier(F)
     << "(";
  for (unsigned I = 0; I < F.arg_size(); ++I) {
    SourceParameter P = sourceParameter(F, I);
    bool Tight = P.Name.empty() || StringRef(P.Type).ends_with("*") ||
                 StringRef(P.Type).ends_with("&");
    OS << (I ? ", " : "") << P.Type << (Tight ? "" : " ") << P.Name;
  }
  OS << ")\n  mode: " << modeDescription(R) << "\n";
  if (F.arg_size())
    OS << "  arguments:\n";
  for (unsigned I = 0; I < F.arg_size() && I < R.Args.size(); ++I) {
    SourceParameter P = sourceParameter(F, I);
    std::string Name = P.Name.empty() ? "#" + std::to_string(I + 1) : P.Name;
    OS << formatv("    {0,-10} {1,-18} {2,-17} {3}\n", Name, P.Type,
                  markerName(R.Args[I]), meaning(R.Args[I], R));
  }
  if (!F.getReturnType()->isVoidTy())
    OS << "  result: " << sourceReturnType(F) << ", "
       << (R.ReturnActive
               ? (R.Mode == DiffMode::Reverse
                      ? "active: the reverse sweep starts from its seed"
                      : "active: its tangent is returned")
               : "constant: no derivative flows from it")
       << "\n";
}

/// Each local variable of the differentiated function and its activity.
static void printVariables(raw_ostream &OS, ArrayRef<VariableActivity> Vars) {
  if (Vars.empty())
    return;
  OS << "  variables:\n";
  for (const VariableActivity &V : Vars)
    OS << formatv("    {0,-10} {1,-18} line {2,-5} {3}\n", V.Name, V.Type,
                  V.Line, V.Verdict);
}

/// The instructions of \p F, one per line, without metadata attachments,
/// each new source line noted once.
static void printListing(raw_ostream &OS, const Function &F) {
  static const Regex Attachment(", ![A-Za-z_.][A-Za-z0-9_.]* ![0-9]+");
  OS << "  derivative '" << F.getName() << "':\n";
  unsigned LastLine = 0;
  for (const BasicBlock &BB : F) {
    OS << "   ";
    BB.printAsOperand(OS, /*PrintType=*/false);
    OS << ":\n";
    for (const Instruction &I : BB) {
      std::string Text;
      raw_string_ostream TS(Text);
      I.print(TS);
      TS.flush();
      while (Attachment.match(Text))
        Text = Attachment.sub("", Text);
      OS << "    " << StringRef(Text).trim();
      if (const DebugLoc &DL = I.getDebugLoc();
          DL && DL.getLine() && DL.getLine() != LastLine) {
        LastLine = DL.getLine();
        OS << "    ; line " << LastLine;
      }
      OS << "\n";
    }
  }
}

void explainRequest(const CallBase &CB, const DecodedCall &D, const Function &G,
                    ArrayRef<VariableActivity> Vars) {
  if (!Explain)
    return;
  raw_ostream &OS = errs();
  printHeader(OS, CB, D);
  printVariables(OS, Vars);
  printListing(OS, G);
  OS << "\n";
}

/// -Rpass-analysis=tapestry: whether the tape a split request makes may
/// serve several reverses, and if not, what prevents it (at the call that
/// makes the tape: the augmented forward, a thunk).
static void remarkReusability(const CallBase &CB, const DecodedCall &D,
                              const SplitDerivative &S) {
  EntryPoint Kind = classifyEntryPoint(
      CB.getCalledFunction() ? CB.getCalledFunction()->getName() : "");
  if (Kind != EntryPoint::AugmentedForward && Kind != EntryPoint::Thunk)
    return;
  OptimizationRemarkEmitter ORE(CB.getFunction());
  ORE.emit([&]() {
    OptimizationRemarkAnalysis Rem("tapestry", "TapeReuse", &CB);
    Rem << "the tape of '" << sourceName(*D.Request.Fn) << "' ("
        << std::to_string(S.TapeBytes) << " bytes"
        << (S.OwnsMemory ? ", plus heap blocks it owns" : "") << ") is ";
    if (S.Replayable)
      Rem << "reusable: the reverse may run again on it, with other seeds";
    else
      Rem << "not reusable, one reverse per augmented forward: "
          << S.NotReplayableReason;
    return Rem;
  });
}

void explainSplitRequest(const CallBase &CB, const DecodedCall &D,
                         const SplitDerivative &S,
                         ArrayRef<VariableActivity> Vars) {
  remarkReusability(CB, D, S);
  if (!Explain)
    return;
  raw_ostream &OS = errs();
  printHeader(OS, CB, D);
  printVariables(OS, Vars);
  OS << "  tape: " << S.TapeBytes << " bytes"
     << (S.OwnsMemory ? ", plus heap blocks it owns (freed by the reverse or "
                        "by release)"
                      : ", owning no heap memory")
     << "\n  reusable: "
     << (S.Replayable ? "yes: the reverse may run again on the same tape, "
                        "with other seeds"
                      : "no: " + S.NotReplayableReason)
     << "\n";
  // Each half is listed once, at the call of that half.
  switch (classifyEntryPoint(
      CB.getCalledFunction() ? CB.getCalledFunction()->getName() : "")) {
  case EntryPoint::AugmentedForward:
    printListing(OS, *S.Augmented);
    break;
  case EntryPoint::SplitReverse:
    printListing(OS, *S.Reverse);
    break;
  default:
    break;
  }
  OS << "\n";
}

} // namespace tapestry
