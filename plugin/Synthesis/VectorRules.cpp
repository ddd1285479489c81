//===- VectorRules.cpp - Derivatives of vector operations -----------------===//
//
// Implements VectorRules.h: classifyVectorCall, the IR helpers (lane shifts,
// exclusive products, the lane a max or min selected, a shuffle's adjoint), and
// the vector parts of both synthesizers, ForwardModeSynthesizer's
// visitVectorCall and ReverseModeSynthesizer's reverseVectorCall and
// reverseShuffle, kept here so that each mode's file holds its scalar visitor
// only.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/VectorRules.h"

#include "Core/Diagnostics.h"
#include "Core/MathFunctions.h"
#include "Synthesis/ForwardModeSynthesizer.h"
#include "Synthesis/ReverseModeSynthesizer.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace tapestry {

VectorOp classifyVectorCall(const CallBase &CB) {
  auto *II = dyn_cast<IntrinsicInst>(&CB);
  if (!II)
    return VectorOp::None;
  // Only floating-point data (or pointers to it) carries derivatives; the
  // integer reductions and masked accesses are left to the activity
  // analysis, which finds them inactive.
  auto FP = [](const Value *V) { return V->getType()->isFPOrFPVectorTy(); };
  switch (II->getIntrinsicID()) {
  case Intrinsic::vector_reduce_fadd:
    return VectorOp::ReduceFAdd;
  case Intrinsic::vector_reduce_fmul:
    return VectorOp::ReduceFMul;
  case Intrinsic::vector_reduce_fmax:
  case Intrinsic::vector_reduce_fmin:
  case Intrinsic::vector_reduce_fmaximum:
  case Intrinsic::vector_reduce_fminimum:
    return VectorOp::ReduceSelect;
  case Intrinsic::masked_load:
    return VectorOp::MaskedLoad;
  case Intrinsic::masked_gather:
    return VectorOp::Gather;
  case Intrinsic::masked_store:
    return VectorOp::MaskedStore;
  case Intrinsic::masked_scatter:
    return VectorOp::Scatter;
  case Intrinsic::vector_extract:
    return FP(II) ? VectorOp::Extract : VectorOp::None;
  case Intrinsic::vector_insert:
    return FP(II) ? VectorOp::Insert : VectorOp::None;
  case Intrinsic::vector_reverse:
    return FP(II) ? VectorOp::Reverse : VectorOp::None;
  default:
    return VectorOp::None;
  }
}

/// Lane i of \p V moved to lane i + \p Shift (negative: towards lane 0),
/// lanes moved in from outside taking \p Fill's.
static Value *shiftLanes(IRBuilderBase &B, Value *V, int Shift, Value *Fill) {
  unsigned N = cast<FixedVectorType>(V->getType())->getNumElements();
  SmallVector<int, 16> Mask;
  for (int I = 0; I < (int)N; ++I) {
    int From = I - Shift;
    Mask.push_back(From >= 0 && From < (int)N ? From : (int)N);
  }
  return B.CreateShuffleVector(V, Fill, Mask);
}

Value *exclusiveProducts(IRBuilderBase &B, Value *V) {
  unsigned N = cast<FixedVectorType>(V->getType())->getNumElements();
  Value *One = ConstantFP::get(V->getType(), 1.0);
  // Inclusive prefix and suffix products in log2(N) steps, then each
  // shifted by one lane: lane i gets v[0..i-1] times v[i+1..N-1].
  Value *Pre = V, *Suf = V;
  for (unsigned S = 1; S < N; S *= 2) {
    Pre = B.CreateFMul(Pre, shiftLanes(B, Pre, S, One));
    Suf = B.CreateFMul(Suf, shiftLanes(B, Suf, -(int)S, One));
  }
  return B.CreateFMul(shiftLanes(B, Pre, 1, One), shiftLanes(B, Suf, -1, One));
}

Value *selectedLane(IRBuilderBase &B, Value *V, Value *Y) {
  auto *VT = cast<FixedVectorType>(V->getType());
  unsigned N = VT->getNumElements();
  Value *Equal = B.CreateFCmpOEQ(V, B.CreateVectorSplat(N, Y));
  // The first lane that is set: count trailing zeros of the mask's bits
  // (N if none), then compare with each lane's index.
  Type *Bits = B.getIntNTy(N);
  Value *First = B.CreateBinaryIntrinsic(
      Intrinsic::cttz, B.CreateBitCast(Equal, Bits), B.getFalse());
  SmallVector<Constant *, 16> Index;
  for (unsigned I = 0; I < N; ++I)
    Index.push_back(ConstantInt::get(Bits, I));
  return B.CreateICmpEQ(ConstantVector::get(Index),
                        B.CreateVectorSplat(N, First));
}

Value *shuffleAdjoint(IRBuilderBase &B, Value *D, ArrayRef<int> Mask,
                      unsigned InWidth, unsigned Operand) {
  auto *OutTy = cast<FixedVectorType>(D->getType());
  unsigned Out = OutTy->getNumElements();
  Type *InTy = FixedVectorType::get(OutTy->getElementType(), InWidth);
  // Where each input lane of this operand was copied to.
  SmallVector<SmallVector<int, 2>, 16> Copies(InWidth);
  unsigned Rounds = 0, Used = 0;
  for (unsigned J = 0; J < Out; ++J) {
    int M = Mask[J];
    if (M < 0 || (unsigned)M / InWidth != Operand)
      continue; // poison lanes, or the other operand's
    auto &C = Copies[M % InWidth];
    C.push_back(J);
    Rounds = std::max<unsigned>(Rounds, C.size());
    Used += C.size() == 1;
  }
  Constant *Zero = Constant::getNullValue(OutTy);
  if (Rounds == 0)
    return Constant::getNullValue(InTy);
  if (Used == 1 && Rounds > 2) {
    // A broadcast: one input lane sums many result lanes.
    unsigned Lane = 0;
    while (Copies[Lane].empty())
      ++Lane;
    SmallVector<int, 16> Keep(Out, (int)Out);
    for (int J : Copies[Lane])
      Keep[J] = J;
    Value *Kept = B.CreateShuffleVector(D, Zero, Keep);
    Value *Sum = B.CreateFAddReduce(
        ConstantFP::getNegativeZero(InTy->getScalarType()), Kept);
    cast<Instruction>(Sum)->setHasAllowReassoc(true);
    return B.CreateInsertElement(Constant::getNullValue(InTy), Sum,
                                 B.getInt64(Lane));
  }
  // Round R moves each input lane's R-th copy back (or a zero lane).
  Value *Acc = nullptr;
  for (unsigned R = 0; R < Rounds; ++R) {
    SmallVector<int, 16> Back;
    for (unsigned I = 0; I < InWidth; ++I)
      Back.push_back(R < Copies[I].size() ? Copies[I][R] : (int)Out);
    Value *Part = B.CreateShuffleVector(D, Zero, Back);
    Acc = Acc ? B.CreateFAdd(Acc, Part) : Part;
  }
  return Acc;
}

std::string vectorLibraryHint(const Function &F) {
  if (!F.isDeclaration())
    return "";
  StringRef Name = F.getName();
  std::string Shown = "'" + Name.str() + "'";
  if (VectorVariant V = parseVectorVariant(Name))
    return Shown + " is the " + std::to_string(V.Lanes) +
           "-lane vector variant of '" + V.ScalarName.str() +
           "', which Tapestry has no derivative for; give '" +
           V.ScalarName.str() +
           "' a derivative, or compile without -fveclib (or "
           "#pragma omp declare simd) so that it is called lane by lane";
  StringRef Lib = StringSwitch<StringRef>(Name)
                      .StartsWith("__svml_", "SVML")
                      .StartsWith("amd_vr", "AMDLIBM")
                      .StartsWith("_simd_", "Darwin_libsystem_m")
                      .StartsWith("armpl_", "ArmPL")
                      .StartsWith("Sleef_", "SLEEF")
                      .Default("");
  if (Lib.empty() && Name.starts_with("__") && F.getReturnType()->isVectorTy())
    Lib = "MASSV";
  if (Lib.empty())
    return "";
  return Shown + " is a vector math routine of " + Lib.str() +
         ", which the loop vectoriser calls when compiling with -fveclib=" +
         Lib.str() +
         "; Tapestry has no derivative for it: compile without "
         "-fveclib=" +
         Lib.str() +
         " (or with -fveclib=libmvec, whose _ZGV... variants it knows)";
}

//===----------------------------------------------------------------------===//
// Forward mode
//===----------------------------------------------------------------------===//

/// The alignment operand of a masked memory intrinsic.
static Align alignOf(const CallBase &CB, unsigned Op) {
  return cast<ConstantInt>(CB.getArgOperand(Op))->getAlignValue();
}

void ForwardModeSynthesizer::visitVectorCall(CallBase &CB, IRBuilderBase &B) {
  VectorOp Op = classifyVectorCall(CB);
  Type *Ty = CB.getType();
  auto Arg = [&](unsigned I) { return CB.getArgOperand(I); };
  auto Lane = [&](Value *PV, unsigned K) { return lane(B, tangent(PV), K); };
  // Stores write the shadow whether or not the value is active: zero
  // tangents overwrite what the shadow held.
  if (Op == VectorOp::MaskedStore || Op == VectorOp::Scatter) {
    Value *Val = Arg(0), *Ptr = Arg(1);
    if (Val->getType()->isPtrOrPtrVectorTy())
      return storePointerShadows(B, CB);
    if (!AI.hasShadow(Ptr))
      return;
    Value *SPtr = shadowOf(Ptr, &CB);
    Value *SVal = tangent(Val);
    if (!SPtr || !SVal)
      return;
    Align A = alignOf(CB, 2);
    Value *Mask = primal(Arg(3));
    for (unsigned K = 0; K < W; ++K) {
      if (Op == VectorOp::MaskedStore)
        B.CreateMaskedStore(lane(B, SVal, K), lane(B, SPtr, K), A, Mask);
      else
        B.CreateMaskedScatter(lane(B, SVal, K), lane(B, SPtr, K), A, Mask);
    }
    return;
  }
  if (!AI.isActive(&CB))
    return;
  Value *T = nullptr;
  switch (Op) {
  case VectorOp::ReduceFAdd:
    T = lanes(B, Ty, [&](unsigned K) {
      Value *R = B.CreateFAddReduce(Lane(Arg(0), K), Lane(Arg(1), K));
      cast<Instruction>(R)->copyFastMathFlags(&CB);
      return R;
    });
    break;
  case VectorOp::ReduceFMul: {
    // y = s * prod(v): dy = ds * prod(v) + s * sum_i dv_i * prod_{j!=i} v_j.
    Value *V = primal(Arg(1)), *S = primal(Arg(0));
    Value *Prod = nullptr, *Excl = nullptr;
    if (AI.isActive(Arg(0))) {
      Prod = B.CreateFMulReduce(ConstantFP::get(Ty, 1.0), V);
      cast<Instruction>(Prod)->copyFastMathFlags(&CB);
    }
    if (AI.isActive(Arg(1)))
      Excl = exclusiveProducts(B, V);
    T = lanes(B, Ty, [&](unsigned K) {
      Value *Sum = ConstantFP::get(Ty, 0.0);
      if (Prod)
        Sum = B.CreateFMul(Lane(Arg(0), K), Prod);
      if (Excl) {
        Value *Dot = B.CreateFAddReduce(ConstantFP::getNegativeZero(Ty),
                                        B.CreateFMul(Excl, Lane(Arg(1), K)));
        cast<Instruction>(Dot)->setHasAllowReassoc(true);
        Sum = B.CreateFAdd(Sum, B.CreateFMul(S, Dot));
      }
      return Sum;
    });
    break;
  }
  case VectorOp::ReduceSelect: {
    Value *V = primal(Arg(0));
    Value *Chosen = selectedLane(B, V, primal(&CB));
    Value *Zero = Constant::getNullValue(V->getType());
    T = lanes(B, Ty, [&](unsigned K) {
      Value *R =
          B.CreateFAddReduce(ConstantFP::getNegativeZero(Ty),
                             B.CreateSelect(Chosen, Lane(Arg(0), K), Zero));
      cast<Instruction>(R)->setHasAllowReassoc(true);
      return R;
    });
    break;
  }
  case VectorOp::MaskedLoad:
  case VectorOp::Gather: {
    Value *Ptr = Arg(0), *Mask = primal(Arg(2)), *Pass = Arg(3);
    Align A = alignOf(CB, 1);
    Value *SPtr = AI.hasShadow(Ptr) ? shadowOf(Ptr, &CB) : nullptr;
    // Lanes whose pointer may be constant (runtime activity) read zero
    // where their shadow equals the pointer.
    Value *GP =
        Op == VectorOp::Gather && RA.mayBeConstant(Ptr) ? primal(Ptr) : nullptr;
    T = lanes(B, Ty, [&](unsigned K) -> Value * {
      if (!SPtr)
        return B.CreateSelect(Mask, Constant::getNullValue(Ty), Lane(Pass, K));
      if (Op == VectorOp::MaskedLoad)
        return B.CreateMaskedLoad(Ty, lane(B, SPtr, K), A, Mask, Lane(Pass, K));
      Value *G =
          B.CreateMaskedGather(Ty, lane(B, SPtr, K), A, Mask, Lane(Pass, K));
      if (!GP)
        return G;
      return B.CreateSelect(
          B.CreateAnd(Mask, isConstantShadow(B, lane(B, SPtr, K), GP)),
          Constant::getNullValue(Ty), G);
    });
    break;
  }
  case VectorOp::Extract:
  case VectorOp::Insert:
  case VectorOp::Reverse: {
    // The same lane moves on the tangents.
    T = lanes(B, Ty, [&](unsigned K) {
      SmallVector<Value *, 3> Args;
      for (Value *A : CB.args())
        Args.push_back(A->getType()->isFPOrFPVectorTy() ? Lane(A, K)
                                                        : primal(A));
      SmallVector<Type *, 2> Tys{Ty};
      if (Op != VectorOp::Reverse)
        Tys.push_back(Args[Op == VectorOp::Insert ? 1 : 0]->getType());
      return B.CreateIntrinsic(cast<IntrinsicInst>(CB).getIntrinsicID(), Tys,
                               Args);
    });
    break;
  }
  default:
    return;
  }
  T->setName(CB.getName() + "'");
  Tangents[&CB] = T;
}

//===----------------------------------------------------------------------===//
// Reverse mode
//===----------------------------------------------------------------------===//

void ReverseModeSynthesizer::reverseShuffle(ShuffleVectorInst &SV,
                                            IRBuilderBase &B) {
  Value *D = takeAdjoint(&SV, B);
  unsigned In =
      cast<FixedVectorType>(SV.getOperand(0)->getType())->getNumElements();
  for (unsigned Op = 0; Op < 2; ++Op) {
    Value *PV = SV.getOperand(Op);
    if (!AI.isActive(PV))
      continue;
    addAdjoint(PV,
               lanes(B, PV->getType(),
                     [&](unsigned K) {
                       return shuffleAdjoint(B, lane(B, D, K),
                                             SV.getShuffleMask(), In, Op);
                     }),
               B);
  }
}

void ReverseModeSynthesizer::reverseVectorCall(CallBase &CB, IRBuilderBase &B) {
  VectorOp Op = classifyVectorCall(CB);
  BasicBlock *PB = CB.getParent();
  Type *Ty = CB.getType();
  auto Arg = [&](unsigned I) { return CB.getArgOperand(I); };
  auto Lookup = [&](Value *PV) { return lookup(primal(PV), PB, B); };
  auto ShadowArg = [&](Value *PV) -> Value * {
    if (!AI.hasShadow(PV))
      return nullptr;
    Value *S = shadowOf(PV, &CB);
    return S ? lookup(S, PB, B) : nullptr;
  };
  // A store moved the value's adjoint into the shadow memory it wrote,
  // which takes it back and is zeroed (the memory was overwritten).
  if (Op == VectorOp::MaskedStore || Op == VectorOp::Scatter) {
    Value *Val = Arg(0);
    Type *VT = Val->getType();
    if (!VT->isFPOrFPVectorTy())
      return;
    Value *S = ShadowArg(Arg(1));
    if (!S)
      return;
    Align A = alignOf(CB, 2);
    Value *Mask = Lookup(Arg(3));
    Constant *Zero = Constant::getNullValue(VT);
    if (Op == VectorOp::MaskedStore) {
      Value *D = lanes(B, VT, [&](unsigned K) {
        Value *SK = lane(B, S, K);
        Value *DK = B.CreateMaskedLoad(VT, SK, A, Mask, Zero);
        B.CreateMaskedStore(Zero, SK, A, Mask);
        return DK;
      });
      addAdjoint(Val, D, B);
      return;
    }
    // Where lanes of a scatter write the same address the last one wins:
    // going back from the last lane, each takes what is there and leaves
    // zero for the earlier ones. Masked-off lanes use a scratch slot.
    unsigned N = cast<FixedVectorType>(VT)->getNumElements();
    Type *ET = VT->getScalarType();
    AllocaInst *Scratch = entryAlloca(ET, "scatter.scratch");
    Align EA = std::min(A, Scratch->getAlign());
    Constant *EZero = Constant::getNullValue(ET);
    Value *D = lanes(B, VT, [&](unsigned K) {
      Value *SK = lane(B, S, K), *DK = Zero;
      for (unsigned I = N; I-- > 0;) {
        Value *On = B.CreateExtractElement(Mask, B.getInt64(I));
        Value *Addr = B.CreateSelect(
            On, B.CreateExtractElement(SK, B.getInt64(I)), Scratch);
        Value *Old = B.CreateAlignedLoad(ET, Addr, EA);
        B.CreateAlignedStore(EZero, Addr, EA);
        DK = B.CreateInsertElement(DK, B.CreateSelect(On, Old, EZero),
                                   B.getInt64(I));
      }
      return DK;
    });
    addAdjoint(Val, D, B);
    return;
  }
  if (!AI.isActive(&CB))
    return;
  Value *D = takeAdjoint(&CB, B);
  switch (Op) {
  case VectorOp::ReduceFAdd: {
    // Every term of the sum gets the result's adjoint.
    addAdjoint(Arg(0), D, B);
    Type *VT = Arg(1)->getType();
    unsigned N = cast<FixedVectorType>(VT)->getNumElements();
    addAdjoint(Arg(1),
               lanes(B, VT,
                     [&](unsigned K) {
                       return B.CreateVectorSplat(N, lane(B, D, K));
                     }),
               B);
    return;
  }
  case VectorOp::ReduceFMul: {
    Value *V = Lookup(Arg(1));
    Type *VT = V->getType();
    unsigned N = cast<FixedVectorType>(VT)->getNumElements();
    // A zero adjoint contributes zero even where a product overflowed; a
    // finite product is kept, with its derivative for an outer derivative
    // (see ReverseModeSynthesizer::reverseRule).
    auto Guard = [&](Value *DK, Value *Delta) {
      Value *IsZero = B.CreateFCmpOEQ(DK, ConstantFP::get(Ty, 0.0));
      if (Delta->getType()->isVectorTy())
        IsZero = B.CreateVectorSplat(N, IsZero);
      Value *Drop = B.CreateAnd(IsZero, B.CreateFCmpUNO(Delta, Delta));
      return B.CreateSelect(Drop, Constant::getNullValue(Delta->getType()),
                            Delta);
    };
    if (AI.isActive(Arg(0))) {
      Value *Prod = B.CreateFMulReduce(ConstantFP::get(Ty, 1.0), V);
      cast<Instruction>(Prod)->copyFastMathFlags(&CB);
      addAdjoint(Arg(0),
                 lanes(B, Ty,
                       [&](unsigned K) {
                         Value *DK = lane(B, D, K);
                         return Guard(DK, B.CreateFMul(DK, Prod));
                       }),
                 B);
    }
    if (AI.isActive(Arg(1))) {
      Value *Excl = exclusiveProducts(B, V);
      Value *S = Lookup(Arg(0));
      addAdjoint(Arg(1),
                 lanes(B, VT,
                       [&](unsigned K) {
                         Value *DK = lane(B, D, K);
                         Value *Scale =
                             B.CreateVectorSplat(N, B.CreateFMul(DK, S));
                         return Guard(DK, B.CreateFMul(Scale, Excl));
                       }),
                 B);
    }
    return;
  }
  case VectorOp::ReduceSelect: {
    Value *V = Lookup(Arg(0));
    Value *Chosen = selectedLane(B, V, lookup(primal(&CB), PB, B));
    Type *VT = V->getType();
    unsigned N = cast<FixedVectorType>(VT)->getNumElements();
    addAdjoint(Arg(0),
               lanes(B, VT,
                     [&](unsigned K) {
                       return B.CreateSelect(
                           Chosen, B.CreateVectorSplat(N, lane(B, D, K)),
                           Constant::getNullValue(VT));
                     }),
               B);
    return;
  }
  case VectorOp::MaskedLoad:
  case VectorOp::Gather: {
    Value *Mask = Lookup(Arg(2));
    Constant *Zero = Constant::getNullValue(Ty);
    // Masked-off lanes came from the pass-through value.
    addAdjoint(Arg(3),
               lanes(B, Ty,
                     [&](unsigned K) {
                       return B.CreateSelect(Mask, Zero, lane(B, D, K));
                     }),
               B);
    Value *S = ShadowArg(Arg(0));
    if (!S)
      return;
    Align A = alignOf(CB, 1);
    if (Op == VectorOp::MaskedLoad) {
      for (unsigned K = 0; K < W; ++K) {
        Value *SK = lane(B, S, K);
        Value *Old = B.CreateMaskedLoad(Ty, SK, A, Mask, Zero);
        B.CreateMaskedStore(B.CreateFAdd(Old, lane(B, D, K)), SK, A, Mask);
      }
      return;
    }
    // Lanes of a gather may read the same address: their adjoints add up
    // one lane at a time. Masked-off lanes use a scratch slot.
    unsigned N = cast<FixedVectorType>(Ty)->getNumElements();
    Type *ET = Ty->getScalarType();
    AllocaInst *Scratch = entryAlloca(ET, "gather.scratch");
    Align EA = std::min(A, Scratch->getAlign());
    // A lane whose pointer may be constant (runtime activity) uses the
    // scratch slot where its shadow equals the pointer.
    Value *GP = RA.mayBeConstant(Arg(0)) ? Lookup(Arg(0)) : nullptr;
    for (unsigned K = 0; K < W; ++K) {
      Value *SK = lane(B, S, K), *DK = lane(B, D, K);
      Value *On = Mask;
      if (GP)
        On = B.CreateAnd(On, B.CreateNot(isConstantShadow(B, SK, GP)));
      for (unsigned I = 0; I < N; ++I) {
        Value *Idx = B.getInt64(I);
        Value *Addr = B.CreateSelect(B.CreateExtractElement(On, Idx),
                                     B.CreateExtractElement(SK, Idx), Scratch);
        Value *Old = B.CreateAlignedLoad(ET, Addr, EA);
        B.CreateAlignedStore(B.CreateFAdd(Old, B.CreateExtractElement(DK, Idx)),
                             Addr, EA);
      }
    }
    return;
  }
  case VectorOp::Extract: {
    // The subvector's adjoint goes back where it was taken from.
    Value *Vec = Arg(0);
    Type *VT = Vec->getType();
    addAdjoint(Vec,
               lanes(B, VT,
                     [&](unsigned K) {
                       return B.CreateInsertVector(VT,
                                                   Constant::getNullValue(VT),
                                                   lane(B, D, K), Arg(1));
                     }),
               B);
    return;
  }
  case VectorOp::Insert: {
    Value *Sub = Arg(1);
    Type *ST = Sub->getType();
    addAdjoint(Sub,
               lanes(B, ST,
                     [&](unsigned K) {
                       return B.CreateExtractVector(ST, lane(B, D, K), Arg(2));
                     }),
               B);
    addAdjoint(Arg(0),
               lanes(B, Ty,
                     [&](unsigned K) {
                       return B.CreateInsertVector(Ty, lane(B, D, K),
                                                   Constant::getNullValue(ST),
                                                   Arg(2));
                     }),
               B);
    return;
  }
  case VectorOp::Reverse:
    addAdjoint(
        Arg(0),
        lanes(B, Ty,
              [&](unsigned K) { return B.CreateVectorReverse(lane(B, D, K)); }),
        B);
    return;
  default:
    return;
  }
}

} // namespace tapestry
