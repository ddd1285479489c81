//===- Thunks.h - Split mode's constant descriptors -------------*- C++ -*-===//
//
// __tapestry_thunk(f, markers...) stands for a constant descriptor of the
// split request (struct tapestry_thunk in include/tapestry/thunk.h): its
// augmented forward, a reverse that writes its adjoints to memory (C
// callers cannot rely on how a struct of adjoints is returned), its
// release, its tape size and whether the reverse may run again on one
// tape. The C++ thunks of tapestry/split.hpp are built on it.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SPLIT_THUNKS_H
#define TAPESTRY_SPLIT_THUNKS_H

#include "Core/DiffRequest.h"
#include "Split/TapeSplitter.h"

namespace llvm {
class Constant;
class Module;
} // namespace llvm

namespace tapestry {

/// The descriptor of split request \p R, whose split is \p S: one private
/// constant per request in \p M.
llvm::Constant *thunkDescriptor(llvm::Module &M, const DiffRequest &R,
                                const SplitDerivative &S);

} // namespace tapestry

#endif // TAPESTRY_SPLIT_THUNKS_H
