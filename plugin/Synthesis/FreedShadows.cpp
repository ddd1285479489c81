//===- FreedShadows.cpp - Shadows of blocks the primal freed --------------===//
//
// Implements FreedShadows.h: the per-thread list of freed shadows, one per
// depth of nesting, as small internal functions written into the module on
// first use (getFreedShadowPushFn, ...TakeFn, ...MarkFn, ...ReleaseFn), the
// kind each deallocator records, and the queries RequestOrder uses to find the
// lists a module already has. The reverse synthesizer calls push and take; the
// request's call site marks and releases.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/FreedShadows.h"

#include "Core/AllocationFunctions.h"
#include "Core/AllocationLike.h"
#include "Core/Diagnostics.h"
#include "Synthesis/InlineHelpers.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tapestry {

unsigned freedShadowKind(const Function &Dealloc) {
  std::optional<HeapFunction> H = heapFunction(Dealloc);
  return H == HeapFunction::Delete ? 1 : H == HeapFunction::DeleteArray ? 2 : 0;
}

static constexpr StringLiteral Prefix = "tapestry.freed.";

/// The name of the list's piece \p Base at depth \p Depth: "push" at depth
/// 0 is tapestry.freed.push, at depth 2 tapestry.freed.push.2.
static std::string nameAt(StringRef Base, unsigned Depth) {
  std::string Name = (Prefix + Base).str();
  if (Depth)
    Name += "." + std::to_string(Depth);
  return Name;
}

SmallVector<Function *, 4> freedListPieces(const Module &M, unsigned Depth) {
  SmallVector<Function *, 4> Pieces;
  for (StringRef Base :
       {"push", "take", "mark", "release", "settag", "releasetag", "dispose"})
    if (Function *F = M.getFunction(nameAt(Base, Depth));
        F && !F->isDeclaration())
      Pieces.push_back(F);
  return Pieces;
}

const Function *findFreedShadowPushFn(const Module &M, unsigned Depth) {
  return M.getFunction(nameAt("push", Depth));
}

bool listsFreedShadows(const Module &M, unsigned Depth) {
  return M.getFunction(nameAt("push", Depth)) != nullptr;
}

namespace {
/// The list's global and types, and the pieces every helper needs.
struct FreedList {
  FreedList(Module &M, unsigned Depth)
      : M(M), C(M.getContext()), Depth(Depth), Ptr(PointerType::getUnqual(C)),
        I64(Type::getInt64Ty(C)),
        Entry(StructType::get(C, {Ptr, I64, I64, Ptr, Ptr, I64})),
        State(StructType::get(C, {Ptr, I64, I64})) {
    std::string Name = nameAt("shadows", Depth);
    G = M.getGlobalVariable(Name, /*AllowInternal=*/true);
    if (!G) {
      G = new GlobalVariable(M, State, /*isConstant=*/false,
                             GlobalValue::InternalLinkage,
                             Constant::getNullValue(State), Name, nullptr,
                             GlobalValue::GeneralDynamicTLSModel);
      // Its ABI alignment, stated: left unset, a 24-byte global's preferred
      // alignment is 16 and code generation assumes it (aligned vector
      // stores), which a JIT's thread-local storage (lli's) does not give.
      G->setAlignment(M.getDataLayout().getABITypeAlign(State));
    }
  }

  Function *create(StringRef Base, Type *Ret, ArrayRef<Type *> Params) {
    Function *F =
        Function::Create(FunctionType::get(Ret, Params, false),
                         GlobalValue::InternalLinkage, nameAt(Base, Depth), M);
    F->addFnAttr(Attribute::NoInline);
    F->addFnAttr(Attribute::NoUnwind);
    return F;
  }
  /// The tape of the split request whose augmented forward is running
  /// (null otherwise), kept with each entry pushed meanwhile.
  GlobalVariable *tag() {
    std::string Name = nameAt("tag", Depth);
    if (GlobalVariable *T = M.getGlobalVariable(Name, /*AllowInternal=*/true))
      return T;
    auto *T = new GlobalVariable(M, Ptr, /*isConstant=*/false,
                                 GlobalValue::InternalLinkage,
                                 Constant::getNullValue(Ptr), Name, nullptr,
                                 GlobalValue::GeneralDynamicTLSModel);
    T->setAlignment(M.getDataLayout().getABITypeAlign(Ptr));
    return T;
  }
  uint64_t entryBytes() const {
    return M.getDataLayout().getTypeAllocSize(Entry);
  }
  Value *field(IRBuilderBase &B, unsigned I) {
    return B.CreateStructGEP(State, G, I);
  }
  Value *data(IRBuilderBase &B) { return B.CreateLoad(Ptr, field(B, 0)); }
  Value *length(IRBuilderBase &B) { return B.CreateLoad(I64, field(B, 1)); }
  /// Frees the entries' storage and empties the list.
  void drop(IRBuilderBase &B) {
    B.CreateCall(getFreeFn(M), {data(B)});
    B.CreateStore(Constant::getNullValue(State), G);
  }

  Module &M;
  LLVMContext &C;
  unsigned Depth;
  Type *Ptr, *I64;
  StructType *Entry, *State;
  GlobalVariable *G;
};
} // namespace

/// i1 @tapestry.freed.lost(ptr now, ptr then, i64 bytes, i64 exact): true if
/// some 8-byte word of \p now differs from the same word of \p then (of
/// zero if \p then is null) and is not zero (+0.0 or -0.0): an adjoint was
/// added. (A word that became zero was consumed, a seed of a value the
/// function overwrote, or cleared, a pointer slot the reverse of a memset
/// zeroed: nothing is lost.) A last 4-byte word, a float, is compared the
/// same way. Within the first \p exact bytes (the block's size as its
/// deallocator stated it: no allocator slack, whose bytes are stale), a
/// word that kept a nonzero value a double of normal magnitude has is lost
/// as well: a seed the caller gave the block, which nothing consumed before
/// the block was freed (its output replaced by a new block), or one the
/// reverse consumed and gave back as the adjoint of the block's old value.
/// (Shadow pointers and integers copied from the primal read as subnormal
/// or NaN doubles: heap addresses and counts below 2^52 have a zero
/// exponent, negative integers an all-ones one.)
static Function *getLostFn(Module &M) {
  StringRef Name = "tapestry.freed.lost";
  if (Function *F = M.getFunction(Name))
    return F;
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C),
       *I32 = Type::getInt32Ty(C), *I1 = Type::getInt1Ty(C);
  Function *F =
      Function::Create(FunctionType::get(I1, {Ptr, Ptr, I64, I64}, false),
                       GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::NoInline);
  F->addFnAttr(Attribute::NoUnwind);
  Value *Now = F->getArg(0), *Then = F->getArg(1), *Bytes = F->getArg(2);
  Value *ExactWords = nullptr;
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Loop = BasicBlock::Create(C, "loop", F);
  BasicBlock *Body = BasicBlock::Create(C, "body", F);
  BasicBlock *Tail = BasicBlock::Create(C, "tail", F);
  BasicBlock *Half = BasicBlock::Create(C, "half", F);
  BasicBlock *Yes = BasicBlock::Create(C, "yes", F);
  BasicBlock *No = BasicBlock::Create(C, "no", F);
  IRBuilder<> B(Entry);
  Value *Words = B.CreateLShr(Bytes, 3);
  ExactWords = B.CreateLShr(F->getArg(3), 3);
  B.CreateBr(Loop);
  // A word changed to something other than +-0.
  // (No copy: the shadow was all zero.)
  Value *Zero = nullptr;
  auto Added = [&](Type *T, Value *At) {
    if (!Zero) {
      IRBuilder<> EB(Entry, Entry->begin());
      Zero = EB.CreateIsNull(Then);
    }
    Value *A =
        B.CreateAlignedLoad(T, B.CreateGEP(B.getInt8Ty(), Now, At), Align(1));
    Value *From = B.CreateSelect(Zero, Now, Then);
    Value *W = B.CreateSelect(
        Zero, ConstantInt::get(T, 0),
        B.CreateAlignedLoad(T, B.CreateGEP(B.getInt8Ty(), From, At), Align(1)));
    Value *Magnitude = B.CreateAnd(
        A,
        ConstantInt::get(T, APInt::getSignedMaxValue(T->getIntegerBitWidth())));
    return std::pair(
        A, B.CreateAnd(B.CreateICmpNE(A, W),
                       B.CreateICmpNE(Magnitude, ConstantInt::get(T, 0))));
  };
  // A word that kept a nonzero double of normal magnitude (exponent neither
  // all zeros nor all ones), within the block's stated size.
  auto Kept = [&](Value *A, Value *I) {
    Value *Exponent =
        B.CreateAnd(B.CreateLShr(A, 52), ConstantInt::get(A->getType(), 0x7ff));
    Value *Normal = B.CreateAnd(
        B.CreateICmpNE(Exponent, ConstantInt::get(A->getType(), 0)),
        B.CreateICmpNE(Exponent, ConstantInt::get(A->getType(), 0x7ff)));
    return B.CreateAnd(Normal, B.CreateICmpULT(I, ExactWords));
  };
  B.SetInsertPoint(Loop);
  PHINode *I = B.CreatePHI(I64, 2, "i");
  I->addIncoming(B.getInt64(0), Entry);
  B.CreateCondBr(B.CreateICmpULT(I, Words), Body, Tail);
  B.SetInsertPoint(Body);
  Value *Next = B.CreateAdd(I, B.getInt64(1));
  I->addIncoming(Next, Body);
  auto [Word, Changed] = Added(I64, B.CreateShl(I, 3));
  B.CreateCondBr(B.CreateOr(Changed, Kept(Word, I)), Yes, Loop);
  B.SetInsertPoint(Tail);
  B.CreateCondBr(B.CreateICmpNE(B.CreateAnd(Bytes, 4), B.getInt64(0)), Half,
                 No);
  B.SetInsertPoint(Half);
  B.CreateCondBr(Added(I32, B.CreateShl(Words, 3)).second, Yes, No);
  IRBuilder<>(Yes).CreateRet(B.getTrue());
  IRBuilder<>(No).CreateRet(B.getFalse());
  return F;
}

/// i1 @tapestry.freed.librarynew(): true if the program's operator new is
/// the C++ library's (libstdc++'s, whose blocks malloc_usable_size can
/// measure), not one the program defines (a pool, a tracking header): the
/// function the program calls lies in libstdc++.so. Asked once per
/// process.
static Function *getLibraryNewFn(Module &M) {
  StringRef Name = "tapestry.freed.librarynew";
  if (Function *F = M.getFunction(Name))
    return F;
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I32 = Type::getInt32Ty(C);
  Function *F = Function::Create(FunctionType::get(Type::getInt1Ty(C), false),
                                 GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::NoInline);
  F->addFnAttr(Attribute::NoUnwind);
  // 0: not asked yet, 1: the library's, 2: another.
  auto *State = new GlobalVariable(
      M, I32, /*isConstant=*/false, GlobalValue::InternalLinkage,
      ConstantInt::get(I32, 0), "tapestry.freed.librarynew.state");
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Ask = BasicBlock::Create(C, "ask", F);
  BasicBlock *Loaded = BasicBlock::Create(C, "loaded", F);
  BasicBlock *Done = BasicBlock::Create(C, "done", F);
  IRBuilder<> B(Entry);
  Value *Known = B.CreateLoad(I32, State);
  B.CreateCondBr(B.CreateICmpEQ(Known, B.getInt32(0)), Ask, Done);
  B.SetInsertPoint(Ask);
  // Which loaded object defines the operator new the program calls
  // (dladdr allocates nothing: a derivative's heap use stays its own).
  StructType *DlInfo = StructType::get(C, {Ptr, Ptr, Ptr, Ptr});
  FunctionCallee Addr = M.getOrInsertFunction(
      "dladdr", FunctionType::get(I32, {Ptr, Ptr}, false));
  FunctionCallee Find = M.getOrInsertFunction(
      "strstr", FunctionType::get(Ptr, {Ptr, Ptr}, false));
  FunctionCallee New = M.getOrInsertFunction(
      "_Znwm", FunctionType::get(Ptr, {Type::getInt64Ty(C)}, false));
  Value *Info = IRBuilder<>(&F->getEntryBlock(), F->getEntryBlock().begin())
                    .CreateAlloca(DlInfo);
  Value *Found = B.CreateCall(Addr, {New.getCallee(), Info});
  Value *Asked = B.getInt32(2);
  BasicBlock *NoLib = B.GetInsertBlock();
  B.CreateCondBr(B.CreateICmpEQ(Found, B.getInt32(0)), Done, Loaded);
  B.SetInsertPoint(Loaded);
  Value *File = B.CreateLoad(Ptr, B.CreateStructGEP(DlInfo, Info, 0));
  Value *Lib =
      B.CreateCall(Find, {File, B.CreateGlobalStringPtr("libstdc++.so")});
  Value *Library =
      B.CreateSelect(B.CreateIsNull(Lib), B.getInt32(2), B.getInt32(1));
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  PHINode *Now = B.CreatePHI(I32, 3);
  Now->addIncoming(Known, Entry);
  Now->addIncoming(Asked, NoLib);
  Now->addIncoming(Library, Loaded);
  B.CreateStore(Now, State);
  B.CreateRet(B.CreateICmpEQ(Now, B.getInt32(1)));
  return F;
}

Function *getFreedShadowPushFn(Module &M, unsigned Depth) {
  if (Function *F = M.getFunction(nameAt("push", Depth)))
    return F;
  FreedList L(M, Depth);
  Function *F =
      L.create("push", Type::getVoidTy(L.C), {L.Ptr, L.I64, L.I64, L.I64});
  BasicBlock *Entry = BasicBlock::Create(L.C, "entry", F);
  BasicBlock *Check = BasicBlock::Create(L.C, "check", F);
  BasicBlock *Grow = BasicBlock::Create(L.C, "grow", F);
  BasicBlock *Append = BasicBlock::Create(L.C, "append", F);
  BasicBlock *Skip = BasicBlock::Create(L.C, "skip", F);
  IRBuilder<> B(Entry);
  // A null shadow (of a pointer found constant at run time) owns nothing.
  B.CreateCondBr(B.CreateIsNull(F->getArg(0)), Skip, Check);
  B.SetInsertPoint(Skip);
  B.CreateRetVoid();
  B.SetInsertPoint(Check);
  Value *Len = L.length(B);
  Value *Cap = B.CreateLoad(L.I64, L.field(B, 2));
  B.CreateCondBr(B.CreateICmpUGE(Len, Cap), Grow, Append);
  B.SetInsertPoint(Grow);
  Value *NewCap = B.CreateSelect(B.CreateICmpEQ(Cap, B.getInt64(0)),
                                 B.getInt64(16), B.CreateShl(Cap, 1));
  Value *Grown = B.CreateCall(
      getReallocFn(M),
      {L.data(B), B.CreateMul(NewCap, B.getInt64(L.entryBytes()))});
  B.CreateStore(Grown, L.field(B, 0));
  B.CreateStore(NewCap, L.field(B, 2));
  B.CreateBr(Append);
  B.SetInsertPoint(Append);
  Value *Slot = B.CreateGEP(L.Entry, L.data(B), Len);
  B.CreateStore(F->getArg(0), B.CreateStructGEP(L.Entry, Slot, 0));
  B.CreateStore(F->getArg(1), B.CreateStructGEP(L.Entry, Slot, 1));
  // The shadow's size in bytes: asked of the allocator (a block from
  // malloc, or from operator new if it is the C++ library's, which takes
  // its memory from malloc), or 0, not checked.
  BasicBlock *Ask = BasicBlock::Create(L.C, "ask", F);
  BasicBlock *Sized = BasicBlock::Create(L.C, "sized", F);
  BasicBlock *Given = B.GetInsertBlock();
  Value *Arg = F->getArg(2);
  Value *AskNow = B.CreateICmpEQ(Arg, B.getInt64(AskAllocatorBytes));
  if (any_of(M.functions(), isCxxHeapFunction)) {
    Value *FromNew = B.CreateICmpEQ(Arg, B.getInt64(AskAllocatorIfNewBytes));
    AskNow = B.CreateOr(AskNow,
                        B.CreateAnd(FromNew, B.CreateCall(getLibraryNewFn(M))));
    Arg = B.CreateSelect(FromNew, B.getInt64(0), Arg);
  }
  B.CreateCondBr(AskNow, Ask, Sized);
  B.SetInsertPoint(Ask);
  Value *Asked = B.CreateCall(getMallocUsableSizeFn(M), {F->getArg(0)});
  B.CreateBr(Sized);
  B.SetInsertPoint(Sized);
  PHINode *Bytes = B.CreatePHI(L.I64, 2, "bytes");
  Bytes->addIncoming(Arg, Given);
  Bytes->addIncoming(Asked, Ask);
  // A copy of the shadow as it is when its block is freed (none if the
  // size is not known, or no memory is left for it: then not checked).
  // A shadow that is all zero, as most are (a fresh scratch block, a
  // caller's zeroed gradient), needs no copy: it is compared with zero.
  BasicBlock *Copy = BasicBlock::Create(L.C, "copy", F);
  BasicBlock *Scan = BasicBlock::Create(L.C, "scan", F);
  BasicBlock *Copied = BasicBlock::Create(L.C, "copied", F);
  BasicBlock *Before = B.GetInsertBlock();
  B.CreateCondBr(B.CreateICmpEQ(Bytes, B.getInt64(0)), Copied, Scan);
  B.SetInsertPoint(Scan);
  Value *Dirty =
      B.CreateCall(getLostFn(M), {F->getArg(0), Constant::getNullValue(L.Ptr),
                                  Bytes, B.getInt64(0)});
  B.CreateCondBr(Dirty, Copy, Copied);
  B.SetInsertPoint(Copy);
  Value *Snapshot = B.CreateCall(getMallocFn(M), {Bytes});
  BasicBlock *Fill = BasicBlock::Create(L.C, "fill", F);
  B.CreateCondBr(B.CreateIsNull(Snapshot), Copied, Fill);
  B.SetInsertPoint(Fill);
  B.CreateMemCpy(Snapshot, Align(1), F->getArg(0), Align(1), Bytes);
  B.CreateBr(Copied);
  B.SetInsertPoint(Copied);
  PHINode *Then = B.CreatePHI(L.Ptr, 4, "snapshot");
  Then->addIncoming(Constant::getNullValue(L.Ptr), Before);
  Then->addIncoming(Constant::getNullValue(L.Ptr), Scan);
  Then->addIncoming(Constant::getNullValue(L.Ptr), Copy);
  Then->addIncoming(Snapshot, Fill);
  PHINode *Checked = B.CreatePHI(L.I64, 4, "checked");
  Checked->addIncoming(B.getInt64(0), Before);
  Checked->addIncoming(Bytes, Scan);
  Checked->addIncoming(B.getInt64(0), Copy);
  Checked->addIncoming(Bytes, Fill);
  B.CreateStore(Checked, B.CreateStructGEP(L.Entry, Slot, 2));
  B.CreateStore(Then, B.CreateStructGEP(L.Entry, Slot, 3));
  B.CreateStore(B.CreateLoad(L.Ptr, L.tag()),
                B.CreateStructGEP(L.Entry, Slot, 4));
  B.CreateStore(F->getArg(3), B.CreateStructGEP(L.Entry, Slot, 5));
  B.CreateStore(B.CreateAdd(Len, B.getInt64(1)), L.field(B, 1));
  B.CreateRetVoid();
  return F;
}

Function *getFreedShadowTakeFn(Module &M, unsigned Depth) {
  if (Function *F = M.getFunction(nameAt("take", Depth)))
    return F;
  FreedList L(M, Depth);
  Function *F = L.create("take", Type::getInt1Ty(L.C), {L.Ptr});
  BasicBlock *Entry = BasicBlock::Create(L.C, "entry", F);
  BasicBlock *Loop = BasicBlock::Create(L.C, "loop", F);
  BasicBlock *Body = BasicBlock::Create(L.C, "body", F);
  BasicBlock *Found = BasicBlock::Create(L.C, "found", F);
  BasicBlock *Empty = BasicBlock::Create(L.C, "empty", F);
  BasicBlock *Done = BasicBlock::Create(L.C, "done", F);
  BasicBlock *Missing = BasicBlock::Create(L.C, "missing", F);
  IRBuilder<> B(Entry);
  Value *Len = L.length(B);
  Value *Data = L.data(B);
  B.CreateBr(Loop);
  // Newest first: a block is usually freed soon after it was allocated.
  B.SetInsertPoint(Loop);
  PHINode *I = B.CreatePHI(L.I64, 2, "i");
  I->addIncoming(Len, Entry);
  B.CreateCondBr(B.CreateICmpEQ(I, B.getInt64(0)), Missing, Body);
  B.SetInsertPoint(Body);
  Value *Prev = B.CreateSub(I, B.getInt64(1));
  Value *Slot = B.CreateGEP(L.Entry, Data, Prev);
  Value *Listed = B.CreateLoad(L.Ptr, B.CreateStructGEP(L.Entry, Slot, 0));
  I->addIncoming(Prev, Body);
  B.CreateCondBr(B.CreateICmpEQ(Listed, F->getArg(0)), Found, Loop);
  // The last entry moves into the taken one's place.
  B.SetInsertPoint(Found);
  // Its block was the function's own: its copy is not needed.
  B.CreateCall(getFreeFn(M),
               {B.CreateLoad(L.Ptr, B.CreateStructGEP(L.Entry, Slot, 3))});
  Value *NewLen = B.CreateSub(Len, B.getInt64(1));
  Value *Last = B.CreateLoad(L.Entry, B.CreateGEP(L.Entry, Data, NewLen));
  B.CreateStore(Last, Slot);
  B.CreateStore(NewLen, L.field(B, 1));
  B.CreateCondBr(B.CreateICmpEQ(NewLen, B.getInt64(0)), Empty, Done);
  B.SetInsertPoint(Empty);
  L.drop(B);
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  B.CreateRet(B.getTrue());
  B.SetInsertPoint(Missing);
  B.CreateRet(B.getFalse());
  return F;
}

Function *getFreedShadowMarkFn(Module &M, unsigned Depth) {
  if (Function *F = M.getFunction(nameAt("mark", Depth)))
    return F;
  FreedList L(M, Depth);
  Function *F = L.create("mark", L.I64, {});
  IRBuilder<> B(BasicBlock::Create(L.C, "entry", F));
  B.CreateRet(L.length(B));
  return F;
}

/// void @tapestry.freed.dispose(ptr entry, ptr msg, i64 len): stops the
/// program with the \p len bytes at \p msg if the listed shadow received
/// an adjoint after its block was freed, else frees it and its copy.
static Function *getDisposeFn(Module &M, unsigned Depth) {
  if (Function *F = M.getFunction(nameAt("dispose", Depth)))
    return F;
  FreedList L(M, Depth);
  Function *F =
      L.create("dispose", Type::getVoidTy(L.C), {L.Ptr, L.Ptr, L.I64});
  Value *Slot = F->getArg(0);
  IRBuilder<> B(BasicBlock::Create(L.C, "entry", F));
  Value *Shadow = B.CreateLoad(L.Ptr, B.CreateStructGEP(L.Entry, Slot, 0));
  Value *Kind = B.CreateLoad(L.I64, B.CreateStructGEP(L.Entry, Slot, 1));
  // An adjoint that arrived after the block was freed has nowhere to go.
  Value *Bytes = B.CreateLoad(L.I64, B.CreateStructGEP(L.Entry, Slot, 2));
  Value *Then = B.CreateLoad(L.Ptr, B.CreateStructGEP(L.Entry, Slot, 3));
  Value *Exact = B.CreateLoad(L.I64, B.CreateStructGEP(L.Entry, Slot, 5));
  BasicBlock *Lost = BasicBlock::Create(L.C, "lost", F);
  BasicBlock *Kept = BasicBlock::Create(L.C, "kept", F);
  B.CreateCondBr(B.CreateCall(getLostFn(M), {Shadow, Then, Bytes, Exact}), Lost,
                 Kept);
  {
    IRBuilder<> LB(Lost);
    emitFatalMessage(LB, F->getArg(1), F->getArg(2));
    LB.CreateUnreachable();
  }
  B.SetInsertPoint(Kept);
  B.CreateCall(getFreeFn(M), {Then});
  // operator delete / delete[] for blocks from new / new[], free otherwise.
  BasicBlock *Next = BasicBlock::Create(L.C, "next", F);
  SwitchInst *Switch = B.CreateSwitch(Kind, nullptr, 3);
  // C programs have no operator delete to link against, and no block from
  // operator new either.
  bool Cxx = any_of(M.functions(), isCxxHeapFunction);
  for (auto [Case, Dealloc] :
       {std::pair<unsigned, HeapFunction>{0, HeapFunction::Free},
        {1, HeapFunction::Delete},
        {2, HeapFunction::DeleteArray}}) {
    if (Case != 0 && !Cxx)
      continue;
    FunctionCallee Fn = getDeallocatorFn(M, Dealloc);
    BasicBlock *BB = BasicBlock::Create(
        L.C, cast<Function>(Fn.getCallee())->getName(), F, Next);
    IRBuilder<> DB(BB);
    DB.CreateCall(Fn, {Shadow});
    DB.CreateBr(Next);
    if (Case == 0)
      Switch->setDefaultDest(BB);
    else
      Switch->addCase(B.getInt64(Case), BB);
  }
  // A deallocator registered with __enzyme_allocation_like is its own
  // kind: its address (Core/AllocationLike.h); so is over-aligned operator
  // delete, through a function passing the alignment (getDeallocatorFn).
  if (Cxx || any_of(M.functions(), [](const Function &Fn) {
        return customFreedOperand(Fn);
      })) {
    BasicBlock *Free = Switch->getDefaultDest();
    Switch->addCase(B.getInt64(0), Free);
    BasicBlock *BB = BasicBlock::Create(L.C, "registered", F, Next);
    IRBuilder<> DB(BB);
    DB.CreateCall(FunctionType::get(DB.getVoidTy(), {L.Ptr}, false),
                  DB.CreateIntToPtr(Kind, L.Ptr), {Shadow});
    DB.CreateBr(Next);
    Switch->setDefaultDest(BB);
  }
  B.SetInsertPoint(Next);
  B.CreateRetVoid();
  return F;
}

Function *getFreedShadowReleaseFn(Module &M, unsigned Depth) {
  if (Function *F = M.getFunction(nameAt("release", Depth)))
    return F;
  FreedList L(M, Depth);
  Function *F =
      L.create("release", Type::getVoidTy(L.C), {L.I64, L.Ptr, L.I64});
  Value *Mark = F->getArg(0);
  BasicBlock *Entry = BasicBlock::Create(L.C, "entry", F);
  BasicBlock *Loop = BasicBlock::Create(L.C, "loop", F);
  BasicBlock *Body = BasicBlock::Create(L.C, "body", F);
  BasicBlock *Exit = BasicBlock::Create(L.C, "exit", F);
  BasicBlock *Empty = BasicBlock::Create(L.C, "empty", F);
  BasicBlock *Done = BasicBlock::Create(L.C, "done", F);
  IRBuilder<> B(Entry);
  Value *Len = L.length(B);
  Value *Data = L.data(B);
  B.CreateBr(Loop);
  B.SetInsertPoint(Loop);
  PHINode *I = B.CreatePHI(L.I64, 2, "i");
  I->addIncoming(Mark, Entry);
  B.CreateCondBr(B.CreateICmpUGE(I, Len), Exit, Body);
  B.SetInsertPoint(Body);
  B.CreateCall(getDisposeFn(M, Depth),
               {B.CreateGEP(L.Entry, Data, I), F->getArg(1), F->getArg(2)});
  I->addIncoming(B.CreateAdd(I, B.getInt64(1)), Body);
  B.CreateBr(Loop);
  // Down to the mark; an empty list gives its storage back.
  // (take() may have moved entries below the mark.)
  B.SetInsertPoint(Exit);
  Value *NewLen = B.CreateBinaryIntrinsic(Intrinsic::umin, Mark, Len);
  B.CreateStore(NewLen, L.field(B, 1));
  B.CreateCondBr(B.CreateICmpEQ(NewLen, B.getInt64(0)), Empty, Done);
  B.SetInsertPoint(Empty);
  L.drop(B);
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  B.CreateRetVoid();
  return F;
}

Function *getFreedShadowSetTagFn(Module &M, unsigned Depth) {
  if (Function *F = M.getFunction(nameAt("settag", Depth)))
    return F;
  FreedList L(M, Depth);
  Function *F = L.create("settag", L.Ptr, {L.Ptr});
  IRBuilder<> B(BasicBlock::Create(L.C, "entry", F));
  GlobalVariable *Tag = L.tag();
  Value *Old = B.CreateLoad(L.Ptr, Tag);
  B.CreateStore(F->getArg(0), Tag);
  B.CreateRet(Old);
  return F;
}

Function *getFreedShadowReleaseTagFn(Module &M, unsigned Depth) {
  if (Function *F = M.getFunction(nameAt("releasetag", Depth)))
    return F;
  FreedList L(M, Depth);
  Function *F =
      L.create("releasetag", Type::getVoidTy(L.C), {L.Ptr, L.Ptr, L.I64});
  BasicBlock *Entry = BasicBlock::Create(L.C, "entry", F);
  BasicBlock *Loop = BasicBlock::Create(L.C, "loop", F);
  BasicBlock *Body = BasicBlock::Create(L.C, "body", F);
  BasicBlock *Mine = BasicBlock::Create(L.C, "mine", F);
  BasicBlock *Exit = BasicBlock::Create(L.C, "exit", F);
  BasicBlock *Empty = BasicBlock::Create(L.C, "empty", F);
  BasicBlock *Done = BasicBlock::Create(L.C, "done", F);
  IRBuilder<> B(Entry);
  Value *Data = L.data(B);
  Value *Len0 = L.length(B);
  B.CreateBr(Loop);
  // Each entry of this tape is disposed of, and the last entry moves into
  // its place.
  B.SetInsertPoint(Loop);
  PHINode *I = B.CreatePHI(L.I64, 3, "i");
  PHINode *Len = B.CreatePHI(L.I64, 3, "len");
  I->addIncoming(B.getInt64(0), Entry);
  Len->addIncoming(Len0, Entry);
  B.CreateCondBr(B.CreateICmpUGE(I, Len), Exit, Body);
  B.SetInsertPoint(Body);
  Value *Slot = B.CreateGEP(L.Entry, Data, I);
  Value *SlotTag = B.CreateLoad(L.Ptr, B.CreateStructGEP(L.Entry, Slot, 4));
  I->addIncoming(B.CreateAdd(I, B.getInt64(1)), Body);
  Len->addIncoming(Len, Body);
  B.CreateCondBr(B.CreateICmpEQ(SlotTag, F->getArg(0)), Mine, Loop);
  B.SetInsertPoint(Mine);
  B.CreateCall(getDisposeFn(M, Depth), {Slot, F->getArg(1), F->getArg(2)});
  Value *NewLen = B.CreateSub(Len, B.getInt64(1));
  B.CreateStore(B.CreateLoad(L.Entry, B.CreateGEP(L.Entry, Data, NewLen)),
                Slot);
  I->addIncoming(I, Mine);
  Len->addIncoming(NewLen, Mine);
  B.CreateBr(Loop);
  B.SetInsertPoint(Exit);
  B.CreateStore(Len, L.field(B, 1));
  B.CreateCondBr(B.CreateICmpEQ(Len, B.getInt64(0)), Empty, Done);
  B.SetInsertPoint(Empty);
  L.drop(B);
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  B.CreateRetVoid();
  return F;
}

std::string lostAdjointsMessage(const Function &Fn) {
  std::string Name = sourceName(Fn);
  return "tapestry: the reverse derivative of '" + Name + "' lost adjoints: '" +
         Name +
         "' freed or reallocated a block the caller passed it (a pointer "
         "argument, a struct's buffer grown by realloc, a std::vector "
         "argument grown by push_back, resize or insert, or replaced by a "
         "move assignment or a swap), and the derivatives with respect to "
         "the block's old contents (the values read from it, or moved out of "
         "it when it grew) went to the shadow of the freed block, which the "
         "caller can no longer see, or the seeds the caller gave that shadow "
         "(an output's adjoints) stayed there unused. Leave the caller's "
         "block in place: give it its final size before the call, write its "
         "elements or copy into it (v = w) instead of moving or swapping a "
         "new block into it, and free it after the call rather than "
         "inside.\n";
}

} // namespace tapestry
