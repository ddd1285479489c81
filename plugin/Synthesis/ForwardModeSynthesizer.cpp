//===- ForwardModeSynthesizer.cpp - Forward-mode derivatives --------------===//
//
// Implements ForwardModeSynthesizer.h: run() clones the prepared primal into
// the derivative's signature, checks each instruction with
// SupportedInstructions and, in reverse post-order, creates shadows for
// pointers and tangents for active values right after each primal instruction,
// through the rules table, the vector rules and the call handling of its
// visitCallBase; then it finishes the phis and the return. The Driver calls it
// once per forward request.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/ForwardModeSynthesizer.h"

#include "Analysis/InertCalls.h"
#include "Core/AllocationFunctions.h"
#include "Core/Diagnostics.h"
#include "Core/OpenMPRuntime.h"
#include "Synthesis/CustomSignatures.h"
#include "Synthesis/DerivativeRules.h"
#include "Synthesis/UnneededPrimalWrites.h"
#include "Synthesis/VectorRules.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/Debug.h"

using namespace llvm;

#define DEBUG_TYPE "tapestry"

STATISTIC(NumForwardDerivatives, "Forward-mode derivatives synthesised");

namespace tapestry {

Value *ForwardModeSynthesizer::tangent(Value *PV) {
  if (Value *T = Tangents.lookup(PV))
    return T;
  return Constant::getNullValue(batchTy(PV->getType()));
}

/// Scalar floating-point tangents are vectors in batch mode, so one
/// instruction serves all lanes; other types go lane by lane.
static bool isWholeBatch(Type *T, unsigned W) {
  return W == 1 || T->isFloatingPointTy();
}

Value *ForwardModeSynthesizer::scaledTangent(PartialEmitter &E,
                                             IRBuilderBase &B, Value *Partial,
                                             Value *PV, Type *ResultTy) {
  Value *T = tangent(PV);
  if (isWholeBatch(ResultTy, W))
    return E.mul(splatLanes(B, Partial, W), T);
  return lanes(B, ResultTy,
               [&](unsigned K) { return E.mul(Partial, lane(B, T, K)); });
}

Value *ForwardModeSynthesizer::addTangents(PartialEmitter &E, IRBuilderBase &B,
                                           Value *X, Value *Y, Type *ResultTy) {
  if (isWholeBatch(ResultTy, W))
    return E.add(X, Y);
  return lanes(B, ResultTy,
               [&](unsigned K) { return E.add(lane(B, X, K), lane(B, Y, K)); });
}

Function *ForwardModeSynthesizer::run() {
  LLVM_DEBUG(dbgs() << "tapestry: forward mode of '" << R.Fn->getName()
                    << "', width " << W << ", from the prepared primal:\n"
                    << P);
  createFunction();
  if (!R.ErrorEstimate)
    Packed = planPackedShadows(P, AI, RA, W);
  for (unsigned I = 0; I < P.arg_size(); ++I)
    if (Sig.ShadowArg[I] >= 0 && AI.isVaried(P.getArg(I)))
      Tangents[P.getArg(I)] = G->getArg(Sig.ShadowArg[I]);

  ReversePostOrderTraversal<Function *> RPO(&P);
  ReturnInst *Ret = nullptr;
  for (BasicBlock *PB : RPO)
    for (Instruction &PI : *PB) {
      Supported.check(PI);
      if (auto *RI = dyn_cast<ReturnInst>(&PI))
        Ret = RI;
      else
        differentiate(PI);
    }
  if (!Ret)
    fail(nullptr, "the function never returns");
  if (!Failed) {
    finishShadowPhis();
    finishPackedPhis();
    finishTangentPhis();
    replaceReturn(*Ret);
    dropUnneededPrimalWrites();
    // enzyme_dupnoneed memory read only to update itself (a gradient
    // accumulated in place): its primal loads and stores go too.
    for (unsigned I = 0; I < P.arg_size() && I < R.Args.size(); ++I)
      if (R.Args[I] == Activity::DupNoNeed &&
          P.getArg(I)->getType()->isPointerTy() &&
          updatesOnlyItself(*P.getArg(I)))
        if (auto *A = dyn_cast_or_null<Argument>(VMap.lookup(P.getArg(I))))
          dropSelfUpdates(*G, *A);
  }
  if (Failed) {
    G->eraseFromParent();
    return nullptr;
  }
  relaxAccessAlignments();
  ++NumForwardDerivatives;
  LLVM_DEBUG(dbgs() << "tapestry: forward derivative:\n" << *G);
  return G;
}

void ForwardModeSynthesizer::differentiate(Instruction &PI) {
  if (PI.isTerminator())
    return;
  // A value with derivative 0 stored through a pointer (modf's integer
  // part, std::cin >> x, sscanf's %lf; the call may return a pointer).
  if (auto *CB = dyn_cast<CallBase>(&PI)) {
    for (auto [Out, T] : constantOutParams(*CB))
      if (Value *S = shadowOf(Out, &PI)) {
        IRBuilder<> B(primal(&PI)->getNextNode());
        for (unsigned K = 0; K < W; ++K)
          B.CreateStore(Constant::getNullValue(T), lane(B, S, K));
      }
    storeEndPointerShadow(*CB);
  }
  // Pointers get shadows, not tangents; a function with a body that stays
  // a call (recursion) returns its pointer result's shadow, and may write
  // through its arguments whatever it returns.
  if (PI.getType()->isPtrOrPtrVectorTy()) {
    auto *CB = dyn_cast<CallBase>(&PI);
    Function *Callee = CB ? CB->getCalledFunction() : nullptr;
    if (Callee && !Callee->isDeclaration() && !isInactiveCall(*CB, &Rules) &&
        !Rules.forwardDerivative(Callee) && !Rules.isOpaque(Callee) &&
        !isShadowMirrorCall(*CB)) {
      IRBuilder<> B(primal(&PI)->getNextNode());
      visitDefinedCall(*CB, B);
    } else if (createPackedShadow(PI)) {
      // Packed shadow lanes (Synthesis/PackedShadows.h).
    } else if (AI.hasShadow(&PI)) {
      createShadow(PI);
    }
    return;
  }
  // The tangent is computed right after the primal's clone.
  IRBuilder<> B(primal(&PI)->getNextNode());
  Builder = &B;
  visit(PI);
  Builder = nullptr;
}

void ForwardModeSynthesizer::setTangent(Instruction &PI, Value *T) {
  T->setName(PI.getName() + "'");
  Tangents[&PI] = T;
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

void ForwardModeSynthesizer::visitCallBase(CallBase &CB) {
  IRBuilderBase &B = *Builder;
  // The hooks, in order; each takes the calls it differentiates its own way.
  // OpenMP: a parallel region forks its body's tangent function.
  if (isOpenMPForkCall(CB))
    return visitParallelRegion(CB);
  // __enzyme_error_estimate: a call the error model does not describe
  // (reported by SupportedInstructions).
  if (R.ErrorEstimate && !Supported.hasErrorModel(CB))
    return;
  // Registered forward derivatives, then functions with a body that were
  // not inlined (recursion).
  if (Function *Callee = CB.getCalledFunction()) {
    if (Function *Fwd = Rules.forwardDerivative(Callee))
      return visitCustomForward(CB, *Fwd, B);
    if (!Callee->isDeclaration() && !Rules.isOpaque(Callee))
      return visitDefinedCall(CB, B);
  }
  // Vector intrinsics: reductions, masked accesses, lane moves.
  if (isVectorRuleCall(CB))
    return visitVectorCall(CB, B);
  // BLAS routines, by calling BLAS.
  if (auto BC = findBlasCall(CB); BC && !isInactiveCall(CB, &Rules))
    return visitBlasCall(CB, *BC);
  if (auto MC = findMPICall(CB); MC && !isInactiveCall(CB, &Rules))
    return visitMPICall(CB, *MC); // Synthesis/MPIRules.cpp
  // Memory: posix_memalign, pointer-structure calls, deallocation.
  if (isOutParamAllocation(CB)) {
    allocateOutParamShadow(CB);
    return;
  }
  if (isShadowMirrorCall(CB)) {
    if (any_of(CB.args(), [&](Value *A) { return AI.hasShadow(A); }))
      mirrorCall(CB); // void: pointer results are shadows (differentiate)
    return;
  }
  if (isDeallocationCall(CB))
    freeShadow(CB, B);
  // The derivative rules table (math functions and intrinsics).
  if (AI.isActive(&CB))
    if (const DerivativeRule *Rule = ruleFor(CB))
      tangentByRule(CB, Rule);
}

void ForwardModeSynthesizer::freeShadow(CallBase &CB, IRBuilderBase &B) {
  // A packed block has its shadow whether or not the pointer freed needs
  // one (createPackedShadow).
  if (Packed.isPacked(freedPointer(CB)))
    return freePackedShadow(CB, B);
  if (!AI.hasShadow(freedPointer(CB)))
    return;
  Value *S = shadowOf(freedPointer(CB), &CB);
  if (!S)
    return;
  // Same call on the shadow (sized delete keeps its size, a registered
  // deallocator its other arguments), per lane. A pointer that may be
  // constant frees nothing where its shadow is itself: the primal call
  // frees that block.
  Value *GP =
      RA.mayBeConstant(freedPointer(CB)) ? primal(freedPointer(CB)) : nullptr;
  for (unsigned K = 0; K < W; ++K) {
    Value *SK = lane(B, S, K);
    if (GP)
      SK = B.CreateSelect(isConstantShadow(B, SK, GP),
                          Constant::getNullValue(SK->getType()), SK);
    SmallVector<Value *, 2> Args;
    for (unsigned I = 0; I < CB.arg_size(); ++I)
      Args.push_back(I == freedOperandIndex(CB) ? SK
                                                : primal(CB.getArgOperand(I)));
    B.CreateCall(CB.getFunctionType(), CB.getCalledOperand(), Args);
  }
}

//===----------------------------------------------------------------------===//
// Operations with derivative rules
//===----------------------------------------------------------------------===//

void ForwardModeSynthesizer::visitRuleOperation(Instruction &PI) {
  if (!AI.isActive(&PI))
    return;
  if (const DerivativeRule *Rule = findInstructionRule(PI.getOpcode()))
    tangentByRule(PI, Rule);
}

void ForwardModeSynthesizer::tangentByRule(Instruction &PI,
                                           const DerivativeRule *Rule) {
  IRBuilderBase &B = *Builder;
  if (R.ErrorEstimate) {
    if (Value *T = propagatedError(PI, Rule, B))
      setTangent(PI, T);
    return;
  }
  SmallVector<Value *, 3> Ops(PI.operands().begin(),
                              PI.operands().begin() + Rule->NumOperands);
  auto Lookup = [&](Value *V) { return primal(V); };
  PartialEmitter E(B, Ops, &PI, Lookup);
  Value *T = nullptr;
  for (unsigned I = 0; I < Rule->NumOperands; ++I) {
    if (!AI.isActive(Ops[I]))
      continue;
    Value *Partial = Rule->Partial(E, I);
    if (!Partial)
      continue;
    Value *Term = scaledTangent(E, B, Partial, Ops[I], PI.getType());
    T = T ? addTangents(E, B, T, Term, PI.getType()) : Term;
  }
  if (!T)
    T = Constant::getNullValue(batchTy(PI.getType()));
  setTangent(PI, T);
}

void ForwardModeSynthesizer::visitFDiv(BinaryOperator &PI) {
  if (!AI.isActive(&PI))
    return;
  if (R.ErrorEstimate || !AI.isActive(PI.getOperand(1)))
    return tangentByRule(PI, findInstructionRule(PI.getOpcode()));
  // d(x/y) = (dx - q dy) / y, not dx/y - (q/y) dy: q/y overflows for a
  // tiny y (x/1e-160), and infinity times a zero tangent is NaN.
  IRBuilderBase &B = *Builder;
  auto Lookup = [&](Value *V) { return primal(V); };
  Value *X = PI.getOperand(0), *Y = PI.getOperand(1);
  Value *Ops[] = {X, Y}; // the emitter keeps a reference to them
  PartialEmitter E(B, Ops, &PI, Lookup);
  Value *Q = E.result(), *YP = E.arg(1);
  auto Tangent = [&](Value *TX, Value *TY, Value *QL, Value *YL) {
    Value *N = E.mul(QL, TY);
    N = TX ? E.sub(TX, N) : E.neg(N);
    return E.div(N, YL);
  };
  bool XActive = AI.isActive(X);
  Value *T;
  if (isWholeBatch(PI.getType(), W))
    T = Tangent(XActive ? tangent(X) : nullptr, tangent(Y), splatLanes(B, Q, W),
                splatLanes(B, YP, W));
  else
    T = lanes(B, PI.getType(), [&](unsigned K) {
      return Tangent(XActive ? lane(B, tangent(X), K) : nullptr,
                     lane(B, tangent(Y), K), Q, YP);
    });
  setTangent(PI, T);
}

//===----------------------------------------------------------------------===//
// Conversions, selects, phis, loads and element moves
//===----------------------------------------------------------------------===//

void ForwardModeSynthesizer::visitFPCast(CastInst &Cast) {
  if (!AI.isActive(&Cast))
    return;
  IRBuilderBase &B = *Builder;
  if (R.ErrorEstimate) {
    if (Value *T = propagatedError(Cast, nullptr, B))
      setTangent(Cast, T);
    return;
  }
  Value *Op = tangent(Cast.getOperand(0));
  Type *Ty = Cast.getType();
  if (isWholeBatch(Ty, W))
    return setTangent(Cast, B.CreateCast(Cast.getOpcode(), Op, batchTy(Ty)));
  setTangent(Cast, lanes(B, Ty, [&](unsigned K) {
               return B.CreateCast(Cast.getOpcode(), lane(B, Op, K), Ty);
             }));
}

void ForwardModeSynthesizer::visitSelectInst(SelectInst &Sel) {
  if (!AI.isActive(&Sel))
    return;
  IRBuilderBase &B = *Builder;
  Value *Cond = primal(Sel.getCondition());
  Value *TT = tangent(Sel.getTrueValue()), *TF = tangent(Sel.getFalseValue());
  if (!Cond->getType()->isVectorTy() || W == 1)
    return setTangent(Sel, B.CreateSelect(Cond, TT, TF));
  setTangent(Sel, lanes(B, Sel.getType(), [&](unsigned K) {
               return B.CreateSelect(Cond, lane(B, TT, K), lane(B, TF, K));
             }));
}

void ForwardModeSynthesizer::visitPHINode(PHINode &Phi) {
  if (!AI.isActive(&Phi))
    return;
  // Its incoming tangents are added once every block is done
  // (finishTangentPhis).
  BasicBlock *GB = primal(&Phi)->getParent();
  IRBuilderBase &B = *Builder;
  B.SetInsertPoint(GB, GB->getFirstNonPHIIt());
  setTangent(Phi,
             B.CreatePHI(batchTy(Phi.getType()), Phi.getNumIncomingValues()));
}

void ForwardModeSynthesizer::visitLoadInst(LoadInst &LI) {
  if (!AI.isActive(&LI))
    return;
  IRBuilderBase &B = *Builder;
  if (Packed.isPacked(LI.getPointerOperand())) {
    if (Value *SPtr = packedShadow(LI.getPointerOperand()))
      setTangent(LI, loadPacked(B, LI.getType(), SPtr));
    return;
  }
  Value *S = shadowOf(LI.getPointerOperand(), &LI);
  if (!S)
    return;
  // Through a pointer that may be constant, the tangent is zero where the
  // shadow marks it so.
  Value *GP = RA.mayBeConstant(LI.getPointerOperand())
                  ? primal(LI.getPointerOperand())
                  : nullptr;
  setTangent(LI, lanes(B, LI.getType(), [&](unsigned K) {
               Value *SK = lane(B, S, K);
               Value *L = B.CreateAlignedLoad(LI.getType(), SK, LI.getAlign());
               if (!GP)
                 return L;
               return B.CreateSelect(isConstantShadow(B, SK, GP),
                                     Constant::getNullValue(LI.getType()), L);
             }));
}

// freeze passes its operand's tangent on, whatever its type (a frozen
// struct returned by a call among them); pointers keep the rule path,
// whose shadows ShadowMemory.cpp gives.
void ForwardModeSynthesizer::visitFreezeInst(FreezeInst &I) {
  if (!AI.isActive(&I))
    return;
  if (R.ErrorEstimate || I.getType()->isPtrOrPtrVectorTy())
    return visitRuleOperation(I);
  setTangent(I, tangent(I.getOperand(0)));
}

void ForwardModeSynthesizer::visitExtractValueInst(ExtractValueInst &EV) {
  if (!AI.isActive(&EV))
    return;
  IRBuilderBase &B = *Builder;
  Value *Agg = tangent(EV.getAggregateOperand());
  setTangent(EV, lanes(B, EV.getType(), [&](unsigned K) {
               return B.CreateExtractValue(lane(B, Agg, K), EV.getIndices());
             }));
}

void ForwardModeSynthesizer::visitInsertValueInst(InsertValueInst &IV) {
  if (!AI.isActive(&IV))
    return;
  IRBuilderBase &B = *Builder;
  Value *Agg = tangent(IV.getAggregateOperand());
  Value *Ins = tangent(IV.getInsertedValueOperand());
  setTangent(IV, lanes(B, IV.getType(), [&](unsigned K) {
               return B.CreateInsertValue(lane(B, Agg, K), lane(B, Ins, K),
                                          IV.getIndices());
             }));
}

void ForwardModeSynthesizer::visitExtractElementInst(ExtractElementInst &EE) {
  if (!AI.isActive(&EE))
    return;
  IRBuilderBase &B = *Builder;
  Value *Vec = tangent(EE.getVectorOperand());
  setTangent(EE, lanes(B, EE.getType(), [&](unsigned K) {
               return B.CreateExtractElement(lane(B, Vec, K),
                                             primal(EE.getIndexOperand()));
             }));
}

void ForwardModeSynthesizer::visitInsertElementInst(InsertElementInst &IE) {
  if (!AI.isActive(&IE))
    return;
  IRBuilderBase &B = *Builder;
  Value *Vec = tangent(IE.getOperand(0)), *Elt = tangent(IE.getOperand(1));
  setTangent(IE, lanes(B, IE.getType(), [&](unsigned K) {
               return B.CreateInsertElement(lane(B, Vec, K), lane(B, Elt, K),
                                            primal(IE.getOperand(2)));
             }));
}

void ForwardModeSynthesizer::visitShuffleVectorInst(ShuffleVectorInst &SV) {
  if (!AI.isActive(&SV))
    return;
  IRBuilderBase &B = *Builder;
  Value *V0 = tangent(SV.getOperand(0)), *V1 = tangent(SV.getOperand(1));
  setTangent(SV, lanes(B, SV.getType(), [&](unsigned K) {
               return B.CreateShuffleVector(lane(B, V0, K), lane(B, V1, K),
                                            SV.getShuffleMask());
             }));
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

void ForwardModeSynthesizer::visitStoreInst(StoreInst &SI) {
  IRBuilderBase &B = *Builder;
  Value *Val = SI.getValueOperand();
  Value *Ptr = SI.getPointerOperand();
  if (!AI.hasShadow(Ptr)) {
    // A derivative stored where it is read back but has no shadow would be
    // lost; one never read again is Enzyme's "constant output".
    if (losesDerivative(SI))
      reportLostStore(SI);
    return;
  }
  bool PackedDst = Packed.isPacked(Ptr);
  Value *SPtr = PackedDst ? packedShadow(Ptr) : shadowOf(Ptr, &SI);
  if (!SPtr)
    return;
  if (!PackedDst)
    checkStoreThroughConstant(SI, SPtr);
  Value *SVal = nullptr;
  if (Val->getType()->isPtrOrPtrVectorTy()) {
    if (!storesPointerShadow(SI))
      return;
    SVal = shadowToStore(B, Val, &SI);
  } else if (AI.isActive(Val) ||
             Val->getType()->getScalarType()->isFloatingPointTy()) {
    SVal = tangent(Val);
  } else if (Value *S = addressShadowToStore(B, SI)) {
    SVal = S;
  } else if (auto *From = dyn_cast<LoadInst>(Val);
             From && isCopyLoad(*From) &&
             AI.hasShadow(From->getPointerOperand())) {
    // Bytes an integer load only moves (an aggregate copy, a union's
    // integer member): their shadow moves with them, whether it holds
    // tangents, shadow pointers or nothing of use, as the load read it.
    Value *FromPtr = From->getPointerOperand();
    bool PackedSrc = Packed.isPacked(FromPtr);
    Value *S = PackedSrc ? packedShadow(FromPtr) : shadowOf(FromPtr, From);
    if (!S)
      return;
    IRBuilder<> LB(primal(From)->getNextNode());
    SVal = PackedSrc ? loadPacked(LB, Val->getType(), S)
                     : lanes(LB, Val->getType(), [&](unsigned K) {
                         return LB.CreateAlignedLoad(
                             Val->getType(), lane(LB, S, K), From->getAlign());
                       });
  } else if (overwritesFloats(SI)) {
    // An integer's bits replace a double's: no tangent there any more.
    SVal = lanes(B, Val->getType(), [&](unsigned) {
      return Constant::getNullValue(Val->getType());
    });
  } else {
    return;
  }
  if (!SVal)
    return;
  if (PackedDst)
    return storePacked(B, SVal, Val->getType(), SPtr);
  // Through a pointer that may be constant, a tangent store goes to a
  // scratch slot instead of the constant memory.
  Value *GP = RA.mayBeConstant(Ptr) ? primal(Ptr) : nullptr;
  for (unsigned K = 0; K < W; ++K) {
    Value *SK = lane(B, SPtr, K);
    if (GP)
      SK = guardedShadow(B, SK, GP, Val->getType());
    B.CreateAlignedStore(lane(B, SVal, K), SK, SI.getAlign(), SI.isVolatile());
    recordStoredPrimal(B, SK, primal(Val), SI.getAlign());
  }
}

void ForwardModeSynthesizer::visitMemIntrinsic(MemIntrinsic &MI) {
  IRBuilderBase &B = *Builder;
  if (!AI.hasShadow(MI.getDest())) {
    // As for stores: tangents copied where they are read back but there is
    // no shadow would be lost.
    if (auto *MT = dyn_cast<MemTransferInst>(&MI); MT && losesDerivative(*MT))
      reportLostStore(*MT, /*Copied=*/true);
    return;
  }
  if (Packed.isPacked(MI.getDest()))
    return packedMemIntrinsic(MI, B);
  if (auto *MT = dyn_cast<MemTransferInst>(&MI);
      MT && Packed.isPacked(MT->getSource()))
    return packedMemIntrinsic(MI, B);
  Value *Dst = shadowOf(MI.getDest(), &MI);
  if (!Dst)
    return;
  Value *Len = primal(MI.getLength());
  // Into a destination that may be constant, no tangent is written where
  // its shadow marks it so (runtime activity).
  Value *GD = RA.mayBeConstant(MI.getDest()) ? primal(MI.getDest()) : nullptr;
  auto ZeroTangents = [&] {
    for (unsigned K = 0; K < W; ++K) {
      Value *DK = lane(B, Dst, K);
      B.CreateMemSet(DK, B.getInt8(0), bytesUnlessConstant(B, Len, DK, GD),
                     MI.getDestAlign());
    }
  };
  auto *MT = dyn_cast<MemTransferInst>(&MI);
  // memset writes constants, and so does a copy from constant memory:
  // their tangent is zero.
  if (!MT)
    return ZeroTangents();
  // Pointers copied from constant memory are their own shadows.
  if (!AI.hasShadow(MT->getSource()) && copiesOnlyPointers(*MT))
    return copyConstantPointerShadows(B, *MT);
  if (!AI.hasShadow(MT->getSource()))
    return ZeroTangents();
  Value *Src = shadowOf(MT->getSource(), &MI);
  if (!Src)
    return;
  checkCopyThroughConstant(*MT);
  // From a source that may be constant, the shadow bytes copied are primal
  // values where its shadow marks it so: their tangents are zero.
  Value *GS =
      RA.mayBeConstant(MT->getSource()) ? primal(MT->getSource()) : nullptr;
  Function *ZeroFloats = nullptr;
  if (GS && !constantSourceZeroFn(*MT, ZeroFloats))
    return;
  for (unsigned K = 0; K < W; ++K) {
    Value *DK = lane(B, Dst, K), *SK = lane(B, Src, K);
    Value *N = bytesUnlessConstant(B, Len, DK, GD);
    if (isa<MemMoveInst>(MT))
      B.CreateMemMove(DK, MT->getDestAlign(), SK, MT->getSourceAlign(), N);
    else
      B.CreateMemCpy(DK, MT->getDestAlign(), SK, MT->getSourceAlign(), N);
    if (ZeroFloats)
      B.CreateCall(
          ZeroFloats,
          {DK, DK,
           B.CreateZExtOrTrunc(bytesIfConstant(B, N, SK, GS), B.getInt64Ty())});
  }
}

//===----------------------------------------------------------------------===//
// Call hooks
//===----------------------------------------------------------------------===//

void ForwardModeSynthesizer::visitCustomForward(CallBase &CB, Function &Fwd,
                                                IRBuilderBase &B) {
  Function &Callee = *CB.getCalledFunction();
  if (!checkCustomSignature(Callee, Fwd, "forward derivative",
                            forwardDerivativeType(Callee), &CB))
    return;
  // Inputs without derivatives: the primal call stays and the rule, which
  // may dereference every shadow, is not called (Analysis/InertCalls.h).
  if (receivesNoDerivative(CB, AI)) {
    if (AI.isActive(&CB))
      Tangents[&CB] = Constant::getNullValue(batchTy(CB.getType()));
    return;
  }
  // A registered scalar derivative serves batch mode lane by lane.
  SmallVector<Value *, 8> Tans;
  for (Value *Op : CB.args()) {
    Type *T = Op->getType();
    if (T->isFPOrFPVectorTy())
      Tans.push_back(tangent(Op));
    else if (T->isPointerTy())
      Tans.push_back(AI.hasShadow(Op) ? shadowOf(Op, &CB)
                                      : splatConstant(ConstantPointerNull::get(
                                                          cast<PointerType>(T)),
                                                      W));
    else
      Tans.push_back(nullptr);
  }
  if (Failed)
    return;
  SmallVector<Value *, 8> Results;
  for (unsigned K = 0; K < W; ++K) {
    SmallVector<Value *, 8> Args;
    for (unsigned I = 0; I < CB.arg_size(); ++I) {
      Args.push_back(primal(CB.getArgOperand(I)));
      if (Tans[I])
        Args.push_back(lane(B, Tans[I], K));
    }
    Results.push_back(B.CreateCall(&Fwd, Args));
  }
  if (AI.isActive(&CB))
    Tangents[&CB] = gatherLanes(B, CB.getType(), Results);
}

/// A call left in place by preparation (recursion) calls the callee's own
/// tangent function, which also returns the primal result.
void ForwardModeSynthesizer::visitDefinedCall(CallBase &CB, IRBuilderBase &B) {
  DiffRequest CR = calleeRequest(CB);
  if (hasNoDerivative(CR))
    return;
  CallSiteScope Via(CB);
  Function *D = CalleeDerivative(CR);
  if (!D) {
    Failed = true;
    return;
  }
  DerivativeSignature CS = computeSignature(CR);
  SmallVector<Value *, 8> Args;
  for (unsigned I = 0; I < CB.arg_size(); ++I) {
    Value *Op = CB.getArgOperand(I);
    Args.push_back(primal(Op));
    if (CS.ShadowArg[I] >= 0)
      Args.push_back(Op->getType()->isPointerTy() ? shadowOf(Op, &CB)
                                                  : tangent(Op));
  }
  if (Failed)
    return;
  CallInst *Call = B.CreateCall(D, Args);
  // The derivative runs the callee's primal work too: the original call
  // goes (its result taken from the derivative's).
  unsigned Next = 0;
  Instruction *GI = primal(&CB);
  if (CR.ReturnPrimal) {
    Value *Primal =
        CS.Results.size() == 1 ? (Value *)Call : B.CreateExtractValue(Call, 0);
    GI->replaceAllUsesWith(Primal);
    ++Next;
  }
  GI->eraseFromParent();
  if (CR.ReturnActive && CB.getType()->isPointerTy())
    Shadows[&CB] = CS.Results.size() == 1 ? (Value *)Call
                                          : B.CreateExtractValue(Call, Next);
  else if (CR.ReturnActive)
    Tangents[&CB] =
        fromResult(B,
                   CS.Results.size() == 1 ? (Value *)Call
                                          : B.CreateExtractValue(Call, Next),
                   CB.getType(), W);
}

void ForwardModeSynthesizer::finishTangentPhis() {
  for (BasicBlock &PB : P)
    for (PHINode &Phi : PB.phis()) {
      auto *TP = dyn_cast_or_null<PHINode>(Tangents.lookup(&Phi));
      if (!TP)
        continue;
      for (unsigned I = 0; I < Phi.getNumIncomingValues(); ++I)
        TP->addIncoming(tangent(Phi.getIncomingValue(I)),
                        primal(Phi.getIncomingBlock(I)));
    }
}

void ForwardModeSynthesizer::replaceReturn(ReturnInst &PRet) {
  auto *GRet = cast<ReturnInst>(primal(&PRet));
  IRBuilder<> B(GRet);
  SmallVector<Value *, 2> Results;
  Value *RV = PRet.getReturnValue();
  if (R.ReturnPrimal && RV)
    Results.push_back(primal(RV));
  if (R.ReturnActive && RV->getType()->isPointerTy()) {
    // A recursive callee's pointer result (calleeRequest): its shadow.
    if (unshadowedReturn(RV)) {
      failUnshadowedReturn(&PRet);
      return;
    }
    Results.push_back(shadowOf(RV, &PRet));
  } else if (R.ReturnActive) {
    Results.push_back(toResult(B, tangent(RV), RV->getType(), W));
  }
  emitResultReturn(B, Sig, Results);
  GRet->eraseFromParent();
}

} // namespace tapestry
