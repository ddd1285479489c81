//===- ComplexLibcalls.h - C99 complex functions as real code ---*- C++ -*-===//
//
// std::complex and _Complex arithmetic reaches the IR as calls of the C
// runtime (__muldc3, __divsc3, ...) and of C99's complex functions (cabs,
// cexp, csqrt, clog, csin, ccos, ctan, csinh, ccosh, ctanh, their inverses
// casin ... catanh, cproj, cpow and their float forms).
// They have no derivative of their own; their real formulas, which AD
// differentiates, replace them in the prepared primal. A double complex is
// passed as two doubles and returned as {double, double}; a float complex
// (x86-64) is passed and returned as <2 x float>.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_COMPLEXLIBCALLS_H
#define TAPESTRY_SYNTHESIS_COMPLEXLIBCALLS_H

namespace llvm {
class Function;
} // namespace llvm

namespace tapestry {

/// Replaces the complex runtime and library calls of \p F by their real
/// formulas. The C99 Annex G recovery of infinities and NaNs in
/// multiplication and division is not reproduced.
void lowerComplexLibcalls(llvm::Function &F);

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_COMPLEXLIBCALLS_H
