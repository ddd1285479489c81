//===- ParamAccess.h - Pointer attributes of derivative halves --*- C++ -*-===//
//
// The halves of a callee's split derivative (its augmented forward, its
// reverse, and the wrappers that call them) are called from its callers'
// derivatives with the addresses of the callers' locals. Whether a caller's
// tape can be replayed depends on what those calls do with the addresses
// (a reverse that writes a local the tape keeps, or a call that keeps the
// address, consumes the tape), so the parameters of these functions get the
// attributes their bodies prove: readonly where nothing writes through
// them, nocapture where no copy of them outlives the call.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_ANALYSIS_PARAMACCESS_H
#define TAPESTRY_ANALYSIS_PARAMACCESS_H

namespace llvm {
class Function;
} // namespace llvm

namespace tapestry {

/// Adds readonly and nocapture to the pointer parameters of \p F (a
/// function with a body) that its body proves so, from the attributes of
/// the functions it calls: infer callees first.
void inferParamAccess(llvm::Function &F);

} // namespace tapestry

#endif // TAPESTRY_ANALYSIS_PARAMACCESS_H
