//===- ToDense.h - Enzyme's __enzyme_todense, lowered to calls --*- C++ -*-===//
//
//   double *p = __enzyme_todense(load_fn, store_fn, extra...);
// is a pointer to memory that does not exist: reading p's bytes at offset
// idx is load_fn(idx, extra...), writing v there is store_fn(v, idx,
// extra...). Passed as a shadow to a derivative (a column of a Jacobian,
// a Hessian assembled as triplets), it turns the derivative's reads and
// writes of that shadow into the user's functions (Enzyme's sparse
// Jacobians).
//
// After every request of the module is resolved, each todense pointer
// becomes a small local record of its extra arguments, and every load and
// store whose address is that pointer plus GEP offsets, in the function and
// in the functions it is passed to (cloned for it), becomes the call. Any
// other use of the pointer is an error at the use. (Enzyme can also rewrite
// the loops around such stores to skip the zeros, -enzyme-auto-sparsity;
// Tapestry does not: the calls happen for every access.)
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_PASSES_TODENSE_H
#define TAPESTRY_PASSES_TODENSE_H

namespace llvm {
class Module;
} // namespace llvm

namespace tapestry {

/// Lowers every __enzyme_todense call of \p M; false if any use was
/// reported as an error.
bool lowerToDense(llvm::Module &M);

} // namespace tapestry

#endif // TAPESTRY_PASSES_TODENSE_H
