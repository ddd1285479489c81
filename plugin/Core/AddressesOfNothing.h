//===- AddressesOfNothing.h - Constant addresses with no object -*- C++ -*-===//
//
// Optimised IR folds an address computed from a null pointer into a
// constant: `&p[26]` on a path where p is null becomes
// `inttoptr (i64 208 to ptr)`, stored to or merged into a phi of real
// pointers. No object lies behind such an address, so a defined execution
// never reads or writes through it: it needs no shadow of its own (it is its
// own, as null is) and a store to it loses no derivative.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_CORE_ADDRESSESOFNOTHING_H
#define TAPESTRY_CORE_ADDRESSESOFNOTHING_H

namespace llvm {
class Value;
} // namespace llvm

namespace tapestry {

/// True when \p Ptr is null, an integer constant cast to a pointer, or
/// either with constant or variable offsets (its underlying object is one
/// of them).
bool isAddressOfNothing(const llvm::Value *Ptr);

/// True when every object \p Ptr may point into (through phis and selects)
/// is an address of nothing.
bool pointsOnlyToNothing(const llvm::Value *Ptr);

} // namespace tapestry

#endif // TAPESTRY_CORE_ADDRESSESOFNOTHING_H
