//===- ThreadLocalAddresses.h - thread_local globals by name ----*- C++ -*-===//
//
// Clang reads the address of a thread_local variable through
// llvm.threadlocal.address(@g), which analyses see as an opaque call: a
// thread_local workspace written with active values had no shadow, and
// the call was "an external function with no derivative". In a function
// that is not a coroutine (no thread change between two uses) the call is
// the same as @g itself, so the functions Tapestry differentiates use @g
// directly; @g's shadow is then a thread_local global like it.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_PASSES_THREADLOCALADDRESSES_H
#define TAPESTRY_PASSES_THREADLOCALADDRESSES_H

namespace llvm {
class Function;
} // namespace llvm

namespace tapestry {

/// Replaces each llvm.threadlocal.address(@g) in \p F by @g, unless F is a
/// coroutine. Returns true if it changed F.
bool useThreadLocalGlobalsDirectly(llvm::Function &F);

} // namespace tapestry

#endif // TAPESTRY_PASSES_THREADLOCALADDRESSES_H
