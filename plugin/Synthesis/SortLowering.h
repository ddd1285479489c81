//===- SortLowering.h - qsort as a permutation AD can follow ----*- C++ -*-===//
//
// qsort(base, n, size, cmp) in a function being differentiated becomes
//   perm = tapestry.qsort.perm(base, n, size, cmp)  ; inactive: where each
//                                                   ; sorted element comes from
//   tmp = malloc(n * size); memcpy(tmp, base, n * size)
//   for i < n: memcpy(base + i * size, tmp + perm[i] * size, size)
//   free(tmp); free(perm)
// so the elements move by copies AD already differentiates: forward mode
// permutes the tangents the same way, reverse mode sends each adjoint back
// to where its element came from. The comparator only compares: it runs in
// tapestry.qsort.perm, which is never differentiated. Ties may come out in
// another order than the library's own qsort would give them (qsort does not
// promise one either).
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_SORTLOWERING_H
#define TAPESTRY_SYNTHESIS_SORTLOWERING_H

namespace llvm {
class Function;
} // namespace llvm

namespace tapestry {

/// Rewrites every call to qsort (and glibc's qsort_r) in \p F as above.
void lowerQsort(llvm::Function &F);

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_SORTLOWERING_H
