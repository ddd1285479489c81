//===- BlasEmitter.cpp - BLAS calls in the user's spelling ----------------===//
//
// The calls the BLAS derivatives make, spelled as the user's call was:
// cblas_d<routine>(order, ...) by value, or d<routine>_(...) by reference
// with the hidden lengths of character arguments.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/BlasRules.h"

#include "Core/AllocationFunctions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tapestry {

using A = BlasArg;

Value *isBlasNoTrans(IRBuilderBase &B, const BlasCall &BC, Value *T) {
  if (BC.CBlas)
    return B.CreateICmpEQ(T, ConstantInt::get(T->getType(), 111));
  return B.CreateOr(B.CreateICmpEQ(T, B.getInt8('N')),
                    B.CreateICmpEQ(T, B.getInt8('n')));
}

//===----------------------------------------------------------------------===//
// BlasEmitter
//===----------------------------------------------------------------------===//

BlasEmitter::BlasEmitter(Module &M, const BlasCall &BC, Function &G,
                         const BlasValues &V)
    : M(M), BC(BC), G(G), Order(V[A::Order]) {
  if (Value *T = V[A::TransA])
    FlagTy = T->getType();
  else
    FlagTy = BC.CBlas ? Type::getInt32Ty(M.getContext())
                      : Type::getInt8Ty(M.getContext());
}

void BlasEmitter::callWithOrder(IRBuilderBase &B, StringRef Routine,
                                ArrayRef<Value *> Args, unsigned NumChars) {
  SmallVector<Value *, 16> All;
  if (Order) // CBLAS: the user's order argument comes first
    All.push_back(Order);
  All.append(Args.begin(), Args.end());
  call(B, Routine, B.getVoidTy(), All, NumChars);
}

Value *BlasEmitter::call(IRBuilderBase &B, StringRef Routine, Type *RetTy,
                         ArrayRef<Value *> Args, unsigned NumChars) {
  char Prec = BC.FPTy->isDoubleTy() ? 'd' : 's';
  std::string Name = BC.CBlas ? ("cblas_" + Twine(Prec) + Routine).str()
                              : (Twine(Prec) + Routine + "_").str();
  SmallVector<Value *, 16> CallArgs;
  if (BC.CBlas) {
    CallArgs.append(Args.begin(), Args.end());
  } else {
    // Fortran takes everything by reference: scalars go through slots in
    // the entry block, and character flags have hidden lengths (1).
    // Integers go in 64-bit slots, sign-extended: on a little-endian
    // target a 32-bit BLAS reads the same value from the slot's first half
    // as an ILP64 one reads from all of it.
    IRBuilder<> EB(&G.getEntryBlock(), G.getEntryBlock().getFirstInsertionPt());
    bool Little = M.getDataLayout().isLittleEndian();
    for (Value *Arg : Args) {
      if (Arg->getType()->isPointerTy()) {
        CallArgs.push_back(Arg);
        continue;
      }
      if (Little && Arg->getType()->isIntegerTy(32))
        Arg = B.CreateSExt(Arg, B.getInt64Ty());
      AllocaInst *Slot = EB.CreateAlloca(Arg->getType(), nullptr, "blas.arg");
      B.CreateStore(Arg, Slot);
      CallArgs.push_back(Slot);
    }
    for (unsigned I = 0; I < NumChars; ++I)
      CallArgs.push_back(B.getInt64(1));
  }
  SmallVector<Type *, 16> Params;
  for (Value *Arg : CallArgs)
    Params.push_back(Arg->getType());
  FunctionCallee F =
      M.getOrInsertFunction(Name, FunctionType::get(RetTy, Params, false));
  return B.CreateCall(F, CallArgs);
}

Value *BlasEmitter::dot(IRBuilderBase &B, Value *N, Value *X, Value *IncX,
                        Value *Y, Value *IncY) {
  return call(B, "dot", BC.FPTy, {N, X, IncX, Y, IncY}, 0);
}

void BlasEmitter::axpy(IRBuilderBase &B, Value *N, Value *Alpha, Value *X,
                       Value *IncX, Value *Y, Value *IncY) {
  call(B, "axpy", B.getVoidTy(), {N, Alpha, X, IncX, Y, IncY}, 0);
}

void BlasEmitter::scal(IRBuilderBase &B, Value *N, Value *Alpha, Value *X,
                       Value *IncX) {
  call(B, "scal", B.getVoidTy(), {N, Alpha, X, IncX}, 0);
}

void BlasEmitter::copy(IRBuilderBase &B, Value *N, Value *X, Value *IncX,
                       Value *Y, Value *IncY) {
  call(B, "copy", B.getVoidTy(), {N, X, IncX, Y, IncY}, 0);
}

void BlasEmitter::zero(IRBuilderBase &B, Value *N, Value *X, Value *IncX) {
  IRBuilder<> EB(&G.getEntryBlock(), G.getEntryBlock().getFirstInsertionPt());
  AllocaInst *Zero = EB.CreateAlloca(BC.FPTy, nullptr, "blas.zero");
  B.CreateStore(ConstantFP::get(BC.FPTy, 0.0), Zero);
  copy(B, N, Zero, ConstantInt::get(IncX->getType(), 0), X, IncX);
}

void BlasEmitter::gemv(IRBuilderBase &B, Value *Trans, Value *Rows, Value *Cols,
                       Value *Alpha, Value *Mat, Value *LDA, Value *X,
                       Value *IncX, Value *Beta, Value *Y, Value *IncY) {
  callWithOrder(B, "gemv",
                {Trans, Rows, Cols, Alpha, Mat, LDA, X, IncX, Beta, Y, IncY},
                1);
}

void BlasEmitter::ger(IRBuilderBase &B, Value *Rows, Value *Cols, Value *Alpha,
                      Value *X, Value *IncX, Value *Y, Value *IncY, Value *Mat,
                      Value *LDA) {
  callWithOrder(B, "ger", {Rows, Cols, Alpha, X, IncX, Y, IncY, Mat, LDA}, 0);
}

void BlasEmitter::gemm(IRBuilderBase &B, Value *TA, Value *TB, Value *Rows,
                       Value *Cols, Value *Inner, Value *Alpha, Value *MA,
                       Value *LDA, Value *MB, Value *LDB, Value *Beta,
                       Value *MC, Value *LDC) {
  callWithOrder(
      B, "gemm",
      {TA, TB, Rows, Cols, Inner, Alpha, MA, LDA, MB, LDB, Beta, MC, LDC}, 2);
}

void BlasEmitter::symv(IRBuilderBase &B, Value *Uplo, Value *N, Value *Alpha,
                       Value *Mat, Value *LDA, Value *X, Value *IncX,
                       Value *Beta, Value *Y, Value *IncY) {
  callWithOrder(B, "symv", {Uplo, N, Alpha, Mat, LDA, X, IncX, Beta, Y, IncY},
                1);
}

void BlasEmitter::spmv(IRBuilderBase &B, Value *Uplo, Value *N, Value *Alpha,
                       Value *AP, Value *X, Value *IncX, Value *Beta, Value *Y,
                       Value *IncY) {
  callWithOrder(B, "spmv", {Uplo, N, Alpha, AP, X, IncX, Beta, Y, IncY}, 1);
}

void BlasEmitter::triangular(IRBuilderBase &B, StringRef Routine, Value *Uplo,
                             Value *Trans, Value *Diag, Value *N, Value *Mat,
                             Value *LDA, Value *X, Value *IncX) {
  callWithOrder(B, Routine, {Uplo, Trans, Diag, N, Mat, LDA, X, IncX}, 3);
}

void BlasEmitter::lacpy(IRBuilderBase &B, Value *Uplo, Value *Rows, Value *Cols,
                        Value *MA, Value *LDA, Value *MB, Value *LDB) {
  call(B, "lacpy", B.getVoidTy(), {Uplo, Rows, Cols, MA, LDA, MB, LDB}, 1);
}

void BlasEmitter::laset(IRBuilderBase &B, Value *Uplo, Value *Rows, Value *Cols,
                        Value *Alpha, Value *Beta, Value *MA, Value *LDA) {
  call(B, "laset", B.getVoidTy(), {Uplo, Rows, Cols, Alpha, Beta, MA, LDA}, 1);
}

Value *BlasEmitter::scratch(IRBuilderBase &B, Value *Len) {
  FunctionCallee Calloc = getCallocFn(M);
  Value *L = B.CreateSExtOrTrunc(Len, B.getInt64Ty());
  L = B.CreateSelect(B.CreateICmpSGT(L, B.getInt64(0)), L, B.getInt64(1));
  return B.CreateCall(
      Calloc, {L, B.getInt64(M.getDataLayout().getTypeAllocSize(BC.FPTy))},
      "blas.scratch");
}

void BlasEmitter::release(IRBuilderBase &B, Value *Scratch) {
  B.CreateCall(getFreeFn(M), {Scratch});
}

Value *BlasEmitter::isNoTrans(IRBuilderBase &B, Value *T) {
  return isBlasNoTrans(B, BC, T);
}

Value *BlasEmitter::noTrans() {
  return ConstantInt::get(FlagTy, BC.CBlas ? 111 : 'N');
}

Value *BlasEmitter::trans() {
  return ConstantInt::get(FlagTy, BC.CBlas ? 112 : 'T');
}

Value *BlasEmitter::flip(IRBuilderBase &B, Value *T) {
  return B.CreateSelect(isNoTrans(B, T), trans(), noTrans());
}

Value *BlasEmitter::fp(double C) { return ConstantFP::get(BC.FPTy, C); }

} // namespace tapestry
