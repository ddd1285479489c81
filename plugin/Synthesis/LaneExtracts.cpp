//===- LaneExtracts.cpp - Vector lanes read through integers --------------===//
//
// Implements LaneExtracts.h: restoreLaneExtracts finds each bitcast of an
// integer made by a shift and a truncation of a bitcast floating-point vector,
// and replaces the chain by the extractelement or shufflevector it stands for.
// An integer phi of such bitcasts (GVN's PRE of the bitcast) first becomes a
// phi of the vectors, bitcast once after it, so the chain reaches the vector.
// Primal preparation runs it as part of simplification; it changes no value,
// only the form AD sees.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/LaneExtracts.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace tapestry {

/// A read of lanes of a floating-point vector through integers, ending in
/// \p BC (`bitcast iE to T`): the vector, the first lane and the number of
/// lanes (T is the element type, or a vector of it).
struct LaneRead {
  Value *Vec;
  unsigned First, Count;
};

std::optional<ShiftedBits> shiftedBitsOf(Value *V) {
  if (!V->getType()->isIntegerTy())
    return std::nullopt;
  SmallVector<Instruction *, 4> Steps;
  Value *Root = V;
  for (;;) {
    Value *Inner = nullptr;
    const APInt *C;
    if (!(match(Root, m_LShr(m_Value(Inner), m_APInt(C))) ||
          match(Root, m_Trunc(m_Value(Inner)))))
      break;
    if (Steps.size() == 8)
      return std::nullopt;
    Steps.push_back(cast<Instruction>(Root));
    Root = Inner;
  }
  // From the root up: the value's bit 0 is the root's bit Shift, and its
  // low Valid bits are the root's (above them, zeros a shift brought in).
  uint64_t Shift = 0, Valid = Root->getType()->getPrimitiveSizeInBits();
  for (Instruction *Step : reverse(Steps)) {
    if (isa<TruncInst>(Step)) {
      Valid = std::min<uint64_t>(Valid, Step->getType()->getIntegerBitWidth());
      continue;
    }
    uint64_t By = cast<ConstantInt>(Step->getOperand(1))->getLimitedValue();
    if (By >= Valid)
      return std::nullopt;
    Shift += By;
    Valid -= By;
  }
  if (Valid < V->getType()->getIntegerBitWidth())
    return std::nullopt;
  return ShiftedBits{Root, Shift};
}

static std::optional<LaneRead> laneRead(BitCastInst &BC) {
  Type *T = BC.getType();
  if (!T->isFPOrFPVectorTy() || isa<ScalableVectorType>(T) ||
      !isa<TruncInst>(BC.getOperand(0)))
    return std::nullopt;
  // GVN reads a lane of a narrower store of the vector's low lanes as
  // `lshr (trunc i512 to i256), 128`: any shifts and truncations.
  auto Bits = shiftedBitsOf(BC.getOperand(0));
  Value *Vec = nullptr;
  if (!Bits || !match(Bits->Root, m_BitCast(m_Value(Vec))))
    return std::nullopt;
  auto *VT = dyn_cast<FixedVectorType>(Vec->getType());
  if (!VT || VT->getElementType() != T->getScalarType())
    return std::nullopt;
  uint64_t Shift = Bits->Shift, LaneBits = T->getScalarSizeInBits();
  auto *RT = dyn_cast<FixedVectorType>(T);
  unsigned Count = RT ? RT->getNumElements() : 1;
  if (Shift % LaneBits || Shift / LaneBits + Count > VT->getNumElements())
    return std::nullopt;
  return LaneRead{Vec, static_cast<unsigned>(Shift / LaneBits), Count};
}

/// Rewrites each integer phi whose incoming values are all bitcasts of
/// floating-point values of one type (or the phi itself) as a phi of those
/// values and one bitcast after it: GVN's PRE leaves `phi i512 [bitcast
/// <8 x double> %a to i512], [bitcast <8 x double> %b to i512]` ahead of a
/// lane read, and `phi i64` of a double's bitcast and an i64 load of
/// another double ahead of the store of the copied double (the load is made
/// one of the value's type; retypeBitcastCopies then stores the double).
/// Runs to a fixed point, so phis of such phis follow.
static bool floatPhisOfBitcasts(Function &F) {
  bool Changed = false, Again = true;
  while (Again) {
    Again = false;
    SmallVector<PHINode *, 4> Phis;
    for (BasicBlock &BB : F)
      for (PHINode &P : BB.phis())
        if (P.getType()->isIntegerTy())
          Phis.push_back(&P);
    for (PHINode *P : Phis) {
      Type *VT = nullptr;
      SmallVector<Value *, 4> Vecs;
      for (Value *In : P->incoming_values()) {
        Value *Src = nullptr;
        // The phi itself, and integer loads of the memory the value came
        // from on another path (loaded again as the value's type below).
        if (In == P || (isa<LoadInst>(In) && cast<LoadInst>(In)->isSimple())) {
          Vecs.push_back(In == P ? nullptr : In);
          continue;
        }
        if (!match(In, m_BitCast(m_Value(Src))))
          break;
        Type *T = Src->getType();
        if (!T->isFPOrFPVectorTy() || isa<ScalableVectorType>(T) ||
            (VT && T != VT))
          break;
        VT = T;
        Vecs.push_back(Src);
      }
      if (!VT || Vecs.size() != P->getNumIncomingValues())
        continue;
      for (Value *&V : Vecs)
        if (auto *LI = dyn_cast_or_null<LoadInst>(V)) {
          IRBuilder<> LB(LI->getNextNode());
          LoadInst *Again =
              LB.CreateAlignedLoad(VT, LI->getPointerOperand(), LI->getAlign(),
                                   LI->getName() + ".fp");
          Again->setDebugLoc(LI->getDebugLoc());
          V = Again;
        }
      IRBuilder<> B(P);
      PHINode *VP = B.CreatePHI(VT, Vecs.size(), P->getName() + ".lanes");
      for (unsigned I = 0, E = Vecs.size(); I != E; ++I)
        VP->addIncoming(Vecs[I] ? Vecs[I] : VP, P->getIncomingBlock(I));
      B.SetInsertPoint(P->getParent(), P->getParent()->getFirstInsertionPt());
      Value *Int = B.CreateBitCast(VP, P->getType(), P->getName());
      // The old bitcasts go when nothing else reads them (handles, since
      // one may be listed twice).
      SmallVector<WeakTrackingVH, 4> Casts;
      for (Value *In : P->incoming_values())
        if (In != P)
          Casts.push_back(In);
      P->replaceAllUsesWith(Int);
      P->eraseFromParent();
      for (WeakTrackingVH &C : Casts)
        if (C)
          RecursivelyDeleteTriviallyDeadInstructions(C);
      Again = Changed = true;
    }
  }
  return Changed;
}

/// Whether \p Int, shifted and truncated further, becomes a floating-point
/// value again: then it is a lane read, left to restoreLaneExtracts (loaded
/// again as an integer, the value would lose its derivative).
static bool shiftedIntoFloatingPoint(Instruction &Int) {
  SmallVector<Instruction *, 8> Work = {&Int};
  SmallPtrSet<Instruction *, 8> Seen;
  while (!Work.empty()) {
    Instruction *I = Work.pop_back_val();
    if (!Seen.insert(I).second || Seen.size() > 32)
      continue;
    for (User *U : I->users()) {
      auto *UI = dyn_cast<Instruction>(U);
      if (!UI)
        continue;
      if (isa<BitCastInst>(UI) && UI->getType()->isFPOrFPVectorTy())
        return true;
      if (isa<TruncInst>(UI) || UI->getOpcode() == Instruction::LShr)
        Work.push_back(UI);
    }
  }
  return false;
}

/// Rewrites each value read out of a loaded floating-point vector through
/// integers as a load of that value from the same bytes, where the wide load
/// reads them (the same memory state):
///  - an integer (`trunc (lshr (bitcast (load <16 x double> %p) to i1024),
///    320) to i32`: GVN forwarding a wide load to the narrow loads of a
///    struct's int members that it covers), which is then the memory's own,
///    not bits taken out of a floating-point value;
///  - a floating-point value of another type than the vector's lanes
///    (doubles of a {float; double; double} struct read out of a
///    <16 x float>, bitcast back from i64 or i128).
/// Values of the lanes' own type are left to the lane extracts below.
static bool reloadReadsOfLoadedBytes(Function &F) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  struct Read {
    TruncInst *Tr;
    LoadInst *Ld;
    uint64_t Offset;
    Type *T; // what to load: the integer, or the type it is bitcast to
  };
  SmallVector<Read, 4> Reads;
  for (Instruction &I : instructions(F)) {
    auto *Tr = dyn_cast<TruncInst>(&I);
    if (!Tr || !Tr->getType()->isIntegerTy() ||
        Tr->getType()->getIntegerBitWidth() % 8)
      continue;
    Value *Wide = Tr->getOperand(0);
    uint64_t Shift = 0;
    const APInt *C;
    if (match(Wide, m_LShr(m_Value(Wide), m_APInt(C))))
      Shift = C->getLimitedValue();
    Value *Vec = nullptr;
    if (Shift % 8 || !match(Wide, m_BitCast(m_Value(Vec))))
      continue;
    auto *Ld = dyn_cast<LoadInst>(Vec);
    auto *VT = Ld ? dyn_cast<FixedVectorType>(Ld->getType()) : nullptr;
    if (!VT || !VT->getElementType()->isFloatingPointTy() || !Ld->isSimple() ||
        Shift + Tr->getType()->getIntegerBitWidth() >
            DL.getTypeSizeInBits(VT).getFixedValue())
      continue;
    // What the bits become: all bitcasts to one type, or integers.
    Type *As = nullptr;
    bool AllCasts = !Tr->use_empty();
    for (User *U : Tr->users()) {
      auto *BC = dyn_cast<BitCastInst>(U);
      AllCasts &= BC && (!As || BC->getType() == As);
      if (BC && !As)
        As = BC->getType();
    }
    if (AllCasts) {
      if (!As->isFPOrFPVectorTy() ||
          As->getScalarType() == VT->getElementType())
        continue; // lanes of the vector's type: restoreLaneExtracts
    } else if (any_of(Tr->users(),
                      [](User *U) { return isa<BitCastInst>(U); }) ||
               shiftedIntoFloatingPoint(*Tr)) {
      continue;
    } else {
      As = Tr->getType();
    }
    Reads.push_back({Tr, Ld, Shift / 8, As});
  }
  for (const Read &R : Reads) {
    IRBuilder<> B(R.Ld->getNextNode());
    Value *Addr = B.CreateConstInBoundsGEP1_64(
        B.getInt8Ty(), R.Ld->getPointerOperand(), R.Offset);
    LoadInst *Again = B.CreateAlignedLoad(
        R.T, Addr, commonAlignment(R.Ld->getAlign(), R.Offset),
        R.Tr->getName() + ".reloaded");
    Again->setDebugLoc(R.Ld->getDebugLoc());
    if (R.T == R.Tr->getType()) {
      R.Tr->replaceAllUsesWith(Again);
    } else {
      SmallVector<User *, 2> Casts(R.Tr->users());
      for (User *U : Casts) {
        cast<Instruction>(U)->replaceAllUsesWith(Again);
        cast<Instruction>(U)->eraseFromParent();
      }
    }
    RecursivelyDeleteTriviallyDeadInstructions(R.Tr);
  }
  return !Reads.empty();
}

/// \p V, a shuffle operand of type <M x iK>, as the vector of \p Lanes
/// floating-point lanes of type \p FT it was bitcast from (or poison, or a
/// constant bitcast to that type), or null.
static Value *floatingPointSource(Value *V, Type *FT, unsigned Lanes) {
  auto *VT = FixedVectorType::get(FT, Lanes);
  if (isa<PoisonValue>(V) || isa<UndefValue>(V))
    return PoisonValue::get(VT);
  // -O0's preparation leaves chains of bitcasts (<2 x double> to <2 x i64>
  // to <4 x i32>).
  for (Value *Src = V; match(Src, m_BitCast(m_Value(Src)));)
    if (Src->getType() == VT)
      return Src;
  if (auto *C = dyn_cast<Constant>(V))
    return ConstantExpr::getBitCast(C, VT);
  return nullptr;
}

/// Rewrites each floating-point vector bitcast of an integer shuffle that
/// moves whole lanes of floating-point vectors (SSE2's _mm_shuffle_epi32 on
/// a cast __m128d: `shufflevector <4 x i32>` of a bitcast <2 x double>,
/// Eigen's lane swaps) as the shuffle of the floating-point vectors.
static bool floatingPointShuffles(Function &F) {
  SmallVector<std::pair<BitCastInst *, Value *>, 4> Done;
  for (Instruction &I : instructions(F)) {
    auto *BC = dyn_cast<BitCastInst>(&I);
    Value *Int = BC ? BC->getOperand(0) : nullptr;
    while (Int && !isa<ShuffleVectorInst>(Int) &&
           match(Int, m_BitCast(m_Value(Int))))
      ;
    auto *SV = dyn_cast_or_null<ShuffleVectorInst>(Int);
    auto *T = BC ? dyn_cast<FixedVectorType>(BC->getType()) : nullptr;
    if (!SV || !T || !T->getElementType()->isFloatingPointTy())
      continue;
    auto *IT = cast<FixedVectorType>(SV->getOperand(0)->getType());
    unsigned K = IT->getScalarSizeInBits();
    unsigned FBits = T->getScalarSizeInBits();
    if (FBits % K || IT->getPrimitiveSizeInBits() % FBits)
      continue;
    unsigned R = FBits / K, SourceLanes = IT->getNumElements() / R;
    Value *A = floatingPointSource(SV->getOperand(0), T->getElementType(),
                                   SourceLanes);
    Value *B = floatingPointSource(SV->getOperand(1), T->getElementType(),
                                   SourceLanes);
    if (!A || !B)
      continue;
    // Each group of R integers must be one floating-point lane, whole.
    ArrayRef<int> Mask = SV->getShuffleMask();
    SmallVector<int, 16> Lanes;
    bool Whole = true;
    for (unsigned G = 0; Whole && G < T->getNumElements(); ++G) {
      ArrayRef<int> Group = Mask.slice(G * R, R);
      if (all_of(Group, [](int M) { return M < 0; })) {
        Lanes.push_back(PoisonMaskElem);
        continue;
      }
      Whole = Group[0] >= 0 && Group[0] % R == 0;
      for (unsigned J = 1; Whole && J < R; ++J)
        Whole = Group[J] == Group[0] + static_cast<int>(J);
      Lanes.push_back(Group[0] / static_cast<int>(R));
    }
    if (!Whole)
      continue;
    IRBuilder<> Builder(BC);
    Done.push_back(
        {BC, Builder.CreateShuffleVector(A, B, Lanes, BC->getName())});
  }
  for (auto [BC, V] : Done) {
    BC->replaceAllUsesWith(V);
    RecursivelyDeleteTriviallyDeadInstructions(BC);
  }
  return !Done.empty();
}

bool restoreLaneExtracts(Function &F) {
  if (!F.getParent()->getDataLayout().isLittleEndian())
    return false;
  bool Changed = floatPhisOfBitcasts(F);
  Changed |= floatingPointShuffles(F);
  Changed |= reloadReadsOfLoadedBytes(F);
  SmallVector<std::pair<BitCastInst *, LaneRead>, 4> Reads;
  for (Instruction &I : instructions(F))
    if (auto *BC = dyn_cast<BitCastInst>(&I))
      if (auto Lanes = laneRead(*BC))
        Reads.push_back({BC, *Lanes});
  for (auto &[BC, L] : Reads) {
    IRBuilder<> B(BC);
    Value *E;
    if (BC->getType()->isVectorTy()) {
      SmallVector<int, 16> Mask;
      for (unsigned I = 0; I < L.Count; ++I)
        Mask.push_back(L.First + I);
      E = B.CreateShuffleVector(L.Vec, Mask, BC->getName());
    } else {
      E = B.CreateExtractElement(L.Vec, B.getInt64(L.First), BC->getName());
    }
    BC->replaceAllUsesWith(E);
    RecursivelyDeleteTriviallyDeadInstructions(BC);
  }
  return Changed || !Reads.empty();
}

} // namespace tapestry
