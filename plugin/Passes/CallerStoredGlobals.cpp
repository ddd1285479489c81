//===- CallerStoredGlobals.cpp - Memory handed over in globals ------------===//
//
// Implements CallerStoredGlobals.h: per request, the stores in its caller of
// pointers to memory it passes as differentiated into globals without a
// shadow that may run before it, then, on promoted copies of the functions
// the request reaches, the floating-point reads through those globals
// (GlobalContentReads).
//
//===----------------------------------------------------------------------===//
#include "Passes/CallerStoredGlobals.h"

#include "Analysis/GlobalContentReads.h"
#include "Analysis/GlobalShadows.h"
#include "Analysis/PromotedCopy.h"
#include "Core/CustomRules.h"
#include "Core/Diagnostics.h"
#include "Passes/RequestArguments.h"
#include "Passes/RequestDecoder.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace tapestry {

namespace {
/// A store, in a request's caller, of a pointer to memory the request
/// passes as differentiated, into a global.
struct HandedOver {
  const GlobalVariable *G;
  const StoreInst *Store;
  const Value *Memory;
};
} // namespace

/// True if \p F stores a pointer into a global: the only callers worth a
/// closer look.
static bool storesPointerIntoGlobal(Function &F) {
  for (Instruction &I : instructions(F))
    if (auto *SI = dyn_cast<StoreInst>(&I))
      if (SI->getValueOperand()->getType()->isPointerTy() &&
          isa<GlobalVariable>(getUnderlyingObject(SI->getPointerOperand())))
        return true;
  return false;
}

/// The stores of \p CB's caller, as its promoted copy \p VMap maps it
/// (where a pointer kept in a local variable is one value), that may run
/// before it and put a pointer to memory \p D passes as differentiated
/// into a global without a shadow.
static SmallVector<HandedOver, 2> handedOver(CallBase &CB, const DecodedCall &D,
                                             ValueToValueMapTy &VMap,
                                             const GlobalShadows &Globals,
                                             const CustomRules &Rules) {
  SmallVector<HandedOver, 2> Out;
  auto *Call = dyn_cast_or_null<CallBase>(VMap.lookup(&CB));
  if (!Call)
    return Out;
  SmallPtrSet<const Value *, 4> Differentiated;
  for (unsigned I = 0; I < D.Primals.size() && I < D.Shadows.size(); ++I)
    if (D.Primals[I] && D.Shadows[I] && D.Primals[I]->getType()->isPointerTy())
      if (Value *Promoted = VMap.lookup(D.Primals[I]))
        Differentiated.insert(getUnderlyingObject(Promoted));
  if (Differentiated.empty())
    return Out;
  for (Instruction &I : instructions(*Call->getFunction())) {
    auto *SI = dyn_cast<StoreInst>(&I);
    if (!SI || !SI->getValueOperand()->getType()->isPointerTy())
      continue;
    const Value *Memory = getUnderlyingObject(SI->getValueOperand());
    auto *G =
        dyn_cast<GlobalVariable>(getUnderlyingObject(SI->getPointerOperand()));
    if (!Differentiated.count(Memory) || !G || G->isConstant() ||
        Globals.contains(G) || Rules.isInactiveGlobal(G) ||
        !isPotentiallyReachable(SI, Call))
      continue;
    Out.push_back({G, SI, Memory});
  }
  return Out;
}

bool reportCallerStoredGlobals(ArrayRef<PendingRequest> Requests,
                               const GlobalShadows &Globals,
                               const CustomRules &Rules) {
  bool None = true;
  for (const PendingRequest &P : Requests) {
    Function *Target = requestTarget(*P.CB);
    if (!Target || Target->isDeclaration() ||
        !storesPointerIntoGlobal(*P.CB->getFunction()))
      continue;
    std::optional<DecodedCall> D = peekRequest(*P.CB, P.Kind);
    if (!D)
      continue;
    // The caller as values: `double *x = malloc(...)` at -O0 is a stack
    // slot loaded once for the store and once for the request.
    ValueToValueMapTy VMap;
    Function *Caller = clonePromoted(*P.CB->getFunction(), VMap);
    SmallVector<HandedOver, 2> Stores =
        handedOver(*P.CB, *D, VMap, Globals, Rules);
    // Lines of the stores, before the copy goes.
    SmallVector<std::string, 2> StoreLines, Names;
    for (const HandedOver &H : Stores) {
      StoreLines.push_back(atLine(H.Store));
      Names.push_back(describe(H.Memory));
    }
    Caller->eraseFromParent();
    if (Stores.empty())
      continue;
    DenseMap<Function *, Function *> Copies;
    for (Function *F : reachableFunctions({Target}, Rules))
      if (!F->isDeclaration())
        Copies[F] = clonePromoted(*F);
    GlobalContentReads Finder(Copies);
    for (auto [K, H] : enumerate(Stores)) {
      std::vector<GlobalContentReads::Read> Reads = Finder.find(*H.G);
      if (Reads.empty())
        continue;
      const Instruction *Read = Reads.front().At;
      None = false;
      reportError(
          *P.CB->getFunction(), P.CB,
          "this call differentiates '" + sourceName(*Target) +
              "', which reads through the global '" + describe(H.G) + "'" +
              atLine(Read) + " memory the call passes as differentiated (" +
              Names[K] + ", whose address is stored into the global" +
              StoreLines[K] +
              "); the global gets no shadow, so what is read through it "
              "would be taken for a constant and its derivative lost: pass "
              "the pointer to '" +
              sourceIdentifier(*Target) +
              "' as an argument instead of through the global");
    }
    for (auto &[F, Copy] : Copies)
      Copy->eraseFromParent();
  }
  return None;
}

} // namespace tapestry
