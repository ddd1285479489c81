//===- ReverseSweepVectorizing.cpp - Reverse loops ready to vectorise -----===//
//
// Implements ReverseSweepVectorizing.h.
//
//===----------------------------------------------------------------------===//
#include "Passes/ReverseSweepVectorizing.h"

#include "Synthesis/ReverseValueCache.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"
#include <functional>
#include <optional>

#define DEBUG_TYPE "tapestry-reverse-vectorizing"

using namespace llvm;

STATISTIC(NumZeroedSlotsForwarded,
          "Loads of a slot the previous iteration zeroed, forwarded");
STATISTIC(NumCarriedValuesHoisted,
          "Values carried to the next iteration computed before their use");

namespace tapestry {

namespace {

/// One loop's rewrite.
class ReverseLoop {
public:
  ReverseLoop(Loop &L, ScalarEvolution &SE, AAResults &AA)
      : L(L), SE(SE), AA(AA), Header(L.getHeader()) {}

  bool run() {
    if (!L.getLoopPreheader() || !L.getLoopLatch() || !L.isInnermost())
      return false;
    bool Changed = false;
    for (bool Again = true; Again;) {
      Again = forwardOneZeroedSlot();
      Changed |= Again;
    }
    Changed |= sinkRecordStores();
    Changed |= hoistCarriedValues();
    return Changed;
  }

private:
  Loop &L;
  ScalarEvolution &SE;
  AAResults &AA;
  BasicBlock *Header;

  /// The byte distance B - A if both addresses are affine in L with the
  /// same constant step; nullopt otherwise.
  std::optional<int64_t> distance(Value *A, Value *B) {
    auto *RA = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(A));
    auto *RB = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(B));
    if (!RA || !RB || RA->getLoop() != &L || RB->getLoop() != &L ||
        !RA->isAffine() || !RB->isAffine() ||
        RA->getStepRecurrence(SE) != RB->getStepRecurrence(SE))
      return std::nullopt;
    auto *D = dyn_cast<SCEVConstant>(SE.getMinusSCEV(RB, RA));
    if (!D)
      return std::nullopt;
    return D->getAPInt().getSExtValue();
  }

  /// The constant step of an affine address in L.
  std::optional<int64_t> step(Value *P) {
    auto *R = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(P));
    if (!R || R->getLoop() != &L || !R->isAffine())
      return std::nullopt;
    auto *S = dyn_cast<SCEVConstant>(R->getStepRecurrence(SE));
    if (!S)
      return std::nullopt;
    return S->getAPInt().getSExtValue();
  }

  /// True if nothing but \p Zero writes the slot \p Zero writes in
  /// iteration k between \p Zero and \p Reader in iteration k + 1, nor
  /// what \p Reader reads in the first iteration before it.
  bool windowIsClear(StoreInst &Zero, LoadInst &Reader, int64_t Step) {
    for (BasicBlock *BB : L.blocks())
      for (Instruction &I : *BB) {
        if (&I == &Zero || !I.mayWriteToMemory())
          continue;
        auto *S = dyn_cast<StoreInst>(&I);
        if (!S || !S->isSimple())
          return false;
        std::optional<int64_t> D =
            distance(Zero.getPointerOperand(), S->getPointerOperand());
        if (!D) {
          // Elsewhere: another object, as alias analysis sees it.
          if (AA.alias(MemoryLocation::getBeforeOrAfter(
                           getUnderlyingObject(Zero.getPointerOperand())),
                       MemoryLocation::getBeforeOrAfter(getUnderlyingObject(
                           S->getPointerOperand()))) != AliasResult::NoAlias)
            return false;
          continue;
        }
        if (BB != Header)
          return false;
        // S writes at Zero's slot of iteration k + m, m = -D / Step; a
        // store off the slots' grid, or wider or narrower than a slot, may
        // overlap part of one.
        if (*D % Step || S->getValueOperand()->getType() !=
                             Zero.getValueOperand()->getType())
          return false;
        int64_t M = -*D / Step;
        // (Instruction order within the header, cached by LLVM.)
        if (M == 0 && Zero.comesBefore(S))
          return false; // overwrites the zero in the same iteration
        if (M == 1 && S->comesBefore(&Reader))
          return false; // writes it in the next iteration before the read
      }
    return true;
  }

  /// A header phi that is an integer induction, with its start value.
  std::pair<PHINode *, Value *> induction() {
    BasicBlock *Pre = L.getLoopPreheader();
    for (PHINode &P : Header->phis())
      if (P.getType()->isIntegerTy())
        // One that never comes back to its start: a constant nonzero
        // step and no wrapping (an i8 counter returns to it after 256).
        if (auto *R = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&P));
            R && R->getLoop() == &L && R->isAffine() &&
            R->getType()->getScalarSizeInBits() >= 32 &&
            (R->hasNoSignedWrap() || R->hasNoUnsignedWrap()))
          if (auto *S = dyn_cast<SCEVConstant>(R->getStepRecurrence(SE));
              S && !S->isZero())
            return {&P, P.getIncomingValueForBlock(Pre)};
    return {nullptr, nullptr};
  }

  /// Finds a load in the header reading the slot a store of zero in the
  /// header wrote in the previous iteration, and replaces it.
  bool forwardOneZeroedSlot() {
    for (Instruction &I : *Header) {
      auto *Zero = dyn_cast<StoreInst>(&I);
      auto *C = Zero ? dyn_cast<ConstantFP>(Zero->getValueOperand()) : nullptr;
      if (!C || !C->isZero() || !Zero->isSimple())
        continue;
      std::optional<int64_t> Step = step(Zero->getPointerOperand());
      if (!Step || *Step == 0)
        continue;
      for (Instruction &J : *Header) {
        auto *Reader = dyn_cast<LoadInst>(&J);
        if (!Reader || !Reader->isSimple() || Reader->getType() != C->getType())
          continue;
        // Reader reads in iteration k what Zero wrote in iteration k - 1.
        std::optional<int64_t> D =
            distance(Zero->getPointerOperand(), Reader->getPointerOperand());
        if (!D || *D != -*Step || !windowIsClear(*Zero, *Reader, *Step))
          continue;
        auto [IV, Start] = induction();
        if (!IV)
          return false;
        BasicBlock *Pre = L.getLoopPreheader();
        SCEVExpander Expander(SE, SE.getDataLayout(), "tapestry.slot");
        auto *Ptr =
            cast<SCEVAddRecExpr>(SE.getSCEV(Reader->getPointerOperand()));
        if (!Expander.isSafeToExpandAt(Ptr->getStart(), Pre->getTerminator()))
          continue;
        Value *First = Expander.expandCodeFor(Ptr->getStart(),
                                              Reader->getPointerOperandType(),
                                              Pre->getTerminator());
        IRBuilder<> PB(Pre->getTerminator());
        LoadInst *Initial =
            PB.CreateAlignedLoad(Reader->getType(), First, Reader->getAlign(),
                                 "tapestry.slot.first");
        Initial->copyMetadata(*Reader);
        IRBuilder<> B(Reader);
        Value *IsFirst = B.CreateICmpEQ(IV, Start, "tapestry.slot.isfirst");
        Value *V = B.CreateSelect(IsFirst, Initial, C, "tapestry.slot");
        Reader->replaceAllUsesWith(V);
        Reader->eraseFromParent();
        SE.forgetLoop(&L);
        ++NumZeroedSlotsForwarded;
        LLVM_DEBUG(dbgs() << "forwarded a zeroed slot in " << Header->getName()
                          << "\n");
        return true;
      }
    }
    return false;
  }

  /// Moves the forward sweep's stores into loop records to the end of
  /// their blocks: nothing else in the loop reads or writes that memory, and
  /// a record of a value carried to the next iteration (u[i] read as
  /// u[i + 1] one iteration earlier) then no longer comes before the
  /// carried value's next value, which the vectoriser needs.
  bool sinkRecordStores() {
    bool Changed = false;
    for (BasicBlock *BB : L.blocks()) {
      SmallVector<StoreInst *, 4> Records;
      for (Instruction &I : *BB)
        if (auto *S = dyn_cast<StoreInst>(&I);
            S && S->getMetadata(RecordStoreMD))
          Records.push_back(S);
      for (StoreInst *S : Records) {
        // Not past a call: one may grow the record array (the reserve of
        // an inner loop merged into this block), after which the store's
        // address, computed before it, is stale.
        Instruction *To = S->getNextNode();
        while (To != BB->getTerminator() &&
               !(isa<CallBase>(To) && To->mayReadOrWriteMemory()))
          To = To->getNextNode();
        if (To == S->getNextNode())
          continue;
        S->moveBefore(To);
        Changed = true;
      }
    }
    return Changed;
  }

  /// Moves the arithmetic computing the value a header phi receives from
  /// the latch above the phi's first use in the header, where it only
  /// needs values available there: the vectoriser then sees a first-order
  /// recurrence whose next value precedes its uses.
  bool hoistCarriedValues() {
    BasicBlock *Latch = L.getLoopLatch();
    bool Changed = false;
    for (PHINode &P : Header->phis()) {
      if (!P.getType()->isFloatingPointTy())
        continue;
      auto *Next = dyn_cast<Instruction>(P.getIncomingValueForBlock(Latch));
      if (!Next || Next->getParent() != Header)
        continue;
      Instruction *FirstUse = nullptr;
      for (Instruction &I : *Header)
        if (!isa<PHINode>(I) && is_contained(I.operands(), &P)) {
          FirstUse = &I;
          break;
        }
      if (!FirstUse || !FirstUse->comesBefore(Next))
        continue;
      // Next's operands computed after FirstUse, to move with it.
      SmallVector<Instruction *, 8> Move;
      SmallPtrSet<Instruction *, 8> Seen;
      bool Movable = true;
      std::function<void(Instruction *)> Collect = [&](Instruction *I) {
        if (!Movable || !Seen.insert(I).second)
          return;
        if (I->getParent() != Header || isa<PHINode>(I) ||
            I->comesBefore(FirstUse))
          return;
        if (I == FirstUse || I->mayReadOrWriteMemory() ||
            I->mayHaveSideEffects() || !isSafeToSpeculativelyExecute(I)) {
          Movable = false;
          return;
        }
        for (Value *Op : I->operands())
          if (auto *OI = dyn_cast<Instruction>(Op))
            Collect(OI);
        Move.push_back(I);
      };
      Collect(Next);
      if (!Movable || Move.empty())
        continue;
      sort(Move,
           [](Instruction *A, Instruction *B) { return A->comesBefore(B); });
      for (Instruction *I : Move)
        I->moveBefore(FirstUse);
      ++NumCarriedValuesHoisted;
      Changed = true;
    }
    return Changed;
  }
};

/// True for the functions Tapestry synthesises.
bool isDerivative(const Function &F) {
  return F.getName().contains(".tapestry.");
}

} // namespace

PreservedAnalyses
ReverseSweepVectorizingPass::run(Function &F, FunctionAnalysisManager &AM) {
  if (!isDerivative(F) || F.isDeclaration())
    return PreservedAnalyses::all();
  auto &LI = AM.getResult<LoopAnalysis>(F);
  auto &SE = AM.getResult<ScalarEvolutionAnalysis>(F);
  auto &AA = AM.getResult<AAManager>(F);
  auto &DT = AM.getResult<DominatorTreeAnalysis>(F);
  auto &AC = AM.getResult<AssumptionAnalysis>(F);
  bool Changed = false;
  for (Loop *L : LI.getLoopsInPreorder())
    if (L->isInnermost()) {
      // The vectoriser puts loops in this form too (a preheader, one
      // latch, dedicated exits).
      Changed |= simplifyLoop(L, &DT, &LI, &SE, &AC, nullptr,
                              /*PreserveLCSSA=*/false);
      Changed |= ReverseLoop(*L, SE, AA).run();
    }
  if (!Changed)
    return PreservedAnalyses::all();
  return PreservedAnalyses::none();
}

} // namespace tapestry
