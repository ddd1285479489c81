//===- RequestFunctionChoice.h - Requests of several functions --*- C++ -*-===//
//
// Optimised IR merges requests that differ only in the function they name
// (`if (c) __enzyme_autodiff(f, ...); else __enzyme_autodiff(g, ...);`
// becomes one call whose function is a phi of f and g, once simplifycfg
// has sunk the common call), so that IR given to `opt -passes=tapestry`
// had a request "whose function is known only at run time"; a switch
// whose cases make such requests becomes a call through a constant table
// of the functions (@switch.table.*). Such a call
// is split again: one request per function, chosen by comparing the
// pointer, as the program would have.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_PASSES_REQUESTFUNCTIONCHOICE_H
#define TAPESTRY_PASSES_REQUESTFUNCTIONCHOICE_H

#include "llvm/ADT/SmallVector.h"

namespace llvm {
class CallBase;
} // namespace llvm

namespace tapestry {

/// The requests \p CB stands for: CB itself if its function argument names
/// one function (or is unknown), else one call per function a phi or
/// select of functions may give, each in its own branch of a comparison
/// of the pointer (CB is erased).
llvm::SmallVector<llvm::CallBase *, 2>
splitRequestByFunction(llvm::CallBase &CB);

} // namespace tapestry

#endif // TAPESTRY_PASSES_REQUESTFUNCTIONCHOICE_H
