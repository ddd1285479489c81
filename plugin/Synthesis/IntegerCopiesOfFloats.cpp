//===- IntegerCopiesOfFloats.cpp - Doubles moved as integers --------------===//
//
// Implements IntegerCopiesOfFloats.h: floating-point uses of integers that
// only hold a double's bytes become uses of floating-point loads.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/IntegerCopiesOfFloats.h"

#include "Analysis/TypeAnalysis.h"
#include "Synthesis/LaneExtracts.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace tapestry {

/// The SLP vectoriser may build a vector of doubles from an integer it
/// loaded (a one-element memcpy became an i64 load and store) by inserting
/// the integer into <N x i64> and bitcasting the vector to <N x double>.
/// Build the vector in the floating-point type instead, from bitcasts of
/// the inserted elements, which retypeBitcastCopies then turns into loads
/// of doubles, so the integer load is left only copying bytes.
void retypeIntegerVectorBuilds(Function &F) {
  SmallVector<BitCastInst *, 4> Casts;
  for (Instruction &I : instructions(F)) {
    auto *BC = dyn_cast<BitCastInst>(&I);
    auto *From = BC ? dyn_cast<FixedVectorType>(BC->getSrcTy()) : nullptr;
    auto *To = BC ? dyn_cast<FixedVectorType>(BC->getDestTy()) : nullptr;
    if (From && To && From->getElementType()->isIntegerTy() &&
        To->getElementType()->isFloatingPointTy() &&
        From->getNumElements() == To->getNumElements() &&
        isa<InsertElementInst>(BC->getOperand(0)))
      Casts.push_back(BC);
  }
  for (BitCastInst *BC : Casts) {
    SmallVector<InsertElementInst *, 8> Chain;
    Value *Base = BC->getOperand(0);
    bool SingleUse = true;
    while (auto *IE = dyn_cast<InsertElementInst>(Base)) {
      SingleUse &= IE->hasOneUse();
      Chain.push_back(IE);
      Base = IE->getOperand(0);
    }
    // An intermediate vector used elsewhere stays an integer vector there.
    if (!SingleUse)
      continue;
    auto *To = cast<FixedVectorType>(BC->getDestTy());
    Type *Elt = To->getElementType();
    Value *V;
    if (auto *C = dyn_cast<Constant>(Base))
      V = ConstantExpr::getBitCast(C, To);
    else
      V = new BitCastInst(Base, To, Base->getName() + ".fp",
                          Chain.back()->getIterator());
    for (InsertElementInst *IE : reverse(Chain)) {
      IRBuilder<> B(IE);
      // An element that was a double made an integer is that double.
      Value *Inserted = IE->getOperand(1);
      auto *Back = dyn_cast<BitCastInst>(Inserted);
      Inserted = Back && Back->getSrcTy() == Elt
                     ? Back->getOperand(0)
                     : B.CreateBitCast(Inserted, Elt);
      V = B.CreateInsertElement(V, Inserted, IE->getOperand(2),
                                IE->getName() + ".fp");
    }
    BC->replaceAllUsesWith(V);
    BC->eraseFromParent();
    for (InsertElementInst *IE : Chain)
      IE->eraseFromParent();
  }
}

/// Most phis and selects followed back from one bitcast.
static constexpr unsigned MaxChoiceDepth = 8;

/// True if \p V picks one of several integers unchanged: a phi, a select,
/// or an integer minimum or maximum (the optimiser's form of a select of
/// the larger of two loads).
static bool isChoice(const Value *V) {
  return isa<PHINode>(V) || isa<SelectInst>(V) || isa<MinMaxIntrinsic>(V);
}

/// The values choice \p V picks among.
static SmallVector<Value *, 4> choices(Value *V) {
  if (auto *Sel = dyn_cast<SelectInst>(V))
    return {Sel->getTrueValue(), Sel->getFalseValue()};
  if (auto *MM = dyn_cast<MinMaxIntrinsic>(V))
    return {MM->getLHS(), MM->getRHS()};
  return SmallVector<Value *, 4>(cast<PHINode>(V)->incoming_values());
}

/// The lane-by-lane condition type of choice \p V, if it chooses per lane.
static FixedVectorType *laneConditionType(const Value *V) {
  if (auto *Sel = dyn_cast<SelectInst>(V))
    return dyn_cast<FixedVectorType>(Sel->getCondition()->getType());
  if (isa<MinMaxIntrinsic>(V))
    return dyn_cast<FixedVectorType>(V->getType());
  return nullptr;
}

/// True if the integer \p V holds bytes that can be read as \p FPTy without
/// integers: an ordinary load, a bitcast of a \p FPTy value, a constant, or
/// a phi or select among such (cycles of phis decided by the rest).
static bool hasFloatingPointTwin(Value *V, Type *FPTy,
                                 SmallPtrSetImpl<Value *> &Seen,
                                 unsigned Depth) {
  if (isa<Constant>(V))
    return true;
  if (auto *LI = dyn_cast<LoadInst>(V))
    return LI->isSimple();
  if (auto *BC = dyn_cast<BitCastInst>(V))
    return BC->getSrcTy() == FPTy;
  if (!Depth || !isChoice(V))
    return false;
  if (!Seen.insert(V).second)
    return true;
  // A choice lane by lane picks lanes of the integer vector, which are not
  // the floating-point lanes unless there are as many.
  auto *CondTy = laneConditionType(V);
  auto *FPVecTy = dyn_cast<FixedVectorType>(FPTy);
  if (CondTy &&
      (!FPVecTy || FPVecTy->getNumElements() != CondTy->getNumElements()))
    return false;
  return all_of(choices(V), [&](Value *In) {
    return hasFloatingPointTwin(In, FPTy, Seen, Depth - 1);
  });
}

/// A load of \p LI's bytes, from \p Offset on, as \p Ty, just after it.
static LoadInst *reloadAs(LoadInst *LI, Type *Ty, uint64_t Offset) {
  IRBuilder<> B(LI->getNextNode());
  Value *Ptr = LI->getPointerOperand();
  if (Offset)
    Ptr = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Ptr, Offset);
  LoadInst *New = B.CreateAlignedLoad(
      Ty, Ptr, commonAlignment(LI->getAlign(), Offset), LI->getName() + ".fp");
  New->setDebugLoc(LI->getDebugLoc());
  return New;
}

/// The floating-point twins built, by integer and type.
using TwinMap = DenseMap<std::pair<Value *, Type *>, Value *>;

/// The \p FPTy value with \p V's bytes (hasFloatingPointTwin), built beside
/// it; \p Built holds what was built for each value.
static Value *buildFloatingPointTwin(Value *V, Type *FPTy, TwinMap &Built) {
  if (Value *Done = Built.lookup({V, FPTy}))
    return Done;
  if (auto *C = dyn_cast<Constant>(V))
    return ConstantExpr::getBitCast(C, FPTy);
  if (auto *LI = dyn_cast<LoadInst>(V))
    return Built[{V, FPTy}] = reloadAs(LI, FPTy, 0);
  if (auto *BC = dyn_cast<BitCastInst>(V))
    return BC->getOperand(0);
  if (auto *Sel = dyn_cast<SelectInst>(V)) {
    Value *T = buildFloatingPointTwin(Sel->getTrueValue(), FPTy, Built);
    Value *F = buildFloatingPointTwin(Sel->getFalseValue(), FPTy, Built);
    return Built[{V, FPTy}] = SelectInst::Create(Sel->getCondition(), T, F,
                                                 Sel->getName() + ".fp",
                                                 Sel->getIterator(), Sel);
  }
  // The larger (smaller) of two integers is a select on their comparison.
  if (auto *MM = dyn_cast<MinMaxIntrinsic>(V)) {
    IRBuilder<> B(MM);
    Value *Cond = B.CreateICmp(MM->getPredicate(), MM->getLHS(), MM->getRHS(),
                               MM->getName() + ".picks");
    Value *L = buildFloatingPointTwin(MM->getLHS(), FPTy, Built);
    Value *R = buildFloatingPointTwin(MM->getRHS(), FPTy, Built);
    return Built[{V, FPTy}] = B.CreateSelect(Cond, L, R, MM->getName() + ".fp");
  }
  auto *Phi = cast<PHINode>(V);
  PHINode *New = PHINode::Create(FPTy, Phi->getNumIncomingValues(),
                                 Phi->getName() + ".fp", Phi->getIterator());
  New->setDebugLoc(Phi->getDebugLoc());
  Built[{V, FPTy}] = New;
  for (unsigned I = 0, E = Phi->getNumIncomingValues(); I != E; ++I)
    New->addIncoming(
        buildFloatingPointTwin(Phi->getIncomingValue(I), FPTy, Built),
        Phi->getIncomingBlock(I));
  return New;
}

/// The floating-point type a choice among integers (phis, selects) holds
/// the bytes of, told by a value in it that is a bitcast from one, or by a
/// bitcast to one of the choice or of a phi or select in it (a running
/// maximum's phi read as a double in the loop, stored after it); or null.
static Type *choiceFloatingPointType(Value *V, SmallPtrSetImpl<Value *> &Seen,
                                     unsigned Depth) {
  if (auto *BC = dyn_cast<BitCastInst>(V))
    return BC->getSrcTy()->isFPOrFPVectorTy() ? BC->getSrcTy() : nullptr;
  if (!Depth || !isChoice(V) || !Seen.insert(V).second)
    return nullptr;
  for (User *U : V->users())
    if (auto *Use = dyn_cast<BitCastInst>(U);
        Use && Use->getDestTy()->isFPOrFPVectorTy())
      return Use->getDestTy();
  for (Value *In : choices(V))
    if (Type *T = choiceFloatingPointType(In, Seen, Depth - 1))
      return T;
  return nullptr;
}

/// The loads choice \p V picks among, if every value it picks is a simple
/// load or a constant (through phis, selects, minima and maxima); false
/// otherwise.
static bool choiceLoads(Value *V, SmallVectorImpl<LoadInst *> &Loads,
                        SmallPtrSetImpl<Value *> &Seen, unsigned Depth) {
  if (isa<Constant>(V))
    return true;
  if (auto *LI = dyn_cast<LoadInst>(V)) {
    Loads.push_back(LI);
    return LI->isSimple();
  }
  if (!Depth || !isChoice(V))
    return false;
  if (!Seen.insert(V).second)
    return true;
  return all_of(choices(V), [&](Value *In) {
    return choiceLoads(In, Loads, Seen, Depth - 1);
  });
}

/// As deep as the synthesisers look where they cannot tell what a copy
/// moves (SynthesizerBase::DeepTypeDepth).
static constexpr unsigned CallerTypeDepth = 12;

/// The floating-point type a store \p SI of an integer choice writes, as
/// the type analysis of \p F, its callees and its callers tells: the bytes
/// it writes and the bytes of every load it chooses among hold that type
/// (the caller's doubles, whose bits the function compares as integers to
/// pick one). \p Types is computed on first need.
static Type *callerFloatingPointType(StoreInst &SI, Function &F,
                                     Function *CallersOf,
                                     std::optional<TypeInfo> &Types) {
  Type *IntTy = SI.getValueOperand()->getType();
  SmallVector<LoadInst *, 4> Loads;
  SmallPtrSet<Value *, 8> Seen;
  if (!CallersOf || !(IntTy->isIntegerTy(32) || IntTy->isIntegerTy(64)) ||
      !choiceLoads(SI.getValueOperand(), Loads, Seen, MaxChoiceDepth) ||
      Loads.empty())
    return nullptr;
  uint64_t Size = IntTy->getIntegerBitWidth() / 8;
  if (!Types)
    Types.emplace(computeTypes(F, CallerTypeDepth, CallersOf));
  Type *FPTy = Types->floatFilling(SI.getPointerOperand(), Size);
  if (!FPTy || any_of(Loads, [&](LoadInst *LI) {
        return Types->floatFilling(LI->getPointerOperand(), Size) != FPTy;
      }))
    return nullptr;
  return FPTy;
}

/// A double moved through an integer of its size (a union's uint64_t
/// member, a memcpy into a uint64_t, a store the simplifier forwarded to an
/// integer load) is the same bytes: a store of a bitcast stores the value
/// itself, and a bitcast of an integer load is a load of the memory as that
/// type at the same point. What is left is ordinary floating-point data
/// movement, and integer loads that only move bytes (ReverseByteCopies).
void retypeBitcastCopies(Function &F, Function *CallersOf) {
  SmallVector<WeakTrackingVH, 8> Dead;
  TwinMap Built;
  // Stores of choices whose type only the memory tells, once the rest is
  // retyped (an integer load also bitcast to a double is no copy yet).
  SmallVector<WeakTrackingVH, 4> Untyped;
  for (Instruction &I : instructions(F)) {
    auto *BC = dyn_cast<BitCastInst>(&I);
    if (BC && (BC->getSrcTy()->isPtrOrPtrVectorTy() ||
               BC->getDestTy()->isPtrOrPtrVectorTy()))
      continue;
    if (BC && BC->getSrcTy()->isFPOrFPVectorTy() &&
        BC->getDestTy()->isIntOrIntVectorTy()) {
      for (User *U : make_early_inc_range(BC->users()))
        if (auto *SI = dyn_cast<StoreInst>(U))
          if (SI->getValueOperand() == BC && !SI->isVolatile())
            SI->setOperand(0, BC->getOperand(0));
      if (BC->use_empty())
        Dead.push_back(BC);
      continue;
    }
    // A choice among doubles made integers (a union copied on two paths),
    // or among loads of bytes that are also read as a double, or that the
    // callers hold as doubles, is stored as the choice among the doubles.
    if (auto *SI = dyn_cast<StoreInst>(&I);
        SI && SI->isSimple() && isChoice(SI->getValueOperand())) {
      Value *Stored = SI->getValueOperand();
      SmallPtrSet<Value *, 8> Seen, Twins;
      Type *FPTy = choiceFloatingPointType(Stored, Seen, MaxChoiceDepth);
      if (!FPTy)
        Untyped.push_back(SI);
      if (FPTy && hasFloatingPointTwin(Stored, FPTy, Twins, MaxChoiceDepth)) {
        SI->setOperand(0, buildFloatingPointTwin(Stored, FPTy, Built));
        Dead.push_back(Stored);
      }
      continue;
    }
    if (!BC)
      continue;
    Type *FPTy = BC->getDestTy();
    if (!FPTy->isFPOrFPVectorTy())
      continue;
    // The simplifier forwards a stored integer to a later load of the
    // double as a bitcast of the integer load: load the double there too.
    // Where paths merge (a copy made on one path, the bytes reloaded on
    // another) it is a phi of such loads, and a round trip (a double
    // copied through an integer, then read back as a double) is the double
    // itself.
    Value *From = BC->getOperand(0);
    SmallPtrSet<Value *, 8> Seen;
    if (!isa<Constant>(From) &&
        hasFloatingPointTwin(From, FPTy, Seen, MaxChoiceDepth)) {
      BC->replaceAllUsesWith(buildFloatingPointTwin(From, FPTy, Built));
      Dead.push_back(BC);
      continue;
    }
    // SROA reads a double out of a wider integer load (a struct of two
    // doubles loaded as i128) by shifting and truncating it: load the
    // double from its own bytes.
    auto Bits = shiftedBitsOf(From);
    auto *LI =
        Bits && Bits->Shift % 8 == 0 ? dyn_cast<LoadInst>(Bits->Root) : nullptr;
    if (!LI || !LI->isSimple())
      continue;
    BC->replaceAllUsesWith(reloadAs(LI, FPTy, Bits->Shift / 8));
    Dead.push_back(BC);
  }
  // The integer steps, choices and loads nothing else reads go too.
  auto DeleteDead = [&] {
    for (WeakTrackingVH &V : Dead)
      if (V)
        RecursivelyDeleteTriviallyDeadInstructions(V);
    Dead.clear();
    Built.clear(); // its keys may have gone
  };
  DeleteDead();
  std::optional<TypeInfo> MemoryTypes;
  for (WeakTrackingVH &V : Untyped) {
    auto *SI = dyn_cast_or_null<StoreInst>(V);
    if (!SI)
      continue;
    Value *Stored = SI->getValueOperand();
    SmallPtrSet<Value *, 8> Twins;
    Type *FPTy = callerFloatingPointType(*SI, F, CallersOf, MemoryTypes);
    if (FPTy && hasFloatingPointTwin(Stored, FPTy, Twins, MaxChoiceDepth)) {
      SI->setOperand(0, buildFloatingPointTwin(Stored, FPTy, Built));
      Dead.push_back(Stored);
    }
  }
  DeleteDead();
}

} // namespace tapestry
