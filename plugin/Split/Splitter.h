//===- Splitter.h - The pieces of cutting a derivative in two ---*- C++ -*-===//
//
// Private to plugin/Split: the state of one split (Splitter), shared by the
// files that implement its steps. TapeLayout.cpp decides which stack slots
// and values cross from the forward half to the reverse and lays out the
// tape; ScratchBlocks.cpp decides which heap blocks the tape owns;
// TapeSplitter.cpp builds the augmented forward, the reverse and the
// release from the one-shot derivative. Users of split mode include
// Split/TapeSplitter.h, not this file.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SPLIT_SPLITTER_H
#define TAPESTRY_SPLIT_SPLITTER_H

#include "Split/TapeSplitter.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

namespace tapestry {
namespace split_detail {

using namespace llvm;

/// How a stack slot of the one-shot function is used by the two sweeps.
struct SlotUse {
  bool InForward = false;
  bool InReverse = false;
  bool WrittenInReverse = false;
  /// Its address is stored or passed where it may be kept.
  bool Escapes = false;
  /// In the reverse: the slot's place in the tape, and the reverse's own
  /// copy of it when the reverse writes it (else null).
  Value *TapePlace = nullptr, *Copy = nullptr;
  /// Constant stores in the entry block that initialise it.
  SmallVector<StoreInst *, 1> Inits;
  /// Index of its field in the tape, or -1.
  int Field = -1;
};

class Splitter {
public:
  Splitter(Function &G, const DiffRequest &R, const DerivativeSignature &Sig,
           const SweepBoundary &SB, SplitDerivative &Out)
      : G(G), R(R), Sig(Sig), SB(SB), Out(Out), M(*G.getParent()),
        DL(M.getDataLayout()), C(G.getContext()) {}

  bool run();

private:
  bool inReverse(const Instruction *I) const {
    return ReverseBlocks.count(I->getParent());
  }
  void classifySlot(AllocaInst *Slot);
  bool rematerializable(Value *V, unsigned Depth);
  void findShadowDerived();
  /// Under a one-shot request (R.LifoTapes): the variable-length arrays
  /// the forward half allocates, on any path and in loops, become heap
  /// blocks that the reverse frees as it returns.
  void moveVariableArraysToHeap();
  void layoutTape();
  /// The tape's start in the tape memory \p Memory: \p Memory itself, or
  /// the first address after it aligned to TapeAlign.
  Value *alignedTape(IRBuilderBase &B, Value *Memory);
  void buildAugmented();
  void buildReverse();
  void buildRelease();
  /// True if the augmented forward \p Aug, or a function it calls, lists
  /// the shadows of the blocks it frees (Synthesis/FreedShadows.h).
  bool freesListedShadows(const Function &Aug) const;
  void planScratchBlocks();
  void checkReplayable();
  /// Why a reverse that reads shadow pointer \p Kept from the tape cannot
  /// run again, naming the memory it was read from.
  std::string keptShadowReason(Value *Kept) const;
  /// Sets KeptShadow: a shadow address the forward half computes and the
  /// tape keeps (not into shadows the tape owns), or null.
  void findKeptShadow();
  /// Where the tape keeps shadow addresses, the reverse stops if it is
  /// given other shadows than the forward half was (buildReverse).
  void emitSameShadowCheck(IRBuilderBase &B, Function &Rev);
  void emitCalleeTapeRelease(IRBuilderBase &B, Value *Tape);
  bool isCalleeTapeList(const AllocaInst *Slot) const {
    return any_of(SB.CalleeTapes, [&](const SweepBoundary::KeptTapes &K) {
      return K.Head == Slot;
    });
  }
  /// A slot recording a heap block allocated on only some paths
  /// (SweepBoundary::ScratchBlock::BlockSlot), or the head of the list of
  /// blocks allocated in a loop (ListHead): the release reads it.
  bool isBlockRecord(const AllocaInst *Slot) const {
    return any_of(SB.ScratchBlocks, [&](const SweepBoundary::ScratchBlock &S) {
      return Slot == S.BlockSlot || Slot == S.ShadowSlot ||
             Slot == S.BytesSlot || Slot == S.ListHead;
    });
  }
  Value *rematerialize(Value *V, ValueToValueMapTy &VM, IRBuilderBase &B);
  Value *fieldAddress(IRBuilderBase &B, Value *Tape, unsigned Field) {
    return B.CreateStructGEP(TapeTy, Tape, Field);
  }
  Type *slotType(AllocaInst *Slot) const {
    auto *N = cast<ConstantInt>(Slot->getArraySize());
    return N->isOne()
               ? Slot->getAllocatedType()
               : ArrayType::get(Slot->getAllocatedType(), N->getZExtValue());
  }
  void emitMisuseCheck(IRBuilderBase &B, Value *Tape, BasicBlock *&Cont);

  /// How one reverse sweep shares the shadows of the blocks its tape owns
  /// (ScratchGuard.cpp): the first sweep on a tape marks the tape's header
  /// busy (~Magic) and uses them; a sweep that finds it busy (another
  /// thread's) uses zeroed shadows of its own, freed as it returns.
  struct ScratchGuard {
    Value *Header = nullptr;
    /// i1: this sweep marked the tape busy and uses the tape's shadows.
    Value *Owner = nullptr;
    /// A local the sweep's own shadows are noted in (null where it owns).
    SmallVector<Value *, 2> Privates;
  };
  /// True if the reverse is replayable and adds into shadows the tape owns.
  bool guardsScratchShadows() const;
  ScratchGuard guardScratchShadows(IRBuilderBase &B, Value *Tape);
  /// \p Shared, the tape's shadow of \p Bytes bytes, zeroed where the sweep
  /// owns the tape; else a zeroed block of the sweep's own.
  Value *privateShadow(IRBuilderBase &B, ScratchGuard &G, Value *Shared,
                       Value *Bytes);
  /// Stops with a message unless the sweep owns the tape (a shadow kept in
  /// a list, whose size the reverse does not know, or one the reverse also
  /// reaches through addresses computed before the sweep).
  void requireOwnership(IRBuilderBase &B, const ScratchGuard &G);
  /// Before \p Ret: frees the sweep's own shadows, or marks the tape live.
  void endScratchGuard(ReturnInst *Ret, const ScratchGuard &G);

  Function &G;
  const DiffRequest &R;
  const DerivativeSignature &Sig;
  const SweepBoundary &SB;
  SplitDerivative &Out;
  Module &M;
  const DataLayout &DL;
  LLVMContext &C;

  SmallPtrSet<const BasicBlock *, 32> ReverseBlocks;
  BasicBlock *LastForward = nullptr;
  MapVector<AllocaInst *, SlotUse> Slots;
  /// Crossing addresses into exactly one slot kept in the tape.
  DenseMap<Value *, AllocaInst *> SlotOf;
  /// Forward-sweep values the reverse sweep uses, in a fixed order, with
  /// their tape field (-1 when recomputed in the reverse).
  MapVector<Instruction *, int> Crossing;
  DenseMap<Value *, bool> Remat;
  SmallPtrSet<Value *, 32> ShadowDerived;
  Value *KeptShadow = nullptr;
  Value *SameShadowTape = nullptr;
  /// With KeptShadow: each pointer shadow parameter of the derivative (its
  /// argument number) and the tape field the forward half stores it in.
  SmallVector<std::pair<unsigned, int>, 4> ShadowArgFields;
  /// Heap blocks (and their shadows) the tape owns: the reverse neither
  /// frees nor writes them and zeroes the shadow before it starts, the
  /// release frees them (planScratchBlocks).
  struct OwnedBlock {
    const SweepBoundary::ScratchBlock *Scratch;
    /// The shadow's size in bytes, as the forward half zeroed it: the
    /// product of these.
    SmallVector<Value *, 2> Bytes;
  };
  SmallVector<OwnedBlock, 2> OwnedBlocks;
  bool isOwned(const SweepBoundary::ScratchBlock &S) const {
    return any_of(OwnedBlocks,
                  [&](const OwnedBlock &OB) { return OB.Scratch == &S; });
  }
  SmallPtrSet<const CallInst *, 8> OwnedFrees;
  /// Frees of scratch blocks that ScratchWritten accounts for.
  SmallPtrSet<const CallInst *, 8> ExplainedFrees;
  /// A scratch block the reverse writes: why the tape cannot own it.
  std::string ScratchWritten;
  /// A scratch block the tape cannot own for another reason (allocated in
  /// a loop, freed early, stored): why, naming it.
  std::string ScratchUnowned;
  /// The shadows of such blocks, which ScratchUnowned accounts for.
  SmallPtrSet<const Value *, 4> UnownedShadows;
  /// The reverse's value of each forward value it reads (buildReverse).
  DenseMap<Value *, Value *> ReverseValue;
  StructType *TapeTy = nullptr;
  /// The alignment of the tape's start: 8, or more for stack slots that
  /// demand more (layoutTape).
  Align TapeAlign = Align(8);
  SmallVector<std::string, 4> Reasons;
  /// The header word of a live tape of this request: a tape filled for
  /// another function or other activities does not pass the check.
  uint64_t Magic = TapeLive;
};

/// Accesses through the tape may not assume more alignment than the tape
/// has: \p Max, 8 bytes unless Splitter::alignedTape realigned it.
void clampTapeAlignment(Value *TapePtr, Align Max);

} // namespace split_detail
} // namespace tapestry

#endif // TAPESTRY_SPLIT_SPLITTER_H
