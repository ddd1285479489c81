//===- BatchRequest.h - __enzyme_batch: the primal over lanes ---*- C++ -*-===//
//
// Enzyme's __enzyme_batch(f, enzyme_width, N, args...) runs the primal f on
// N lanes and returns its N results (as an array or a struct of N members,
// whatever the caller declares). Each argument is per lane (enzyme_vector,
// the default: N values follow) or shared by all lanes (enzyme_scalar: one
// value). Tapestry runs the lanes one after another, lane 0 first; the
// optimiser may then vectorise the N calls.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_PASSES_BATCHREQUEST_H
#define TAPESTRY_PASSES_BATCHREQUEST_H

namespace llvm {
class CallBase;
} // namespace llvm

namespace tapestry {

/// Replaces the __enzyme_batch call \p CB by the calls of its lanes; reports
/// an error at the call (and leaves it) if it is malformed.
bool lowerBatchRequest(llvm::CallBase &CB);

} // namespace tapestry

#endif // TAPESTRY_PASSES_BATCHREQUEST_H
