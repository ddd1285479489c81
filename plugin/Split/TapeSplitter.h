//===- TapeSplitter.h - Split mode from a one-shot derivative ---*- C++ -*-===//
//
// Split mode cuts a one-shot reverse-mode function at the boundary between
// its sweeps. The augmented forward is the forward sweep; the reverse is the
// reverse sweep; what flows between them goes through a tape of fixed size:
//
//   - stack slots used by both sweeps (caches, loop counters, record-array
//     states, the function's own stack arrays and their shadows) become
//     fields of the tape;
//   - SSA values the reverse sweep reads are recomputed from its arguments
//     when they are address or integer arithmetic on them, and stored in a
//     field otherwise;
//   - record arrays stay on the heap, owned by the tape and freed by its
//     release function.
//
// The tape starts with a header word that the reverse checks, so that running
// a reverse twice on a tape that is not replayable stops with a message.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SPLIT_TAPESPLITTER_H
#define TAPESTRY_SPLIT_TAPESPLITTER_H

#include "Core/DiffRequest.h"
#include "Synthesis/DerivativeSignature.h"
#include "Synthesis/ReverseModeSynthesizer.h"
#include <cstdint>
#include <string>

namespace tapestry {

/// The functions of one split-mode request.
struct SplitDerivative {
  /// (primal and shadow args..., ptr tape) -> primal result or void.
  llvm::Function *Augmented = nullptr;
  /// (primal and shadow args..., [seed], ptr tape) -> adjoints.
  llvm::Function *Reverse = nullptr;
  /// (ptr tape) -> void: frees what the tape owns (not the tape itself).
  llvm::Function *Release = nullptr;
  uint64_t TapeBytes = 0;
  /// The reverse neither changes nor frees the tape and reads nothing the
  /// caller can change through it: it may run any number of times.
  bool Replayable = false;
  /// Why it is not replayable (empty when it is).
  std::string NotReplayableReason;
  /// The tape owns heap memory (record arrays, scratch blocks) that Release
  /// frees. A tape that owns none needs no release: a caller's buffer
  /// holding it stays live, and a replayable reverse may run on it again.
  bool OwnsMemory = false;
};

/// Header words of a tape.
constexpr uint64_t TapeLive = 0x45564c4945504154ULL;     // "TAPELIVE"
constexpr uint64_t TapeConsumed = 0x4445535545504154ULL; // "TAPEUSED"
constexpr uint64_t TapeReleased = 0x4545524645504154ULL; // "TAPEFREE"

/// Cuts \p G (the one-shot derivative for split request \p R, with signature
/// \p Sig) at \p Boundary. \p G is left unchanged. Returns false after
/// reporting an error when the function cannot be split.
bool splitAtBoundary(llvm::Function &G, const DiffRequest &R,
                     const DerivativeSignature &Sig,
                     const SweepBoundary &Boundary, SplitDerivative &Out);

} // namespace tapestry

#endif // TAPESTRY_SPLIT_TAPESPLITTER_H
