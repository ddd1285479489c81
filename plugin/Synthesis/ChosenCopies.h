//===- ChosenCopies.h - Integer copies chosen among loads -------*- C++ -*-===//
//
// Bytes copied as an integer can be chosen on the way: a double memcpy'd
// into a uint64_t on two paths and copied out after they merge stores a phi
// of two integer loads; a select between two loaded integers, stored. Such
// a choice is not a copy the derivative follows (the bytes' adjoints would
// stay behind; SupportedInstructions refuses it where the bytes may hold
// floating-point data). Where the memory each load read is still the same
// at the store (MemorySSA: no write on any path between), the choice is
// made among the addresses instead, and the store's value loaded there: an
// ordinary integer copy (ReverseByteCopies).
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_CHOSENCOPIES_H
#define TAPESTRY_SYNTHESIS_CHOSENCOPIES_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class Function;
} // namespace llvm

namespace tapestry {

/// Rewrites each store of an integer chosen among loads (phis and selects
/// over loads only) whose memory is unchanged at the store
/// as a store of a load of the same choice among the loads' addresses.
/// Returns true if it changed anything.
bool loadChosenCopiesWhereStored(llvm::Function &F,
                                 llvm::FunctionAnalysisManager &FAM);

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_CHOSENCOPIES_H
