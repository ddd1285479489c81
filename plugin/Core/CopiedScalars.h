//===- CopiedScalars.h - What a memcpy moves, per the source ----*- C++ -*-===//
//
// A memcpy or memmove that the front end could describe (Frontend/CopyTypes.h,
// attached by Passes/SourceCopyTypes.h) carries !tapestry.copy.types:
//
//   !{i64 Stride, i64 Offset0, <poison of T0>, i64 Offset1, <poison of T1>,
//     ...}
//
// the scalar type at each byte offset of the copied object, repeating
// every Stride bytes along the copy (0: the copy moves one object). The type
// analysis reads it as it reads !tbaa.struct.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_CORE_COPIEDSCALARS_H
#define TAPESTRY_CORE_COPIEDSCALARS_H

#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <optional>
#include <utility>

namespace llvm {
class Instruction;
class Module;
class Type;
} // namespace llvm

namespace tapestry {

struct CopiedScalars {
  uint64_t Stride = 0;
  llvm::SmallVector<std::pair<uint64_t, llvm::Type *>, 8> Scalars;
};

/// What \p I (a memory transfer) is known to copy, if the source said.
std::optional<CopiedScalars> copiedScalars(const llvm::Instruction &I);

/// Records \p C on \p I.
void setCopiedScalars(llvm::Instruction &I, const CopiedScalars &C);

/// Marks \p M as described by the front end: a copy without
/// !tapestry.copy.types then is no struct copy the front end could see.
void setCopiesDescribed(llvm::Module &M);
bool copiesDescribed(const llvm::Module &M);

} // namespace tapestry

#endif // TAPESTRY_CORE_COPIEDSCALARS_H
