//===- PackedShadows.h - Batch forward mode: lanes side by side -*- C++ -*-===//
//
// In batch mode (enzyme_width W) a pointer has one shadow per lane, and
// every access to shadow memory is W scalar accesses: reading one double's
// W tangents takes W loads and W inserts into the tangent vector, which made
// a width-26 forward sweep slower than 26 scalar sweeps. Memory the
// function allocates itself need not be laid out that way: its shadow can
// hold the W tangents of each element side by side, so that one vector
// access reads or writes them all.
//
// Packed layout: an allocation of N bytes whose every access is a scalar of
// S bytes at an offset o that is a multiple of S gets one shadow block of
// W * N bytes, lane k of the element at o being at W * o + S * k. A byte
// range [o, o + n) maps to [W * o, W * (o + n)): copies and memsets of the
// block scale their lengths by W. The shadow of a pointer into the block is
// then one pointer, at W times its offset. A heap block's shadow, W times
// larger, is often past glibc's mmap threshold where the primal's is not;
// it comes from the thread's tape cache (tapestry.shadow.take and .give,
// Synthesis/TapeCache.h), so that a derivative called again and again does
// not map, fault in and unmap it every call.
//
// planPackedShadows decides which allocations get packed shadows: those
// whose pointers (through address arithmetic, phis and selects, which may
// also merge them with null) are only loaded from and stored to as scalars
// of one size at multiples of it, copied to and from blocks packed the same
// way or, whole elements at a time, the caller's memory (whose lanes are
// then moved element by element: tapestry.lanes.copy), set, freed and
// compared, and never stored into memory, passed to another call, returned
// or turned into integers other than sizes. Anything else keeps the
// per-lane shadows.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_PACKEDSHADOWS_H
#define TAPESTRY_SYNTHESIS_PACKEDSHADOWS_H

#include "llvm/ADT/DenseMap.h"

namespace llvm {
class Function;
class Value;
} // namespace llvm

namespace tapestry {

class ActivityInfo;
struct RuntimeActivity;

/// The pointers of a function with packed shadows: each allocation whose
/// shadow is packed, and every pointer computed from one, mapped to the
/// element size S of its block.
struct PackedShadowPlan {
  llvm::DenseMap<const llvm::Value *, unsigned> ElementSize;

  bool isPacked(const llvm::Value *V) const { return ElementSize.count(V); }
  unsigned elementSize(const llvm::Value *V) const {
    return ElementSize.lookup(V);
  }
};

/// The plan for prepared primal \p P differentiated in forward mode at
/// width \p W (empty at width 1).
PackedShadowPlan planPackedShadows(llvm::Function &P, const ActivityInfo &AI,
                                   const RuntimeActivity &RA, unsigned W);

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_PACKEDSHADOWS_H
