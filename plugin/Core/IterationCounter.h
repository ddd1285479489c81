//===- IterationCounter.h - Enzyme's __enzyme_iter(N, K) --------*- C++ -*-===//
//
// __enzyme_iter(N, K) counts derivative orders: the primal sees N, and code
// differentiated d times sees N + d*K. A Taylor series truncated after
// __enzyme_iter(12, 1) terms thus keeps the same order of accuracy after
// each (nested) differentiation. Every prepared clone of a function that is
// differentiated advances the counters it contains by K once
// (preparePrimal); when all requests are resolved, each remaining call is
// its first argument.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_CORE_ITERATIONCOUNTER_H
#define TAPESTRY_CORE_ITERATIONCOUNTER_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace llvm {
class CallBase;
class Function;
class Module;
} // namespace llvm

namespace tapestry {

/// True for the name of Enzyme's derivative-order counter.
bool isIterationCounterName(llvm::StringRef Name);

/// True if \p CB calls the counter.
bool isIterationCounterCall(const llvm::CallBase &CB);

/// Why a counter call is malformed (the message for the error at the call),
/// or "" if it takes and returns integers of one type.
std::string iterationCounterProblem(const llvm::CallBase &CB);

/// Adds K to N in each well-formed counter call in \p F: one more order of
/// differentiation.
void advanceIterationCounters(llvm::Function &F);

/// Gives the counter's declaration in \p M the attributes of a pure
/// function (Enzyme's too), so that analyses see an integer computation.
void declareIterationCountersPure(llvm::Module &M);

/// Replaces each well-formed counter call in \p M by its first argument.
void lowerIterationCounters(llvm::Module &M);

} // namespace tapestry

#endif // TAPESTRY_CORE_ITERATIONCOUNTER_H
