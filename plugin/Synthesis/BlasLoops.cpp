//===- BlasLoops.cpp - Level-1 BLAS calls looped over matrix columns ------===//
//
// Some derivatives need a matrix operation no BLAS or LAPACK routine does:
// the inner product <X, Y> of two strided matrices (the adjoint of gemm's
// alpha and beta), and Dst += alpha Src over a triangle (the adjoint of
// dlacpy, the tangent of gemm's beta). They are loops over the columns
// calling ddot or daxpy, emitted once per module and spelling as internal
// functions, so that the derivative functions keep their block structure.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/BlasRules.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace tapestry {

/// The helper \p Kind for one spelling, precision and integer type,
/// created by \p Build (entry block, loop header, body, exit) if new.
static Function *
getLoopHelper(Module &M, const BlasCall &BC, StringRef Kind, FunctionType *FT,
              function_ref<void(Function &, BlasEmitter &)> Build) {
  std::string Name =
      ("tapestry.blas." + Kind + "." + (BC.CBlas ? "cblas_" : "f77_") +
       (BC.FPTy->isDoubleTy() ? "d" : "s") + ".i" +
       Twine(FT->getParamType(0)->getIntegerBitWidth()))
          .str();
  if (Function *F = M.getFunction(Name))
    return F;
  Function *F = Function::Create(FT, GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::NoUnwind);
  BasicBlock::Create(M.getContext(), "entry", F);
  BlasEmitter E(M, BC, *F, BlasValues());
  Build(*F, E);
  return F;
}

/// Emits `for (j = 0; j < Outer; ++j) Body(B, j)` into \p F, whose entry
/// block is empty; \p Result, if given, is carried around the loop (Body
/// returns its next value) and returned. Returns the final value.
static Value *
emitColumnLoop(Function &F, Value *Outer, Value *Init,
               function_ref<Value *(IRBuilderBase &, Value *, Value *)> Body) {
  LLVMContext &C = F.getContext();
  BasicBlock *Entry = &F.getEntryBlock();
  auto *Header = BasicBlock::Create(C, "column", &F);
  auto *Loop = BasicBlock::Create(C, "column.body", &F);
  auto *Exit = BasicBlock::Create(C, "done", &F);
  IRBuilder<> B(Entry);
  B.CreateBr(Header);
  B.SetInsertPoint(Header);
  Type *IntTy = Outer->getType();
  PHINode *J = B.CreatePHI(IntTy, 2, "j");
  J->addIncoming(ConstantInt::get(IntTy, 0), Entry);
  PHINode *Acc = nullptr;
  if (Init) {
    Acc = B.CreatePHI(Init->getType(), 2, "acc");
    Acc->addIncoming(Init, Entry);
  }
  B.CreateCondBr(B.CreateICmpSLT(J, Outer), Loop, Exit);
  B.SetInsertPoint(Loop);
  Value *Next = Body(B, J, Acc);
  BasicBlock *Latch = B.GetInsertBlock();
  J->addIncoming(B.CreateAdd(J, ConstantInt::get(IntTy, 1)), Latch);
  if (Acc)
    Acc->addIncoming(Next, Latch);
  B.CreateBr(Header);
  B.SetInsertPoint(Exit);
  return Acc;
}

/// The element \p Row of column \p Col of \p Mat (leading dimension
/// \p LD).
static Value *element(IRBuilderBase &B, Type *FPTy, Value *Mat, Value *Row,
                      Value *Col, Value *LD) {
  Type *I64 = B.getInt64Ty();
  Value *Off =
      B.CreateAdd(B.CreateSExt(Row, I64),
                  B.CreateMul(B.CreateSExt(Col, I64), B.CreateSExt(LD, I64)));
  return B.CreateGEP(FPTy, Mat, Off);
}

Value *BlasEmitter::matrixDot(IRBuilderBase &B, Value *Outer, Value *Inner,
                              Value *X, Value *LDX, Value *Y, Value *LDY) {
  Type *IntTy = Outer->getType(), *Ptr = B.getPtrTy();
  auto *FT =
      FunctionType::get(BC.FPTy, {IntTy, IntTy, Ptr, IntTy, Ptr, IntTy}, false);
  Function *F =
      getLoopHelper(M, BC, "matdot", FT, [&](Function &H, BlasEmitter &E) {
        Value *Out = H.getArg(0), *In = H.getArg(1), *HX = H.getArg(2),
              *HLDX = H.getArg(3), *HY = H.getArg(4), *HLDY = H.getArg(5);
        Value *Zero = ConstantInt::get(IntTy, 0),
              *One = ConstantInt::get(IntTy, 1);
        Value *Sum = emitColumnLoop(
            H, Out, ConstantFP::get(BC.FPTy, 0.0),
            [&](IRBuilderBase &LB, Value *J, Value *Acc) -> Value * {
              Value *D =
                  E.dot(LB, In, element(LB, BC.FPTy, HX, Zero, J, HLDX), One,
                        element(LB, BC.FPTy, HY, Zero, J, HLDY), One);
              return LB.CreateFAdd(Acc, D);
            });
        IRBuilder<> RB(&H.back());
        RB.CreateRet(Sum);
      });
  auto Int = [&](Value *V) { return B.CreateSExtOrTrunc(V, IntTy); };
  return B.CreateCall(F, {Outer, Int(Inner), X, Int(LDX), Y, Int(LDY)});
}

void BlasEmitter::matrixAxpy(IRBuilderBase &B, Value *P, Value *Outer,
                             Value *Inner, Value *Alpha, Value *Src, Value *LDS,
                             Value *Dst, Value *LDD) {
  Type *IntTy = Outer->getType(), *Ptr = B.getPtrTy(), *I32 = B.getInt32Ty();
  auto *FT = FunctionType::get(
      B.getVoidTy(), {IntTy, IntTy, I32, BC.FPTy, Ptr, IntTy, Ptr, IntTy},
      false);
  Function *F =
      getLoopHelper(M, BC, "mataxpy", FT, [&](Function &H, BlasEmitter &E) {
        Value *Out = H.getArg(0), *In = H.getArg(1), *HP = H.getArg(2),
              *HAlpha = H.getArg(3), *HS = H.getArg(4), *HLDS = H.getArg(5),
              *HD = H.getArg(6), *HLDD = H.getArg(7);
        Value *Zero = ConstantInt::get(IntTy, 0),
              *One = ConstantInt::get(IntTy, 1);
        emitColumnLoop(
            H, Out, nullptr,
            [&](IRBuilderBase &LB, Value *J, Value *) -> Value * {
              // Rows [Start, End) of column J; daxpy does nothing when empty.
              auto Is = [&](Part P) {
                return LB.CreateICmpEQ(HP, LB.getInt32((int)P));
              };
              Value *PU = Is(Part::PackedUpper), *PL = Is(Part::PackedLower);
              Value *Lower = LB.CreateOr(Is(Part::Lower), PL);
              Value *Upper = LB.CreateOr(Is(Part::Upper), PU);
              Value *Start = LB.CreateSelect(Lower, J, Zero);
              Value *Diag = LB.CreateAdd(J, One);
              Value *End = LB.CreateSelect(
                  Upper, LB.CreateSelect(LB.CreateICmpSLT(Diag, In), Diag, In),
                  In);
              // Where Dst's part of column J starts.
              Type *I64 = LB.getInt64Ty();
              Value *J64 = LB.CreateSExt(J, I64),
                    *In64 = LB.CreateSExt(In, I64);
              Value *PackedU = LB.CreateLShr(
                  LB.CreateMul(J64, LB.CreateAdd(J64, LB.getInt64(1))), 1);
              Value *PackedL = LB.CreateSub(
                  LB.CreateMul(J64, In64),
                  LB.CreateLShr(
                      LB.CreateMul(J64, LB.CreateSub(J64, LB.getInt64(1))), 1));
              Value *DstCol = LB.CreateSelect(
                  PU, LB.CreateGEP(BC.FPTy, HD, PackedU),
                  LB.CreateSelect(PL, LB.CreateGEP(BC.FPTy, HD, PackedL),
                                  element(LB, BC.FPTy, HD, Start, J, HLDD)));
              E.axpy(LB, LB.CreateSub(End, Start), HAlpha,
                     element(LB, BC.FPTy, HS, Start, J, HLDS), One, DstCol,
                     One);
              return nullptr;
            });
        IRBuilder<> RB(&H.back());
        RB.CreateRetVoid();
      });
  auto Int = [&](Value *V) { return B.CreateSExtOrTrunc(V, IntTy); };
  B.CreateCall(F, {Outer, Int(Inner), P, Alpha, Src, Int(LDS), Dst, Int(LDD)});
}

} // namespace tapestry
