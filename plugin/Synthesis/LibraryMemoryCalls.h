//===- LibraryMemoryCalls.h - memcpy and friends as calls -------*- C++ -*-===//
//
// Copies and fills reach the IR as LLVM's memcpy/memmove/memset intrinsics,
// which AD handles, except where the build says otherwise: -fno-builtin
// leaves them calls of the C library's functions, and -D_FORTIFY_SOURCE
// (Debian's and many distributions' default build flags) turns those whose
// length is not known at compile time into glibc's checked forms
// (__memcpy_chk(dst, src, n, dstlen), __memmove_chk, __memset_chk), which
// abort when n exceeds the destination's known length. In the function
// being differentiated these become the intrinsics, the checked ones after
// the same check (n > dstlen calls __chk_fail, as glibc does).
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_LIBRARYMEMORYCALLS_H
#define TAPESTRY_SYNTHESIS_LIBRARYMEMORYCALLS_H

namespace llvm {
class Function;
} // namespace llvm

namespace tapestry {

/// Replaces \p F's calls of memcpy, memmove, memset and their _chk forms
/// by LLVM's intrinsics (see above).
void lowerLibraryMemoryCalls(llvm::Function &F);

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_LIBRARYMEMORYCALLS_H
