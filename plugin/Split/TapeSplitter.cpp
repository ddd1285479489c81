//===- TapeSplitter.cpp - The augmented forward, reverse and release ------===//
//
// Builds the three functions of a split request from its one-shot
// derivative (Split/TapeSplitter.h): the forward half stores what crosses
// into the tape laid out by TapeLayout.cpp, the reverse half reads it back
// (recomputing address and integer arithmetic from its arguments) and, when
// it is not replayable, checks and marks the tape's header word; the
// release frees what the tape owns. checkReplayable decides, with the
// reason in source terms, whether the reverse may run again on one tape.
//
//===----------------------------------------------------------------------===//
#include "Split/Splitter.h"

#include "Analysis/ActivityAnalysis.h"
#include "Core/AllocationFunctions.h"
#include "Core/Diagnostics.h"
#include "Synthesis/FreedShadows.h"
#include "Synthesis/InlineHelpers.h"
#include "Synthesis/LoopBlockLists.h"
#include "Synthesis/TapeCache.h"
#include "llvm/ADT/DepthFirstIterator.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"

#define DEBUG_TYPE "tapestry"

using namespace llvm;
using namespace llvm::PatternMatch;

STATISTIC(NumSplits, "Split derivatives (augmented forward, reverse, release)");
STATISTIC(NumReplayableSplits,
          "Split derivatives whose reverse may run again on one tape");
STATISTIC(NumTapeBytes, "Bytes of fixed tape over all split derivatives");

static cl::opt<bool> TapeChecks(
    "tapestry-tape-checks", cl::init(true),
    cl::desc("Check in split mode that a reverse that is not replayable runs "
             "at most once per tape"));

namespace tapestry {

namespace split_detail {

/// The variable-size stack array of the user's function \p Fn that \p Slot,
/// in its derivative (which has no debug records), copies: the one
/// allocated at the same line, else the only one; else \p Slot itself.
static const AllocaInst *userArray(const AllocaInst &Slot, const Function &Fn) {
  SmallVector<const AllocaInst *, 2> Arrays;
  for (const Instruction &I : instructions(Fn))
    if (auto *A = dyn_cast<AllocaInst>(&I);
        A && (A->getParent() != &Fn.getEntryBlock() ||
              !isa<ConstantInt>(A->getArraySize())))
      Arrays.push_back(A);
  const DebugLoc &At = Slot.getDebugLoc();
  for (const AllocaInst *A : Arrays)
    if (At && A->getDebugLoc() && A->getDebugLoc().getLine() == At.getLine())
      return A;
  return Arrays.size() == 1 ? Arrays.front() : &Slot;
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
  // A callee kept as a call under a one-shot request, whose reverse runs
  // once for each forward: its variable-length arrays and arrays made in
  // loops (and their shadows) can live on the heap, on a list on the tape,
  // freed when the reverse returns. (A split the user holds keeps the error
  // below: its tape may be released without a reverse, or replayed.)
  if (R.LifoTapes)
    moveVariableArraysToHeap();
  for (Instruction &I : instructions(G))
    if (auto *Slot = dyn_cast<AllocaInst>(&I))
      classifySlot(Slot);
  // Stack memory allocated outside the entry block (a variable-length
  // array, one per loop iteration) is not a tape field: it dies with the
  // forward half. The reverse may reach it directly, or through its address
  // stored (the sweep caches the addresses a loop computes, and read dead
  // stack through them: a silently wrong gradient).
  for (auto &[Slot, U] : Slots)
    if (U.InForward && (U.InReverse || U.Escapes) &&
        (Slot->getParent() != &G.getEntryBlock() ||
         !isa<ConstantInt>(Slot->getArraySize()))) {
      // (A callee that stays a call under a one-shot request has none:
      // moveVariableArraysToHeap.)
      std::string Name = sourceName(*R.Fn);
      reportError(*R.Fn, nullptr,
                  "cannot split the derivative of '" + Name +
                      "' into __enzyme_augmentfwd and __enzyme_reverse: it "
                      "uses a stack array of variable size ('" +
                      describe(userArray(*Slot, *R.Fn)) +
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
  // Each reason once (two calls of the same registered reverse give the
  // same one).
  for (auto [I, Why] : enumerate(Reasons))
    if (!is_contained(ArrayRef(Reasons).take_front(I), Why))
      Out.NotReplayableReason +=
          (Out.NotReplayableReason.empty() ? "" : "; ") + Why;
  LLVM_DEBUG({
    dbgs() << "tapestry: split of " << R.Fn->getName() << ": " << Out.TapeBytes
           << "-byte tape " << *TapeTy << " (alignment " << TapeAlign.value()
           << "), " << Crossing.size() << " crossing values, "
           << OwnedBlocks.size() << " owned heap blocks; "
           << (Out.Replayable ? "replayable"
                              : "not replayable: " + Out.NotReplayableReason)
           << "\n";
  });
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
  ++NumSplits;
  NumReplayableSplits += Out.Replayable;
  NumTapeBytes += Out.TapeBytes;
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
  if (!ScratchUnowned.empty())
    Reasons.push_back(ScratchUnowned);
  for (auto &[Slot, U] : Slots)
    if (U.Field >= 0 && U.WrittenInReverse && U.Escapes) {
      Reasons.push_back("its reverse sweep updates memory that the tape "
                        "holds (" +
                        describe(Slot) + ")");
      break;
    }
  if (KeptShadow)
    Reasons.push_back(keptShadowReason(KeptShadow));
}

void Splitter::findKeptShadow() {
  // The shadow of a block the tape owns is the tape's too; the shadow of a
  // block that keeps the reverse from running again has its reason given.
  SmallPtrSet<const Value *, 4> OwnedShadows(SB.ExplainedShadows.begin(),
                                             SB.ExplainedShadows.end());
  for (const OwnedBlock &OB : OwnedBlocks)
    OwnedShadows.insert(OB.Scratch->Shadow);
  OwnedShadows.insert(UnownedShadows.begin(), UnownedShadows.end());
  // A value that can only point into such shadows (or be null).
  auto IntoOwned = [&](Value *V) {
    SmallVector<const Value *, 4> Objs;
    getUnderlyingObjects(V, Objs);
    return all_of(Objs, [&](const Value *O) {
      return OwnedShadows.count(O) || isa<ConstantPointerNull>(O);
    });
  };
  for (auto &[V, Field] : Crossing)
    if (!KeptShadow && Field >= 0 && ShadowDerived.count(V) && !IntoOwned(V))
      KeptShadow = V;
  for (Instruction &I : instructions(G))
    if (auto *SI = dyn_cast<StoreInst>(&I))
      if (!KeptShadow && !inReverse(SI) &&
          ShadowDerived.count(SI->getValueOperand()) &&
          !ShadowDerived.count(SI->getPointerOperand()) &&
          !IntoOwned(SI->getValueOperand()))
        KeptShadow = SI->getValueOperand();
}

/// The parameter of the user's function whose shadow is the derivative's
/// argument \p A, or null.
static const Argument *primalOfShadow(const Argument *A,
                                      const DerivativeSignature &Sig,
                                      const Function &Fn) {
  for (unsigned I = 0; I < Sig.ShadowArg.size(); ++I)
    if (Sig.ShadowArg[I] == int(A->getArgNo()) && I < Fn.arg_size())
      return Fn.getArg(I);
  return nullptr;
}

std::string Splitter::keptShadowReason(Value *Kept) const {
  // Name the shadow the pointer comes from, in the user's terms.
  const Value *Obj = getUnderlyingObject(Kept);
  auto Line = [](const Value *V) -> std::string {
    if (auto *I = dyn_cast<Instruction>(V))
      if (DebugLoc DL = userLocation(I); DL && DL.getLine())
        return " (line " + std::to_string(DL.getLine()) + ")";
    return "";
  };
  auto ShadowOf = [&](const Value *V) -> const Argument * {
    auto *A = dyn_cast<Argument>(V);
    return A ? primalOfShadow(A, Sig, *R.Fn) : nullptr;
  };
  // Through phis and selects too (an address stepped through a loop).
  SmallVector<const Value *, 4> Objs;
  getUnderlyingObjects(Kept, Objs);
  for (const Value *O : Objs)
    if (ShadowOf(O) || (isa<LoadInst>(O) && !isa<LoadInst>(Obj)))
      Obj = O;
  if (auto *Read = dyn_cast<LoadInst>(Obj))
    if (const Argument *P =
            ShadowOf(getUnderlyingObject(Read->getPointerOperand())))
      return "the tape keeps the pointers read from the shadow of " +
             describe(P) + Line(Read) +
             ", and a second reverse would accumulate into the memory they "
             "pointed to when the forward half ran, whatever shadow it is "
             "given; pass the data as one flat array instead of an array of "
             "pointers, or run __enzyme_augmentfwd again before each reverse";
  if (const Argument *P = ShadowOf(Obj))
    return "the tape keeps addresses into the shadow of " + describe(P) +
           Line(Kept) +
           " as the forward half computed them, and a second reverse would "
           "accumulate into that shadow, whatever shadow it is given (right "
           "only if it is the same, which the compiler cannot know); run "
           "__enzyme_augmentfwd again before each reverse";
  // The shadow of a local variable or of a heap block (a stack indexed by
  // a running counter: st[sp++] = p[k]).
  if (const Value *Primal = SB.PrimalOfShadow.lookup(Obj);
      Primal && (isa<AllocaInst>(Primal) || isa<CallBase>(Primal)))
    return "the tape keeps addresses into the shadow of " + describe(Primal) +
           " as the forward half computed them (an index kept in a "
           "variable the function updates, such as a stack pointer), and a "
           "second reverse would accumulate into that shadow as the first "
           "left it; index it with a loop counter, or run "
           "__enzyme_augmentfwd again before each reverse";
  return "the tape keeps shadow pointers computed by the forward half, so "
         "the reverse must receive the same shadow buffers and accumulates "
         "into memory the tape points to";
}

void Splitter::buildAugmented() {
  Type *RetTy =
      SB.PrimalReturn ? SB.PrimalReturn->getType() : Type::getVoidTy(C);
  // A pointer's shadow is returned beside it (DiffRequest::returnsShadow).
  if (SB.ShadowReturn)
    RetTy = StructType::get(C, {RetTy, SB.ShadowReturn->getType()});
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
  for (auto [ArgNo, Field] : ShadowArgFields)
    TB.CreateAlignedStore(VM[G.getArg(ArgNo)], fieldAddress(TB, Tape, Field),
                          Align(8));
  auto Mapped = [&](Value *V) { return isa<Constant>(V) ? V : (Value *)VM[V]; };
  if (SB.ShadowReturn) {
    Value *Pair = TB.CreateInsertValue(PoisonValue::get(RetTy),
                                       Mapped(SB.PrimalReturn), 0);
    TB.CreateRet(TB.CreateInsertValue(Pair, Mapped(SB.ShadowReturn), 1));
  } else if (SB.PrimalReturn)
    TB.CreateRet(Mapped(SB.PrimalReturn));
  else
    TB.CreateRetVoid();
  // Blocks allocated in loops that the tape does not own need no list.
  for (const SweepBoundary::ScratchBlock &S : SB.ScratchBlocks)
    if (S.Link && !isOwned(S))
      cast<CallInst>(VM[S.Link])->eraseFromParent();
  removeUnreachableBlocks(*A);
  clampTapeAlignment(TapeMemory, TapeAlign);
  // Under a one-shot request the record arrays live as the tape does: in
  // the thread's arena.
  if (R.LifoTapes)
    arenaRecordArrays(*A);
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
  // A null tape reads the state of a constant zero instead (no tape's
  // state is zero), so that it reaches the message without a branch more.
  Value *IsNull = B.CreateIsNull(Rev->getArg(Rev->arg_size() - 1));
  const char *NoTapeName = "tapestry.null.tape.state";
  GlobalVariable *NoTape = M.getNamedGlobal(NoTapeName);
  if (!NoTape) {
    NoTape = new GlobalVariable(M, B.getInt64Ty(), /*isConstant=*/true,
                                GlobalValue::PrivateLinkage, B.getInt64(0),
                                NoTapeName);
    NoTape->setAlignment(Align(8));
    NoTape->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  }
  Value *State = B.CreateAlignedLoad(
      B.getInt64Ty(), B.CreateSelect(IsNull, NoTape, Header), Align(8));
  Cont = BasicBlock::Create(C, "tape.ok", Rev);
  auto *Bad = BasicBlock::Create(C, "tape.misuse", Rev);
  Value *Live = B.CreateICmpEQ(State, B.getInt64(Magic));
  // A sweep running on the tape in another thread leaves it live.
  if (guardsScratchShadows())
    Live = B.CreateOr(Live, B.CreateICmpEQ(State, B.getInt64(~Magic)));
  B.CreateCondBr(Live, Cont, Bad);
  IRBuilder<> BB(Bad);
  std::string Name = sourceName(*R.Fn);
  std::string Twice =
      "tapestry: the reverse of '" + Name +
      "' ran a second time on the same tape, but its tape is not reusable: " +
      Out.NotReplayableReason +
      ". Run the augmented forward again (__enzyme_augmentfwd, a thunk's "
      "augmented) for a fresh tape.\n";
  // A tape __enzyme_augmentfwd returned is freed by the reverse that
  // releases it: what its header holds then is not known.
  std::string Stale =
      "tapestry: the tape passed to the reverse of '" + Name +
      "' was not filled by its augmented forward "
      "(__enzyme_augmentfwd, a thunk's augmented; with the "
      "same activities), or was freed by an earlier reverse "
      "or __enzyme_fwdsplit (pass enzyme_nofree to every "
      "one of them on a tape but the last)" +
      // The tape starts at the first address of the buffer
      // aligned as its fields demand: moved bytes are read
      // from another start.
      (TapeAlign > Align(8) ? ", or its buffer was copied or moved to an "
                              "address aligned differently (this tape's "
                              "fields need " +
                                  std::to_string(TapeAlign.value()) +
                                  "-byte alignment: keep the buffer where "
                                  "__enzyme_augmentfwd filled it, or align "
                                  "every buffer holding it to " +
                                  std::to_string(TapeAlign.value()) + " bytes)"
                            : std::string()) +
      ".\n";
  std::string Released =
      Out.Replayable
          ? "tapestry: the tape passed to the reverse of '" + Name +
                "' was already released: its tape owns heap memory (record "
                "arrays of loops, scratch blocks or the tapes of callees), "
                "which a reverse on a caller's buffer (enzyme_allocated) "
                "frees unless given enzyme_nofree (pass it to every reverse "
                "but the last). Run the augmented forward again "
                "(__enzyme_augmentfwd) for a fresh tape; a thunk's reverse "
                "never releases its tape "
                "(tapestry_tape_delete does).\n"
          : "tapestry: the tape passed to the reverse of '" + Name +
                "' was already used by a reverse (which released it) or "
                "released, and its tape is not reusable: " +
                Out.NotReplayableReason +
                ". Run the augmented forward again (__enzyme_augmentfwd, a "
                "thunk's augmented) for a fresh tape.\n";
  std::string Null = "tapestry: the tape passed to the reverse of '" + Name +
                     "' is a null pointer; pass the tape its "
                     "__enzyme_augmentfwd returned (or the buffer it "
                     "filled).\n";
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
  Msg = BB.CreateSelect(IsNull, BB.CreateGlobalStringPtr(Null), Msg);
  Len = BB.CreateSelect(IsNull, BB.getInt64(Null.size()), Len);
  emitFatalMessage(BB, Msg, Len);
  BB.CreateUnreachable();
  B.SetInsertPoint(Cont);
  if (!Out.Replayable)
    B.CreateAlignedStore(B.getInt64(TapeConsumed), Header, Align(8));
}

void Splitter::emitSameShadowCheck(IRBuilderBase &B, Function &Rev) {
  Value *Differs = B.getFalse();
  std::string Name = sourceName(*R.Fn);
  Value *Msg = nullptr, *Len = nullptr;
  for (auto [ArgNo, Field] : ShadowArgFields) {
    Argument *Given = Rev.getArg(ArgNo);
    Value *Kept = B.CreateAlignedLoad(
        Given->getType(), fieldAddress(B, SameShadowTape, Field), Align(8));
    Value *Other = B.CreateICmpNE(Kept, Given, "other.shadow");
    Differs = B.CreateOr(Differs, Other);
    // The parameter whose shadow this is, in the user's terms.
    const Argument *P = primalOfShadow(Given, Sig, *R.Fn);
    std::string Param = P ? describe(P) : "a pointer argument";
    std::string Text =
        "tapestry: the reverse of '" + Name + "' was given another shadow of " +
        Param +
        " than its augmented forward (__enzyme_augmentfwd, a thunk's "
        "augmented) was, but its tape keeps addresses into the forward's "
        "shadows, where the adjoints would go: pass the same shadow to both "
        "halves (zero it between reverses to start again).\n";
    Value *M = B.CreateGlobalStringPtr(Text);
    Value *L = B.getInt64(Text.size());
    Msg = Msg ? B.CreateSelect(Other, M, Msg) : M;
    Len = Len ? B.CreateSelect(Other, L, Len) : L;
  }
  auto *Same = BasicBlock::Create(C, "tape.same.shadows", &Rev);
  auto *Bad = BasicBlock::Create(C, "tape.other.shadows", &Rev);
  B.CreateCondBr(Differs, Bad, Same);
  IRBuilder<> BB(Bad);
  emitFatalMessage(BB, Msg, Len);
  BB.CreateUnreachable();
  B.SetInsertPoint(Same);
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
  // Null or a tape, whose header is 8 bytes: comparing it with null (the
  // misuse check) then captures nothing.
  Rev->addParamAttr(TapeMemory->getArgNo(),
                    Attribute::getWithDereferenceableOrNullBytes(C, 8));

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
  if (!ShadowArgFields.empty()) {
    // The tape's fields are read through the same (aligned) tape.
    SameShadowTape = Tape;
    emitSameShadowCheck(B, *Rev);
  }
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
  // The reverse adds into those shadows, which the tape keeps: a reverse
  // that finds the tape in use by another sweep (another thread) works on
  // shadows of its own (guardScratchShadows).
  ScratchGuard Guard;
  if (guardsScratchShadows())
    Guard = guardScratchShadows(B, Tape);
  for (const OwnedBlock &OB : OwnedBlocks) {
    // (Only where the reverse reaches the shadow from its base alone: an
    // address into it computed before the sweep starts would stay shared.)
    Value *Shared = OB.Bytes.empty() ? nullptr : InReverse(OB.Scratch->Shadow);
    if (Guard.Owner && Shared && all_of(Shared->users(), [&](User *U) {
          auto *I = dyn_cast<Instruction>(U);
          return I && RevClones.count(I->getParent());
        })) {
      Value *Bytes = InReverse(OB.Bytes.front());
      for (Value *Factor : drop_begin(OB.Bytes))
        Bytes = B.CreateMul(Bytes, InReverse(Factor));
      Value *Own = privateShadow(B, Guard, Shared, Bytes);
      Shared->replaceUsesWithIf(Own, [&](Use &U) {
        return RevClones.count(cast<Instruction>(U.getUser())->getParent());
      });
      continue;
    }
    if (Guard.Owner)
      requireOwnership(B, Guard);
    if (const SweepBoundary::ScratchBlock &SBk = *OB.Scratch; SBk.ListHead) {
      // One per iteration of a loop: through their list.
      B.CreateCall(getLoopBlockZeroFn(M),
                   {B.CreateLoad(B.getPtrTy(), VM[SBk.ListHead])});
      continue;
    }
    if (const SweepBoundary::ScratchBlock &SBk = *OB.Scratch; SBk.BytesSlot) {
      // Recorded as allocated: null and 0 where it was not.
      B.CreateMemSet(
          B.CreateLoad(B.getPtrTy(), VM[SBk.ShadowSlot]), B.getInt8(0),
          B.CreateLoad(B.getInt64Ty(), VM[SBk.BytesSlot]), MaybeAlign());
      continue;
    }
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
  if (Guard.Owner)
    for (BasicBlock &BB : *Rev)
      if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
        endScratchGuard(Ret, Guard);
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
    // A record array's state starts with the array's address. An arena
    // block goes back with the one-shot call's tape.
    B.CreateCall(R.LifoTapes ? getArenaForgetFn(M) : Free,
                 {B.CreateAlignedLoad(B.getPtrTy(),
                                      fieldAddress(B, Tape, It->second.Field),
                                      Align(8))});
  }
  // Heap blocks the tape owns, and their shadows.
  for (const OwnedBlock &OB : OwnedBlocks) {
    if (AllocaInst *Head = OB.Scratch->ListHead) {
      Out.OwnsMemory = true;
      Value *List = fieldAddress(B, Tape, Slots.lookup(Head).Field);
      B.CreateCall(getLoopBlockReleaseFn(
                       M,
                       matchingDeallocator(*heapFunction(*OB.Scratch->Block)),
                       cxxAlignment(*OB.Scratch->Block)),
                   {B.CreateAlignedLoad(B.getPtrTy(), List, Align(8))});
      B.CreateAlignedStore(ConstantPointerNull::get(B.getPtrTy()), List,
                           Align(8));
      continue;
    }
    for (CallInst *Free : OB.Scratch->Frees) {
      if (!isDeallocationCall(*Free))
        continue;
      Out.OwnsMemory = true;
      SmallVector<Value *, 2> Args(Free->args());
      unsigned Op = freedOperandIndex(*Free);
      // The address as the forward half computed it, or as it recorded it.
      int Field = Crossing.lookup(dyn_cast<Instruction>(Args[Op]));
      if (auto *Record = dyn_cast<LoadInst>(Args[Op]))
        if (auto *Slot = dyn_cast<AllocaInst>(Record->getPointerOperand()))
          Field = Slots.lookup(Slot).Field;
      assert(Field > 0 && "an owned block's address is on the tape");
      Value *Freed = B.CreateAlignedLoad(
          B.getPtrTy(), fieldAddress(B, Tape, Field), Align(8));
      // operator delete(p, size) with a run-time size: operator delete(p).
      if (any_of(Args, [&](Value *A) {
            return A != Args[Op] && !isa<Constant>(A);
          })) {
        B.CreateCall(
            getDeallocatorFn(M, *heapFunction(*Free), cxxAlignment(*Free)),
            {Freed});
        continue;
      }
      Args[Op] = Freed;
      B.CreateCall(Free->getFunctionType(), Free->getCalledOperand(), Args);
    }
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
  // The shadows of the caller's blocks the forward half frees are the
  // tape's until it is released (Synthesis/FreedShadows.h): a caller's
  // buffer holding such a tape is released too.
  if (freesListedShadows(*Out.Augmented))
    Out.OwnsMemory = true;
}

bool Splitter::freesListedShadows(const Function &Aug) const {
  const Function *Push = findFreedShadowPushFn(M, R.FreedListDepth);
  if (!Push)
    return false;
  SmallPtrSet<const Function *, 8> Seen{&Aug};
  SmallVector<const Function *, 8> Work{&Aug};
  while (!Work.empty()) {
    const Function *F = Work.pop_back_val();
    for (const Instruction &I : instructions(*F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (const Function *Callee = CB->getCalledFunction()) {
          if (Callee == Push)
            return true;
          if (!Callee->isDeclaration() && Seen.insert(Callee).second)
            Work.push_back(Callee);
        }
  }
  return false;
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

} // namespace split_detail

bool splitAtBoundary(Function &G, const DiffRequest &R,
                     const DerivativeSignature &Sig,
                     const SweepBoundary &Boundary, SplitDerivative &Out) {
  return split_detail::Splitter(G, R, Sig, Boundary, Out).run();
}

} // namespace tapestry
