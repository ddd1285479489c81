//===- LoopBlockLists.cpp - Blocks a split allocates in loops -------------===//
//
// Implements LoopBlockLists.h: the list's three pieces, written into the
// module as small internal functions on first use.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/LoopBlockLists.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tapestry {

namespace {
/// A node: {ptr next, ptr block, ptr shadow, i64 shadow bytes}.
struct NodeLayout {
  explicit NodeLayout(Module &M)
      : M(M), C(M.getContext()), Ptr(PointerType::getUnqual(C)),
        I64(Type::getInt64Ty(C)),
        Node(StructType::get(C, {Ptr, Ptr, Ptr, I64})) {}

  Function *create(StringRef Name, ArrayRef<Type *> Params) {
    Function *F =
        Function::Create(FunctionType::get(Type::getVoidTy(C), Params, false),
                         GlobalValue::InternalLinkage, Name, M);
    F->addFnAttr(Attribute::NoUnwind);
    F->addParamAttr(0, Attribute::NoCapture);
    return F;
  }
  Value *field(IRBuilderBase &B, Value *N, unsigned I) {
    return B.CreateStructGEP(Node, N, I);
  }
  Value *load(IRBuilderBase &B, Value *N, unsigned I, const Twine &Name) {
    return B.CreateLoad(Node->getElementType(I), field(B, N, I), Name);
  }

  /// Emits into \p F a walk over the list starting at its first argument,
  /// calling \p Body on each node; \p Body may free the node (the next one
  /// is read first).
  void walk(Function *F, function_ref<void(IRBuilderBase &, Value *)> Body) {
    BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
    BasicBlock *Loop = BasicBlock::Create(C, "node", F);
    BasicBlock *Done = BasicBlock::Create(C, "done", F);
    IRBuilder<> B(Entry);
    B.CreateCondBr(B.CreateIsNull(F->getArg(0)), Done, Loop);
    B.SetInsertPoint(Loop);
    PHINode *N = B.CreatePHI(Ptr, 2, "n");
    N->addIncoming(F->getArg(0), Entry);
    Value *Next = load(B, N, 0, "next");
    Body(B, N);
    N->addIncoming(Next, B.GetInsertBlock());
    B.CreateCondBr(B.CreateIsNull(Next), Done, Loop);
    B.SetInsertPoint(Done);
    B.CreateRetVoid();
  }

  Module &M;
  LLVMContext &C;
  PointerType *Ptr;
  IntegerType *I64;
  StructType *Node;
};
} // namespace

Function *getLoopBlockLinkFn(Module &M) {
  static constexpr StringLiteral Name = "tapestry.loopblocks.link";
  if (Function *F = M.getFunction(Name))
    return F;
  NodeLayout L(M);
  Function *F = L.create(Name, {L.Ptr, L.Ptr, L.Ptr, L.I64});
  IRBuilder<> B(BasicBlock::Create(L.C, "entry", F));
  Value *N = B.CreateCall(getMallocFn(M), {B.getInt64(32)}, "node");
  B.CreateStore(B.CreateLoad(L.Ptr, F->getArg(0), "head"), L.field(B, N, 0));
  for (unsigned I = 1; I < 4; ++I)
    B.CreateStore(F->getArg(I), L.field(B, N, I));
  B.CreateStore(N, F->getArg(0));
  B.CreateRetVoid();
  return F;
}

Function *getLoopBlockZeroFn(Module &M) {
  static constexpr StringLiteral Name = "tapestry.loopblocks.zero";
  if (Function *F = M.getFunction(Name))
    return F;
  NodeLayout L(M);
  Function *F = L.create(Name, {L.Ptr});
  L.walk(F, [&](IRBuilderBase &B, Value *N) {
    B.CreateMemSet(L.load(B, N, 2, "shadow"), B.getInt8(0),
                   L.load(B, N, 3, "bytes"), MaybeAlign());
  });
  return F;
}

Function *getLoopBlockReleaseFn(Module &M, HeapFunction Dealloc,
                                uint64_t Align) {
  FunctionCallee Free = getDeallocatorFn(M, Dealloc, Align);
  std::string Name = ("tapestry.loopblocks.release." +
                      cast<Function>(Free.getCallee())->getName())
                         .str();
  if (Function *F = M.getFunction(Name))
    return F;
  NodeLayout L(M);
  Function *F = L.create(Name, {L.Ptr});
  L.walk(F, [&](IRBuilderBase &B, Value *N) {
    B.CreateCall(Free, {L.load(B, N, 1, "block")});
    B.CreateCall(Free, {L.load(B, N, 2, "shadow")});
    B.CreateCall(getFreeFn(M), {N});
  });
  return F;
}

} // namespace tapestry
