//===- ReverseModeSynthesizer.h - Gradient (reverse-mode) functions -*- C++
//-*-===//
//
// One-shot reverse mode: the derivative function runs the primal (the
// forward sweep, with shadows of pointers and a cache of the values the
// reverse sweep needs), then a reverse block per primal block propagating
// adjoints in reverse instruction order, then returns the adjoints.
//
// Control flow is reversed block by block: a block with several predecessors
// records which one it was entered from, and its reverse block branches back
// to the reverse of that predecessor. Values the reverse sweep needs are read
// directly when their definition dominates the whole reverse sweep; otherwise
// from a cache slot. Inside loops, each iteration's values are pushed on a
// LIFO tape at the end of a block and popped at the start of its reverse
// block, so loops of any shape (unknown trip counts, several exits, nests)
// are reversed exactly.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_REVERSEMODESYNTHESIZER_H
#define TAPESTRY_SYNTHESIS_REVERSEMODESYNTHESIZER_H

#include "Core/AllocationLike.h"
#include "Synthesis/BlasRules.h"
#include "Synthesis/SynthesizerBase.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstVisitor.h"

namespace llvm {
class SCEV;
} // namespace llvm

namespace tapestry {

/// Where a one-shot derivative divides into its two sweeps, and what split
/// mode needs to know to cut it there (Synthesis/TapeSplitter.h).
struct SweepBoundary {
  /// The reverse sweep's first block; its only predecessor ends the forward
  /// sweep. Every block reachable from it belongs to the reverse sweep.
  llvm::BasicBlock *ReverseStart = nullptr;
  /// The primal's return value in the derivative function, or null.
  llvm::Value *PrimalReturn = nullptr;
  /// The per-loop record arrays' states and the frees that release them at
  /// the end of the reverse sweep.
  llvm::SmallVector<llvm::AllocaInst *, 4> RecordStates;
  llvm::SmallVector<llvm::CallInst *, 4> RecordFrees;
  /// Shadow pointers (arguments and those computed next to their primals).
  llvm::SmallPtrSet<llvm::Value *, 16> ShadowValues;
  /// Why running the reverse sweep twice on one tape would be wrong, as
  /// found while synthesising (registered gradients, ...).
  llvm::SmallVector<std::string, 2> NotReplayable;
};

class ReverseModeSynthesizer : SynthesizerBase,
                               llvm::InstVisitor<ReverseModeSynthesizer> {
  friend class llvm::InstVisitor<ReverseModeSynthesizer>;

public:
  explicit ReverseModeSynthesizer(const SynthesisInput &In);

  /// Returns the new function, or null after reporting errors.
  llvm::Function *run();
  /// Valid after run() succeeded.
  SweepBoundary &boundary() { return Boundary; }

private:
  // Forward sweep.
  void buildForwardSweep();
  void recordPredecessors();

  // Reverse sweep.
  void buildReverseBlock(llvm::BasicBlock &PB);

  // InstVisitor: the adjoint of each kind of instruction, added at the end
  // of the current reverse block (Builder).
  void visitStoreInst(llvm::StoreInst &SI);
  void visitLoadInst(llvm::LoadInst &LI);
  void visitMemIntrinsic(llvm::MemIntrinsic &MI);
  void visitAtomicRMWInst(llvm::AtomicRMWInst &RMW);
  void visitCallBase(llvm::CallBase &CB);
  void visitBinaryOperator(llvm::BinaryOperator &I) { visitRuleOperation(I); }
  void visitUnaryOperator(llvm::UnaryOperator &I) { visitRuleOperation(I); }
  void visitFreezeInst(llvm::FreezeInst &I) { visitRuleOperation(I); }
  void visitFPExtInst(llvm::FPExtInst &I) { visitFPCast(I); }
  void visitFPTruncInst(llvm::FPTruncInst &I) { visitFPCast(I); }
  void visitSelectInst(llvm::SelectInst &Sel);
  void visitExtractValueInst(llvm::ExtractValueInst &EV);
  void visitInsertValueInst(llvm::InsertValueInst &IV);
  void visitExtractElementInst(llvm::ExtractElementInst &EE);
  void visitInsertElementInst(llvm::InsertElementInst &IE);
  void visitShuffleVectorInst(llvm::ShuffleVectorInst &SV);
  /// Anything else has no adjoint, or was rejected by SupportedInstructions.
  void visitInstruction(llvm::Instruction &) {}
  void visitRuleOperation(llvm::Instruction &PI);
  void visitFPCast(llvm::CastInst &Cast);

  void reverseRule(llvm::Instruction &PI, llvm::IRBuilderBase &B);
  void reverseLoad(llvm::LoadInst &LI, llvm::IRBuilderBase &B);
  void reverseStore(llvm::StoreInst &SI, llvm::IRBuilderBase &B);
  void reverseMemIntrinsic(llvm::MemIntrinsic &MI, llvm::IRBuilderBase &B);
  /// Reductions, masked accesses, lane moves and shuffles
  /// (Synthesis/VectorRules.cpp).
  void reverseVectorCall(llvm::CallBase &CB, llvm::IRBuilderBase &B);
  void reverseShuffle(llvm::ShuffleVectorInst &SV, llvm::IRBuilderBase &B);
  // Bytes moved without a type (ReverseByteCopies.cpp).
  void reverseCopyStore(llvm::StoreInst &SI, llvm::LoadInst &From,
                        llvm::IRBuilderBase &B);
  void reverseCopyLoad(llvm::LoadInst &LI, llvm::IRBuilderBase &B);
  const ByteLayout *copyLoadLayout(llvm::LoadInst &LI);
  llvm::Value *copySlotLane(llvm::LoadInst &LI, unsigned K,
                            llvm::IRBuilderBase &B);
  void copyPointerShadows(llvm::Instruction &PI);
  void augmentCustomCall(llvm::CallBase &CB, const CustomGradient &CG);
  void reverseCustomCall(llvm::CallBase &CB, const CustomGradient &CG,
                         llvm::IRBuilderBase &B);
  void augmentDefinedCall(llvm::CallBase &CB);
  /// Frees the shadow of a block allocated in the forward sweep, and the
  /// block itself if its free was deferred.
  void reverseAllocation(llvm::CallBase &CB, llvm::IRBuilderBase &B);
  /// Frees posix_memalign's shadow blocks the forward sweep freed the
  /// primal blocks of (Synthesis/OutParamAllocations.cpp).
  void reverseOutParamAllocation(llvm::CallBase &CB, llvm::IRBuilderBase &B);
  /// Frees the shadow of a registered allocator's block
  /// (Synthesis/CustomAllocations.cpp).
  void reverseCustomAllocation(llvm::CallBase &CB, const CustomAllocator &CA,
                               llvm::IRBuilderBase &B);
  /// Frees the primal block of allocation \p Alloc whose free was deferred
  /// to the reverse sweep, if it was.
  void replayDeferredFree(llvm::CallBase &Alloc, llvm::IRBuilderBase &B);
  /// The FreedShadows.h kind of the block deallocation \p Dealloc frees, or
  /// null after an error.
  llvm::Value *freedShadowKindOf(llvm::CallBase &Dealloc,
                                 llvm::IRBuilderBase &B);
  /// BLAS routines, by calling BLAS (Synthesis/BlasRules.cpp): the forward
  /// sweep reads the call's arguments and caches the arrays the reverse
  /// needs, the reverse sweep calls BLAS on the shadows.
  void augmentBlasCall(llvm::CallBase &CB, const BlasCall &BC);
  void reverseBlasCall(llvm::CallBase &CB, const BlasCall &BC,
                       llvm::IRBuilderBase &B);
  void reverseDefinedCall(llvm::CallBase &CB, llvm::IRBuilderBase &B);
  // OpenMP (Synthesis/OpenMPRegions.cpp).
  void augmentOpenMP();
  void augmentParallelRegion(llvm::CallBase &Fork);
  void reverseParallelRegion(llvm::CallBase &Fork, llvm::IRBuilderBase &B);
  void reverseOpenMPSync(llvm::CallBase &CB, llvm::IRBuilderBase &B);
  void reverseAtomicRMW(llvm::AtomicRMWInst &RMW, llvm::IRBuilderBase &B);
  /// Reverses the OpenMP calls that need it their own way (a parallel
  /// region, synchronisation); false if \p CB is left to the usual rules.
  bool reverseOpenMP(llvm::CallBase &CB, llvm::IRBuilderBase &B);
  void atomicAddAdjoint(llvm::IRBuilderBase &B, llvm::Value *Ptr,
                        llvm::Value *V, llvm::Align A,
                        const llvm::Instruction *At);
  void emitTerminatorReverse(llvm::BasicBlock &PB, llvm::IRBuilderBase &B);
  void emitFinalReturn();

  // Adjoints.
  llvm::AllocaInst *adjointSlot(const llvm::Value *PV);
  /// Reads the adjoint of \p PV and resets it to zero.
  llvm::Value *takeAdjoint(llvm::Value *PV, llvm::IRBuilderBase &B);
  void addAdjoint(llvm::Value *PV, llvm::Value *Delta, llvm::IRBuilderBase &B);

  // The cache of forward values used by the reverse sweep.
  /// A forward value \p GV (in the derivative function) as usable in the
  /// reverse block of primal block \p PB at the builder's position.
  llvm::Value *lookup(llvm::Value *GV, llvm::BasicBlock *PB,
                      llvm::IRBuilderBase &B);
  llvm::BasicBlock *primalBlockOf(llvm::Value *GV) const;
  /// Recomputes a cheap instruction or reloads unmodified memory in the
  /// reverse block instead of caching; null if \p GV is neither.
  llvm::Value *recompute(llvm::Value *GV, llvm::BasicBlock *PB,
                         llvm::IRBuilderBase &B);
  /// An affine recurrence of a loop (start + k * step at iteration k),
  /// rebuilt from the reverse counter; null if \p GV is not one.
  llvm::Value *rebuildRecurrence(llvm::Value *GV, llvm::BasicBlock *PB,
                                 llvm::IRBuilderBase &B);
  /// Builds the value of an integer SCEV in the reverse block of \p PB from
  /// reverse counters and looked-up values; null if it cannot.
  llvm::Value *expandSCEV(const llvm::SCEV *S, llvm::BasicBlock *PB,
                          llvm::IRBuilderBase &B);
  /// The count of iterations of \p L started so far (minus one): the index
  /// of the current iteration's record, in both sweeps.
  llvm::AllocaInst *iterationCounter(const llvm::Loop *L);
  /// A loop-invariant SCEV built at the function's entry from constants and
  /// arguments; null if it needs anything else.
  llvm::Value *expandAtEntry(const llvm::SCEV *S, llvm::IRBuilderBase &B);
  /// How many iterations \p L runs in one call, counted over its enclosing
  /// loops, when known at entry; null otherwise.
  llvm::Value *iterationsFromEntry(const llvm::Loop *L, llvm::IRBuilderBase &B);
  /// The reverse iteration counter of loop \p L.
  llvm::AllocaInst *reverseCounter(const llvm::Loop *L);
  /// Going back from \p Succ's reverse into \p Pred's crosses a loop exit
  /// for every loop that contains Pred but not Succ: start their counters
  /// at the iteration the loop left in.
  void enterLoopsBackwards(llvm::BasicBlock *Pred, llvm::BasicBlock *Succ,
                           llvm::IRBuilderBase &B);
  void materializeTape();
  llvm::AllocaInst *entryAlloca(llvm::Type *T, const llvm::Twine &Name);

  llvm::DominatorTree &DT;
  llvm::LoopInfo &LI;
  llvm::ScalarEvolution &SE;
  /// The return block of the prepared primal (it has exactly one).
  llvm::BasicBlock *RetBlock = nullptr;
  llvm::ReturnInst *PrimalRet = nullptr;

  llvm::DenseMap<const llvm::BasicBlock *, llvm::BasicBlock *> RevBlocks;
  llvm::DenseMap<const llvm::BasicBlock *, llvm::PHINode *> PredIds;
  llvm::DenseMap<const llvm::Value *, llvm::AllocaInst *> AdjointSlots;
  /// What each integer copy load moves (null after an error).
  llvm::DenseMap<const llvm::LoadInst *, std::unique_ptr<ByteLayout>>
      CopyLoadLayouts;
  /// Map from derivative-function blocks back to primal blocks.
  llvm::DenseMap<const llvm::BasicBlock *, llvm::BasicBlock *> PrimalBlocks;

  /// Values cached once (outside any loop shared with their user).
  llvm::DenseMap<const llvm::Value *, llvm::AllocaInst *> OnceSlots;
  /// Values needed by the reverse of a loop iteration are stored, when they
  /// are computed, in that iteration's record of an array per loop, indexed
  /// by the loop's iteration count over the whole call; the reverse sweep
  /// counts the index back down. Each value is stored once per iteration of
  /// the innermost loop that contains both its definition and its use.
  struct LoopCache {
    llvm::MapVector<llvm::Value *, unsigned> Fields;
    /// Reverse-sweep loads whose address is filled in by materializeTape().
    llvm::SmallVector<std::pair<llvm::LoadInst *, unsigned>, 8> Reads;
  };
  llvm::MapVector<const llvm::Loop *, LoopCache> LoopCaches;
  /// Per loop: the iteration count slot and the store that advances it at
  /// the top of the header in the forward sweep.
  llvm::DenseMap<const llvm::Loop *,
                 std::pair<llvm::AllocaInst *, llvm::StoreInst *>>
      IterationCounters;
  /// Per loop header: the blocks through which its reverse block leaves
  /// (where the iteration count steps back).
  llvm::DenseMap<const llvm::BasicBlock *,
                 llvm::SmallVector<llvm::BasicBlock *, 2>>
      RevHeaderExits;
  /// Derivative-function instructions back to the primal ones they clone.
  llvm::DenseMap<const llvm::Value *, llvm::Instruction *> PrimalOf;
  llvm::DenseMap<const llvm::Loop *, llvm::AllocaInst *> ReverseCounters;
  /// Allocations whose free moves to the reverse sweep, and the (primal)
  /// call that frees them.
  llvm::DenseMap<const llvm::Value *, llvm::CallBase *> DeferredFrees;
  /// The tape each call with a registered gradient got from its aug.
  llvm::DenseMap<const llvm::CallBase *, llvm::Value *> CustomTapes;
  /// Batch mode: each lane's tape from its run of aug.
  llvm::DenseMap<const llvm::CallBase *, llvm::SmallVector<llvm::Value *, 4>>
      CustomLaneTapes;
  /// The tape each call to a function with a body got from its augmented
  /// forward.
  llvm::DenseMap<const llvm::CallBase *, llvm::Value *> CalleeTapes;
  /// Per BLAS call: its arguments as read by the forward sweep, and the
  /// copies of the arrays its reverse reads (null: read in place).
  struct BlasForward {
    BlasValues Args;
    llvm::Value *Cache[(unsigned)BlasArg::NumArgs] = {};
  };
  llvm::DenseMap<const llvm::CallBase *, BlasForward> BlasForwards;
  /// posix_memalign's shadow blocks, per lane.
  llvm::DenseMap<const llvm::CallBase *, llvm::SmallVector<llvm::Value *, 4>>
      OutParamShadows;
  /// Values recomputed in a reverse block, to reuse within that block.
  llvm::DenseMap<std::pair<const llvm::Value *, const llvm::BasicBlock *>,
                 llvm::Value *>
      Recomputed;

  SweepBoundary Boundary;
  /// Where the visitor adds the current instruction's adjoint.
  llvm::IRBuilderBase *Builder = nullptr;
  llvm::BasicBlock *AllocaBlock = nullptr;
  llvm::BasicBlock *FinalBlock = nullptr;
  llvm::Value *ReturnValue = nullptr;
};

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_REVERSEMODESYNTHESIZER_H
