//===- AddressIntegers.h - Where an address turned integer goes -*- C++ -*-===//
//
// An address cast to an integer (ptrtoint) carries no derivative itself, but
// where it goes matters to what a pointer's shadow must be: an integer
// stored, passed on or cast back to a pointer is the pointer again, and needs
// its shadow beside it; one only compared or subtracted from another address
// (a std::vector's size, end - begin) does not. The tape analysis asks this
// to know which blocks a derivative may release early, the batch forward
// mode to know which blocks may have their shadow lanes packed.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_CORE_ADDRESSINTEGERS_H
#define TAPESTRY_CORE_ADDRESSINTEGERS_H

namespace llvm {
class Value;
} // namespace llvm

namespace tapestry {

/// True if the address \p Int (a ptrtoint) may leave as an integer: stored,
/// returned, passed to a call or turned back into a pointer, through
/// arithmetic. Comparisons, alignment tests and differences of two
/// addresses (a std::vector's size in bytes, end - begin) do not count.
bool addressEscapesAsInteger(const llvm::Value *Int);

} // namespace tapestry

#endif // TAPESTRY_CORE_ADDRESSINTEGERS_H
