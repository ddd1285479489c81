//===- SourceCopyTypes.h - The front end's types on memcpys -----*- C++ -*-===//
//
// The front end describes each aggregate copy of a unit in the global
// __tapestry_copy_types (Frontend/CopyTypes.h). Before anything is
// differentiated, each memcpy or memmove the code generator made of such a
// copy is found by its source location (tracked without -g by the front
// end) and its enclosing function, and is given the copied object's scalar
// types (Core/CopiedScalars.h); the global is then removed.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_PASSES_SOURCECOPYTYPES_H
#define TAPESTRY_PASSES_SOURCECOPYTYPES_H

namespace llvm {
class Module;
} // namespace llvm

namespace tapestry {

/// Annotates \p M's memory transfers from its __tapestry_copy_types
/// globals, and removes them. Returns true if it changed \p M.
bool annotateSourceCopyTypes(llvm::Module &M);

} // namespace tapestry

#endif // TAPESTRY_PASSES_SOURCECOPYTYPES_H
