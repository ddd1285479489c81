//===- ReverseModeSynthesizer.h - Reverse-mode derivatives ------*- C++ -*-===//
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
// rebuilt, recomputed, reloaded or read from a cache slot. Inside loops, each
// iteration's values are stored in a per-loop record array and read back by
// the reverse of that iteration, so loops of any shape (unknown trip counts,
// several exits, nests) are reversed exactly (ReverseValueCache.h).
//
// The adjoint of each instruction is an llvm::InstVisitor (this class);
// calls are reversed in ReverseCalls.cpp, with one hook per kind of call
// (registered gradients, BLAS, OpenMP, vector intrinsics, allocations).
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_REVERSEMODESYNTHESIZER_H
#define TAPESTRY_SYNTHESIS_REVERSEMODESYNTHESIZER_H

#include "Core/AllocationLike.h"
#include "Synthesis/BlasRules.h"
#include "Synthesis/ChosenLoopResults.h"
#include "Synthesis/MPIRules.h"
#include "Synthesis/ReverseValueCache.h"
#include "Synthesis/SynthesizerBase.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstVisitor.h"

namespace tapestry {

/// Where a one-shot derivative divides into its two sweeps, and what split
/// mode needs to know to cut it there (Split/TapeSplitter.h).
struct SweepBoundary {
  /// The reverse sweep's first block; its only predecessor ends the forward
  /// sweep. Every block reachable from it belongs to the reverse sweep.
  llvm::BasicBlock *ReverseStart = nullptr;
  /// The primal's return value in the derivative function, or null.
  llvm::Value *PrimalReturn = nullptr;
  /// Its shadow, which the augmented forward returns too, when the request
  /// returns a pointer's shadow (DiffRequest::returnsShadow); else null.
  llvm::Value *ShadowReturn = nullptr;
  /// The per-loop record arrays' states and the frees that release them at
  /// the end of the reverse sweep.
  llvm::SmallVector<llvm::AllocaInst *, 4> RecordStates;
  llvm::SmallVector<llvm::CallInst *, 4> RecordFrees;
  /// Shadow pointers (arguments and those computed next to their primals).
  llvm::SmallPtrSet<llvm::Value *, 16> ShadowValues;
  /// The primal (in the derivative function) each computed shadow shadows,
  /// to name it in messages.
  llvm::DenseMap<const llvm::Value *, const llvm::Value *> PrimalOfShadow;
  /// Why running the reverse sweep twice on one tape would be wrong, as
  /// found while synthesising (registered gradients, ...).
  llvm::SmallVector<std::string, 2> NotReplayable;
  /// Heap blocks the forward sweep allocates whose shadow (and primal, if
  /// the function frees it) the reverse sweep frees: the tape may own them
  /// instead (TapeSplitter), so that the reverse can run again.
  struct ScratchBlock {
    llvm::CallBase *Block = nullptr;
    llvm::Value *Shadow = nullptr;
    /// The reverse sweep's calls that give the block and its shadow back
    /// (the freed-shadow list's take, the frees).
    llvm::SmallVector<llvm::CallInst *, 3> Frees;
    /// A block allocated on only some paths (outside loops) is recorded as
    /// it is allocated: its address, its shadow's and the shadow's size in
    /// bytes, in entry-block slots that start null (0), where the reverse
    /// (and a release that owns the block) finds them. Null otherwise.
    llvm::AllocaInst *BlockSlot = nullptr, *ShadowSlot = nullptr,
                     *BytesSlot = nullptr;
    /// A block allocated inside a loop is linked, as it is allocated, into
    /// the list whose head is this entry slot (null at first), by the
    /// forward sweep's call Link (Synthesis/LoopBlockLists.h). Null
    /// otherwise.
    llvm::AllocaInst *ListHead = nullptr;
    llvm::CallInst *Link = nullptr;
  };
  llvm::SmallVector<ScratchBlock, 2> ScratchBlocks;
  /// The reverse sweep's frees of blocks the tape cannot own, whose reason
  /// NotReplayable already gives in source terms.
  llvm::SmallVector<llvm::CallInst *, 4> ExplainedFrees;
  /// The shadows of those blocks (kept on the tape for the reverse).
  llvm::SmallPtrSet<llvm::Value *, 4> ExplainedShadows;
  /// Tapes of callees the forward sweep ran through their split and the
  /// reverse runs without freeing them: per call site, the slot holding the
  /// head of its list of tapes (each behind a 16-byte header whose first
  /// word links the next) and the function that releases such a list
  /// (CalleeSplit::KeptRelease), which the split's release calls
  /// (TapeSplitter).
  struct KeptTapes {
    llvm::AllocaInst *Head = nullptr;
    llvm::Function *Release = nullptr;
  };
  llvm::SmallVector<KeptTapes, 2> CalleeTapes;
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
  /// The branch that decides which of \p PB's two predecessors \p Preds
  /// it was entered from: its condition (in the primal) and
  /// the index in Preds of the one its true edge leads to; none if no
  /// single branch decides it.
  std::optional<std::pair<llvm::Value *, unsigned>>
  predecessorByBranch(llvm::BasicBlock &PB,
                      llvm::ArrayRef<llvm::BasicBlock *> Preds);

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
  void visitFreezeInst(llvm::FreezeInst &I);
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
  std::string unownedBlockReason(llvm::CallBase &CB) const;
  /// Frees posix_memalign's shadow blocks the forward sweep freed the
  /// primal blocks of (Synthesis/OutParamAllocations.cpp).
  void reverseOutParamAllocation(llvm::CallBase &CB, llvm::IRBuilderBase &B);
  /// Frees the shadow of a registered allocator's block
  /// (Synthesis/CustomAllocations.cpp).
  void reverseCustomAllocation(llvm::CallBase &CB, const CustomAllocator &CA,
                               llvm::IRBuilderBase &B);
  /// Frees the primal block of allocation \p Alloc whose free was deferred
  /// to the reverse sweep, if it was; returns that free. \p Block is the
  /// block's address where the caller has it already.
  llvm::CallInst *replayDeferredFree(llvm::CallBase &Alloc,
                                     llvm::IRBuilderBase &B,
                                     llvm::Value *Block = nullptr);
  /// Split mode: records heap block \p CB, allocated on only some paths,
  /// and its shadow in \p Scratch's slots as the forward sweep allocates
  /// them.
  void recordConditionalBlock(llvm::CallBase &CB,
                              SweepBoundary::ScratchBlock &Scratch);
  /// Split mode: links heap block \p CB, allocated inside a loop, and its
  /// shadow into \p Scratch's list as the forward sweep allocates them
  /// (Synthesis/LoopBlockLists.h).
  void linkLoopBlock(llvm::CallBase &CB, SweepBoundary::ScratchBlock &Scratch);
  /// The size in bytes of the shadow of heap block \p CB, computed at \p B
  /// in the forward sweep.
  llvm::Value *shadowBytes(llvm::CallBase &CB, llvm::IRBuilderBase &B);
  /// The bytes of the shadow of the block \p Dealloc frees that the
  /// request's end checks for lost adjoints (FreedShadows.h push).
  llvm::Value *freedShadowBytesOf(llvm::CallBase &Dealloc,
                                  llvm::IRBuilderBase &B);
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
  /// MPI routines, by communicating again (Synthesis/MPIRules.cpp).
  void augmentMPICalls();
  void augmentMPICall(llvm::CallBase &CB, const MPICall &MC);
  void reverseMPICall(llvm::CallBase &CB, const MPICall &MC,
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
  /// Ends a reverse block of \p PB by going back into the reverse of its
  /// predecessor \p Pred (ReverseLoopSkips.cpp: entering the reverse of a
  /// loop whose result a select, fmin or fmax dropped goes past it).
  void branchBack(llvm::BasicBlock *Pred, llvm::BasicBlock &PB,
                  llvm::IRBuilderBase &B);

  // Skipping the reverse of loops whose result a select, fmin or fmax
  // dropped (ReverseLoopSkips.cpp, Synthesis/ChosenLoopResults.h).
  void planLoopSkips();
  /// At the start of the reverse sweep: every loop's reverse runs.
  void startLoopSkips(llvm::IRBuilderBase &B);
  /// In the reverse block of \p PB: records whether the choices in PB kept
  /// their loop's result.
  void recordLoopChoices(llvm::BasicBlock &PB, llvm::IRBuilderBase &B);
  /// Once the reverse sweep is built: keeps the skips of loops whose
  /// reverse touches no records, undoes the others.
  void finishLoopSkips();
  void emitFinalReturn();

  // Adjoints.
  llvm::AllocaInst *adjointSlot(const llvm::Value *PV);
  /// Reads the adjoint of \p PV and resets it to zero.
  llvm::Value *takeAdjoint(llvm::Value *PV, llvm::IRBuilderBase &B);
  void addAdjoint(llvm::Value *PV, llvm::Value *Delta, llvm::IRBuilderBase &B);

  // Forward values the reverse sweep reads (Synthesis/ReverseValueCache.h).
  /// A forward value \p GV (in the derivative function) as usable in the
  /// reverse block of primal block \p PB at the builder's position.
  llvm::Value *lookup(llvm::Value *GV, llvm::BasicBlock *PB,
                      llvm::IRBuilderBase &B);
  llvm::AllocaInst *entryAlloca(llvm::Type *T, const llvm::Twine &Name);

  llvm::DominatorTree &DT;
  llvm::LoopInfo &LI;
  llvm::ScalarEvolution &SE;
  /// The return block of the prepared primal (it has exactly one).
  llvm::BasicBlock *RetBlock = nullptr;
  llvm::ReturnInst *PrimalRet = nullptr;

  llvm::DenseMap<const llvm::BasicBlock *, llvm::BasicBlock *> RevBlocks;
  /// Per block with several predecessors: a phi of the index of the one it
  /// was entered from, unless a branch decides it.
  llvm::DenseMap<const llvm::BasicBlock *, llvm::PHINode *> PredIds;
  /// Per block with two predecessors that a branch decides between
  /// (predecessorByBranch): the branch's condition (in the primal; its
  /// clone may be replaced as the forward sweep is built) and the index of
  /// the predecessor its true edge leads to.
  llvm::DenseMap<const llvm::BasicBlock *, std::pair<llvm::Value *, unsigned>>
      PredBranches;
  llvm::DenseMap<const llvm::Value *, llvm::AllocaInst *> AdjointSlots;
  /// What each integer copy load moves (null after an error).
  llvm::DenseMap<const llvm::LoadInst *, std::unique_ptr<ByteLayout>>
      CopyLoadLayouts;

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
  /// Those calls whose tape the split's release frees (the reverse runs
  /// the callee's reverse without consuming it).
  llvm::SmallPtrSet<const llvm::CallBase *, 4> KeptCalleeTapes;
  /// Per BLAS call: its arguments as read by the forward sweep, and the
  /// copies of the arrays its reverse reads (null: read in place).
  struct BlasForward {
    BlasValues Args;
    llvm::Value *Cache[(unsigned)BlasArg::NumArgs] = {};
  };
  llvm::DenseMap<const llvm::CallBase *, BlasForward> BlasForwards;
  /// Per MPI call: what its reverse needs (Synthesis/MPIRules.h).
  llvm::DenseMap<const llvm::CallBase *, MPIForward> MPIForwards;
  /// posix_memalign's shadow blocks, per lane.
  llvm::DenseMap<const llvm::CallBase *, llvm::SmallVector<llvm::Value *, 4>>
      OutParamShadows;
  /// A loop whose reverse runs only if a select (fmin, fmax) kept its
  /// result.
  struct LoopSkip {
    ChosenLoopResult Result;
    /// Set in the choice's reverse block: whether to run the loop's
    /// reverse.
    llvm::AllocaInst *Run = nullptr;
    /// Goes from where the loop's reverse would start to the reverse of its
    /// preheader.
    llvm::BasicBlock *Past = nullptr;
    /// The branches that test Run, and the stores of it.
    llvm::SmallVector<llvm::BranchInst *, 2> Tests;
    llvm::SmallVector<llvm::StoreInst *, 4> Writes;
  };
  llvm::SmallVector<LoopSkip, 1> LoopSkips;
  /// How the reverse sweep gets each forward value it reads.
  std::unique_ptr<ReverseValueCache> Cache;

  SweepBoundary Boundary;
  /// Where the visitor adds the current instruction's adjoint.
  llvm::IRBuilderBase *Builder = nullptr;
  llvm::BasicBlock *FinalBlock = nullptr;
  llvm::Value *ReturnValue = nullptr;
};

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_REVERSEMODESYNTHESIZER_H
