//===- ShadowMemory.cpp - Shadows of pointers, shared by both modes -------===//
//
// Every pointer that may point into memory holding derivatives (enzyme_dup
// arguments, what is computed from them, fresh allocations) has a shadow
// pointer that points to the matching bytes of the shadow memory. A shadow is
// computed by the same instruction on the operands' shadows.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/SynthesizerBase.h"

#include "Analysis/GlobalShadows.h"
#include "Core/AddressesOfNothing.h"
#include "Core/AllocationFunctions.h"
#include "Core/AllocationLike.h"
#include "Core/Batch.h"
#include "Core/CopiedScalars.h"

#include "Core/Diagnostics.h"
#include "Synthesis/IndirectCalls.h"
#include "Synthesis/InlineHelpers.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tapestry {

Value *SynthesizerBase::shadowOf(Value *PV, const Instruction *User) {
  if (Value *S = Shadows.lookup(PV))
    return S;
  if (isa<ConstantPointerNull>(PV) || isa<UndefValue>(PV))
    return splatConstant(cast<Constant>(PV), W);
  // Null pointers stored together (a moved-from std::vector's <2 x ptr>
  // zeroinitializer, in optimised IR) are their own shadows too.
  if (auto *C = dyn_cast<Constant>(PV);
      C && C->getType()->isPtrOrPtrVectorTy() && !isa<GlobalValue>(C) &&
      (C->isNullValue() || isa<UndefValue>(C) ||
       (isa<ConstantVector>(C) && all_of(C->operands(), [](const Use &U) {
          return isa<ConstantPointerNull>(U) || isa<UndefValue>(U);
        }))))
    return splatConstant(C, W);
  // A constant address with no object behind it (`inttoptr (i64 16)`: the
  // optimiser's fold of &p[2] on a path where p is null, in -O3 IR) points
  // to nothing: dereferencing it is undefined, so it is its own shadow.
  if (auto *C = dyn_cast<Constant>(PV);
      C && C->getType()->isPointerTy() && isAddressOfNothing(C))
    return splatConstant(C, W);
  // An address computed from null (an empty std::vector's end, null + n
  // with n = 0, in optimised IR) points to nothing: it is its own shadow.
  if (auto *I = dyn_cast<Instruction>(PV);
      I && I->getType()->isPointerTy() &&
      isa<ConstantPointerNull>(getUnderlyingObject(I, 0))) {
    Instruction *GI = cast<Instruction>(primal(I));
    IRBuilder<> B(GI->getParent(), isa<PHINode>(GI)
                                       ? GI->getParent()->getFirstNonPHIIt()
                                       : std::next(GI->getIterator()));
    Value *S = lanes(B, I->getType(), [&](unsigned) { return GI; });
    Shadows[PV] = S;
    return S;
  }
  // The pointer an unknown callee would return (the dispatch's fallback,
  // taken when the pointer holds another file's function) cannot have a
  // shadow: the derivative stops with a message before that call, so the
  // placeholder is never read; the known callees' results it merges with
  // have theirs.
  if (auto *CB = dyn_cast<CallBase>(PV);
      CB && CB->getType()->isPointerTy() && isUnknownCalleeFallback(*CB)) {
    stopAtUnknownCallee(*CB);
    Instruction *GI = primal(CB);
    IRBuilder<> B(GI->getNextNode());
    Value *S = lanes(B, CB->getType(), [&](unsigned) { return GI; });
    Shadows[PV] = S;
    return S;
  }
  if (isa<GlobalVariable>(PV) || isa<GlobalAlias>(PV))
    fail(User, "the global '" + describe(PV) +
                   "' is written with or mixed with differentiable data but "
                   "has no shadow; pass the data through an enzyme_dup "
                   "argument instead");
  else if (auto *GV = dyn_cast<GlobalVariable>(getUnderlyingObject(
               isa<LoadInst>(PV) ? cast<LoadInst>(PV)->getPointerOperand()
                                 : PV)))
    // A buffer a global (a static local std::vector) holds.
    fail(User, "memory reached through the global '" + describe(GV) +
                   "' is written with or mixed with differentiable data but "
                   "has no shadow; make it a local variable, or pass it "
                   "through an enzyme_dup argument");
  else if (const Argument *A = constantArgumentBehind(PV))
    // Memory of a constant argument chosen with differentiable memory: a
    // conditional expression, or std::min/std::max, of references.
    fail(User, "a pointer into the memory of " + describe(A) +
                   ", passed enzyme_const, is used here as differentiable "
                   "memory (chosen between it and differentiable memory, or "
                   "written with differentiable data), so it needs a shadow "
                   "it does not have; pass that argument as enzyme_dup with "
                   "a zeroed shadow, or choose between values instead of "
                   "their addresses (copy them before std::min or ?:)");
  else {
    // describe() names a variable, or says what the pointer is ("a
    // pointer that changes from one iteration ... to the next").
    std::string What = describe(PV);
    if (!StringRef(What).starts_with("a ") &&
        !StringRef(What).starts_with("an "))
      What = "the pointer " + What;
    fail(User, What + " may point to differentiable memory but has no shadow; "
                      "if it comes from an argument passed enzyme_const, pass "
                      "that argument as enzyme_dup with a shadow");
  }
  return nullptr;
}

const Argument *SynthesizerBase::constantArgumentBehind(const Value *P) const {
  const Argument *Found = nullptr;
  SmallVector<std::pair<const Value *, unsigned>, 8> Work{{P, 0}};
  SmallPtrSet<const Value *, 16> Seen;
  while (!Work.empty()) {
    auto [V, Depth] = Work.pop_back_val();
    SmallVector<const Value *, 4> Objects;
    getUnderlyingObjects(V, Objects);
    for (const Value *O : Objects) {
      if (!Seen.insert(O).second)
        continue;
      if (auto *A = dyn_cast<Argument>(O)) {
        if (AI.hasShadow(A) || (Found && Found != A))
          return nullptr;
        Found = A;
      } else if (auto *LI = dyn_cast<LoadInst>(O); LI && Depth < 6) {
        Work.push_back({LI->getPointerOperand(), Depth + 1});
      } else {
        return nullptr;
      }
    }
  }
  return Found;
}

static Value *callAllocator(IRBuilderBase &B, Module &M, StringRef Name,
                            ArrayRef<Value *> Args) {
  SmallVector<Type *, 2> Tys;
  for (Value *A : Args)
    Tys.push_back(A->getType());
  FunctionCallee F =
      M.getOrInsertFunction(Name, FunctionType::get(B.getPtrTy(), Tys, false));
  return B.CreateCall(F, Args);
}

void SynthesizerBase::createShadow(Instruction &PI) {
  Instruction *GI = primal(&PI);
  IRBuilder<> B(GI->getNextNode());
  if (isa<PHINode>(PI))
    B.SetInsertPoint(GI->getParent(), GI->getParent()->getFirstNonPHIIt());
  Value *S = nullptr;
  auto Sh = [&](Value *V) { return shadowOf(V, &PI); };
  // A constant pointer merged with shadowed ones is its own shadow
  // (Analysis/RuntimeActivity.h).
  auto ShOrSelf = [&](Value *V) {
    return RA.isMarker(V) ? shadowToStore(B, V, &PI) : Sh(V);
  };

  // In batch mode a pointer has one shadow per lane ([W x ptr]): each is
  // computed by the same instruction on that lane's shadows.
  Type *PtrTy = PI.getType();
  if (auto *GEP = dyn_cast<GetElementPtrInst>(&PI)) {
    Value *Base = Sh(GEP->getPointerOperand());
    if (!Base)
      return;
    SmallVector<Value *, 4> Idx;
    for (Use &U : GEP->indices())
      Idx.push_back(primal(U.get()));
    S = lanes(B, PtrTy, [&](unsigned K) {
      return B.CreateGEP(GEP->getSourceElementType(), lane(B, Base, K), Idx,
                         PI.getName() + "'", GEP->getNoWrapFlags());
    });
  } else if (auto *I2P = dyn_cast<IntToPtrInst>(&PI)) {
    // An address rounded through an integer (an aligned allocator, or a
    // walk that starts at the next aligned element): its shadow is at the
    // same byte offset from the base's shadow, shadow(P) + (A - P), which
    // is right whatever the two buffers' alignments. Rounding the shadow
    // itself would move it by a different amount when its alignment
    // differs from the primal's. The shadow is then only as aligned as its
    // base, so the derivative's vector accesses lose the alignment they
    // inferred from the rounding (relaxAccessAlignments).
    const Value *BaseP = roundedPointerBase(*I2P);
    // An address read back as an integer from memory with a shadow: the
    // same integer read from the shadow memory, where its shadow was
    // stored beside it (addressShadowToStore, or a copy of the bytes).
    if (auto *Int = dyn_cast<LoadInst>(I2P->getOperand(0)); !BaseP && Int) {
      Value *SPtr = Sh(Int->getPointerOperand());
      if (!SPtr)
        return;
      IRBuilder<> LB(primal(Int)->getNextNode());
      S = lanes(LB, PtrTy, [&](unsigned K) {
        Value *SInt =
            LB.CreateAlignedLoad(Int->getType(), lane(LB, SPtr, K),
                                 Int->getAlign(), Int->getName() + "'");
        return LB.CreateIntToPtr(SInt, PtrTy, PI.getName() + "'");
      });
      Shadows[&PI] = S;
      return;
    }
    Value *Base = BaseP ? Sh(const_cast<Value *>(BaseP)) : nullptr;
    if (!Base)
      return;
    Value *Addr = primal(I2P->getOperand(0));
    Value *BaseAddr =
        B.CreatePtrToInt(primal(const_cast<Value *>(BaseP)), Addr->getType());
    Value *Offset = B.CreateSub(Addr, BaseAddr, PI.getName() + ".offset");
    S = lanes(B, PtrTy, [&](unsigned K) {
      return B.CreateGEP(B.getInt8Ty(), lane(B, Base, K), Offset,
                         PI.getName() + "'");
    });
  } else if (auto *CI = dyn_cast<CastInst>(&PI)) {
    Value *Op = Sh(CI->getOperand(0));
    if (!Op)
      return;
    S = lanes(B, PtrTy, [&](unsigned K) {
      return B.CreateCast(CI->getOpcode(), lane(B, Op, K), CI->getType(),
                          PI.getName() + "'");
    });
  } else if (auto *Phi = dyn_cast<PHINode>(&PI)) {
    PHINode *SP = B.CreatePHI(batchTy(Phi->getType()),
                              Phi->getNumIncomingValues(), PI.getName() + "'");
    S = SP;
  } else if (auto *Sel = dyn_cast<SelectInst>(&PI)) {
    Value *T = ShOrSelf(Sel->getTrueValue()),
          *F = ShOrSelf(Sel->getFalseValue());
    if (!T || !F)
      return;
    // A vector condition (a select of vectors of pointers) cannot choose
    // between [W x <N x ptr>] aggregates: it selects lane by lane.
    Value *Cond = primal(Sel->getCondition());
    if (W == 1 || !Cond->getType()->isVectorTy())
      S = B.CreateSelect(Cond, T, F, PI.getName() + "'");
    else
      S = lanes(B, PtrTy, [&](unsigned K) {
        return B.CreateSelect(Cond, lane(B, T, K), lane(B, F, K),
                              PI.getName() + "'");
      });
  } else if (auto *Fr = dyn_cast<FreezeInst>(&PI)) {
    S = Sh(Fr->getOperand(0));
  } else if (isa<InsertElementInst>(PI) || isa<ExtractElementInst>(PI) ||
             isa<ShuffleVectorInst>(PI)) {
    // Vectors of pointers (a gather's or scatter's addresses): the same
    // lane shuffling on the shadows.
    SmallVector<Value *, 3> Ops;
    for (Value *Op : PI.operands()) {
      Value *SOp = Op->getType()->isPtrOrPtrVectorTy() ? Sh(Op) : primal(Op);
      if (!SOp)
        return;
      Ops.push_back(SOp);
    }
    S = lanes(B, PtrTy, [&](unsigned K) -> Value * {
      auto LaneOf = [&](unsigned I) {
        Value *Op = PI.getOperand(I);
        return Op->getType()->isPtrOrPtrVectorTy() ? lane(B, Ops[I], K)
                                                   : Ops[I];
      };
      if (auto *SV = dyn_cast<ShuffleVectorInst>(&PI))
        return B.CreateShuffleVector(LaneOf(0), LaneOf(1), SV->getShuffleMask(),
                                     PI.getName() + "'");
      if (isa<InsertElementInst>(PI))
        return B.CreateInsertElement(LaneOf(0), LaneOf(1), LaneOf(2),
                                     PI.getName() + "'");
      return B.CreateExtractElement(LaneOf(0), LaneOf(1), PI.getName() + "'");
    });
  } else if (auto *LI = dyn_cast<LoadInst>(&PI)) {
    Value *Ptr = Sh(LI->getPointerOperand());
    if (!Ptr)
      return;
    S = lanes(B, PtrTy, [&](unsigned K) -> Value * {
      Value *SK = B.CreateAlignedLoad(LI->getType(), lane(B, Ptr, K),
                                      LI->getAlign(), PI.getName() + "'");
      if (!AI.OwnerReleaseReads.count(LI))
        return SK;
      // An owner's old block, released: the shadow global holds its
      // shadow only if the derivative that stored it stored this block
      // (the companion says); otherwise the block is its own, the "no
      // derivative" marker (ActivityInfo::OwnerReleaseReads).
      Value *CA = companionAddress(B, lane(B, Ptr, K));
      if (!CA)
        return GI;
      Value *StoredFor = B.CreateAlignedLoad(LI->getType(), CA, LI->getAlign(),
                                             PI.getName() + ".stored.for");
      return B.CreateSelect(B.CreateICmpEQ(StoredFor, GI), SK, GI,
                            PI.getName() + "'.or.self");
    });
  } else if (auto *AI2 = dyn_cast<AllocaInst>(&PI)) {
    auto *GA = cast<AllocaInst>(GI);
    const DataLayout &DL = module().getDataLayout();
    S = lanes(B, PtrTy, [&](unsigned) {
      AllocaInst *SA =
          B.CreateAlloca(GA->getAllocatedType(), primal(AI2->getArraySize()),
                         PI.getName() + "'");
      SA->setAlignment(GA->getAlign());
      Value *Bytes = B.CreateMul(
          B.CreateZExtOrTrunc(primal(AI2->getArraySize()), B.getInt64Ty()),
          B.getInt64(DL.getTypeAllocSize(GA->getAllocatedType())));
      B.CreateMemSet(SA, B.getInt8(0), Bytes, GA->getAlign());
      return SA;
    });
  } else if (auto *II = dyn_cast<IntrinsicInst>(&PI);
             II && (II->getIntrinsicID() == Intrinsic::masked_load ||
                    II->getIntrinsicID() == Intrinsic::masked_gather)) {
    // Pointers read from a shadowed table, several at once (vectorised
    // code): their shadows are read from the table's shadow, the same lanes
    // under the same mask; masked-off lanes take the pass-through's shadow.
    Value *Ptr = Sh(II->getArgOperand(0));
    Value *Pass = shadowToStore(B, II->getArgOperand(3), &PI);
    if (!Ptr || !Pass)
      return;
    Value *Mask = primal(II->getArgOperand(2));
    Align A = cast<ConstantInt>(II->getArgOperand(1))->getAlignValue();
    bool Gather = II->getIntrinsicID() == Intrinsic::masked_gather;
    S = lanes(B, PtrTy, [&](unsigned K) -> Value * {
      Value *R = Gather ? B.CreateMaskedGather(PtrTy, lane(B, Ptr, K), A, Mask,
                                               lane(B, Pass, K))
                        : B.CreateMaskedLoad(PtrTy, lane(B, Ptr, K), A, Mask,
                                             lane(B, Pass, K));
      R->setName(PI.getName() + "'");
      return R;
    });
  } else if (auto *CB = dyn_cast<CallBase>(&PI)) {
    StringRef Name = CB->getCalledFunction()->getName();
    if (isShadowMirrorCall(*CB)) {
      if (Value *S = mirrorCall(*CB))
        Shadows[&PI] = S;
      return;
    }
    if (Name == "bsearch") {
      // A pointer into the array (or null): the same offset into its shadow.
      Value *Base = Sh(CB->getArgOperand(1));
      if (!Base)
        return;
      Value *Off = B.CreateSub(
          B.CreatePtrToInt(GI, B.getInt64Ty()),
          B.CreatePtrToInt(primal(CB->getArgOperand(1)), B.getInt64Ty()));
      Value *Found = B.CreateIsNotNull(GI);
      S = lanes(B, PtrTy, [&](unsigned K) {
        return B.CreateSelect(
            Found, B.CreateGEP(B.getInt8Ty(), lane(B, Base, K), Off),
            ConstantPointerNull::get(cast<PointerType>(PtrTy)),
            PI.getName() + "'");
      });
      Shadows[&PI] = S;
      return;
    }
    if (R.Mode == DiffMode::Reverse && returnsShadowedPointer(*CB, &Rules)) {
      // The callee's augmented forward returns the shadow
      // (ReverseModeSynthesizer::augmentDefinedCall, which replaces this
      // stand-in once the calls are made).
      Shadows[&PI] =
          B.CreateFreeze(PoisonValue::get(batchTy(PtrTy)), PI.getName() + "'");
      return;
    }
    if (isReallocCall(*CB)) {
      fail(&PI, "realloc inside differentiated code is not supported yet; "
                "allocate a new buffer, copy, and free the old one");
      return;
    }
    SmallVector<Value *, 2> Args;
    for (Value *A : CB->args())
      Args.push_back(primal(A));
    // A registered allocator (Core/AllocationLike.h) is called again with
    // the same arguments; its memory need not be 16-byte aligned.
    bool Custom = customAllocator(*CB->getCalledFunction()).has_value();
    Value *Size = allocationSize(*CB);
    S = lanes(B, PtrTy, [&](unsigned) {
      Value *L = Custom ? B.CreateCall(CB->getFunctionType(),
                                       CB->getCalledOperand(), Args)
                        : callAllocator(B, module(), Name, Args);
      L->setName(PI.getName() + "'");
      if (Size)
        B.CreateMemSet(L, B.getInt8(0), primal(Size),
                       Custom ? MaybeAlign() : MaybeAlign(16));
      return L;
    });
  } else {
    fail(&PI, "cannot compute the shadow of pointer '" + describe(&PI) + "'");
    return;
  }
  Shadows[&PI] = S;
}

void SynthesizerBase::relaxAccessAlignments() {
  // Every access, primal or shadow: a shadow block is only as aligned as
  // malloc makes it, where the primal's may be more (Eigen's aligned
  // allocator rounds the primal block's address, and the shadow is placed
  // at the same offset in the shadow block: createShadow); a shadow reaches
  // accesses through callees' arguments, the tape and memory, so which
  // accesses go through one is not tracked (with AVX-512, a callee's
  // derivative kept at -O0 faulted on an aligned load of its shadow
  // argument). Unaligned vector accesses of aligned memory cost nothing on
  // the targets that have wide vectors.
  const DataLayout &DL = G->getDataLayout();
  auto Relaxed = [&](Align A, Type *T) {
    return std::min(A, DL.getABITypeAlign(T->getScalarType()));
  };
  for (Instruction &I : instructions(*G)) {
    if (auto *LI = dyn_cast<LoadInst>(&I)) {
      LI->setAlignment(Relaxed(LI->getAlign(), LI->getType()));
    } else if (auto *SI = dyn_cast<StoreInst>(&I)) {
      SI->setAlignment(
          Relaxed(SI->getAlign(), SI->getValueOperand()->getType()));
    } else if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
      // Shadow memory holds scalars no more aligned than a double.
      Align Scalar = DL.getABITypeAlign(Type::getDoubleTy(G->getContext()));
      if (MI->getDestAlign() && *MI->getDestAlign() > Scalar)
        MI->setDestAlignment(Scalar);
      if (auto *MT = dyn_cast<MemTransferInst>(MI);
          MT && MT->getSourceAlign() && *MT->getSourceAlign() > Scalar)
        MT->setSourceAlignment(Scalar);
    } else if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
      // Masked loads, stores, gathers and scatters carry their alignment
      // as an argument.
      unsigned AlignArg;
      Type *T;
      switch (II->getIntrinsicID()) {
      case Intrinsic::masked_load:
      case Intrinsic::masked_gather:
        AlignArg = 1;
        T = II->getType();
        break;
      case Intrinsic::masked_store:
      case Intrinsic::masked_scatter:
        AlignArg = 2;
        T = II->getArgOperand(0)->getType();
        break;
      default:
        continue;
      }
      auto *C = cast<ConstantInt>(II->getArgOperand(AlignArg));
      Align A = Relaxed(Align(C->getZExtValue()), T);
      II->setArgOperand(AlignArg, ConstantInt::get(C->getType(), A.value()));
    }
  }
}

void SynthesizerBase::finishShadowPhis() {
  for (Instruction &PI : instructions(P)) {
    auto *Phi = dyn_cast<PHINode>(&PI);
    if (!Phi || !AI.hasShadow(Phi))
      continue;
    auto *SP = dyn_cast_or_null<PHINode>(Shadows.lookup(Phi));
    if (!SP)
      continue;
    for (unsigned I = 0; I < Phi->getNumIncomingValues(); ++I) {
      Value *V = Phi->getIncomingValue(I);
      Value *S;
      if (RA.isMarker(V)) {
        // A constant pointer is its own shadow (Analysis/RuntimeActivity.h).
        IRBuilder<> B(primal(Phi->getIncomingBlock(I))->getTerminator());
        S = shadowToStore(B, V, Phi);
      } else {
        S = shadowOf(V, Phi);
      }
      if (!S)
        S = PoisonValue::get(batchTy(Phi->getType()));
      SP->addIncoming(S, primal(Phi->getIncomingBlock(I)));
    }
  }
}

Value *SynthesizerBase::isConstantShadow(IRBuilderBase &B, Value *SK,
                                         Value *GP) {
  return B.CreateICmpEQ(SK, GP, "shadow.is.primal");
}

Value *SynthesizerBase::guardedShadow(IRBuilderBase &B, Value *SK, Value *GP,
                                      Type *T) {
  AllocaInst *&Slot = ScratchSlots[T];
  if (!Slot) {
    IRBuilder<> EB(&G->getEntryBlock(), G->getEntryBlock().begin());
    Slot = EB.CreateAlloca(T, nullptr, "constant.sink");
  }
  return B.CreateSelect(isConstantShadow(B, SK, GP), Slot, SK,
                        "shadow.or.sink");
}

Value *SynthesizerBase::bytesUnlessConstant(IRBuilderBase &B, Value *Len,
                                            Value *SK, Value *GP) {
  if (!GP)
    return Len;
  return B.CreateSelect(isConstantShadow(B, SK, GP),
                        Constant::getNullValue(Len->getType()), Len,
                        "bytes.unless.constant");
}

Value *SynthesizerBase::bytesIfConstant(IRBuilderBase &B, Value *Len, Value *SK,
                                        Value *GP) {
  return B.CreateSelect(isConstantShadow(B, SK, GP), Len,
                        Constant::getNullValue(Len->getType()),
                        "bytes.if.constant");
}

bool SynthesizerBase::constantSourceZeroFn(MemTransferInst &MT, Function *&Fn) {
  auto *ConstLen = dyn_cast<ConstantInt>(MT.getLength());
  ByteLayout L;
  if (!copyLayout(MT.getDest(), MT.getSource(),
                  ConstLen ? ConstLen->getZExtValue() : 0, &MT, L))
    return false;
  auto FP = partsOf(L, [](Type *T) { return T->isFloatingPointTy(); });
  Fn = FP.empty() ? nullptr : getPartsFn(module(), FP, L.Period, PartsOp::Zero);
  return true;
}

bool SynthesizerBase::storesPointerShadow(StoreInst &SI) const {
  Value *Val = SI.getValueOperand();
  return Val->getType()->isPtrOrPtrVectorTy() &&
         AI.hasShadow(SI.getPointerOperand()) &&
         (AI.hasShadow(Val) || RA.MarkerStores.count(&SI) ||
          isa<ConstantPointerNull>(Val) || isa<ConstantAggregateZero>(Val));
}

Value *SynthesizerBase::shadowToStore(IRBuilderBase &B, Value *Val,
                                      const Instruction *At) {
  if (AI.hasShadow(Val) || isa<ConstantPointerNull>(Val) ||
      isa<UndefValue>(Val))
    return shadowOf(Val, At);
  // A constant pointer: its shadow is itself (Analysis/RuntimeActivity.h).
  Value *GV = primal(Val);
  return lanes(B, Val->getType(), [&](unsigned) { return GV; });
}

Value *SynthesizerBase::companionAddress(IRBuilderBase &B, Value *ShadowAddr) {
  auto *S = dyn_cast<GlobalVariable>(getUnderlyingObject(ShadowAddr));
  if (!S || !GlobalShadows::isShadowGlobal(*S))
    return nullptr;
  GlobalVariable *C = GlobalShadows::companionOf(*S);
  Value *Offset = B.CreatePtrDiff(B.getInt8Ty(), ShadowAddr, S);
  return B.CreateInBoundsGEP(B.getInt8Ty(), C, Offset);
}

void SynthesizerBase::recordStoredPrimal(IRBuilderBase &B, Value *ShadowAddr,
                                         Value *Primal, Align A) {
  if (!Primal->getType()->isPointerTy())
    return;
  if (Value *CA = companionAddress(B, ShadowAddr))
    B.CreateAlignedStore(Primal, CA, A);
}

Value *SynthesizerBase::addressShadowToStore(IRBuilderBase &B, StoreInst &SI) {
  auto *P2I = dyn_cast<PtrToIntInst>(SI.getValueOperand());
  if (!P2I || P2I->getType()->isVectorTy() ||
      !AI.hasShadow(SI.getPointerOperand()))
    return nullptr;
  Value *Addr = P2I->getPointerOperand();
  if (!AI.hasShadow(Addr) && !RA.isMarker(Addr))
    return nullptr;
  Value *S = shadowToStore(B, Addr, &SI);
  if (!S)
    return nullptr;
  return lanes(B, P2I->getType(), [&](unsigned K) {
    return B.CreatePtrToInt(lane(B, S, K), P2I->getType(),
                            P2I->getName() + "'");
  });
}

void SynthesizerBase::storePointerShadows(IRBuilderBase &B, CallBase &CB) {
  auto &II = cast<IntrinsicInst>(CB);
  Value *Val = II.getArgOperand(0), *Ptr = II.getArgOperand(1);
  if (!AI.hasShadow(Ptr))
    return;
  Value *SVal = shadowToStore(B, Val, &CB), *SPtr = shadowOf(Ptr, &CB);
  if (!SVal || !SPtr)
    return;
  Align A = cast<ConstantInt>(II.getArgOperand(2))->getAlignValue();
  Value *Mask = primal(II.getArgOperand(3));
  for (unsigned K = 0; K < W; ++K) {
    if (II.getIntrinsicID() == Intrinsic::masked_store)
      B.CreateMaskedStore(lane(B, SVal, K), lane(B, SPtr, K), A, Mask);
    else
      B.CreateMaskedScatter(lane(B, SVal, K), lane(B, SPtr, K), A, Mask);
  }
}

bool SynthesizerBase::copiesOnlyPointers(MemTransferInst &MT) {
  if (!Types)
    Types = std::make_unique<TypeInfo>(computeTypes(P));
  // What the copied bytes are, where something says so: an object holding
  // pointers may hold floating-point data elsewhere (a std::map node's
  // links, and its value copied by a callee that never reads it).
  auto *ConstLen = dyn_cast<ConstantInt>(MT.getLength());
  uint64_t Size = ConstLen ? ConstLen->getZExtValue() : 0;
  ByteLayout L = Types->layoutAt(MT.getDest(), Size, MT.getSource());
  if (!L.empty())
    return L.hasPointers() && L.floatParts().empty() &&
           !L.mayHideFloats(Size, module().getDataLayout());
  // Nothing known at these bytes: a copy of a length known only at run
  // time between objects that hold nothing but pointers (arrays of
  // pointers; a null pointer, one side of a phi when a vector is empty, is
  // no object). A fixed-size window of a record (a std::map node's value,
  // next to its links) may hold anything.
  if (Size)
    return false;
  SmallVector<Type *, 4> Held;
  for (Value *End : {MT.getDest(), MT.getSource()})
    for (const Value *R : TypeInfo::roots(End))
      if (!isa<ConstantPointerNull>(R))
        append_range(Held, Types->typesAt(R));
  return !Held.empty() &&
         all_of(Held, [](Type *T) { return T->isPointerTy(); });
}

void SynthesizerBase::copyConstantPointerShadows(IRBuilderBase &B,
                                                 MemTransferInst &MT) {
  Value *Dst = shadowOf(MT.getDest(), &MT);
  Value *Src = AI.hasShadow(MT.getSource())
                   ? shadowOf(MT.getSource(), &MT)
                   : shadowToStore(B, MT.getSource(), &MT);
  if (!Dst || !Src)
    return;
  Value *Len = primal(MT.getLength());
  // Into a destination that may be constant, nothing is copied where its
  // shadow marks it so (its shadow is the memory itself).
  Value *GD = RA.mayBeConstant(MT.getDest()) ? primal(MT.getDest()) : nullptr;
  for (unsigned K = 0; K < W; ++K) {
    Value *DK = lane(B, Dst, K);
    Value *N = bytesUnlessConstant(B, Len, DK, GD);
    if (isa<MemMoveInst>(MT))
      B.CreateMemMove(DK, MT.getDestAlign(), lane(B, Src, K),
                      MT.getSourceAlign(), N);
    else
      B.CreateMemCpy(DK, MT.getDestAlign(), lane(B, Src, K),
                     MT.getSourceAlign(), N);
  }
}

SmallVector<std::pair<uint64_t, Type *>, 8>
SynthesizerBase::partsOf(const ByteLayout &L, function_ref<bool(Type *)> Keep) {
  SmallVector<std::pair<uint64_t, Type *>, 8> Out;
  for (const ByteLayout::Part &P : L.Parts)
    if (Keep(P.T))
      Out.push_back({P.Offset, P.T});
  return Out;
}

namespace {

enum class CopyLayoutResult { Known, MixedFloatWidths, Unknown };

/// Where nothing in the function or its callees says what copied bytes are
/// (no typed access, GEP element type or TBAA tag at either end, even
/// through other copies), the reverse sweep cannot add them as floats:
/// bytes holding pointers or integers must never be "added". They carry no
/// derivative when both ends are memory the function itself allocates (a
/// derivative enters memory only through a typed access, which would have
/// been seen, or through a copy, whose other end would then be typed too)
/// and no floating-point access to either object was seen at all,
/// or when they are too few to hold a float. Otherwise the caller's memory
/// may hold anything (Unknown). Objects accessed as one floating-point type
/// and never as pointers are arrays of that type: their untyped bytes, in a
/// window partly typed or not typed at all, are elements of it.
CopyLayoutResult inferCopyLayout(const TypeInfo &Types, Value *Dst, Value *Src,
                                 uint64_t Size, const DataLayout &DL,
                                 ByteLayout &Out, bool TrustAbsence) {
  Out = Types.layoutAt(Dst, Size, Src);
  if (Out.mixesFloatWidths(DL))
    return CopyLayoutResult::MixedFloatWidths;
  // A copy of a length known only at run time, of memory accessed at a few
  // fixed places as one floating-point type: an array of that type.
  if (!Size && !Out.Period && !Out.empty() &&
      all_of(Out.Parts, [&](const ByteLayout::Part &Pt) {
        return Pt.T == Out.Parts.front().T && Pt.T->isFloatingPointTy() &&
               Pt.Offset % DL.getTypeStoreSize(Pt.T) == 0;
      })) {
    Type *FP = Out.Parts.front().T;
    Out.Period = DL.getTypeStoreSize(FP);
    Out.Parts.assign({{0, FP}});
  }
  // Memory accessed elsewhere as one floating-point type and never as a
  // pointer (nor at these bytes as another floating-point type): an array
  // of that type, whose elements nothing here happens to touch.
  Type *D = Types.floatTypeAt(Dst), *S = Types.floatTypeAt(Src);
  Type *FP = D ? D : S;
  auto NoPointers = [&](Value *Ptr) {
    return none_of(Types.typesAt(Ptr),
                   [](Type *T) { return T->isPointerTy(); });
  };
  // What the analysis did not see may hold pointers or floating-point
  // data: conclusions from absence need callees seen to the end (see
  // copyLayout for the depth).
  bool SawAll = TrustAbsence;
  bool ArrayOfFP = SawAll && FP && (!D || !S || D == S) && NoPointers(Dst) &&
                   NoPointers(Src);
  // Bytes of the window that no part covers are elements of that array
  // too: a partial layout must not turn them into bytes without adjoints.
  if (!Out.empty()) {
    if (ArrayOfFP)
      Out.fillGaps(FP, Size, DL);
    // Integers placed here only by a pattern that repeats within the
    // window (records shorter than the copy, or an offset seen only as a
    // multiple of 4), and a floating-point type somewhere in the objects
    // at offsets the analysis could not place: these bytes, if enough to
    // hold one, may be floats, whose adjoints must not be dropped as an
    // integer's. (A struct's integer members, placed once per struct, are
    // integers.)
    if (Out.floatParts().empty() && Out.UnplacedFloatSize && Out.Period &&
        (!Size || Size >= Out.UnplacedFloatSize))
      return CopyLayoutResult::Unknown;
    return CopyLayoutResult::Known;
  }
  if (Size && Size < 4)
    return CopyLayoutResult::Known;
  // A struct's padding, copied on its own (SROA splits a struct copy into
  // its members and the 4 bytes after an int).
  if (Size == 4 && Types.isPaddingAt(Dst) && Types.isPaddingAt(Src))
    return CopyLayoutResult::Known;
  auto Local = [&](Value *Ptr) {
    SmallVector<const Value *, 4> Rs = TypeInfo::roots(Ptr);
    return !Rs.empty() && all_of(Rs, [](const Value *R) {
      auto *CB = dyn_cast<CallBase>(R);
      return isa<AllocaInst>(R) || (CB && isAllocationCall(*CB));
    });
  };
  // Only if nothing ever holds floating-point data there: a typed access
  // elsewhere in the objects (at bytes the offsets here cannot be matched
  // with) means a derivative may be in these bytes.
  auto HoldsFloat = [&](Value *Ptr) {
    return any_of(Types.typesAt(Ptr),
                  [](Type *T) { return T->isFloatingPointTy(); });
  };
  if (SawAll && Local(Dst) && Local(Src) && !HoldsFloat(Dst) &&
      !HoldsFloat(Src))
    return CopyLayoutResult::Known;
  // Nothing known at these bytes: an array of the objects' one
  // floating-point type, if they have one.
  if (ArrayOfFP) {
    Out.Period = DL.getTypeStoreSize(FP);
    Out.Parts.push_back({0, FP});
    return CopyLayoutResult::Known;
  }
  return CopyLayoutResult::Unknown;
}

} // namespace

bool SynthesizerBase::copyLayout(Value *Dst, Value *Src, uint64_t Size,
                                 const Instruction *At, ByteLayout &Out) {
  const DataLayout &DL = module().getDataLayout();
  // A layout concluded from what the analysis did not see (no pointer,
  // no floating-point access) holds only if it saw every callee: if callees
  // lay deeper, look again deeper. Twelve levels deep, only the callee
  // budget makes the conclusion unsafe.
  const TypeInfo &Shallow = types();
  bool ShallowComplete =
      !Shallow.CalleeDepthReached && !Shallow.CalleeBudgetReached;
  CopyLayoutResult Result =
      inferCopyLayout(Shallow, Dst, Src, Size, DL, Out, ShallowComplete);
  if (Result == CopyLayoutResult::Unknown) {
    // The callees looked into were too few levels deep to see these bytes
    // used with a type (C++ at -O0 reaches a member through several
    // calls: std::get, _M_head, ...), or only the callers of a function
    // differentiated on its own use the memory it copies with a type: look
    // deeper, and at the callers, once before giving up.
    const TypeInfo &Deep = deepTypes();
    Out = ByteLayout();
    Result = inferCopyLayout(Deep, Dst, Src, Size, DL, Out,
                             !Deep.CalleeBudgetReached);
  }
  // (Not where the deeper look stopped at the callee budget: its error
  // names the option that raises it, and the budget bounds the work.)
  if (Result == CopyLayoutResult::Unknown && !DeepTypes->CalleeBudgetReached) {
    // The bytes' address came out of a callee's result (an iterator's
    // operator* at -O0): look where the small callees are inlined. Only a
    // window whose ends that copy shows holding floating-point data and
    // pointers alone is taken from it: an integer it places where the
    // function could not may stand on a float it does not see either
    // (records at offsets a call computes, whose int and double fields
    // then share a place: test/Errors/byte-records-offsets-unseen.c).
    InlinedTypes &Inl = inlinedTypes();
    Value *D = Inl.inCopy(Dst), *S = Inl.inCopy(Src);
    // Each end on its own: floating-point data and pointers only, all
    // placed.
    auto OnlyFloatsAndPointers = [&](Value *Ptr) {
      ByteLayout L = Inl.info().layoutAt(Ptr, Size);
      return !L.UnplacedFloatSize &&
             all_of(L.Parts, [](const ByteLayout::Part &P) {
               return P.T->isFloatingPointTy() || P.T->isPointerTy();
             });
    };
    ByteLayout Seen;
    if (D && S && OnlyFloatsAndPointers(D) && OnlyFloatsAndPointers(S) &&
        inferCopyLayout(Inl.info(), D, S, Size, DL, Seen,
                        !Inl.info().CalleeBudgetReached) ==
            CopyLayoutResult::Known &&
        !Seen.empty() && !Seen.mayHideFloats(Size, DL) &&
        !Seen.mixesFloatWidths(DL) &&
        all_of(Seen.Parts, [](const ByteLayout::Part &P) {
          return P.T->isFloatingPointTy() || P.T->isPointerTy();
        })) {
      Result = CopyLayoutResult::Known;
      Out = Seen;
    }
  }
  // Bytes the function moves and writes only as integers (a double's bits
  // memcpy'd through a uint64_t, or an integer's bits written over one) may
  // be the doubles its callers hold there: what they say decides.
  if (Result == CopyLayoutResult::Known && Out.floatParts().empty() &&
      !Out.hasPointers()) {
    const TypeInfo &Deep = deepTypes();
    ByteLayout Callers;
    if (inferCopyLayout(Deep, Dst, Src, Size, DL, Callers,
                        !Deep.CalleeBudgetReached) == CopyLayoutResult::Known &&
        !Callers.floatParts().empty())
      Out = Callers;
  }
  switch (Result) {
  case CopyLayoutResult::Known:
    return true;
  case CopyLayoutResult::MixedFloatWidths:
    fail(At, "the memory this instruction copies is accessed both as float "
             "and as double");
    return false;
  case CopyLayoutResult::Unknown:
    break;
  }
  std::string Msg =
      Out.UnplacedFloatSize
          ? "cannot tell what the memory this instruction copies holds: "
            "integers are stored at these bytes, and floating-point values "
            "elsewhere in the same memory at offsets Tapestry cannot place "
            "(records whose size it cannot see, such as fields packed by "
            "hand into a byte buffer at offsets computed by a call); "
            "compute the offsets in the function as index * record size, "
            "or keep the records in a struct array"
          : "cannot tell what the memory this instruction copies holds "
            "(float, double, integers or pointers): nothing in the function "
            "or its callees reads or writes it with a type; access it with "
            "its type in the function, or copy it field by field";
  // Without Tapestry's front end, clang's copies of structs are untyped.
  if (!Out.UnplacedFloatSize && !copiesDescribed(*At->getModule()))
    Msg += "; if it copies a struct or class, compile with clang "
           "-fplugin=TapestryPlugin-19.so, whose front-end part tells "
           "Tapestry what each struct copy moves";
  if (DeepTypes->CalleeBudgetReached)
    Msg += " (the type analysis stopped after looking into " +
           std::to_string(DeepTypes->CalleeCopies) +
           " callee bodies: -mllvm -tapestry-type-callee-budget=N with "
           "-fplugin= raises the limit)";
  fail(At, Msg);
  return false;
}

} // namespace tapestry
