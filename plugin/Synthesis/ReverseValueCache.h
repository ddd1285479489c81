//===- ReverseValueCache.h - What the reverse sweep reads -------*- C++ -*-===//
//
// The reverse sweep of a one-shot derivative reads values the forward sweep
// computed. For each such value, the cache decides how the reverse block
// that needs it gets it, and emits that:
//
//  - used directly, where its definition dominates the whole reverse sweep
//    (outside loops);
//  - rebuilt from the reverse iteration counter, for an affine recurrence
//    of a loop (ScalarEvolution), and the loop's counter itself;
//  - recomputed, for a cheap instruction (address arithmetic, integer
//    operations, casts; floating-point add, subtract, multiply and negate
//    when their operands cost no tape), or reloaded, for a load of memory
//    the tape analysis found unmodified (TapePlan::Reloadable);
//  - cached: stored once into a slot when outside every loop it shares with
//    its use, otherwise into the current iteration's record of a per-loop
//    array (the tape), indexed by the loop's iteration count over the call.
//
// The synthesizer asks lookup() for a value at a point of a reverse block;
// materialize() lays out the per-loop records once the reverse sweep is
// built, and remarks (-Rpass=tapestry) what the tape holds.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_REVERSEVALUECACHE_H
#define TAPESTRY_SYNTHESIS_REVERSEVALUECACHE_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

namespace llvm {
class DominatorTree;
class Loop;
class LoopInfo;
class OptimizationRemarkEmitter;
class SCEV;
class SCEVAddRecExpr;
class ScalarEvolution;
} // namespace llvm

namespace tapestry {

/// Metadata on the forward sweep's stores into loop records: memory only
/// the derivative's reverse sweep reads, which no other access of the
/// forward sweep touches (Passes/ReverseSweepVectorizing.h moves them).
inline constexpr const char *RecordStoreMD = "tapestry.record";

struct TapePlan;

/// What the cache works from: the primal, its clone in the derivative
/// function, and analyses of the primal.
struct ReverseCacheInput {
  /// The user's function (for remarks).
  const llvm::Function &UserFn;
  llvm::Function &Primal;
  llvm::Function &Derivative;
  /// Primal values to their clones in the derivative function.
  const llvm::ValueToValueMapTy &VMap;
  /// The primal's return block (it has exactly one).
  llvm::BasicBlock *RetBlock;
  const TapePlan &Tape;
  const llvm::DenseMap<const llvm::BasicBlock *, llvm::PHINode *> &LoopIVs;
  llvm::DominatorTree &DT;
  llvm::LoopInfo &LI;
  llvm::ScalarEvolution &SE;
  /// The batch width.
  unsigned W;
  /// Primal values to their shadows (complete once the forward sweep is
  /// built): a pointer phi's shadow walks its shadow memory in step.
  const llvm::DenseMap<const llvm::Value *, llvm::Value *> &Shadows;
};

class ReverseValueCache {
public:
  explicit ReverseValueCache(const ReverseCacheInput &In);

  /// A forward value \p GV (in the derivative function) as usable in the
  /// reverse block of primal block \p PB at the builder's position.
  llvm::Value *lookup(llvm::Value *GV, llvm::BasicBlock *PB,
                      llvm::IRBuilderBase &B);
  /// The primal block a derivative-function block clones (null for the
  /// blocks the synthesizer added).
  llvm::BasicBlock *primalBlock(const llvm::BasicBlock *GB) const {
    return PrimalBlocks.lookup(GB);
  }
  /// The primal instruction a derivative-function instruction clones.
  llvm::Instruction *primalOf(const llvm::Value *GV) const {
    return PrimalOf.lookup(GV);
  }
  /// Forgets a clone the synthesizer erased.
  void forget(const llvm::Instruction *GI) {
    PrimalOf.erase(GI);
    FreeAnswers.clear();
  }

  /// The reverse iteration counter of loop \p L.
  llvm::AllocaInst *reverseCounter(const llvm::Loop *L);
  /// Going back from \p Succ's reverse into \p Pred's crosses a loop exit
  /// for every loop that contains Pred but not Succ: start their counters
  /// at the iteration the loop left in.
  void enterLoopsBackwards(llvm::BasicBlock *Pred, llvm::BasicBlock *Succ,
                           llvm::IRBuilderBase &B);
  /// \p Exit is a block through which the reverse block of loop header
  /// \p Header leaves (where the iteration count steps back).
  void addHeaderExit(const llvm::BasicBlock *Header, llvm::BasicBlock *Exit) {
    RevHeaderExits[Header].push_back(Exit);
  }
  /// True if the reverse of loop \p L or of a loop inside it reads records
  /// or steps an iteration count back: skipping it would leave the counts
  /// of the iterations before it wrong.
  bool keepsIterations(const llvm::Loop *L) const;
  /// Lays out the per-loop records and fills in the reverse sweep's reads
  /// of them; the records go back to the thread's cache before \p Final's
  /// terminator. Returns the records' states and the calls that release
  /// them.
  void materialize(llvm::BasicBlock *Final,
                   llvm::SmallVectorImpl<llvm::AllocaInst *> &States,
                   llvm::SmallVectorImpl<llvm::CallInst *> &Releases);

  /// An alloca at the derivative function's entry.
  llvm::AllocaInst *entryAlloca(llvm::Type *T, const llvm::Twine &Name);

private:
  llvm::Value *clone(llvm::Value *PV) const;
  /// The primal block a derivative-function value is computed in (null for
  /// arguments, constants and what the synthesizer added between blocks).
  llvm::BasicBlock *primalBlockOf(llvm::Value *GV) const;
  /// Recomputes a cheap instruction or reloads unmodified memory in the
  /// reverse block instead of caching; null if \p GV is neither.
  llvm::Value *recompute(llvm::Value *GV, llvm::BasicBlock *PB,
                         llvm::IRBuilderBase &B);
  /// fadd, fsub, fmul, fdiv, fneg, fcmp or select of the primal, or a call
  /// of sqrt, fma, fmuladd, fabs, copysign, fmax or fmin: recomputed rather
  /// than taped when its operands cost no tape.
  bool isCheapFloatOp(const llvm::Instruction *I);
  /// A division or a square root: recomputed only where that spares a
  /// record per loop iteration (isRecorded), and never from other fields of
  /// the records.
  static bool isCostlyFloatOp(const llvm::Instruction *I);
  /// isCheapFloatOp but for costly ones: what is recomputed from other
  /// fields of a loop's records (recomputeFromRecords).
  bool isCheapFromRecords(const llvm::Instruction *I);
  /// Whether caching \p I for the reverse block of \p PB would record it in
  /// every iteration of a loop (rather than once).
  bool isRecorded(llvm::Instruction *I, llvm::BasicBlock *PB);
  /// True if \p GV can be had in the reverse block of \p PB without adding
  /// to the tape: an argument or constant, a value dominating the reverse
  /// sweep, the loop's counter, or cheap arithmetic and reloads of such
  /// values.
  bool isFree(llvm::Value *GV, llvm::BasicBlock *PB, unsigned Depth);
  bool isFreeUncached(llvm::Value *GV, llvm::BasicBlock *PB, unsigned Depth);
  /// isFree's answers so far for a value in a reverse block: free when
  /// asked at a depth of at most YesDepth, not free at NoDepth or deeper.
  struct FreeAnswer {
    int YesDepth = -1;
    unsigned NoDepth = ~0u;
  };
  llvm::DenseMap<std::pair<const llvm::Value *, const llvm::BasicBlock *>,
                 FreeAnswer>
      FreeAnswers;
  /// What recurrence \p AR of a loop that does not contain \p PB is worth
  /// there: its value when the loop exited (a loop's final count, where a
  /// later loop counts it down again, as an inner reverse sweep does), if
  /// ScalarEvolution knows it; null otherwise.
  const llvm::SCEV *exitValue(const llvm::SCEVAddRecExpr *AR,
                              llvm::BasicBlock *PB);
  /// isFree for the value of an integer SCEV (as expandSCEV builds it).
  bool isFreeSCEV(const llvm::SCEV *S, llvm::BasicBlock *PB, unsigned Depth);
  /// An affine recurrence of a loop (start + k * step at iteration k),
  /// rebuilt from the reverse counter; null if \p GV is not one.
  llvm::Value *rebuildRecurrence(llvm::Value *GV, llvm::BasicBlock *PB,
                                 llvm::IRBuilderBase &B);
  /// A loop index widened to 64 bits (sext or zext of an int counter, as
  /// every a[i] with an int i has), whose widened value ScalarEvolution
  /// still knows as an affine recurrence: rebuilt at 64 bits from the
  /// reverse counter, so that the reverse sweep's addresses stay affine
  /// (rebuilding the int and widening it is a shift pair the vectoriser
  /// and loop-load elimination cannot see through); null otherwise.
  llvm::Value *rebuildWidenedRecurrence(llvm::Value *GV, llvm::BasicBlock *PB,
                                        llvm::IRBuilderBase &B);
  /// The shadow of a pointer that walks memory in a loop (for (p = x; p !=
  /// e; ++p), a range-for over a vector), rebuilt as its shadow on entry to
  /// the loop plus the primal's offset at this iteration; null if \p GV is
  /// not such a shadow phi.
  llvm::Value *rebuildShadowRecurrence(llvm::Value *GV, llvm::BasicBlock *PB,
                                       llvm::IRBuilderBase &B);
  /// The primal phi whose shadow is \p SP, if any.
  const llvm::PHINode *primalPhiOfShadow(const llvm::PHINode *SP);
  /// The offset of the recurrence \p AR at the current iteration from its
  /// start ({0,+,step...}), as an integer; null if it cannot be built.
  llvm::Value *expandOffset(const llvm::SCEVAddRecExpr *AR,
                            llvm::BasicBlock *PB, llvm::IRBuilderBase &B);
  /// Builds the value of an integer or pointer SCEV in the reverse block of
  /// \p PB from reverse counters and looked-up values; null if it cannot.
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
  /// True if iterationsFromEntry's count for \p L is never less than the
  /// iterations L runs and no more than a partial last iteration of an
  /// enclosing loop above them: each loop of the nest runs in every
  /// iteration of the one around it that reaches its latch, and the
  /// outermost runs in every call.
  bool recordCountIsExact(const llvm::Loop *L) const;
  /// Makes room, in \p L's preheader, for the records of all of L's
  /// iterations (\p Bytes each, in the array of \p State whose last index
  /// is in \p Counter) when L's trip count is known there from the
  /// function's arguments; false (nothing emitted) otherwise.
  bool reserveAtLoopEntry(const llvm::Loop *L, llvm::Value *State,
                          llvm::AllocaInst *Counter, uint64_t Bytes);
  /// -Rpass-missed=tapestry: why the cached value \p GV could be neither
  /// recomputed nor reloaded, one remark per value (\p L: the loop whose
  /// records hold it, null for a value cached once).
  void remarkCached(llvm::Value *GV, const llvm::Loop *L, uint64_t Bytes,
                    llvm::OptimizationRemarkEmitter &ORE);
  /// Why the reverse sweep cannot have \p GV (the clone of primal \p PI)
  /// without the tape.
  std::string whyCached(llvm::Instruction *GV, const llvm::Instruction *PI);
  /// -Rpass=tapestry: what the reverse sweep recomputes and reloads.
  void remarkRecomputed(llvm::OptimizationRemarkEmitter &ORE);

  const llvm::Function &UserFn;
  llvm::Function &G;
  const llvm::ValueToValueMapTy &VMap;
  llvm::BasicBlock *RetBlock;
  const TapePlan &Tape;
  const llvm::DenseMap<const llvm::BasicBlock *, llvm::PHINode *> &LoopIVs;
  llvm::DominatorTree &DT;
  llvm::LoopInfo &LI;
  llvm::ScalarEvolution &SE;
  const unsigned W;
  const llvm::DenseMap<const llvm::Value *, llvm::Value *> &Shadows;
  /// Shadow phis back to their primal phis (built on first use).
  llvm::DenseMap<const llvm::PHINode *, const llvm::PHINode *> ShadowPhis;
  bool ShadowPhisBuilt = false;
  /// Where allocas go: the derivative function's entry block.
  llvm::BasicBlock *AllocaBlock;

  /// Map from derivative-function blocks back to primal blocks.
  llvm::DenseMap<const llvm::BasicBlock *, llvm::BasicBlock *> PrimalBlocks;
  /// Derivative-function instructions back to the primal ones they clone.
  llvm::DenseMap<const llvm::Value *, llvm::Instruction *> PrimalOf;
  /// Values cached once (outside any loop shared with their user).
  llvm::DenseMap<const llvm::Value *, llvm::AllocaInst *> OnceSlots;
  /// The values of OnceSlots in the order they were cached.
  llvm::SmallVector<llvm::Value *, 8> OnceOrder;
  /// Primal values the reverse sweep recomputes (or rebuilds from a loop
  /// counter) and reloads instead of caching, for -Rpass=tapestry.
  llvm::SetVector<const llvm::Instruction *> RecomputedPrimal, ReloadedPrimal;
  /// Values needed by the reverse of a loop iteration are stored, when they
  /// are computed, in that iteration's record of an array per loop, indexed
  /// by the loop's iteration count over the whole call; the reverse sweep
  /// counts the index back down. Each value is stored once per iteration of
  /// the innermost loop that contains both its definition and its use.
  struct LoopCache {
    llvm::MapVector<llvm::Value *, unsigned> Fields;
    /// Reverse-sweep loads whose address is filled in by materialize().
    llvm::SmallVector<std::pair<llvm::LoadInst *, unsigned>, 8> Reads;
  };
  llvm::MapVector<const llvm::Loop *, LoopCache> LoopCaches;
  /// Drops from the records of loop \p L the values computed by cheap
  /// floating-point arithmetic (isCheapFromRecords) in L's body from other
  /// values of the same records, constants and values the reverse sweep
  /// has anyway: each read of such a value recomputes it from the records
  /// instead (-(0.01 * here) from here: two operations beat 8 bytes
  /// written and read per iteration).
  void recomputeFromRecords(const llvm::Loop *L, LoopCache &LC);
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
  llvm::DenseMap<const llvm::Loop *, llvm::AllocaInst *> ReverseCounters;
  /// Values recomputed in a reverse block, to reuse within that block.
  llvm::DenseMap<std::pair<const llvm::Value *, const llvm::BasicBlock *>,
                 llvm::Value *>
      Recomputed;
};

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_REVERSEVALUECACHE_H
