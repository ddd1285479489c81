//===- InlinedTypes.cpp - Types seen with small callees inlined -----------===//
//
// Implements InlinedTypes.h: clone, inline the small callees a few rounds
// deep, split the stack slots (SROA), analyse the copy.
//
//===----------------------------------------------------------------------===//
#include "Analysis/InlinedTypes.h"
#include "Analysis/PromotedCopy.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace tapestry {

namespace {
/// Wrappers only: an accessor, an iterator's operator, a comparator.
constexpr unsigned MaxInlinedSize = 60;
constexpr unsigned MaxRounds = 6;
constexpr unsigned MaxCopySize = 6000;

void inlineSmallCallees(Function &Copy, const Function &Original) {
  inlineCallsWhere(Copy, MaxRounds, MaxCopySize,
                   [&](CallBase &, Function &Callee) {
                     return &Callee != &Original &&
                            !Callee.getName().starts_with("tapestry") &&
                            Callee.getInstructionCount() <= MaxInlinedSize;
                   });
}

void splitSlots(Function &F) {
  PassBuilder PB;
  FunctionAnalysisManager FAM;
  PB.registerFunctionAnalyses(FAM);
  SROAPass(SROAOptions::PreserveCFG).run(F, FAM);
}
} // namespace

InlinedTypes::InlinedTypes(Function &F, unsigned Depth, Function *CallersOf,
                           bool FrontEndArithmetic) {
  Copy = CloneFunction(&F, VMap);
  // "tapestry" in the name: not a caller whose facts others import.
  Copy->setName("tapestry.inlined.types");
  Copy->setCallingConv(CallingConv::C);
  inlineSmallCallees(*Copy, F);
  splitSlots(*Copy);
  Info = computeTypes(*Copy, Depth, CallersOf, FrontEndArithmetic);
}

InlinedTypes::~InlinedTypes() {
  Copy->dropAllReferences();
  Copy->eraseFromParent();
}

Value *InlinedTypes::inCopy(const Value *V) const {
  if (isa<Constant>(V))
    return const_cast<Value *>(V);
  auto It = VMap.find(V);
  return It == VMap.end() ? nullptr : It->second;
}

} // namespace tapestry
