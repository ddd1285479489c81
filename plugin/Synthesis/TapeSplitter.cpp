//===- TapeSplitter.cpp ---------------------------------------------------===//
#include "Synthesis/TapeSplitter.h"

#include "Analysis/ActivityAnalysis.h"
#include "Core/AllocationFunctions.h"
#include "Core/Diagnostics.h"
#include "Synthesis/InlineHelpers.h"
#include "llvm/ADT/DepthFirstIterator.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;
using namespace llvm::PatternMatch;

static cl::opt<bool> TapeChecks(
    "tapestry-tape-checks", cl::init(true),
    cl::desc("Check in split mode that a reverse that is not replayable runs "
             "at most once per tape"));

namespace tapestry {

namespace {

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
  void layoutTape();
  /// The tape's start in the tape memory \p Memory: \p Memory itself, or
  /// the first address after it aligned to TapeAlign.
  Value *alignedTape(IRBuilderBase &B, Value *Memory);
  void buildAugmented();
  void buildReverse();
  void buildRelease();
  void planScratchBlocks();
  void checkReplayable();
  void emitCalleeTapeRelease(IRBuilderBase &B, Value *Tape);
  bool isCalleeTapeList(const AllocaInst *Slot) const {
    return any_of(SB.CalleeTapes, [&](const SweepBoundary::KeptTapes &K) {
      return K.Head == Slot;
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
  SmallPtrSet<const CallInst *, 8> OwnedFrees;
  /// Frees of scratch blocks that ScratchWritten accounts for.
  SmallPtrSet<const CallInst *, 8> ExplainedFrees;
  /// A scratch block the reverse writes: why the tape cannot own it.
  std::string ScratchWritten;
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

} // namespace

void Splitter::classifySlot(AllocaInst *Slot) {
  SlotUse &U = Slots[Slot];
  SmallVector<Value *, 8> Work{Slot};
  SmallPtrSet<Value *, 8> Seen{Slot};
  auto Mark = [&](Instruction *I) {
    (inReverse(I) ? U.InReverse : U.InForward) = true;
  };
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    for (User *Usr : V->users()) {
      auto *I = dyn_cast<Instruction>(Usr);
      if (!I)
        continue;
      bool Rev = inReverse(I);
      if (auto *SI = dyn_cast<StoreInst>(I)) {
        if (SI->getValueOperand() == V) {
          U.Escapes = true;
          Mark(I);
          continue;
        }
        if (V == Slot && !Rev && I->getParent() == &G.getEntryBlock() &&
            isa<Constant>(SI->getValueOperand())) {
          U.Inits.push_back(SI);
          continue;
        }
        Mark(I);
        U.WrittenInReverse |= Rev;
        continue;
      }
      // Values that carry the address on: address arithmetic, choices, and
      // the aggregates batch mode keeps its shadows in.
      if (isa<GetElementPtrInst>(I) || isa<BitCastInst>(I) ||
          isa<AddrSpaceCastInst>(I) || isa<PHINode>(I) || isa<SelectInst>(I) ||
          isa<InsertValueInst>(I) || isa<ExtractValueInst>(I)) {
        Mark(I);
        if (Seen.insert(I).second)
          Work.push_back(I);
        continue;
      }
      Mark(I);
      if (isa<LoadInst>(I) || isa<ICmpInst>(I) || isa<PtrToIntInst>(I))
        continue;
      if (auto *II = dyn_cast<IntrinsicInst>(I))
        if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II))
          continue;
      if (auto *CB = dyn_cast<CallBase>(I)) {
        bool Writes = !CB->onlyReadsMemory();
        for (unsigned A = 0; A < CB->arg_size(); ++A)
          if (CB->getArgOperand(A) == V) {
            Writes &= !CB->onlyReadsMemory(A);
            U.Escapes |= !isa<MemIntrinsic>(CB) && !CB->doesNotCapture(A);
          }
        U.WrittenInReverse |= Rev && Writes;
        continue;
      }
      U.Escapes = true;
      U.WrittenInReverse |= Rev;
    }
  }
}

bool Splitter::rematerializable(Value *V, unsigned Depth) {
  if (isa<Constant>(V) || isa<Argument>(V))
    return true;
  if (auto *Slot = dyn_cast<AllocaInst>(V))
    return Slots.count(Slot);
  auto It = Remat.find(V);
  if (It != Remat.end())
    return It->second;
  auto *I = cast<Instruction>(V);
  bool Ok = Depth < 12 && !inReverse(I) &&
            (isa<GetElementPtrInst>(I) || isa<CastInst>(I) ||
             isa<ICmpInst>(I) || isa<FreezeInst>(I) ||
             (isa<BinaryOperator>(I) && I->getType()->isIntOrIntVectorTy()) ||
             (isa<SelectInst>(I) && !I->getType()->isFPOrFPVectorTy()));
  for (unsigned Op = 0; Ok && Op < I->getNumOperands(); ++Op)
    Ok = rematerializable(I->getOperand(Op), Depth + 1);
  Remat[V] = Ok;
  return Ok;
}

void Splitter::findShadowDerived() {
  SmallVector<Value *, 16> Work(SB.ShadowValues.begin(), SB.ShadowValues.end());
  ShadowDerived.insert(SB.ShadowValues.begin(), SB.ShadowValues.end());
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    for (User *U : V->users())
      if (isa<GetElementPtrInst>(U) || isa<CastInst>(U) || isa<PHINode>(U) ||
          isa<SelectInst>(U))
        if (U->getType()->isPointerTy() && ShadowDerived.insert(U).second)
          Work.push_back(U);
  }
}

namespace {
/// How a function uses a heap block: through which instructions it reads,
/// writes and frees it, and whether its address escapes.
struct BlockUses {
  SmallVector<Instruction *, 8> Writes;
  SmallVector<CallBase *, 2> Deallocs;
  bool Escapes = false;
};
} // namespace

/// The uses of the block at \p Base (and of the addresses computed from it),
/// leaving out the calls in \p Ignore.
static BlockUses blockUses(Value *Base,
                           const SmallPtrSetImpl<const CallInst *> &Ignore) {
  BlockUses Out;
  SmallVector<Value *, 8> Work{Base};
  SmallPtrSet<Value *, 16> Seen{Base};
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    for (User *U : V->users()) {
      auto *I = dyn_cast<Instruction>(U);
      if (!I)
        continue;
      if (isa<GetElementPtrInst>(I) || isa<BitCastInst>(I) ||
          isa<AddrSpaceCastInst>(I) || isa<PHINode>(I) || isa<SelectInst>(I)) {
        if (Seen.insert(I).second)
          Work.push_back(I);
        continue;
      }
      if (isa<LoadInst>(I) || isa<ICmpInst>(I) || isa<PtrToIntInst>(I))
        continue;
      if (auto *SI = dyn_cast<StoreInst>(I)) {
        if (SI->getValueOperand() == V)
          Out.Escapes = true;
        else
          Out.Writes.push_back(SI);
        continue;
      }
      if (auto *II = dyn_cast<IntrinsicInst>(I))
        if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II))
          continue;
      if (auto *MI = dyn_cast<MemIntrinsic>(I)) {
        if (MI->getRawDest() == V)
          Out.Writes.push_back(MI);
        continue;
      }
      if (auto *CB = dyn_cast<CallBase>(I)) {
        if (auto *CI = dyn_cast<CallInst>(CB); CI && Ignore.count(CI))
          continue;
        if (isDeallocationCall(*CB)) {
          Out.Deallocs.push_back(CB);
          continue;
        }
        bool Writes = false;
        for (unsigned A = 0; A < CB->arg_size(); ++A)
          if (CB->getArgOperand(A) == V) {
            Out.Escapes |= !CB->doesNotCapture(A);
            Writes |= !CB->onlyReadsMemory(A);
          }
        if (Writes && !CB->onlyReadsMemory())
          Out.Writes.push_back(CB);
        continue;
      }
      Out.Escapes = true;
    }
  }
  return Out;
}

/// ", line N" for an instruction with a source location, else nothing.
static std::string lineSuffix(const Instruction &I) {
  if (const DebugLoc &DL = I.getDebugLoc(); DL && DL.getLine())
    return ", line " + std::to_string(DL.getLine());
  return "";
}

/// A heap block the forward half allocates and leaves to the reverse
/// (SweepBoundary::ScratchBlocks) becomes the tape's when
///   - the reverse gives back this one block and its shadow (not one per
///     iteration of a loop, which the reverse finds in a record array);
///   - neither address escapes, and only the reverse frees them;
///   - the reverse does not write the block, so that a second reverse reads
///     what the forward half left;
///   - the forward half writes nothing into the shadow but the zeros it
///     starts with: the reverse zeroes it again before it starts, and so
///     finds it as the forward half left it, however often it runs.
/// Its frees then move from the reverse to the release.
void Splitter::planScratchBlocks() {
  for (const SweepBoundary::ScratchBlock &Scratch : SB.ScratchBlocks) {
    auto *Block = Scratch.Block;
    auto *Shadow = dyn_cast_or_null<Instruction>(Scratch.Shadow);
    if (!Block || !Shadow || inReverse(Block) || inReverse(Shadow))
      continue;
    SmallPtrSet<const CallInst *, 4> Frees(Scratch.Frees.begin(),
                                           Scratch.Frees.end());
    bool Direct = all_of(Scratch.Frees, [&](CallInst *CI) {
      if (!isDeallocationCall(*CI))
        return CI->getArgOperand(0) == Shadow;
      for (unsigned A = 0; A < CI->arg_size(); ++A)
        if (A != freedOperandIndex(*CI) && !isa<Constant>(CI->getArgOperand(A)))
          return false;
      Value *Freed = freedPointer(*CI);
      return (Freed == Block || Freed == Shadow) &&
             Crossing.count(cast<Instruction>(Freed));
    });
    BlockUses BU = blockUses(Block, Frees), SU = blockUses(Shadow, Frees);
    auto Written =
        find_if(BU.Writes, [&](Instruction *I) { return inReverse(I); });
    if (Written != BU.Writes.end()) {
      std::string How = "it writes there";
      if (auto *Call = dyn_cast<CallBase>(*Written))
        if (Function *Callee = Call->getCalledFunction()) {
          // A callee's derivative is named after the callee.
          auto [Base, Rest] = Callee->getName().split(".tapestry.");
          Function *Primal = Rest.empty() ? nullptr : M.getFunction(Base);
          How = "it passes it to " +
                (Primal ? "the reverse of '" + sourceName(*Primal) + "'"
                        : "'" + sourceName(*Callee) + "'") +
                ", which may write it";
        }
      if (ScratchWritten.empty())
        ScratchWritten = "its reverse sweep may write a heap block that the "
                         "forward half allocated (" +
                         describe(Block) + lineSuffix(**Written) + ": " + How +
                         "), so that a second reverse would not find what "
                         "the forward half left there";
      for (CallInst *Free : Scratch.Frees)
        ExplainedFrees.insert(Free);
      continue;
    }
    if (!Direct || BU.Escapes || SU.Escapes || !BU.Deallocs.empty() ||
        !SU.Deallocs.empty())
      continue;
    SmallVector<Value *, 2> Bytes;
    // A shadow from calloc starts zeroed; one from malloc is then zeroed.
    if (auto *Alloc = dyn_cast<CallBase>(Shadow))
      if (Function *Fn = Alloc->getCalledFunction();
          Fn && Fn->getName() == "calloc" && Alloc->arg_size() == 2)
        Bytes.append({Alloc->getArgOperand(0), Alloc->getArgOperand(1)});
    bool Clean = true;
    for (Instruction *W : SU.Writes) {
      if (inReverse(W))
        continue;
      auto *Set = dyn_cast<MemSetInst>(W);
      if (Set && Set->getRawDest() == Shadow && Bytes.empty() &&
          match(Set->getValue(), m_Zero()))
        Bytes.push_back(Set->getLength());
      else
        Clean = false;
    }
    if (!Clean || Bytes.empty())
      continue;
    for (Value *Factor : Bytes)
      if (auto *I = dyn_cast<Instruction>(Factor))
        Crossing.insert({I, -1});
    OwnedBlocks.push_back({&Scratch, Bytes});
    OwnedFrees.insert(Frees.begin(), Frees.end());
  }
}

void Splitter::layoutTape() {
  SmallVector<Type *, 16> Fields{Type::getInt64Ty(C)};
  uint64_t Offset = 8;
  // A field at the next offset its type allows and \p Want demands (a
  // stack slot's own alignment, which may exceed its type's: Eigen's
  // fixed-size matrices, _Alignas, SIMD buffers); padding bytes before it
  // where the type alone would place it lower.
  auto AddField = [&](Type *T, Align Want) {
    Align Natural = DL.getABITypeAlign(T);
    Want = std::max(Want, Natural);
    uint64_t At = alignTo(Offset, Want);
    if (alignTo(Offset, Natural) != At) {
      Fields.push_back(ArrayType::get(Type::getInt8Ty(C), At - Offset));
      Offset = At;
    }
    TapeAlign = std::max(TapeAlign, Want);
    Fields.push_back(T);
    Offset = At + DL.getTypeAllocSize(T).getFixedValue();
    return int(Fields.size() - 1);
  };
  for (auto &[Slot, U] : Slots)
    if (U.InForward && (U.InReverse || isCalleeTapeList(Slot)))
      U.Field = AddField(slotType(Slot), Slot->getAlign());
  for (auto &[V, Field] : Crossing)
    if (!rematerializable(V, 0))
      Field = AddField(V->getType(), Align(1));
  TapeTy = StructType::create(C, Fields, (R.Fn->getName() + ".tape").str());
  assert(DL.getTypeAllocSize(TapeTy).getFixedValue() >= Offset &&
         "the tape's fields are where AddField placed them");
  // Tape memory is 8-byte aligned (a caller's buffer need not have more):
  // a tape with more-aligned fields starts at the first address aligned
  // enough, within TapeAlign - 8 bytes of the memory's start.
  uint64_t Slack = TapeAlign.value() - 8;
  Out.TapeBytes =
      alignTo(DL.getTypeAllocSize(TapeTy).getFixedValue() + Slack, 16);
}

Value *Splitter::alignedTape(IRBuilderBase &B, Value *Memory) {
  if (TapeAlign <= Align(8))
    return Memory;
  // The same address in the augmented forward, the reverse and the release:
  // all three are given the same memory.
  Value *Address = B.CreatePtrToInt(Memory, B.getInt64Ty());
  Value *Pad = B.CreateAnd(B.CreateNeg(Address), TapeAlign.value() - 1);
  return B.CreateGEP(B.getInt8Ty(), Memory, Pad, "tape.aligned");
}

/// Accesses through the tape may not assume more alignment than the tape
/// has: \p Max, 8 bytes unless alignedTape realigned it.
static void clampTapeAlignment(Value *TapePtr, Align Max) {
  SmallVector<Value *, 16> Work{TapePtr};
  SmallPtrSet<Value *, 16> Seen{TapePtr};
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    for (User *U : V->users()) {
      if (auto *LI = dyn_cast<LoadInst>(U)) {
        LI->setAlignment(std::min(LI->getAlign(), Max));
      } else if (auto *SI = dyn_cast<StoreInst>(U)) {
        if (SI->getPointerOperand() == V)
          SI->setAlignment(std::min(SI->getAlign(), Max));
      } else if (auto *MI = dyn_cast<MemIntrinsic>(U)) {
        if (MI->getRawDest() == V && MI->getDestAlign())
          MI->setDestAlignment(std::min(*MI->getDestAlign(), Max));
        if (auto *MT = dyn_cast<MemTransferInst>(MI))
          if (MT->getRawSource() == V && MT->getSourceAlign())
            MT->setSourceAlignment(std::min(*MT->getSourceAlign(), Max));
      } else if (isa<GetElementPtrInst>(U) || isa<BitCastInst>(U) ||
                 isa<PHINode>(U) || isa<SelectInst>(U)) {
        if (Seen.insert(U).second)
          Work.push_back(U);
      }
    }
  }
}

bool Splitter::run() {
  Magic = TapeLive ^
          (uint64_t)hash_value((R.Fn->getName() + "." + R.suffix()).str());
  if (Magic == TapeConsumed || Magic == 0)
    Magic = TapeLive;
  for (BasicBlock *BB : depth_first(SB.ReverseStart))
    ReverseBlocks.insert(BB);
  LastForward = SB.ReverseStart->getSinglePredecessor();
  assert(LastForward && !ReverseBlocks.count(LastForward) &&
         "the reverse sweep starts after the forward sweep");
  for (Instruction &I : instructions(G))
    if (auto *Slot = dyn_cast<AllocaInst>(&I))
      classifySlot(Slot);
  for (auto &[Slot, U] : Slots)
    if (U.InForward && U.InReverse &&
        (Slot->getParent() != &G.getEntryBlock() ||
         !isa<ConstantInt>(Slot->getArraySize()))) {
      reportError(*R.Fn, nullptr,
                  "cannot split the derivative of '" + sourceName(*R.Fn) +
                      "' into __enzyme_augmentfwd and __enzyme_reverse: it "
                      "uses a stack array of variable size ('" +
                      describe(Slot) +
                      "'), whose contents the reverse half needs; allocate "
                      "it with malloc, or use __enzyme_autodiff");
      return false;
    }
  for (BasicBlock &BB : G) {
    if (ReverseBlocks.count(&BB))
      continue;
    for (Instruction &I : BB) {
      if (isa<AllocaInst>(I))
        continue;
      if (any_of(I.users(),
                 [&](User *U) { return inReverse(cast<Instruction>(U)); }))
        Crossing.insert({&I, -1});
    }
  }
  findShadowDerived();
  planScratchBlocks();
  layoutTape();
  // An address into a slot kept in the tape (not recomputed) points at the
  // tape's copy of the slot. Where it points into one slot only, the
  // reverse rebases it onto its own copy (buildReverse); otherwise the
  // reverse must use the tape's copy and cannot copy the slot out.
  for (auto &[V, Field] : Crossing) {
    if (Field < 0 || !V->getType()->isPointerTy())
      continue;
    SmallVector<const Value *, 4> Objs;
    getUnderlyingObjects(V, Objs, nullptr, 0);
    bool One = Objs.size() == 1;
    for (const Value *Obj : Objs)
      if (auto *Slot = dyn_cast<AllocaInst>(Obj))
        if (Slots.count(const_cast<AllocaInst *>(Slot))) {
          if (One)
            SlotOf[V] = const_cast<AllocaInst *>(Slot);
          else
            Slots[const_cast<AllocaInst *>(Slot)].Escapes = true;
        }
  }
  checkReplayable();
  Out.Replayable = Reasons.empty();
  for (const std::string &Why : Reasons)
    Out.NotReplayableReason +=
        (Out.NotReplayableReason.empty() ? "" : "; ") + Why;
  if (R.ReusableTape && !Out.Replayable) {
    reportError(*R.Fn, nullptr,
                "cannot give '" + sourceName(*R.Fn) +
                    "' a reusable tape (tapestry_reusable_tape): " +
                    Out.NotReplayableReason);
    return false;
  }
  buildAugmented();
  buildReverse();
  buildRelease();
  return true;
}

void Splitter::checkReplayable() {
  for (const std::string &Why : SB.NotReplayable)
    Reasons.push_back(Why);
  SmallPtrSet<const CallInst *, 4> RecordFrees(SB.RecordFrees.begin(),
                                               SB.RecordFrees.end());
  for (const BasicBlock *BB : ReverseBlocks)
    for (const Instruction &I : *BB)
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (isDeallocationCall(*CB) && !RecordFrees.count(cast<CallInst>(CB)) &&
            !OwnedFrees.count(cast<CallInst>(CB)) &&
            !ExplainedFrees.count(cast<CallInst>(CB)) &&
            !is_contained(SB.ExplainedFrees, cast<CallInst>(CB))) {
          Reasons.push_back("its reverse sweep frees memory that the forward "
                            "half allocated");
          break;
        }
  if (!ScratchWritten.empty())
    Reasons.push_back(ScratchWritten);
  for (auto &[Slot, U] : Slots)
    if (U.Field >= 0 && U.WrittenInReverse && U.Escapes) {
      Reasons.push_back("its reverse sweep updates memory that the tape "
                        "holds ('" +
                        describe(Slot) + "')");
      break;
    }
  // The shadow of a block the tape owns is the tape's too; the shadow of a
  // block that keeps the reverse from running again has its reason given.
  SmallPtrSet<const Value *, 4> OwnedShadows(SB.ExplainedShadows.begin(),
                                             SB.ExplainedShadows.end());
  for (const OwnedBlock &OB : OwnedBlocks)
    OwnedShadows.insert(OB.Scratch->Shadow);
  // A value that can only point into such shadows (or be null).
  auto IntoOwned = [&](Value *V) {
    SmallVector<const Value *, 4> Objs;
    getUnderlyingObjects(V, Objs);
    return all_of(Objs, [&](const Value *O) {
      return OwnedShadows.count(O) || isa<ConstantPointerNull>(O);
    });
  };
  bool Captured = any_of(Crossing, [&](auto &Entry) {
    return Entry.second >= 0 && ShadowDerived.count(Entry.first) &&
           !IntoOwned(Entry.first);
  });
  for (Instruction &I : instructions(G))
    if (auto *SI = dyn_cast<StoreInst>(&I))
      if (!inReverse(SI) && ShadowDerived.count(SI->getValueOperand()) &&
          !ShadowDerived.count(SI->getPointerOperand()) &&
          !IntoOwned(SI->getValueOperand()))
        Captured = true;
  if (Captured)
    Reasons.push_back(
        "the tape keeps shadow pointers computed by the forward half, so the "
        "reverse must receive the same shadow buffers and accumulates into "
        "memory the tape points to");
}

void Splitter::buildAugmented() {
  Type *RetTy =
      SB.PrimalReturn ? SB.PrimalReturn->getType() : Type::getVoidTy(C);
  SmallVector<Type *, 16> Params;
  for (Argument &A : G.args())
    if ((int)A.getArgNo() != Sig.SeedArg)
      Params.push_back(A.getType());
  Params.push_back(PointerType::getUnqual(C));
  Function *A = Function::Create(
      FunctionType::get(RetTy, Params, false), GlobalValue::InternalLinkage,
      R.Fn->getName() + ".tapestry." + R.suffix() + ".augmented", M);
  ValueToValueMapTy VM;
  unsigned K = 0;
  for (Argument &Arg : G.args()) {
    if ((int)Arg.getArgNo() == Sig.SeedArg) {
      VM[&Arg] = PoisonValue::get(Arg.getType());
      continue;
    }
    A->getArg(K)->setName(Arg.getName());
    VM[&Arg] = A->getArg(K++);
  }
  Argument *TapeMemory = A->getArg(K);
  TapeMemory->setName("tape");
  SmallVector<ReturnInst *, 2> Returns;
  CloneFunctionInto(A, &G, VM, CloneFunctionChangeType::LocalChangesOnly,
                    Returns);
  A->setAttributes(AttributeList());
  if (G.hasFnAttribute(Attribute::NoUnwind))
    A->addFnAttr(Attribute::NoUnwind);

  BasicBlock &Entry = A->getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
  Value *Tape = alignedTape(B, TapeMemory);
  B.CreateAlignedStore(B.getInt64(Magic), fieldAddress(B, Tape, 0), Align(8));
  SmallVector<AllocaInst *, 8> Replaced;
  for (auto &[Slot, U] : Slots) {
    if (U.Field < 0)
      continue;
    auto *Clone = cast<AllocaInst>(VM[Slot]);
    Clone->replaceAllUsesWith(fieldAddress(B, Tape, U.Field));
    Replaced.push_back(Clone);
  }
  for (AllocaInst *Clone : Replaced)
    Clone->eraseFromParent();
  auto *Last = cast<BasicBlock>(VM[LastForward]);
  Last->getTerminator()->eraseFromParent();
  IRBuilder<> TB(Last);
  for (auto &[V, Field] : Crossing)
    if (Field >= 0)
      TB.CreateAlignedStore(VM[V], fieldAddress(TB, Tape, Field), Align(8));
  if (SB.PrimalReturn)
    TB.CreateRet(isa<Constant>(SB.PrimalReturn) ? SB.PrimalReturn
                                                : (Value *)VM[SB.PrimalReturn]);
  else
    TB.CreateRetVoid();
  removeUnreachableBlocks(*A);
  clampTapeAlignment(TapeMemory, TapeAlign);
  Out.Augmented = A;
}

Value *Splitter::rematerialize(Value *V, ValueToValueMapTy &VM,
                               IRBuilderBase &B) {
  if (isa<Constant>(V))
    return V;
  Value *Mapped = VM.lookup(V);
  if (isa<Argument>(V) || isa<AllocaInst>(V))
    return Mapped;
  auto *I = cast<Instruction>(V);
  Instruction *Copy = I->clone();
  for (unsigned Op = 0; Op < Copy->getNumOperands(); ++Op)
    Copy->setOperand(Op, rematerialize(I->getOperand(Op), VM, B));
  // The clone of the function has its own subprogram: take the location
  // as mapped into it.
  Copy->setDebugLoc(cast<Instruction>(Mapped)->getDebugLoc());
  B.Insert(Copy, I->getName() + ".re");
  return Copy;
}

void Splitter::emitMisuseCheck(IRBuilderBase &B, Value *Tape,
                               BasicBlock *&Cont) {
  Function *Rev = B.GetInsertBlock()->getParent();
  Value *Header = fieldAddress(B, Tape, 0);
  Value *State = B.CreateAlignedLoad(B.getInt64Ty(), Header, Align(8));
  Cont = BasicBlock::Create(C, "tape.ok", Rev);
  auto *Bad = BasicBlock::Create(C, "tape.misuse", Rev);
  B.CreateCondBr(B.CreateICmpEQ(State, B.getInt64(Magic)), Cont, Bad);
  IRBuilder<> BB(Bad);
  std::string Name = sourceName(*R.Fn);
  std::string Twice =
      "tapestry: the reverse of '" + Name +
      "' ran a second time on the same tape, but its tape is not reusable: " +
      Out.NotReplayableReason +
      ". Run __enzyme_augmentfwd again for a fresh tape.\n";
  std::string Stale = "tapestry: the tape passed to the reverse of '" + Name +
                      "' was not filled by its __enzyme_augmentfwd (with the "
                      "same activities).\n";
  std::string Released =
      Out.Replayable
          ? "tapestry: the tape passed to the reverse of '" + Name +
                "' was already released: its tape owns heap memory (record "
                "arrays of loops, scratch blocks or the tapes of callees), "
                "which a reverse on a caller's buffer (enzyme_allocated) "
                "frees unless given enzyme_nofree (pass it to every reverse "
                "but the last). Run __enzyme_augmentfwd again for a fresh "
                "tape, or "
                "keep the tape with a reusable thunk (tapestry_reusable_tape) "
                "and release it yourself.\n"
          : "tapestry: the tape passed to the reverse of '" + Name +
                "' was already used by a reverse (which released it) or "
                "released, and its tape is not reusable: " +
                Out.NotReplayableReason +
                ". Run __enzyme_augmentfwd again for a fresh tape.\n";
  Value *IsUsed = BB.CreateICmpEQ(State, BB.getInt64(TapeConsumed));
  Value *IsFreed = BB.CreateICmpEQ(State, BB.getInt64(TapeReleased));
  Value *Msg = BB.CreateSelect(
      IsUsed, BB.CreateGlobalStringPtr(Twice),
      BB.CreateSelect(IsFreed, BB.CreateGlobalStringPtr(Released),
                      BB.CreateGlobalStringPtr(Stale)));
  Value *Len =
      BB.CreateSelect(IsUsed, BB.getInt64(Twice.size()),
                      BB.CreateSelect(IsFreed, BB.getInt64(Released.size()),
                                      BB.getInt64(Stale.size())));
  emitFatalMessage(BB, Msg, Len);
  BB.CreateUnreachable();
  B.SetInsertPoint(Cont);
  if (!Out.Replayable)
    B.CreateAlignedStore(B.getInt64(TapeConsumed), Header, Align(8));
}

void Splitter::buildReverse() {
  SmallVector<Type *, 16> Params(G.getFunctionType()->params());
  Params.push_back(PointerType::getUnqual(C));
  Function *Rev = Function::Create(
      FunctionType::get(G.getReturnType(), Params, false),
      GlobalValue::InternalLinkage,
      R.Fn->getName() + ".tapestry." + R.suffix() + ".reverse", M);
  ValueToValueMapTy VM;
  for (Argument &Arg : G.args()) {
    Rev->getArg(Arg.getArgNo())->setName(Arg.getName());
    VM[&Arg] = Rev->getArg(Arg.getArgNo());
  }
  Argument *TapeMemory = Rev->getArg(G.arg_size());
  TapeMemory->setName("tape");
  SmallVector<ReturnInst *, 2> Returns;
  CloneFunctionInto(Rev, &G, VM, CloneFunctionChangeType::LocalChangesOnly,
                    Returns);
  Rev->setAttributes(AttributeList());
  if (G.hasFnAttribute(Attribute::NoUnwind))
    Rev->addFnAttr(Attribute::NoUnwind);
  Rev->addParamAttr(TapeMemory->getArgNo(), Attribute::NoAlias);

  SmallPtrSet<const BasicBlock *, 32> RevClones;
  for (const BasicBlock *BB : ReverseBlocks)
    RevClones.insert(cast<BasicBlock>(VM[BB]));
  BasicBlock *OldEntry = &Rev->getEntryBlock();
  auto *Entry = BasicBlock::Create(C, "tape.read", Rev, OldEntry);
  IRBuilder<> B(Entry);
  Value *Tape = alignedTape(B, TapeMemory);
  // Slots only the reverse uses start as the one-shot function starts them.
  for (auto &[Slot, U] : Slots) {
    if (U.InForward || !U.InReverse)
      continue;
    auto *Clone = cast<AllocaInst>(VM[Slot]);
    Clone->moveBefore(*Entry, Entry->end());
    for (StoreInst *Init : U.Inits) {
      auto *InitClone = cast<StoreInst>(VM[Init]);
      InitClone->moveBefore(*Entry, Entry->end());
    }
  }
  BasicBlock *Cont = Entry;
  if (TapeChecks)
    emitMisuseCheck(B, Tape, Cont);
  else if (!Out.Replayable) // Release reads whether the reverse ran.
    B.CreateAlignedStore(B.getInt64(TapeConsumed), fieldAddress(B, Tape, 0),
                         Align(8));
  // Slots both sweeps use are read from the tape; those the reverse writes
  // are copied first, so that the tape stays as the forward half left it.
  for (auto &[Slot, U] : Slots) {
    if (U.Field < 0)
      continue;
    Value *Ptr = fieldAddress(B, Tape, U.Field);
    if (U.WrittenInReverse && !U.Escapes) {
      Type *T = slotType(Slot);
      IRBuilder<> AB(Entry, Entry->begin());
      AllocaInst *Local = AB.CreateAlloca(T, nullptr, Slot->getName());
      Local->setAlignment(Slot->getAlign());
      B.CreateMemCpy(Local, Slot->getAlign(), Ptr, Align(8),
                     DL.getTypeAllocSize(T).getFixedValue());
      U.TapePlace = Ptr;
      U.Copy = Local;
      Ptr = Local;
    }
    auto *Clone = cast<AllocaInst>(VM[Slot]);
    Clone->replaceAllUsesWith(Ptr);
    Clone->eraseFromParent();
    VM[Slot] = Ptr;
  }
  for (auto &[V, Field] : Crossing) {
    Value *New =
        Field >= 0
            ? B.CreateAlignedLoad(V->getType(), fieldAddress(B, Tape, Field),
                                  Align(8), V->getName() + ".tape")
            : rematerialize(V, VM, B);
    // An address into the tape's place of a slot the reverse copied out
    // points into the copy: the same offset from its start.
    if (AllocaInst *Slot = Field >= 0 ? SlotOf.lookup(V) : nullptr)
      if (const SlotUse &U = Slots[Slot]; U.Copy) {
        Value *Offset =
            B.CreateSub(B.CreatePtrToInt(New, B.getInt64Ty()),
                        B.CreatePtrToInt(U.TapePlace, B.getInt64Ty()));
        New =
            B.CreateGEP(B.getInt8Ty(), U.Copy, Offset, V->getName() + ".copy");
      }
    cast<Instruction>(VM[V])->replaceUsesWithIf(New, [&](Use &U) {
      return RevClones.count(cast<Instruction>(U.getUser())->getParent());
    });
    ReverseValue[V] = New;
  }
  // The shadows of the blocks the tape owns start each reverse as the
  // forward half left them: zero.
  auto InReverse = [&](Value *V) -> Value * {
    if (isa<Constant>(V))
      return V;
    if (isa<Argument>(V))
      return VM[V];
    return ReverseValue.lookup(V);
  };
  for (const OwnedBlock &OB : OwnedBlocks) {
    Value *Bytes = InReverse(OB.Bytes.front());
    for (Value *Factor : drop_begin(OB.Bytes))
      Bytes = B.CreateMul(Bytes, InReverse(Factor));
    B.CreateMemSet(InReverse(OB.Scratch->Shadow), B.getInt8(0), Bytes,
                   MaybeAlign());
  }
  B.CreateBr(cast<BasicBlock>(VM[SB.ReverseStart]));
  for (CallInst *Free : SB.RecordFrees)
    cast<CallInst>(VM[Free])->eraseFromParent();
  for (const CallInst *Free : OwnedFrees) {
    auto *Clone = cast<CallInst>(VM[Free]);
    if (!Clone->use_empty())
      Clone->replaceAllUsesWith(Constant::getNullValue(Clone->getType()));
    Clone->eraseFromParent();
  }
  removeUnreachableBlocks(*Rev);
  clampTapeAlignment(TapeMemory, TapeAlign);
  Out.Reverse = Rev;
}

void Splitter::buildRelease() {
  Function *Rel = Function::Create(
      FunctionType::get(Type::getVoidTy(C), {PointerType::getUnqual(C)}, false),
      GlobalValue::InternalLinkage,
      R.Fn->getName() + ".tapestry." + R.suffix() + ".release", M);
  Rel->addFnAttr(Attribute::NoUnwind);
  Argument *TapeMemory = Rel->getArg(0);
  TapeMemory->setName("tape");
  IRBuilder<> B(BasicBlock::Create(C, "entry", Rel));
  Value *Tape = alignedTape(B, TapeMemory);
  FunctionCallee Free = getFreeFn(M);
  for (AllocaInst *State : SB.RecordStates) {
    auto It = Slots.find(State);
    if (It == Slots.end() || It->second.Field < 0)
      continue;
    Out.OwnsMemory = true;
    // A record array's state starts with the array's address.
    B.CreateCall(Free, {B.CreateAlignedLoad(
                           B.getPtrTy(),
                           fieldAddress(B, Tape, It->second.Field), Align(8))});
  }
  // Heap blocks the tape owns, and their shadows.
  for (const OwnedBlock &OB : OwnedBlocks)
    for (CallInst *Free : OB.Scratch->Frees) {
      if (!isDeallocationCall(*Free))
        continue;
      Out.OwnsMemory = true;
      SmallVector<Value *, 2> Args(Free->args());
      unsigned Op = freedOperandIndex(*Free);
      Args[Op] = B.CreateAlignedLoad(
          B.getPtrTy(),
          fieldAddress(B, Tape, Crossing.lookup(cast<Instruction>(Args[Op]))),
          Align(8));
      B.CreateCall(Free->getFunctionType(), Free->getCalledOperand(), Args);
    }
  emitCalleeTapeRelease(B, Tape);
  // Memory the forward half allocated and left for the reverse to free
  // (scratch blocks and their shadows) is freed here when the reverse
  // never ran: the header still says the tape is live.
  SmallVector<std::pair<int, CallBase *>, 4> Owned;
  for (auto &[V, Field] : Crossing) {
    auto *Alloc = dyn_cast<CallBase>(V);
    if (Field < 0 || !Alloc || !isAllocationCall(*Alloc))
      continue;
    for (User *U : Alloc->users())
      if (auto *Dealloc = dyn_cast<CallBase>(U))
        if (inReverse(Dealloc) && isDeallocationCall(*Dealloc) &&
            Dealloc->arg_size() == 1 && freedPointer(*Dealloc) == Alloc &&
            !OwnedFrees.count(dyn_cast<CallInst>(Dealloc))) {
          Owned.push_back({Field, Dealloc});
          break;
        }
  }
  if (!Owned.empty()) {
    Out.OwnsMemory = true;
    Value *Header =
        B.CreateAlignedLoad(B.getInt64Ty(), fieldAddress(B, Tape, 0), Align(8));
    auto *FreeBlocks = BasicBlock::Create(C, "unused.tape", Rel);
    auto *Done = BasicBlock::Create(C, "done", Rel);
    B.CreateCondBr(B.CreateICmpEQ(Header, B.getInt64(Magic)), FreeBlocks, Done);
    B.SetInsertPoint(FreeBlocks);
    for (auto [Field, Dealloc] : Owned)
      B.CreateCall(Dealloc->getFunctionType(), Dealloc->getCalledOperand(),
                   {B.CreateAlignedLoad(
                       B.getPtrTy(), fieldAddress(B, Tape, Field), Align(8))});
    B.CreateBr(Done);
    B.SetInsertPoint(Done);
  }
  B.CreateAlignedStore(B.getInt64(TapeReleased), fieldAddress(B, Tape, 0),
                       Align(8));
  B.CreateRetVoid();
  Out.Release = Rel;
}

/// The tapes of callees the forward half ran and the reverse did not
/// free: per call site, a list that the callee's list release frees (a
/// direct call: no function address in the tape).
void Splitter::emitCalleeTapeRelease(IRBuilderBase &B, Value *Tape) {
  for (const SweepBoundary::KeptTapes &K : SB.CalleeTapes) {
    auto It = Slots.find(K.Head);
    if (It == Slots.end() || It->second.Field < 0)
      continue;
    Out.OwnsMemory = true;
    Value *Head = fieldAddress(B, Tape, It->second.Field);
    B.CreateCall(K.Release, {B.CreateAlignedLoad(B.getPtrTy(), Head, Align(8),
                                                 "callee.tapes")});
    B.CreateAlignedStore(ConstantPointerNull::get(B.getPtrTy()), Head,
                         Align(8));
  }
}

bool splitAtBoundary(Function &G, const DiffRequest &R,
                     const DerivativeSignature &Sig,
                     const SweepBoundary &Boundary, SplitDerivative &Out) {
  return Splitter(G, R, Sig, Boundary, Out).run();
}

} // namespace tapestry
