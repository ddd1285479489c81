//===- StackSlots.h - Pointers seen through -O0 stack slots -----*- C++ -*-===//
//
// Unoptimised code keeps every argument and local in a stack slot
// (`x.addr`) and reloads it at each use. A pointer loaded from such a slot
// stands for the pointers stored into it: these helpers see through the
// slots to the objects a pointer may point into.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_ANALYSIS_STACKSLOTS_H
#define TAPESTRY_ANALYSIS_STACKSLOTS_H

#include "llvm/ADT/SmallVector.h"

namespace llvm {
class Value;
} // namespace llvm

namespace tapestry {

/// Appends to \p Out the underlying objects \p V may point into (through
/// phis and selects), where a pointer loaded from a stack slot is replaced
/// by the objects of the pointers stored into that slot, up to three slots
/// deep.
void stackSlotRoots(const llvm::Value *V,
                    llvm::SmallVectorImpl<const llvm::Value *> &Out);

} // namespace tapestry

#endif // TAPESTRY_ANALYSIS_STACKSLOTS_H
