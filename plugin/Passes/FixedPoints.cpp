//===- FixedPoints.cpp - Enzyme's fixed-point loops as plain loops --------===//
//
// Implements FixedPoints.h: each call of __enzyme_fixed_point is checked
// (the step, its markers and its arguments as the step takes them) and
// replaced by the loop it stands for, calling the step directly, where the
// request that differentiates the code around it sees an ordinary loop;
// __enzyme_set_fixed_point calls are erased. The markers that steer
// Enzyme's adjoint iteration (a reduction, a maximum number of iterations,
// checkpoint regions) are read and have nothing to steer; a control
// function, which the program would expect to be called, is an error.
//
//===----------------------------------------------------------------------===//
#include "Passes/FixedPoints.h"

#include "Core/Diagnostics.h"
#include "Passes/CallSiteRewriter.h"
#include "Passes/RequestArguments.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tapestry {

static constexpr StringLiteral FixedPoint = "__enzyme_fixed_point";
static constexpr StringLiteral SetFixedPoint = "__enzyme_set_fixed_point";

/// Erases \p CB (a call or an invoke; with \p Rewired, an invoke whose
/// block already branches where it should) and the loads of Enzyme's
/// marker globals only it used: a program that differentiates nothing
/// keeps no reference to `enzyme_fp_state` and the like, which nothing
/// defines.
static void eraseWithMarkers(CallBase &CB, bool Rewired = false) {
  SmallVector<LoadInst *, 4> Markers;
  for (Value *A : CB.args())
    if (auto *LI = dyn_cast<LoadInst>(A); LI && !markerName(LI).empty())
      Markers.push_back(LI);
  if (Rewired)
    CB.eraseFromParent();
  else
    eraseRequestCall(CB);
  for (LoadInst *LI : Markers)
    if (LI->use_empty() && !LI->isVolatile())
      LI->eraseFromParent();
}

/// The step's arguments after the markers of \p CB, converted; the error
/// reported (and empty) if the call does not fit Enzyme's form.
static std::optional<SmallVector<Value *, 8>> stepArguments(CallBase &CB,
                                                            Function &Step) {
  Function &Caller = *CB.getFunction();
  auto Bad = [&](const Twine &Why) {
    reportError(Caller, &CB, Twine(FixedPoint) + ": " + Why);
    return std::nullopt;
  };
  FunctionType *FT = Step.getFunctionType();
  if (FT->getNumParams() == 0 || !FT->getParamType(0)->isIntegerTy() ||
      !FT->getReturnType()->isIntegerTy() || FT->isVarArg())
    return Bad("the step '" + sourceName(Step) +
               "' must be `int step(int64_t i, args...)`: it takes the "
               "iteration number first and returns whether to iterate "
               "again");
  unsigned N = CB.arg_size(), Pos = 1;
  // Markers and their operands: how many operands each takes.
  while (Pos < N) {
    StringRef M = markerName(CB.getArgOperand(Pos));
    if (M.empty())
      break;
    unsigned Operands = StringSwitch<unsigned>(M)
                            .Case("enzyme_fp_state", 2)
                            .Case("enzyme_checkpoint_region", 2)
                            .Case("enzyme_fp_reduction", 1)
                            .Case("enzyme_fp_max_iters", 1)
                            .Default(0);
    if (M == "enzyme_fp_control")
      return Bad("enzyme_fp_control is not supported: Tapestry "
                 "differentiates the iterations themselves, so there is no "
                 "adjoint iteration for the control function to stop, and "
                 "it would never be called; remove the marker and the "
                 "function");
    if (!Operands)
      return Bad("'" + M +
                 "' is not one of its markers (enzyme_fp_state, "
                 "enzyme_fp_reduction, enzyme_fp_max_iters, "
                 "enzyme_checkpoint_region)");
    if (Pos + Operands >= N)
      return Bad(
          "'" + M + "' must be followed by " +
          (Operands == 2 ? "a pointer and a size in bytes" : "its value") +
          ", then the step's arguments");
    Value *First = CB.getArgOperand(Pos + 1);
    if (Operands == 2 && (!First->getType()->isPointerTy() ||
                          !CB.getArgOperand(Pos + 2)->getType()->isIntegerTy()))
      return Bad("'" + M +
                 "' must be followed by a pointer and a size in "
                 "bytes");
    if (M == "enzyme_fp_reduction" && !First->getType()->isFloatingPointTy())
      return Bad("enzyme_fp_reduction must be followed by a double");
    if (M == "enzyme_fp_max_iters" && !First->getType()->isIntegerTy())
      return Bad("enzyme_fp_max_iters must be followed by an integer");
    Pos += 1 + Operands;
  }
  if (N - Pos != FT->getNumParams() - 1)
    return Bad("the step '" + sourceName(Step) + "' takes " +
               Twine(FT->getNumParams() - 1) +
               " arguments after the iteration number, and the call passes " +
               Twine(N - Pos) + " after the markers");
  IRBuilder<> B(&CB);
  SmallVector<Value *, 8> Args;
  for (unsigned K = Pos; K < N; ++K) {
    unsigned Param = K - Pos + 1;
    Value *A =
        convertAsArgument(B, CB.getArgOperand(K), FT->getParamType(Param));
    if (!A)
      return Bad("argument " + Twine(K - Pos + 1) +
                 " after the markers does not fit parameter " +
                 Twine(Param + 1) + " of the step '" + sourceName(Step) + "'");
    Args.push_back(A);
  }
  return Args;
}

/// Replaces \p CB by `int64_t i = 0; while (step(i++, args...));`. An
/// invoke (C++, where the call may throw past cleanups) invokes the step
/// with the same unwind destination.
static void lowerFixedPoint(CallBase &CB) {
  Function *Step = resolveFunction(CB.getArgOperand(0));
  std::optional<SmallVector<Value *, 8>> Args;
  if (!Step)
    reportError(*CB.getFunction(), &CB,
                Twine(FixedPoint) +
                    ": its first argument must be the step function, named "
                    "directly ((void *)step)");
  else
    Args = stepArguments(CB, *Step);
  if (!CB.getType()->isVoidTy())
    CB.replaceAllUsesWith(PoisonValue::get(CB.getType()));
  if (!Args)
    return eraseWithMarkers(CB);
  LLVMContext &Ctx = CB.getContext();
  Function &F = *CB.getFunction();
  BasicBlock *Before = CB.getParent();
  auto *II = dyn_cast<InvokeInst>(&CB);
  BasicBlock *After = II ? II->getNormalDest()
                         : Before->splitBasicBlock(&CB, "fixed_point.done");
  BasicBlock *Loop = BasicBlock::Create(Ctx, "fixed_point.step", &F, After);
  IRBuilder<> B(Loop);
  B.SetCurrentDebugLocation(CB.getDebugLoc());
  Type *CountTy = Step->getFunctionType()->getParamType(0);
  PHINode *I = B.CreatePHI(CountTy, 2, "fixed_point.i");
  I->addIncoming(ConstantInt::get(CountTy, 0), Before);
  SmallVector<Value *, 8> StepArgs{I};
  append_range(StepArgs, *Args);
  BasicBlock *Latch = Loop;
  Value *Again;
  if (II) {
    Latch = BasicBlock::Create(Ctx, "fixed_point.next", &F, After);
    Again = B.CreateInvoke(Step, Latch, II->getUnwindDest(), StepArgs);
    // The edges from the invoke's block now leave the loop.
    After->replacePhiUsesWith(Before, Latch);
    II->getUnwindDest()->replacePhiUsesWith(Before, Loop);
    B.SetInsertPoint(Latch);
  } else {
    Again = B.CreateCall(Step, StepArgs);
  }
  I->addIncoming(B.CreateAdd(I, ConstantInt::get(CountTy, 1)), Latch);
  B.CreateCondBr(B.CreateIsNotNull(Again), Loop, After);
  if (II)
    BranchInst::Create(Loop, II);
  else
    Before->getTerminator()->setSuccessor(0, Loop);
  eraseWithMarkers(CB, /*Rewired=*/true);
}

/// Erases \p CB, a __enzyme_set_fixed_point call in the loop it marks; its
/// control function (third argument) must be null.
static void eraseSetFixedPoint(CallBase &CB) {
  if (CB.arg_size() < 3 ||
      !isa<ConstantPointerNull>(throughLocals(CB.getArgOperand(2))))
    reportError(*CB.getFunction(), &CB,
                Twine(SetFixedPoint) +
                    ": its control function (third argument) must be null: "
                    "Tapestry differentiates the loop's iterations "
                    "themselves, so there is no adjoint iteration for it to "
                    "stop, and it would never be called");
  if (!CB.getType()->isVoidTy())
    CB.replaceAllUsesWith(PoisonValue::get(CB.getType()));
  eraseWithMarkers(CB);
}

bool lowerFixedPoints(Module &M) {
  Function *Lowered = M.getFunction(FixedPoint);
  Function *Erased = M.getFunction(SetFixedPoint);
  for (Function **F : {&Lowered, &Erased})
    if (*F && !(*F)->isDeclaration())
      *F = nullptr; // the program's own function of that name
  if (!Lowered && !Erased)
    return false;
  // In the order of the code, so that errors come in source order.
  SmallVector<CallBase *, 4> Calls;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *CI = dyn_cast<CallBase>(&I);
          CI && (CI->getCalledOperand() == Lowered ||
                 CI->getCalledOperand() == Erased))
        Calls.push_back(CI);
  for (CallBase *CI : Calls)
    CI->getCalledOperand() == Lowered ? lowerFixedPoint(*CI)
                                      : eraseSetFixedPoint(*CI);
  // (An address that goes elsewhere was reported by the pass.)
  for (Function *F : {Lowered, Erased})
    if (F && F->use_empty())
      F->eraseFromParent();
  return !Calls.empty();
}

} // namespace tapestry
