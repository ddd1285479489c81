//===- TapeAnalysis.h - Tape, recompute or reload primal values -*- C++ -*-===//
//
// The reverse sweep needs some primal values. Cheap integer and address
// arithmetic is recomputed from its operands; a load whose memory nothing in
// the function may write is reloaded; loop counters are rebuilt from a
// reverse iteration counter; only what remains is cached on the tape.
// This analysis answers the memory question with LLVM's alias analysis.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_ANALYSIS_TAPEANALYSIS_H
#define TAPESTRY_ANALYSIS_TAPEANALYSIS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace llvm {
class AAResults;
class MemoryLocation;
class Value;
class CallBase;
class DominatorTree;
class LoopInfo;
class Function;
class Instruction;
class LoadInst;
class Use;
} // namespace llvm

namespace tapestry {

struct TapePlan {
  /// Loads that may be repeated in the reverse sweep with the same result:
  /// no instruction of the function may write the memory they read.
  llvm::SmallPtrSet<const llvm::LoadInst *, 16> Reloadable;
  /// Calls to functions with bodies (recursion) that the reverse sweep may
  /// run again to differentiate them: the callee writes no memory, and no
  /// write that can follow the call may alias memory it can read.
  llvm::SmallPtrSet<const llvm::CallBase *, 4> Repeatable;
  /// Array arguments of BLAS calls that the reverse sweep may read in place:
  /// no write that can follow the call (the call's own next run included)
  /// may alias them.
  llvm::SmallPtrSet<const llvm::Use *, 8> UnclobberedBlasOperands;
  /// Why a simple load is not reloadable, for -Rpass-missed=tapestry: a
  /// write that may overwrite its memory after it, or null when split mode
  /// made it caller memory (restrictToLocalMemory).
  llvm::DenseMap<const llvm::LoadInst *, const llvm::Instruction *> Clobbers;
  /// The function had too many loads and writes to ask alias analysis
  /// about each pair: nothing is reloaded.
  bool TooManyQueries = false;
};

/// The allocation call in the function whose block \p Free frees: the
/// freed pointer's underlying object, or the one allocation a phi chooses
/// beside null coming only from blocks that dominate the allocation or
/// that it cannot reach, so that no path through the allocation passes
/// null there (`p = NULL; if (c) p = malloc(n); ...; free(p)`, std::vector at
/// -O2: `p = n ? operator new(n * 8) : nullptr; ...; if (p) delete p`),
/// with the allocation, the free and the phis in the same loop and no phi
/// in a loop header (a std::vector declared in a loop's body). Null when
/// there is no such call.
llvm::CallBase *freedAllocation(const llvm::CallBase &Free,
                                const llvm::DominatorTree &DT,
                                const llvm::LoopInfo &Loops);

/// True for free(p) (or delete) of memory allocated by the function itself,
/// in the allocation's loop if it has one: reverse mode releases such memory
/// only when its reverse sweep is done with it (at the allocation's reverse,
/// once per block allocated), so the forward sweep does not free it. A block
/// allocated in a loop and freed after it (the last of a chain of realloc'd
/// buffers) is freed by the forward sweep: the earlier blocks of the same
/// allocation were freed elsewhere. So is a block that another free may
/// release through a phi or select (it would be freed twice), and one with
/// a free outside its loop (`free(b); break;`), which would free the last
/// block in the forward sweep.
bool isDeferredFree(const llvm::CallBase &CB, const llvm::DominatorTree &DT,
                    const llvm::LoopInfo &Loops);

/// True if \p F or a function it calls may write memory other than its own
/// stack (math functions' errno and inactive calls excepted).
bool writesMemory(llvm::Function &F);

/// True if the write \p W may change the memory at \p Loc, \p Ptr's
/// (\p Loc's pointer, any size): alias analysis's answer, refined for
/// stores and memory intrinsics by their objects (an offset from a phi of
/// an allocation and null is MayAlias to alias analysis against a noalias
/// argument, although neither can be that argument's memory).
bool mayOverwrite(llvm::Instruction &W, const llvm::MemoryLocation &Loc,
                  const llvm::Value *Ptr, llvm::AAResults &AA);

/// A load is reloadable when no write that may alias it can execute after
/// it (deferred frees do not count, nor the writes in \p Dropped: those the
/// derivative leaves out, such as stores into enzyme_dupnoneed memory).
TapePlan planTape(llvm::Function &F, llvm::AAResults &AA,
                  const llvm::DominatorTree &DT, const llvm::LoopInfo &LI,
                  llvm::ArrayRef<llvm::Instruction *> Dropped = {});

/// Split mode: the caller may overwrite its memory between the two halves,
/// so only loads of memory the function itself allocated (or constant
/// globals) stay reloadable, and likewise BLAS operands.
void restrictToLocalMemory(TapePlan &Plan);

} // namespace tapestry

#endif // TAPESTRY_ANALYSIS_TAPEANALYSIS_H
