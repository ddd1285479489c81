//===- ForwardPackedShadows.cpp - Packed shadow lanes in forward mode -----===//
//
// The ForwardModeSynthesizer members for allocations whose shadow lanes are
// packed side by side (Synthesis/PackedShadows.h): the shadow blocks, W
// times the primal's size; pointers into them, at W times the primal's
// offset; and their accesses, one vector of W lanes each.
//
//===----------------------------------------------------------------------===//
#include "Core/AllocationFunctions.h"
#include "Core/Diagnostics.h"
#include "Synthesis/ForwardModeSynthesizer.h"
#include "Synthesis/TapeCache.h"
#include "llvm/Analysis/Utils/Local.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tapestry {

Value *ForwardModeSynthesizer::packedShadow(Value *PV) {
  if (Value *S = PackedShadows.lookup(PV))
    return S;
  if (isa<ConstantPointerNull>(PV))
    return PV;
  if (isa<UndefValue>(PV))
    return PoisonValue::get(PV->getType());
  fail(nullptr, "internal error: the packed shadow of '" + describe(PV) +
                    "' is used before it is made");
  return nullptr;
}

Value *ForwardModeSynthesizer::loadPacked(IRBuilderBase &B, Type *T,
                                          Value *SPtr) {
  unsigned S = module().getDataLayout().getTypeAllocSize(T);
  Type *VT = FixedVectorType::get(T, W);
  Value *L = B.CreateAlignedLoad(VT, SPtr, Align(S));
  if (batchTy(T) == VT)
    return L;
  return lanes(B, T, [&](unsigned K) { return B.CreateExtractElement(L, K); });
}

void ForwardModeSynthesizer::storePacked(IRBuilderBase &B, Value *V, Type *T,
                                         Value *SPtr) {
  unsigned S = module().getDataLayout().getTypeAllocSize(T);
  Type *VT = FixedVectorType::get(T, W);
  Value *Vec = V;
  if (V->getType() != VT) {
    Vec = PoisonValue::get(VT);
    for (unsigned K = 0; K < W; ++K)
      Vec = B.CreateInsertElement(Vec, lane(B, V, K), K);
  }
  B.CreateAlignedStore(Vec, SPtr, Align(S));
}

static Value *scaled(IRBuilderBase &B, Value *Bytes, unsigned W) {
  return B.CreateMul(Bytes, ConstantInt::get(Bytes->getType(), W));
}

bool ForwardModeSynthesizer::createPackedShadow(Instruction &PI) {
  // A pointer read from packed memory has per-lane shadows, side by side.
  if (auto *LI = dyn_cast<LoadInst>(&PI);
      LI && Packed.isPacked(LI->getPointerOperand())) {
    Value *SPtr = packedShadow(LI->getPointerOperand());
    if (!SPtr || !AI.hasShadow(LI))
      return true;
    IRBuilder<> B(primal(&PI)->getNextNode());
    Shadows[&PI] = loadPacked(B, PI.getType(), SPtr);
    return true;
  }
  if (!Packed.isPacked(&PI))
    return false;
  Instruction *GI = primal(&PI);
  IRBuilder<> B(GI->getNextNode());
  const DataLayout &DL = module().getDataLayout();
  unsigned S = Packed.elementSize(&PI);
  Value *SV = nullptr;
  if (auto *A = dyn_cast<AllocaInst>(&PI)) {
    auto *GA = cast<AllocaInst>(GI);
    Value *Bytes = B.CreateMul(
        B.CreateZExtOrTrunc(GA->getArraySize(), B.getInt64Ty()),
        B.getInt64(DL.getTypeAllocSize(GA->getAllocatedType()) * W));
    AllocaInst *SA = B.CreateAlloca(B.getInt8Ty(), Bytes, A->getName() + "'");
    SA->setAlignment(std::max(GA->getAlign(), Align(S)));
    B.CreateMemSet(SA, B.getInt8(0), Bytes, SA->getAlign());
    SV = SA;
  } else if (auto *CB = dyn_cast<CallBase>(&PI)) {
    // malloc, operator new, calloc: W times the bytes, zeroed, from the
    // thread's tape cache when a block fits (freePackedShadow gives it
    // back).
    Value *Bytes = scaled(B, primal(CB->getArgOperand(0)), W);
    if (CB->getCalledFunction()->getName() == "calloc")
      Bytes = B.CreateMul(Bytes, primal(CB->getArgOperand(1)));
    SV = B.CreateCall(getShadowTakeFn(module()), {Bytes});
    SV->setName(PI.getName() + "'");
  } else if (auto *GEP = dyn_cast<GetElementPtrInst>(&PI)) {
    Value *Base = packedShadow(GEP->getPointerOperand());
    if (!Base)
      return true;
    // The offset is signed (an end pointer walked back): scaled without
    // the unsigned no-wrap flag sizes get.
    Value *Offset = emitGEPOffset(&B, DL, GI);
    Value *Scaled = B.CreateMul(Offset, ConstantInt::get(Offset->getType(), W));
    SV = B.CreateGEP(B.getInt8Ty(), Base, Scaled, PI.getName() + "'",
                     GEP->isInBounds() ? GEPNoWrapFlags::inBounds()
                                       : GEPNoWrapFlags::none());
  } else if (auto *Phi = dyn_cast<PHINode>(&PI)) {
    B.SetInsertPoint(GI->getParent(), GI->getParent()->getFirstNonPHIIt());
    SV = B.CreatePHI(PI.getType(), Phi->getNumIncomingValues(),
                     PI.getName() + "'");
  } else if (auto *Sel = dyn_cast<SelectInst>(&PI)) {
    Value *T = packedShadow(Sel->getTrueValue());
    Value *F = packedShadow(Sel->getFalseValue());
    if (!T || !F)
      return true;
    SV = B.CreateSelect(primal(Sel->getCondition()), T, F, PI.getName() + "'");
  } else {
    fail(&PI, "internal error: no packed shadow for '" + describe(&PI) + "'");
    return true;
  }
  PackedShadows[&PI] = SV;
  return true;
}

void ForwardModeSynthesizer::finishPackedPhis() {
  for (Instruction &PI : instructions(P)) {
    auto *Phi = dyn_cast<PHINode>(&PI);
    if (!Phi || !Packed.isPacked(Phi))
      continue;
    auto *SP = dyn_cast_or_null<PHINode>(PackedShadows.lookup(Phi));
    if (!SP)
      continue;
    for (unsigned I = 0; I < Phi->getNumIncomingValues(); ++I) {
      Value *S = packedShadow(Phi->getIncomingValue(I));
      SP->addIncoming(S ? S : PoisonValue::get(Phi->getType()),
                      primal(Phi->getIncomingBlock(I)));
    }
  }
}

/// void @tapestry.lanes.copy.iN(ptr packed, ptr lanes, i64 w, i64 elems,
/// i1 unpack): copies \p elems elements of N bits between a packed block
/// (element e of lane k at (e * w + k) * N/8) and the w per-lane blocks
/// whose addresses are stored at \p lanes: into the packed block, or out
/// of it if \p unpack.
static Function *getLaneCopyFn(Module &M, unsigned Bytes) {
  std::string Name = ("tapestry.lanes.copy.i" + Twine(8 * Bytes)).str();
  if (Function *F = M.getFunction(Name))
    return F;
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  Type *Elt = Type::getIntNTy(C, 8 * Bytes);
  Function *F = Function::Create(
      FunctionType::get(Type::getVoidTy(C),
                        {Ptr, Ptr, I64, I64, Type::getInt1Ty(C)}, false),
      GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::NoUnwind);
  Value *Packed = F->getArg(0), *Lanes = F->getArg(1), *Width = F->getArg(2),
        *Elems = F->getArg(3), *Unpack = F->getArg(4);
  auto *Entry = BasicBlock::Create(C, "entry", F);
  auto *Outer = BasicBlock::Create(C, "element", F);
  auto *Inner = BasicBlock::Create(C, "lane", F);
  auto *Next = BasicBlock::Create(C, "next.element", F);
  auto *Exit = BasicBlock::Create(C, "exit", F);
  IRBuilder<> B(Entry);
  B.CreateCondBr(B.CreateICmpEQ(Elems, B.getInt64(0)), Exit, Outer);
  B.SetInsertPoint(Outer);
  PHINode *E = B.CreatePHI(I64, 2, "e");
  E->addIncoming(B.getInt64(0), Entry);
  B.CreateBr(Inner);
  B.SetInsertPoint(Inner);
  PHINode *K = B.CreatePHI(I64, 2, "k");
  K->addIncoming(B.getInt64(0), Outer);
  Value *Lane = B.CreateLoad(Ptr, B.CreateGEP(Ptr, Lanes, K));
  Value *LaneElt = B.CreateGEP(Elt, Lane, E);
  Value *PackedElt =
      B.CreateGEP(Elt, Packed, B.CreateAdd(B.CreateMul(E, Width), K));
  Value *From = B.CreateSelect(Unpack, PackedElt, LaneElt);
  Value *To = B.CreateSelect(Unpack, LaneElt, PackedElt);
  B.CreateAlignedStore(B.CreateAlignedLoad(Elt, From, Align(1)), To, Align(1));
  Value *K1 = B.CreateAdd(K, B.getInt64(1));
  K->addIncoming(K1, Inner);
  B.CreateCondBr(B.CreateICmpULT(K1, Width), Inner, Next);
  B.SetInsertPoint(Next);
  Value *E1 = B.CreateAdd(E, B.getInt64(1));
  E->addIncoming(E1, Next);
  B.CreateCondBr(B.CreateICmpULT(E1, Elems), Outer, Exit);
  B.SetInsertPoint(Exit);
  B.CreateRetVoid();
  return F;
}

void ForwardModeSynthesizer::packedMemIntrinsic(MemIntrinsic &MI,
                                                IRBuilderBase &B) {
  auto *MT = dyn_cast<MemTransferInst>(&MI);
  Value *DstP = MI.getDest(), *SrcP = MT ? MT->getSource() : nullptr;
  bool PackedDst = Packed.isPacked(DstP);
  bool PackedSrc = SrcP && Packed.isPacked(SrcP);
  Value *Bytes = primal(MI.getLength());
  // memset writes constants, and a copy from memory without a shadow
  // copies none: their tangents are zero.
  if (PackedDst && (!MT || (!PackedSrc && !AI.hasShadow(SrcP)))) {
    if (Value *Dst = packedShadow(DstP))
      B.CreateMemSet(Dst, B.getInt8(0), scaled(B, Bytes, W), MaybeAlign());
    return;
  }
  if (PackedDst && PackedSrc) {
    Value *Dst = packedShadow(DstP), *Src = packedShadow(SrcP);
    if (!Dst || !Src)
      return;
    if (isa<MemMoveInst>(MT))
      B.CreateMemMove(Dst, MaybeAlign(), Src, MaybeAlign(),
                      scaled(B, Bytes, W));
    else
      B.CreateMemCpy(Dst, MaybeAlign(), Src, MaybeAlign(), scaled(B, Bytes, W));
    return;
  }
  // Between a packed block and the caller's memory (one shadow per lane):
  // element by element (the plan made the length whole elements).
  Value *PackedEnd = PackedDst ? DstP : SrcP,
        *LaneEnd = PackedDst ? SrcP : DstP;
  Value *PS = packedShadow(PackedEnd);
  Value *LS = shadowOf(LaneEnd, &MI);
  if (!PS || !LS)
    return;
  unsigned S = Packed.elementSize(PackedEnd);
  IRBuilder<> EB(&G->getEntryBlock(), G->getEntryBlock().begin());
  AllocaInst *LaneArray = EB.CreateAlloca(ArrayType::get(B.getPtrTy(), W),
                                          nullptr, "lane.pointers");
  for (unsigned K = 0; K < W; ++K)
    B.CreateStore(lane(B, LS, K),
                  B.CreateConstInBoundsGEP2_64(LaneArray->getAllocatedType(),
                                               LaneArray, 0, K));
  Value *Elems =
      B.CreateUDiv(B.CreateZExtOrTrunc(Bytes, B.getInt64Ty()), B.getInt64(S));
  B.CreateCall(getLaneCopyFn(module(), S),
               {PS, LaneArray, B.getInt64(W), Elems, B.getInt1(!PackedDst)});
}

void ForwardModeSynthesizer::freePackedShadow(CallBase &CB, IRBuilderBase &B) {
  // Whatever the primal's deallocator, the shadow block came from
  // tapestry.shadow.take.
  if (Value *S = packedShadow(CB.getArgOperand(0)))
    B.CreateCall(getShadowGiveFn(module()), {S});
}

} // namespace tapestry
