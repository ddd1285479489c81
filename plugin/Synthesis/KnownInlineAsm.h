//===- KnownInlineAsm.h - Inline assembly with a known meaning --*- C++ -*-===//
//
// Some libraries write a floating-point operation as inline assembly to
// force the instruction a compiler would choose otherwise: Eigen's packet
// multiply-add under clang with FMA (-mfma, -march=native on most x86-64
// machines) is `asm("vfmadd231pd %[a], %[b], %[c]" : [c] "+x"(res) ...)`.
// Assembly has no derivative, but these statements are one LLVM intrinsic
// (llvm.fma): this rewrites them as it before differentiation.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_KNOWNINLINEASM_H
#define TAPESTRY_SYNTHESIS_KNOWNINLINEASM_H

namespace llvm {
class Function;
} // namespace llvm

namespace tapestry {

/// Rewrites each inline assembly statement of \p F that is a fused
/// multiply-add of floating-point vectors or scalars (vfmadd231{pd,ps,sd,ss}
/// with its accumulator tied to the result) as a call of llvm.fma. Returns
/// true if it changed anything.
bool lowerKnownInlineAsm(llvm::Function &F);

} // namespace tapestry

#endif
