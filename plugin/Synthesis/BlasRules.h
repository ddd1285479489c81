//===- BlasRules.h - Derivatives of BLAS calls, by calling BLAS -*- C++ -*-===//
//
// A BLAS call's derivative is more BLAS calls, in the spelling the user
// called (CBLAS or Fortran), as Enzyme does: the reverse of y = A x is
// dx += A^T dy, a gemv with the transpose flag flipped; the reverse of
// C = A B is two gemms. The rules themselves are member functions of the
// synthesizers (ForwardModeSynthesizer::visitBlasCall,
// ReverseModeSynthesizer::augmentBlasCall/reverseBlasCall, in
// BlasRules.cpp); here are the pieces both modes use (the emitter in
// BlasEmitter.cpp, its column loops in BlasLoops.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_BLASRULES_H
#define TAPESTRY_SYNTHESIS_BLASRULES_H

#include "Core/BlasFunctions.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/IRBuilder.h"

namespace tapestry {

class ActivityInfo;

/// A BLAS call's logical arguments at one point of the derivative function:
/// integers, flags and scalars by value (a Fortran call's loaded from their
/// pointers), arrays as pointers. Null for arguments the routine has not.
struct BlasValues {
  llvm::Value *V[(unsigned)BlasArg::NumArgs] = {};
  llvm::Value *operator[](BlasArg A) const { return V[(unsigned)A]; }
  llvm::Value *&operator[](BlasArg A) { return V[(unsigned)A]; }
};

/// Reads the arguments of call \p CB (\p Primal maps a primal operand to its
/// value in the derivative function) at \p B.
BlasValues
readBlasArgs(llvm::IRBuilderBase &B, llvm::CallBase &CB, const BlasCall &BC,
             llvm::function_ref<llvm::Value *(llvm::Value *)> Primal);

/// How many elements (i64) from its start the array argument \p Arr of a
/// call with arguments \p V reaches, from its dimensions, leading dimension
/// or increment (negative increments included).
llvm::Value *blasSpan(llvm::IRBuilderBase &B, const BlasCall &BC,
                      const BlasValues &V, BlasArg Arr);

/// i1: the transpose flag \p T (CblasNoTrans, or 'N'/'n') means no
/// transpose.
llvm::Value *isBlasNoTrans(llvm::IRBuilderBase &B, const BlasCall &BC,
                           llvm::Value *T);

/// True if the scalar argument \p A (alpha or beta) of \p CB carries a
/// derivative: an active value (CBLAS), or (Fortran, by reference) memory
/// with a shadow into which a varied value may have been stored.
bool isActiveBlasScalar(const llvm::CallBase &CB, const BlasCall &BC, BlasArg A,
                        const ActivityInfo &AI);

/// Emits BLAS calls in the spelling (CBLAS or Fortran) of one user call.
class BlasEmitter {
public:
  BlasEmitter(llvm::Module &M, const BlasCall &BC, llvm::Function &G,
              const BlasValues &V);

  llvm::Value *dot(llvm::IRBuilderBase &B, llvm::Value *N, llvm::Value *X,
                   llvm::Value *IncX, llvm::Value *Y, llvm::Value *IncY);
  void axpy(llvm::IRBuilderBase &B, llvm::Value *N, llvm::Value *Alpha,
            llvm::Value *X, llvm::Value *IncX, llvm::Value *Y,
            llvm::Value *IncY);
  void scal(llvm::IRBuilderBase &B, llvm::Value *N, llvm::Value *Alpha,
            llvm::Value *X, llvm::Value *IncX);
  void copy(llvm::IRBuilderBase &B, llvm::Value *N, llvm::Value *X,
            llvm::Value *IncX, llvm::Value *Y, llvm::Value *IncY);
  /// Sets the N elements of X (increment IncX) to zero: a copy from one
  /// zero with increment 0.
  void zero(llvm::IRBuilderBase &B, llvm::Value *N, llvm::Value *X,
            llvm::Value *IncX);
  void gemv(llvm::IRBuilderBase &B, llvm::Value *Trans, llvm::Value *M,
            llvm::Value *N, llvm::Value *Alpha, llvm::Value *A,
            llvm::Value *LDA, llvm::Value *X, llvm::Value *IncX,
            llvm::Value *Beta, llvm::Value *Y, llvm::Value *IncY);
  void ger(llvm::IRBuilderBase &B, llvm::Value *M, llvm::Value *N,
           llvm::Value *Alpha, llvm::Value *X, llvm::Value *IncX,
           llvm::Value *Y, llvm::Value *IncY, llvm::Value *A, llvm::Value *LDA);
  void gemm(llvm::IRBuilderBase &B, llvm::Value *TA, llvm::Value *TB,
            llvm::Value *M, llvm::Value *N, llvm::Value *K, llvm::Value *Alpha,
            llvm::Value *A, llvm::Value *LDA, llvm::Value *Bm, llvm::Value *LDB,
            llvm::Value *Beta, llvm::Value *C, llvm::Value *LDC);

  void symv(llvm::IRBuilderBase &B, llvm::Value *Uplo, llvm::Value *N,
            llvm::Value *Alpha, llvm::Value *A, llvm::Value *LDA,
            llvm::Value *X, llvm::Value *IncX, llvm::Value *Beta,
            llvm::Value *Y, llvm::Value *IncY);
  void spmv(llvm::IRBuilderBase &B, llvm::Value *Uplo, llvm::Value *N,
            llvm::Value *Alpha, llvm::Value *AP, llvm::Value *X,
            llvm::Value *IncX, llvm::Value *Beta, llvm::Value *Y,
            llvm::Value *IncY);
  /// trmv or trsv (\p Routine), in place on X.
  void triangular(llvm::IRBuilderBase &B, llvm::StringRef Routine,
                  llvm::Value *Uplo, llvm::Value *Trans, llvm::Value *Diag,
                  llvm::Value *N, llvm::Value *A, llvm::Value *LDA,
                  llvm::Value *X, llvm::Value *IncX);

  /// LAPACK (Fortran spelling): B = A over the part \p Uplo names, and
  /// A's off-diagonal part set to \p Alpha, its diagonal to \p Beta.
  void lacpy(llvm::IRBuilderBase &B, llvm::Value *Uplo, llvm::Value *M,
             llvm::Value *N, llvm::Value *A, llvm::Value *LDA, llvm::Value *Bm,
             llvm::Value *LDB);
  void laset(llvm::IRBuilderBase &B, llvm::Value *Uplo, llvm::Value *M,
             llvm::Value *N, llvm::Value *Alpha, llvm::Value *Beta,
             llvm::Value *A, llvm::Value *LDA);

  /// Loops of level-1 calls over the columns of a matrix stored as
  /// \p Outer columns of \p Inner elements (rows of a row-major matrix),
  /// where no BLAS routine does the work (Synthesis/BlasLoops.cpp).
  /// Sum over the columns of dot(X column, Y column): <X, Y>.
  llvm::Value *matrixDot(llvm::IRBuilderBase &B, llvm::Value *Outer,
                         llvm::Value *Inner, llvm::Value *X, llvm::Value *LDX,
                         llvm::Value *Y, llvm::Value *LDY);
  /// Which elements of a column matrixAxpy updates, and how Dst is
  /// stored: with a leading dimension, or packed (column j of the upper
  /// triangle at j (j + 1) / 2, of the lower one at j Inner - j (j - 1) / 2).
  enum class Part { Full, Upper, Lower, PackedUpper, PackedLower };
  /// Dst += Alpha Src over \p P: column j's rows [0, min(j + 1, Inner))
  /// (upper), [j, Inner) (lower) or all (Full); \p P an i32 Part.
  void matrixAxpy(llvm::IRBuilderBase &B, llvm::Value *P, llvm::Value *Outer,
                  llvm::Value *Inner, llvm::Value *Alpha, llvm::Value *Src,
                  llvm::Value *LDS, llvm::Value *Dst, llvm::Value *LDD);

  /// A zeroed scratch array of \p Len (any integer type) elements, and its
  /// release.
  llvm::Value *scratch(llvm::IRBuilderBase &B, llvm::Value *Len);
  void release(llvm::IRBuilderBase &B, llvm::Value *Scratch);

  /// i1: the flag \p T means no transpose.
  llvm::Value *isNoTrans(llvm::IRBuilderBase &B, llvm::Value *T);
  /// The other flag: transposed if \p T is not, and the reverse.
  llvm::Value *flip(llvm::IRBuilderBase &B, llvm::Value *T);
  llvm::Value *noTrans();
  llvm::Value *trans();
  llvm::Value *fp(double C);

private:
  llvm::Value *call(llvm::IRBuilderBase &B, llvm::StringRef Routine,
                    llvm::Type *RetTy, llvm::ArrayRef<llvm::Value *> Args,
                    unsigned NumChars);
  /// call() of a void routine that takes the order argument first in CBLAS.
  void callWithOrder(llvm::IRBuilderBase &B, llvm::StringRef Routine,
                     llvm::ArrayRef<llvm::Value *> Args, unsigned NumChars);

  llvm::Module &M;
  const BlasCall &BC;
  llvm::Function &G;
  /// The user's order argument (CBLAS), passed on unchanged.
  llvm::Value *Order = nullptr;
  llvm::Type *FlagTy = nullptr;
};

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_BLASRULES_H
