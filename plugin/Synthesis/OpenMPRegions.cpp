//===- OpenMPRegions.cpp - Derivatives of OpenMP parallel regions ---------===//
//
// See Synthesis/OpenMP.h. The forked functions are trampolines that take
// only pointers, as the runtime passes them: a batch shadow ([N x ptr])
// travels as its N lanes and is rebuilt inside.
//
//===----------------------------------------------------------------------===//
#include "Core/AllocationFunctions.h"
#include "Core/Diagnostics.h"
#include "Core/OpenMPRuntime.h"
#include "Synthesis/ForwardModeSynthesizer.h"
#include "Synthesis/OpenMP.h"
#include "Synthesis/ReverseModeSynthesizer.h"
#include "llvm/Analysis/MemoryBuiltins.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tapestry {

//===----------------------------------------------------------------------===//
// Trampolines
//===----------------------------------------------------------------------===//

static bool isPointerLanes(Type *T) {
  auto *AT = dyn_cast<ArrayType>(T);
  return T->isPointerTy() || (AT && AT->getElementType()->isPointerTy());
}

/// The pointers \p Args travel as through the runtime.
static SmallVector<Value *, 16> flatten(IRBuilderBase &B,
                                        ArrayRef<Value *> Args) {
  SmallVector<Value *, 16> Out;
  for (Value *A : Args) {
    if (auto *AT = dyn_cast<ArrayType>(A->getType())) {
      for (unsigned K = 0; K < AT->getNumElements(); ++K)
        Out.push_back(B.CreateExtractValue(A, K));
      continue;
    }
    Out.push_back(A);
  }
  return Out;
}

namespace {
/// A function forked on the team: (gtid, btid, Extra pointers..., the
/// flattened arguments of a target whose own parameters are Types).
struct Trampoline {
  Function *Fn = nullptr;
  Value *Gtid = nullptr, *Btid = nullptr;
  SmallVector<Value *, 2> Extra;
  /// The target's arguments, rebuilt.
  SmallVector<Value *, 16> Args;
};
} // namespace

static Trampoline createTrampoline(Module &M, const Twine &Name,
                                   unsigned NumExtra, ArrayRef<Type *> Types,
                                   IRBuilder<> &B) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  unsigned Flat = 0;
  for (Type *T : Types)
    Flat += isa<ArrayType>(T) ? cast<ArrayType>(T)->getNumElements() : 1;
  SmallVector<Type *, 16> Params(2 + NumExtra + Flat, Ptr);
  Trampoline T;
  T.Fn = Function::Create(FunctionType::get(Type::getVoidTy(C), Params, false),
                          GlobalValue::InternalLinkage, Name, M);
  T.Fn->addFnAttr(Attribute::NoUnwind);
  B.SetInsertPoint(BasicBlock::Create(C, "entry", T.Fn));
  T.Gtid = T.Fn->getArg(0);
  T.Btid = T.Fn->getArg(1);
  unsigned Next = 2;
  for (unsigned I = 0; I < NumExtra; ++I)
    T.Extra.push_back(T.Fn->getArg(Next++));
  for (Type *Ty : Types) {
    if (auto *AT = dyn_cast<ArrayType>(Ty)) {
      Value *V = PoisonValue::get(AT);
      for (unsigned K = 0; K < AT->getNumElements(); ++K)
        V = B.CreateInsertValue(V, T.Fn->getArg(Next++), K);
      T.Args.push_back(V);
      continue;
    }
    T.Args.push_back(T.Fn->getArg(Next++));
  }
  return T;
}

/// __kmpc_fork_call(loc, n, Fn, Args...) in the form of \p Fork.
static CallInst *emitFork(IRBuilderBase &B, CallBase &Fork, Value *Loc,
                          Function *Fn, ArrayRef<Value *> Args, DebugLoc DL) {
  SmallVector<Value *, 16> All = {Loc, B.getInt32(Args.size()), Fn};
  All.append(Args.begin(), Args.end());
  CallInst *CI =
      B.CreateCall(Fork.getFunctionType(), Fork.getCalledOperand(), All);
  CI->setDebugLoc(DL);
  return CI;
}

static FunctionCallee runtimeFn(Module &M, StringRef Name, Type *Ret,
                                ArrayRef<Type *> Params) {
  return M.getOrInsertFunction(Name, FunctionType::get(Ret, Params, false));
}

static Value *currentGtid(IRBuilderBase &B, Value *Loc) {
  Module &M = *B.GetInsertBlock()->getModule();
  return B.CreateCall(
      runtimeFn(M, "__kmpc_global_thread_num", B.getInt32Ty(), {B.getPtrTy()}),
      {Loc});
}

static Value *ompCall(IRBuilderBase &B, StringRef Name) {
  Module &M = *B.GetInsertBlock()->getModule();
  return B.CreateCall(runtimeFn(M, Name, B.getInt32Ty(), {}));
}

//===----------------------------------------------------------------------===//
// Critical sections in reverse order
//
// Updates under a lock need not commute (p = p * v, a max): the reverse
// sweep must undo them in the reverse of the order the threads took the
// lock. Each entry into a critical section in the forward sweep draws a
// ticket from a counter the fork's tape block holds (0, 1, 2, ... in lock
// order); the reverse of the section waits until the counter is its ticket
// + 1, runs, and sets it back to its ticket. The trampolines point a
// thread-local at that counter; outside parallel regions it is null and
// tickets do nothing.
//===----------------------------------------------------------------------===//

/// Slots of the tape block a reverse-mode fork allocates: the team size,
/// the ticket counter, then one tape per thread.
static constexpr unsigned FirstTape = 2;

static GlobalVariable *threadLocal(Module &M, StringRef Name, Type *T) {
  if (GlobalVariable *GV = M.getNamedGlobal(Name))
    return GV;
  return new GlobalVariable(M, T, false, GlobalValue::InternalLinkage,
                            Constant::getNullValue(T), Name, nullptr,
                            GlobalValue::GeneralDynamicTLSModel);
}

/// Nonzero while a region's reverse runs on a team of several threads.
static GlobalVariable *sharedFlag(Module &M) {
  return threadLocal(M, "tapestry.omp.shared", Type::getInt8Ty(M.getContext()));
}

/// void tapestry.omp.add.<T>(ptr p, T v): *p += v, atomically if several
/// threads run (sharedFlag), so a single thread pays no atomic.
static Function *addHelper(Module &M, Type *T) {
  std::string Name = "tapestry.omp.add.";
  raw_string_ostream(Name) << *T;
  if (Function *F = M.getFunction(Name))
    return F;
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  Function *F =
      Function::Create(FunctionType::get(Type::getVoidTy(C), {Ptr, T}, false),
                       GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::NoUnwind);
  F->addFnAttr(Attribute::AlwaysInline);
  Value *P = F->getArg(0), *V = F->getArg(1);
  Align A = M.getDataLayout().getABITypeAlign(T);
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  BasicBlock *Atomic = BasicBlock::Create(C, "atomic", F);
  BasicBlock *Plain = BasicBlock::Create(C, "plain", F);
  Value *Flag = B.CreateLoad(B.getInt8Ty(), sharedFlag(M));
  B.CreateCondBr(B.CreateIsNotNull(Flag), Atomic, Plain);
  B.SetInsertPoint(Atomic);
  B.CreateAtomicRMW(AtomicRMWInst::FAdd, P, V, A, AtomicOrdering::Monotonic);
  B.CreateRetVoid();
  B.SetInsertPoint(Plain);
  B.CreateAlignedStore(B.CreateFAdd(B.CreateAlignedLoad(T, P, A), V), P, A);
  B.CreateRetVoid();
  return F;
}

static GlobalVariable *ticketCounter(Module &M) {
  return threadLocal(M, "tapestry.omp.tickets",
                     PointerType::getUnqual(M.getContext()));
}

/// i64 tapestry.omp.ticket(): the next ticket (0 outside regions), also
/// kept as the thread's current one.
/// i64 tapestry.omp.current(): the thread's current ticket.
/// void tapestry.omp.wait(i64 t): until the counter is t.
/// void tapestry.omp.release(i64 t): sets the counter to t.
static Function *ticketHelper(Module &M, StringRef Which) {
  std::string Name = ("tapestry.omp." + Which).str();
  if (Function *F = M.getFunction(Name))
    return F;
  LLVMContext &C = M.getContext();
  Type *I64 = Type::getInt64Ty(C), *Void = Type::getVoidTy(C);
  bool Takes = Which == "wait" || Which == "release";
  bool Gives = Which == "ticket" || Which == "current";
  Function *F = Function::Create(
      FunctionType::get(Gives ? I64 : Void,
                        Takes ? ArrayRef<Type *>(I64) : ArrayRef<Type *>(),
                        false),
      GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::NoUnwind);
  GlobalVariable *Current = threadLocal(M, "tapestry.omp.current.ticket", I64);
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  if (Which == "current") {
    B.CreateRet(B.CreateLoad(I64, Current));
    return F;
  }
  Value *Counter = B.CreateLoad(B.getPtrTy(), ticketCounter(M));
  BasicBlock *Some = BasicBlock::Create(C, "counter", F);
  BasicBlock *None = BasicBlock::Create(C, "none", F);
  B.CreateCondBr(B.CreateIsNull(Counter), None, Some);
  B.SetInsertPoint(None);
  if (Gives)
    B.CreateRet(B.getInt64(0));
  else
    B.CreateRetVoid();
  B.SetInsertPoint(Some);
  if (Which == "ticket") {
    Value *T = B.CreateAtomicRMW(AtomicRMWInst::Add, Counter, B.getInt64(1),
                                 Align(8), AtomicOrdering::Monotonic);
    B.CreateStore(T, Current);
    B.CreateRet(T);
  } else if (Which == "release") {
    B.CreateAlignedStore(F->getArg(0), Counter, Align(8))
        ->setAtomic(AtomicOrdering::Release);
    B.CreateRetVoid();
  } else {
    BasicBlock *Spin = BasicBlock::Create(C, "spin", F);
    BasicBlock *Yield = BasicBlock::Create(C, "yield", F);
    BasicBlock *Done = BasicBlock::Create(C, "done", F);
    B.CreateBr(Spin);
    B.SetInsertPoint(Spin);
    LoadInst *V = B.CreateAlignedLoad(I64, Counter, Align(8));
    V->setAtomic(AtomicOrdering::Acquire);
    B.CreateCondBr(B.CreateICmpEQ(V, F->getArg(0)), Done, Yield);
    B.SetInsertPoint(Yield);
    B.CreateCall(runtimeFn(M, "sched_yield", B.getInt32Ty(), {}));
    B.CreateBr(Spin);
    B.SetInsertPoint(Done);
    B.CreateRetVoid();
  }
  return F;
}

//===----------------------------------------------------------------------===//
// Shared by both modes
//===----------------------------------------------------------------------===//

DiffRequest SynthesizerBase::regionRequest(CallBase &Fork) {
  DiffRequest CR;
  CR.Fn = forkedFunction(Fork);
  CR.Mode = R.Mode;
  CR.Width = R.Width;
  CR.ErrorEstimate = R.ErrorEstimate;
  CR.Parallel = true;
  CR.FreedListDepth = R.FreedListDepth;
  CR.Context = R.Context;
  CR.GlobalDepth = R.GlobalDepth;
  CR.Args = {Activity::Const, Activity::Const};
  for (unsigned I = ForkFirstArg; I < Fork.arg_size(); ++I) {
    Value *A = Fork.getArgOperand(I);
    if (A->getType()->isPointerTy()) {
      // The body, differentiated on its own, could not test a pointer it
      // reads there for being constant (RuntimeActivity.h).
      if (AI.hasShadow(A) && RA.mayReadMarker(A))
        fail(&Fork, "this OpenMP parallel region reads, through " +
                        describe(A) +
                        ", memory that may hold pointers to constant data "
                        "(enzyme_const or global); pass that data as "
                        "enzyme_dup with a zeroed shadow, or copy the "
                        "pointer into a local variable that the region only "
                        "reads");
      CR.Args.push_back(AI.hasShadow(A) ? Activity::Dup : Activity::Const);
      continue;
    }
    // Preparation passes every value by pointer (wrapParallelRegions).
    if (AI.isVaried(A))
      fail(&Fork, "this OpenMP parallel region takes " + describe(A) +
                      " by value in a form Tapestry cannot differentiate");
    CR.Args.push_back(Activity::Const);
  }
  if (CR.Fn->arg_size() != CR.Args.size() || CR.Fn->isDeclaration())
    fail(&Fork, "this OpenMP parallel region's body could not be prepared "
                "for differentiation");
  return CR;
}

bool SynthesizerBase::isRegionConstant(const DiffRequest &CR) {
  return all_of(CR.Args, [](Activity A) { return A == Activity::Const; });
}

bool SynthesizerBase::isSharedMemory(Value *Ptr) const {
  if (!R.Parallel)
    return false;
  const Value *Obj = getUnderlyingObject(Ptr, 0);
  if (isa<AllocaInst>(Obj))
    return false; // The thread's own stack.
  if (auto *CB = dyn_cast<CallBase>(Obj); CB && isAllocationCall(*CB))
    return false; // Allocated by this thread in the region.
  return true;
}

bool SynthesizerBase::checkOpenMPCall(CallBase &CB) {
  std::string Msg = unsupportedOpenMPCall(CB, R.Mode == DiffMode::Reverse);
  if (!Msg.empty())
    fail(&CB, Msg);
  return Msg.empty();
}

/// The region's arguments as the derivative of the body takes them:
/// each primal, then its shadow if it has one (the request \p CR), mapped
/// by \p Map.
static SmallVector<Value *, 16>
regionArgs(CallBase &Fork, const DerivativeSignature &CS,
           function_ref<Value *(Value *)> Primal,
           function_ref<Value *(Value *)> Shadow) {
  SmallVector<Value *, 16> Args;
  for (unsigned I = ForkFirstArg; I < Fork.arg_size(); ++I) {
    Value *Op = Fork.getArgOperand(I);
    Args.push_back(Primal(Op));
    if (CS.ShadowArg[I - ForkFirstArg + 2] >= 0)
      Args.push_back(Shadow(Op));
  }
  return Args;
}

//===----------------------------------------------------------------------===//
// Forward mode: fork the tangent function of the body
//===----------------------------------------------------------------------===//

void ForwardModeSynthesizer::visitParallelRegion(CallBase &Fork) {
  DiffRequest CR = regionRequest(Fork);
  if (Failed || isRegionConstant(CR))
    return;
  Function *D = CalleeDerivative(CR);
  if (!D) {
    Failed = true;
    return;
  }
  DerivativeSignature CS = computeSignature(CR);
  SmallVector<Value *, 16> Args = regionArgs(
      Fork, CS, [&](Value *V) { return primal(V); },
      [&](Value *V) { return shadowOf(V, &Fork); });
  ArrayRef<Type *> Types = D->getFunctionType()->params().drop_front(2);
  if (Failed)
    return;
  if (!all_of(Types, isPointerLanes))
    return fail(&Fork, "this OpenMP parallel region passes values its "
                       "derivative cannot take through the OpenMP runtime");
  IRBuilder<> TB(Fork.getContext());
  Trampoline T =
      createTrampoline(module(), D->getName() + ".omp", 0, Types, TB);
  SmallVector<Value *, 16> DArgs = {T.Gtid, T.Btid};
  DArgs.append(T.Args);
  TB.CreateCall(D, DArgs);
  TB.CreateRetVoid();
  Instruction *GI = primal(&Fork);
  IRBuilder<> B(GI);
  emitFork(B, Fork, primal(Fork.getArgOperand(0)), T.Fn, flatten(B, Args),
           GI->getDebugLoc());
  GI->eraseFromParent();
}

void ForwardModeSynthesizer::tangentAtomicRMW(AtomicRMWInst &RMW,
                                              IRBuilderBase &B) {
  Value *Ptr = RMW.getPointerOperand();
  if (!AI.hasShadow(Ptr))
    return;
  Value *S = shadowOf(Ptr, &RMW);
  if (!S)
    return;
  Value *Tan = tangent(RMW.getValOperand());
  SmallVector<Value *, 4> Old;
  for (unsigned K = 0; K < W; ++K)
    Old.push_back(B.CreateAtomicRMW(RMW.getOperation(), lane(B, S, K),
                                    lane(B, Tan, K), RMW.getAlign(),
                                    RMW.getOrdering(), RMW.getSyncScopeID()));
  if (AI.isActive(&RMW))
    Tangents[&RMW] = gatherLanes(B, RMW.getType(), Old);
}

//===----------------------------------------------------------------------===//
// Reverse mode: one tape per thread
//===----------------------------------------------------------------------===//

/// The num_threads clause of \p Fork: the __kmpc_push_num_threads call
/// before it, in its block or, through blocks with a single predecessor,
/// before the branch an if clause puts between them; null if another fork
/// comes first or there is none.
static CallBase *pushedNumThreads(CallBase &Fork) {
  Instruction *I = Fork.getPrevNode();
  BasicBlock *BB = Fork.getParent();
  for (unsigned Blocks = 0; Blocks < 8;) {
    if (!I) {
      BB = BB->getSinglePredecessor();
      if (!BB)
        return nullptr;
      I = BB->getTerminator();
      ++Blocks;
      continue;
    }
    auto *CB = dyn_cast<CallBase>(I);
    I = I->getPrevNode();
    if (!CB || !CB->getCalledFunction())
      continue;
    if (isOpenMPForkCall(*CB))
      return nullptr;
    if (CB->getCalledFunction()->getName() == "__kmpc_push_num_threads" &&
        CB->arg_size() == 3)
      return CB;
  }
  return nullptr;
}

/// The team size a fork runs with is at most omp_get_max_threads(), or what
/// a num_threads clause asked for before it.
static Value *teamCapacity(IRBuilderBase &B, CallBase &PrimalFork,
                           function_ref<Value *(Value *)> Map) {
  Value *Cap = ompCall(B, "omp_get_max_threads");
  if (CallBase *Push = pushedNumThreads(PrimalFork)) {
    Value *N = Map(Push->getArgOperand(2));
    Cap = B.CreateSelect(B.CreateICmpSGT(N, Cap), N, Cap);
  }
  return Cap;
}

/// Forward sweep: fork the body's augmented forward. Each thread stores
/// its tape at tapes[1 + thread number]; thread 0 stores the team size in
/// the first slot.
void ReverseModeSynthesizer::augmentParallelRegion(CallBase &Fork) {
  DiffRequest CR = regionRequest(Fork);
  if (Failed || isRegionConstant(CR))
    return;
  CalleeSplit CS = CalleeSplitFor(CR);
  if (!CS.Augmented) {
    Failed = true;
    return;
  }
  DerivativeSignature Sig = computeSignature(CR);
  SmallVector<Value *, 16> Args = regionArgs(
      Fork, Sig, [&](Value *V) { return primal(V); },
      [&](Value *V) { return shadowOf(V, &Fork); });
  ArrayRef<Type *> Types =
      CS.Augmented->getFunctionType()->params().drop_front(2);
  if (Failed)
    return;
  if (!all_of(Types, isPointerLanes))
    return fail(&Fork, "this OpenMP parallel region passes values its "
                       "derivative cannot take through the OpenMP runtime");
  Module &M = module();
  IRBuilder<> TB(Fork.getContext());
  Trampoline T =
      createTrampoline(M, CS.Augmented->getName() + ".omp", 1, Types, TB);
  SmallVector<Value *, 16> AArgs = {T.Gtid, T.Btid};
  AArgs.append(T.Args);
  Value *OldTickets = TB.CreateLoad(TB.getPtrTy(), ticketCounter(M));
  TB.CreateStore(TB.CreateConstGEP1_32(TB.getPtrTy(), T.Extra[0], 1),
                 ticketCounter(M));
  Value *Tape = TB.CreateCall(CS.Augmented, AArgs);
  if (isa<StructType>(Tape->getType()))
    Tape = TB.CreateExtractValue(Tape, 0);
  Value *Tid = ompCall(TB, "omp_get_thread_num");
  Value *Slot = TB.CreateGEP(TB.getPtrTy(), T.Extra[0],
                             TB.CreateAdd(TB.CreateSExt(Tid, TB.getInt64Ty()),
                                          TB.getInt64(FirstTape)));
  TB.CreateStore(Tape, Slot);
  TB.CreateStore(OldTickets, ticketCounter(M));
  BasicBlock *First = BasicBlock::Create(M.getContext(), "first", T.Fn);
  BasicBlock *Done = BasicBlock::Create(M.getContext(), "done", T.Fn);
  TB.CreateCondBr(TB.CreateICmpEQ(Tid, TB.getInt32(0)), First, Done);
  TB.SetInsertPoint(First);
  TB.CreateStore(ompCall(TB, "omp_get_num_threads"), T.Extra[0]);
  TB.CreateBr(Done);
  TB.SetInsertPoint(Done);
  TB.CreateRetVoid();

  Instruction *GI = primal(&Fork);
  IRBuilder<> B(GI);
  Value *Cap = teamCapacity(B, Fork, [&](Value *V) { return primal(V); });
  Value *Bytes = B.CreateMul(
      B.CreateAdd(B.CreateSExt(Cap, B.getInt64Ty()), B.getInt64(FirstTape)),
      B.getInt64(8));
  Value *Tapes = B.CreateCall(getMallocFn(M), {Bytes}, "omp.tapes");
  B.CreateStore(B.getInt64(0), B.CreateConstGEP1_32(B.getPtrTy(), Tapes, 1));
  SmallVector<Value *, 16> FArgs = {Tapes};
  FArgs.append(flatten(B, Args));
  emitFork(B, Fork, primal(Fork.getArgOperand(0)), T.Fn, FArgs,
           GI->getDebugLoc());
  GI->eraseFromParent();
  CalleeTapes[&Fork] = Tapes;
}

/// Reverse sweep: fork the body's reverse on as many threads as the
/// forward sweep had; thread t consumes tapes t, t + team size, ...
void ReverseModeSynthesizer::reverseParallelRegion(CallBase &Fork,
                                                   IRBuilderBase &B) {
  DiffRequest CR = regionRequest(Fork);
  if (Failed || isRegionConstant(CR))
    return;
  Value *Tape = CalleeTapes.lookup(&Fork);
  CalleeSplit CSplit = CalleeSplitFor(CR);
  if (!Tape || !CSplit.Reverse) {
    Failed = true;
    return;
  }
  if (R.Split)
    Boundary.NotReplayable.push_back(
        "its reverse sweep runs the reverse of an OpenMP parallel region, "
        "which consumes the threads' tapes");
  BasicBlock *PB = Fork.getParent();
  DerivativeSignature CS = computeSignature(CR);
  SmallVector<Value *, 16> Args = regionArgs(
      Fork, CS, [&](Value *V) { return lookup(primal(V), PB, B); },
      [&](Value *V) -> Value * {
        Value *S = shadowOf(V, &Fork);
        return S ? lookup(S, PB, B) : nullptr;
      });
  if (Failed)
    return;
  ArrayRef<Type *> Types =
      CSplit.Reverse->getFunctionType()->params().drop_front(2).drop_back();
  Module &M = module();
  IRBuilder<> TB(Fork.getContext());
  Trampoline T =
      createTrampoline(M, CSplit.Reverse->getName() + ".omp", 1, Types, TB);
  Value *Tid = ompCall(TB, "omp_get_thread_num");
  Value *Team = ompCall(TB, "omp_get_num_threads");
  Value *N = TB.CreateLoad(TB.getInt32Ty(), T.Extra[0], "omp.team");
  BasicBlock *Entry = TB.GetInsertBlock();
  BasicBlock *Loop = BasicBlock::Create(M.getContext(), "tape", T.Fn);
  BasicBlock *Body = BasicBlock::Create(M.getContext(), "reverse", T.Fn);
  BasicBlock *Done = BasicBlock::Create(M.getContext(), "done", T.Fn);
  TB.CreateBr(Loop);
  TB.SetInsertPoint(Loop);
  PHINode *K = TB.CreatePHI(TB.getInt32Ty(), 2, "k");
  K->addIncoming(Tid, Entry);
  TB.CreateCondBr(TB.CreateICmpSLT(K, N), Body, Done);
  TB.SetInsertPoint(Body);
  Value *Slot = TB.CreateGEP(
      TB.getPtrTy(), T.Extra[0],
      TB.CreateAdd(TB.CreateSExt(K, TB.getInt64Ty()), TB.getInt64(FirstTape)));
  SmallVector<Value *, 16> RArgs = {T.Gtid, T.Btid};
  RArgs.append(T.Args);
  RArgs.push_back(TB.CreateLoad(TB.getPtrTy(), Slot));
  Value *OldTickets = TB.CreateLoad(TB.getPtrTy(), ticketCounter(M));
  TB.CreateStore(TB.CreateConstGEP1_32(TB.getPtrTy(), T.Extra[0], 1),
                 ticketCounter(M));
  // Adjoints go into shared memory atomically only where another thread
  // of this team, or of an enclosing one, may add there too.
  Value *OldShared = TB.CreateLoad(TB.getInt8Ty(), sharedFlag(M));
  TB.CreateStore(TB.CreateOr(OldShared, TB.CreateZExt(TB.CreateICmpSGT(
                                                          Team, TB.getInt32(1)),
                                                      TB.getInt8Ty())),
                 sharedFlag(M));
  TB.CreateCall(CSplit.Reverse, RArgs);
  TB.CreateStore(OldTickets, ticketCounter(M));
  TB.CreateStore(OldShared, sharedFlag(M));
  K->addIncoming(TB.CreateAdd(K, Team), Body);
  TB.CreateBr(Loop);
  TB.SetInsertPoint(Done);
  TB.CreateRetVoid();

  Value *Tapes = lookup(Tape, PB, B);
  Value *Loc = primal(Fork.getArgOperand(0));
  Value *Team0 = B.CreateLoad(B.getInt32Ty(), Tapes, "omp.team");
  B.CreateCall(runtimeFn(M, "__kmpc_push_num_threads", B.getVoidTy(),
                         {B.getPtrTy(), B.getInt32Ty(), B.getInt32Ty()}),
               {Loc, currentGtid(B, Loc), Team0});
  SmallVector<Value *, 16> FArgs = {Tapes};
  FArgs.append(flatten(B, Args));
  emitFork(B, Fork, Loc, T.Fn, FArgs, B.getCurrentDebugLocation());
  B.CreateCall(getFreeFn(M), {Tapes});
}

/// Forward sweep: parallel regions fork their augmented forward; critical
/// sections draw tickets.
void ReverseModeSynthesizer::augmentOpenMP() {
  for (Instruction &PI : instructions(P)) {
    auto *CB = dyn_cast<CallBase>(&PI);
    if (!CB)
      continue;
    if (isOpenMPForkCall(*CB)) {
      augmentParallelRegion(*CB);
      continue;
    }
    OpenMPSync Kind = openMPSyncKind(*CB);
    if (Kind != OpenMPSync::Critical && Kind != OpenMPSync::EndCritical)
      continue;
    Instruction *GI = primal(CB);
    IRBuilder<> B(Kind == OpenMPSync::Critical ? GI->getNextNode() : GI);
    CalleeTapes[CB] = B.CreateCall(
        ticketHelper(module(),
                     Kind == OpenMPSync::Critical ? "ticket" : "current"),
        {}, "omp.ticket");
  }
}

/// Barriers separate the same phases backwards; critical sections are
/// undone one at a time, in the reverse of their forward order.
void ReverseModeSynthesizer::reverseOpenMPSync(CallBase &CB, IRBuilderBase &B) {
  OpenMPSync Kind = openMPSyncKind(CB);
  Module &M = module();
  Type *Ptr = B.getPtrTy(), *I32 = B.getInt32Ty(), *Void = B.getVoidTy();
  Value *Loc = primal(CB.getArgOperand(0));
  switch (Kind) {
  case OpenMPSync::Barrier:
    B.CreateCall(runtimeFn(M, "__kmpc_barrier", Void, {Ptr, I32}),
                 {Loc, currentGtid(B, Loc)});
    return;
  case OpenMPSync::Critical:
  case OpenMPSync::EndCritical: {
    Value *Ticket = CalleeTapes.lookup(&CB);
    if (!Ticket)
      return fail(&CB, "this OpenMP critical section has no matching end");
    Ticket = lookup(Ticket, CB.getParent(), B);
    if (Kind == OpenMPSync::Critical)
      B.CreateCall(ticketHelper(M, "release"), {Ticket});
    else
      B.CreateCall(ticketHelper(M, "wait"),
                   {B.CreateAdd(Ticket, B.getInt64(1))});
    return;
  }
  case OpenMPSync::None:
    return;
  }
}

/// x op= v atomically (op + or -): v's adjoint is the adjoint of x (read,
/// x's adjoint is unchanged); the old value the operation returns passes
/// its adjoint to x's.
void ReverseModeSynthesizer::reverseAtomicRMW(AtomicRMWInst &RMW,
                                              IRBuilderBase &B) {
  Value *Ptr = RMW.getPointerOperand();
  if (!AI.hasShadow(Ptr))
    return;
  Value *S = shadowOf(Ptr, &RMW);
  if (!S)
    return;
  BasicBlock *PB = RMW.getParent();
  S = lookup(S, PB, B);
  Type *T = RMW.getType();
  if (AI.isActive(&RMW)) {
    Value *D = takeAdjoint(&RMW, B);
    for (unsigned K = 0; K < W; ++K)
      B.CreateAtomicRMW(AtomicRMWInst::FAdd, lane(B, S, K), lane(B, D, K),
                        RMW.getAlign(), AtomicOrdering::Monotonic);
  }
  Value *V = RMW.getValOperand();
  if (!AI.isActive(V))
    return;
  Value *D = lanes(B, T, [&](unsigned K) {
    LoadInst *L = B.CreateAlignedLoad(T, lane(B, S, K), RMW.getAlign());
    L->setAtomic(AtomicOrdering::Monotonic);
    return RMW.getOperation() == AtomicRMWInst::FSub ? B.CreateFNeg(L)
                                                     : (Value *)L;
  });
  addAdjoint(V, D, B);
}

bool ReverseModeSynthesizer::reverseOpenMP(CallBase &CB, IRBuilderBase &B) {
  if (isOpenMPForkCall(CB)) {
    reverseParallelRegion(CB, B);
    return true;
  }
  if (openMPSyncKind(CB) != OpenMPSync::None) {
    reverseOpenMPSync(CB, B);
    return true;
  }
  return false;
}

/// Adds \p V to the adjoint at \p Ptr with atomic adds, part by part.
void ReverseModeSynthesizer::atomicAddAdjoint(IRBuilderBase &B, Value *Ptr,
                                              Value *V, Align A,
                                              const Instruction *At) {
  Type *T = V->getType();
  if (T->isFloatingPointTy()) {
    B.CreateCall(addHelper(module(), T), {Ptr, V});
    return;
  }
  const DataLayout &DL = module().getDataLayout();
  auto Part = [&](Value *Elt, Value *EltPtr, uint64_t Offset) {
    atomicAddAdjoint(B, EltPtr, Elt, commonAlignment(A, Offset), At);
  };
  if (auto *VT = dyn_cast<FixedVectorType>(T)) {
    Type *E = VT->getElementType();
    for (unsigned I = 0; I < VT->getNumElements(); ++I)
      Part(B.CreateExtractElement(V, I), B.CreateConstGEP1_32(E, Ptr, I),
           I * DL.getTypeAllocSize(E));
    return;
  }
  if (auto *ST = dyn_cast<StructType>(T)) {
    const StructLayout *SL = DL.getStructLayout(ST);
    for (unsigned I = 0; I < ST->getNumElements(); ++I)
      Part(B.CreateExtractValue(V, I), B.CreateStructGEP(ST, Ptr, I),
           SL->getElementOffset(I));
    return;
  }
  if (auto *AT = dyn_cast<ArrayType>(T)) {
    for (unsigned I = 0; I < AT->getNumElements(); ++I)
      Part(B.CreateExtractValue(V, I), B.CreateConstGEP2_32(AT, Ptr, 0, I),
           I * DL.getTypeAllocSize(AT->getElementType()));
    return;
  }
  fail(At, "cannot add the adjoint of " + describe(At) +
               " to memory the threads of an OpenMP region share");
}

} // namespace tapestry
