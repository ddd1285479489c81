//===- GlobalShadows.cpp - Shadows of global variables --------------------===//
//
// Implements GlobalShadows.h: GlobalShadows::collect finds the globals that the
// functions a request reaches write with floating-point values (on promoted
// copies of them, through stores, memcpy and callees' written parameters),
// skipping globals declared inactive, and findTouching the functions that use
// them. shadowOf, contextShadowOf and batchShadowOf create the shadow globals
// on demand, with the context shadows' initial values pointing at each other.
// Which accesses use a shadow is decided in Synthesis.
//
//===----------------------------------------------------------------------===//
#include "Analysis/GlobalShadows.h"

#include "Analysis/PromotedCopy.h"
#include "Core/Batch.h"
#include "Core/CustomRules.h"
#include "Core/MPIFunctions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include <set>

#define DEBUG_TYPE "tapestry"

using namespace llvm;

namespace tapestry {

/// The metadata that marks an implicit shadow global (shadowOf).
static constexpr StringLiteral ImplicitShadowMD = "tapestry.implicit_shadow";

static bool holdsFloatingPoint(Type *T) {
  if (T->isFPOrFPVectorTy())
    return true;
  if (auto *ST = dyn_cast<StructType>(T))
    return any_of(ST->elements(), holdsFloatingPoint);
  if (auto *AT = dyn_cast<ArrayType>(T))
    return holdsFloatingPoint(AT->getElementType());
  return false;
}

namespace {

/// Which globals the reachable functions write with floating-point values.
/// Written front-end style, a store's address often comes from a
/// parameter (a helper filling an output array) or from a call that returns
/// a pointer into its argument (std::array::operator[]), so the search looks
/// at promoted copies of the functions and follows the written pointers to
/// the globals the callers pass: a fixed point over
///   written(address)  for each store of a non-constant floating-point value
///                     and each memcpy destination,
///   written(actual)   for each call whose callee writes that parameter,
/// where an address resolves through returned parameters of defined callees.
class WrittenGlobals {
public:
  WrittenGlobals(Module &M, const SmallPtrSetImpl<Function *> &Reachable) {
    for (Function &F : M)
      if (Reachable.count(&F) && !F.isDeclaration())
        Copies[&F] = clonePromoted(F);
  }
  ~WrittenGlobals() {
    for (auto &[F, Copy] : Copies)
      Copy->eraseFromParent();
  }

  SmallSetVector<GlobalVariable *, 8> run() {
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (auto &[F, Copy] : Copies)
        for (Instruction &I : instructions(*Copy))
          Changed |= visit(*F, I);
    }
    return Globals;
  }

private:
  bool visit(Function &F, Instruction &I) {
    if (auto *SI = dyn_cast<StoreInst>(&I)) {
      Value *V = SI->getValueOperand();
      if (isa<Constant>(V) || !holdsFloatingPoint(V->getType()))
        return false;
      return written(F, SI->getPointerOperand());
    }
    if (auto *MT = dyn_cast<MemTransferInst>(&I)) {
      auto *From =
          dyn_cast<GlobalVariable>(getUnderlyingObject(MT->getSource()));
      if (From && From->isConstant())
        return false;
      return written(F, MT->getDest());
    }
    auto *CB = dyn_cast<CallBase>(&I);
    Function *Callee = CB ? CB->getCalledFunction() : nullptr;
    bool Changed = false;
    if (CB) // MPI receive buffers (Core/MPIFunctions.h)
      for (unsigned J : mpiWrittenOperands(*CB))
        Changed |= written(F, CB->getArgOperand(J));
    if (!Callee || !WrittenArgs.count(Callee))
      return Changed;
    std::set<unsigned> Args = WrittenArgs[Callee]; // written() may add
    for (unsigned J : Args)
      if (J < CB->arg_size())
        Changed |= written(F, CB->getArgOperand(J));
    return Changed;
  }

  /// Records that \p Ptr (in the promoted copy of \p F) is written.
  bool written(Function &F, Value *Ptr, unsigned Depth = 0) {
    bool Changed = false;
    SmallVector<const Value *, 4> Objects;
    getUnderlyingObjects(Ptr, Objects);
    for (const Value *O : Objects) {
      if (auto *GV = dyn_cast<GlobalVariable>(O)) {
        auto *G = const_cast<GlobalVariable *>(GV);
        if (!G->isConstant() && holdsFloatingPoint(G->getValueType()))
          Changed |= Globals.insert(G);
      } else if (auto *A = dyn_cast<Argument>(O)) {
        Changed |= WrittenArgs[&F].insert(A->getArgNo()).second;
      } else if (auto *CB = dyn_cast<CallBase>(O); CB && Depth < 4) {
        if (Function *Callee = CB->getCalledFunction()) {
          std::set<unsigned> Args = returnedArgs(*Callee);
          for (unsigned J : Args)
            if (J < CB->arg_size())
              Changed |= written(F, CB->getArgOperand(J), Depth + 1);
        }
      }
    }
    return Changed;
  }

  /// The parameters of \p F whose pointers it may return.
  const std::set<unsigned> &returnedArgs(Function &F, unsigned Depth = 0) {
    auto [It, New] = Returned.try_emplace(&F);
    auto CopyIt = Copies.find(&F);
    if (!New || Depth > 3 || F.isDeclaration() || CopyIt == Copies.end() ||
        !F.getReturnType()->isPointerTy())
      return It->second;
    std::set<unsigned> Result;
    for (Instruction &I : instructions(*CopyIt->second))
      if (auto *RI = dyn_cast<ReturnInst>(&I)) {
        if (!RI->getReturnValue())
          continue;
        SmallVector<const Value *, 4> Objects;
        getUnderlyingObjects(RI->getReturnValue(), Objects);
        for (const Value *O : Objects)
          if (auto *A = dyn_cast<Argument>(O))
            Result.insert(A->getArgNo());
          else if (auto *CB = dyn_cast<CallBase>(O))
            if (Function *Callee = CB->getCalledFunction())
              for (unsigned J :
                   std::set<unsigned>(returnedArgs(*Callee, Depth + 1)))
                if (J < CB->arg_size())
                  if (auto *A = dyn_cast<Argument>(
                          getUnderlyingObject(CB->getArgOperand(J))))
                    Result.insert(A->getArgNo());
      }
    Returned[&F] = Result;
    return Returned[&F];
  }

  DenseMap<Function *, Function *> Copies;
  DenseMap<Function *, std::set<unsigned>> WrittenArgs;
  DenseMap<Function *, std::set<unsigned>> Returned;
  SmallSetVector<GlobalVariable *, 8> Globals;
};

} // namespace

GlobalShadows
GlobalShadows::collect(Module &M, const SmallPtrSetImpl<Function *> &Reachable,
                       const CustomRules &Rules, unsigned Depth) {
  GlobalShadows S;
  S.Depth = Depth;
  for (GlobalVariable *GV : WrittenGlobals(M, Reachable).run())
    if (!Rules.isInactiveGlobal(GV) && S.Globals.insert(GV))
      LLVM_DEBUG(dbgs() << "tapestry: global '" << GV->getName()
                        << "' gets a shadow\n");
  S.findTouching(M, Reachable);
  return S;
}

void GlobalShadows::findTouching(Module &M,
                                 const SmallPtrSetImpl<Function *> &Reachable) {
  GlobalShadows &S = *this;
  // The functions that use a shadowed global (through constant
  // expressions too), then their callers.
  SmallVector<User *, 16> Work;
  for (GlobalVariable *GV : S.Globals)
    Work.append(GV->user_begin(), GV->user_end());
  while (!Work.empty()) {
    User *U = Work.pop_back_val();
    if (auto *I = dyn_cast<Instruction>(U))
      S.Touching.insert(I->getFunction());
    else if (isa<ConstantExpr>(U))
      Work.append(U->user_begin(), U->user_end());
  }
  for (bool Changed = !S.Touching.empty(); Changed;) {
    Changed = false;
    for (Function &F : M)
      if (Reachable.count(&F) && !S.Touching.count(&F) &&
          any_of(instructions(F), [&](Instruction &I) {
            auto *CB = dyn_cast<CallBase>(&I);
            return CB && CB->getCalledFunction() &&
                   S.Touching.count(CB->getCalledFunction());
          }))
        Changed = S.Touching.insert(&F).second;
  }
}

bool GlobalShadows::contains(const Value *V) const {
  auto *GV = dyn_cast<GlobalVariable>(V);
  return GV && Globals.count(const_cast<GlobalVariable *>(GV));
}

GlobalVariable *GlobalShadows::shadowOf(GlobalVariable &G, unsigned Lane,
                                        unsigned Depth) {
  Module &M = *G.getParent();
  std::string Name = (G.getName() + ".tapestry.shadow").str();
  if (Depth)
    Name += ".d" + std::to_string(Depth) + (Lane ? "." : "");
  if (Lane)
    Name += std::to_string(Lane);
  if (GlobalVariable *S = M.getGlobalVariable(Name, /*AllowInternal=*/true))
    return S;
  auto *S = new GlobalVariable(
      M, G.getValueType(), /*isConstant=*/false, GlobalValue::InternalLinkage,
      Constant::getNullValue(G.getValueType()), Name, nullptr,
      G.getThreadLocalMode(), G.getAddressSpace());
  S->setAlignment(G.getAlign());
  S->setMetadata(ImplicitShadowMD,
                 MDNode::get(M.getContext(),
                             {ConstantAsMetadata::get(ConstantInt::get(
                                 Type::getInt32Ty(M.getContext()), Depth))}));
  return S;
}

bool GlobalShadows::isImplicitShadow(const GlobalVariable &G) {
  return G.hasMetadata(ImplicitShadowMD);
}

unsigned GlobalShadows::implicitShadowDepth(const GlobalVariable &G) {
  MDNode *MD = G.getMetadata(ImplicitShadowMD);
  if (!MD || MD->getNumOperands() != 1)
    return 0;
  return mdconst::extract<ConstantInt>(MD->getOperand(0))->getZExtValue();
}

SmallVector<GlobalVariable *, 4>
GlobalShadows::implicitShadowsUsedBy(Function &D) {
  SmallSetVector<GlobalVariable *, 4> Found;
  SmallVector<Function *, 8> Work{&D};
  SmallPtrSet<Function *, 8> Seen{&D};
  while (!Work.empty()) {
    Function *F = Work.pop_back_val();
    for (Instruction &I : instructions(*F))
      for (Value *Op : I.operands()) {
        SmallVector<Value *, 4> Vals{Op};
        while (!Vals.empty()) {
          Value *V = Vals.pop_back_val();
          if (auto *GV = dyn_cast<GlobalVariable>(V)) {
            if (isImplicitShadow(*GV))
              Found.insert(GV);
          } else if (auto *Callee = dyn_cast<Function>(V)) {
            if (!Callee->isDeclaration() && Seen.insert(Callee).second)
              Work.push_back(Callee);
          } else if (auto *CE = dyn_cast<ConstantExpr>(V)) {
            append_range(Vals, CE->operands());
          } else if (auto *CA = dyn_cast<ConstantAggregate>(V)) {
            append_range(Vals, CA->operands());
          }
        }
      }
  }
  return Found.takeVector();
}

/// The globals \p C points to (through constant expressions and aggregates).
static void pointedGlobals(Constant *C,
                           SmallVectorImpl<GlobalVariable *> &Out) {
  if (auto *GV = dyn_cast<GlobalVariable>(C)) {
    Out.push_back(GV);
    return;
  }
  if (isa<ConstantAggregate>(C) || isa<ConstantExpr>(C))
    for (Value *Op : C->operands())
      pointedGlobals(cast<Constant>(Op), Out);
}

GlobalShadows GlobalShadows::collectForContext(
    Module &M, const SmallPtrSetImpl<Function *> &Reachable,
    const CustomRules &Rules, ArrayRef<GlobalVariable *> Queried,
    unsigned Context) {
  GlobalShadows S;
  S.Context = Context;
  SmallVector<GlobalVariable *, 8> Work(Queried);
  for (GlobalVariable *GV : WrittenGlobals(M, Reachable).run())
    Work.push_back(GV);
  while (!Work.empty()) {
    GlobalVariable *GV = Work.pop_back_val();
    if (GV->isConstant() || Rules.isInactiveGlobal(GV) || !S.Globals.insert(GV))
      continue;
    if (GV->hasInitializer())
      pointedGlobals(GV->getInitializer(), Work);
  }
  S.findTouching(M, Reachable);
  return S;
}

/// The initial value of a shadow in context \p Context, lane \p Lane, of a
/// global whose initial value is \p C: floating-point values zero,
/// pointers to globals pointing to their shadows, the rest as in \p C.
static Constant *shadowInitializer(Constant *C, unsigned Context,
                                   unsigned Lane) {
  Type *T = C->getType();
  if (T->isFPOrFPVectorTy())
    return Constant::getNullValue(T);
  if (auto *GV = dyn_cast<GlobalVariable>(C))
    return GV->isConstant()
               ? C
               : GlobalShadows::contextShadowOf(*GV, Context, Lane);
  if (isa<ConstantData>(C) && !isa<ConstantDataSequential>(C))
    return C; // integers, null, undef, zeroinitializer
  if (isa<ConstantDataSequential>(C) &&
      !cast<ConstantDataSequential>(C)->getElementType()->isFloatingPointTy())
    return C;
  if (isa<ConstantDataSequential>(C))
    return Constant::getNullValue(T);
  if (auto *CE = dyn_cast<ConstantExpr>(C)) {
    SmallVector<Constant *, 4> Ops;
    for (Value *Op : CE->operands())
      Ops.push_back(shadowInitializer(cast<Constant>(Op), Context, Lane));
    return CE->getWithOperands(Ops);
  }
  if (auto *CA = dyn_cast<ConstantAggregate>(C)) {
    SmallVector<Constant *, 8> Ops;
    for (Value *Op : CA->operands())
      Ops.push_back(shadowInitializer(cast<Constant>(Op), Context, Lane));
    if (auto *ST = dyn_cast<StructType>(T))
      return ConstantStruct::get(ST, Ops);
    if (auto *AT = dyn_cast<ArrayType>(T))
      return ConstantArray::get(AT, Ops);
    return ConstantVector::get(Ops);
  }
  return C; // functions, block addresses: no shadow of their own
}

GlobalVariable *GlobalShadows::contextShadowOf(GlobalVariable &G,
                                               unsigned Context,
                                               unsigned Lane) {
  Module &M = *G.getParent();
  std::string Name = (G.getName() + ".tapestry.ctx" + Twine(Context)).str();
  if (Lane)
    Name += "." + std::to_string(Lane);
  if (GlobalVariable *S = M.getGlobalVariable(Name, /*AllowInternal=*/true))
    return S;
  // Created zero first: an initializer pointing back to G (a list through
  // globals) finds this shadow.
  auto *S = new GlobalVariable(
      M, G.getValueType(), /*isConstant=*/false, GlobalValue::InternalLinkage,
      Constant::getNullValue(G.getValueType()), Name, nullptr,
      G.getThreadLocalMode(), G.getAddressSpace());
  S->setAlignment(G.getAlign());
  if (G.hasInitializer() && !G.isDeclaration())
    S->setInitializer(shadowInitializer(G.getInitializer(), Context, Lane));
  return S;
}

Constant *GlobalShadows::shadowFor(GlobalVariable &G, unsigned W) const {
  if (!Context)
    return batchShadowOf(G, W, Depth);
  if (W == 1)
    return contextShadowOf(G, Context, 0);
  SmallVector<Constant *, 4> Lanes;
  for (unsigned K = 0; K < W; ++K)
    Lanes.push_back(contextShadowOf(G, Context, K));
  return ConstantArray::get(cast<ArrayType>(batchType(G.getType(), W)), Lanes);
}

Constant *GlobalShadows::batchShadowOf(GlobalVariable &G, unsigned W,
                                       unsigned Depth) {
  if (W == 1)
    return shadowOf(G, 0, Depth);
  SmallVector<Constant *, 4> Lanes;
  for (unsigned K = 0; K < W; ++K)
    Lanes.push_back(shadowOf(G, K, Depth));
  return ConstantArray::get(cast<ArrayType>(batchType(G.getType(), W)), Lanes);
}

/// Zeroes the floating-point values of the \p T at \p Ptr, leaving its
/// pointers: one memset where it holds no pointer, else member by member,
/// up to \p Budget members (an array of many records holding pointers
/// keeps what it has beyond that).
static void zeroFloatingPoint(IRBuilderBase &B, Value *Ptr, Type *T,
                              unsigned &Budget) {
  if (!holdsFloatingPoint(T) || Budget == 0)
    return;
  --Budget;
  if (!GlobalShadows::holdsPointers(T)) {
    const DataLayout &DL = B.GetInsertBlock()->getModule()->getDataLayout();
    B.CreateMemSet(Ptr, B.getInt8(0), DL.getTypeStoreSize(T),
                   DL.getABITypeAlign(T));
    return;
  }
  if (auto *ST = dyn_cast<StructType>(T)) {
    for (unsigned I = 0; I < ST->getNumElements(); ++I)
      zeroFloatingPoint(B, B.CreateStructGEP(ST, Ptr, I), ST->getElementType(I),
                        Budget);
    return;
  }
  auto *AT = dyn_cast<ArrayType>(T);
  if (!AT)
    return;
  // Many records holding pointers: a loop over them.
  if (AT->getNumElements() > 4 &&
      B.GetInsertPoint() != B.GetInsertBlock()->end()) {
    Instruction *Before = &*B.GetInsertPoint();
    auto [Body, Index] = SplitBlockAndInsertSimpleForLoop(
        B.getInt64(AT->getNumElements()), Before);
    IRBuilder<> LB(Body);
    unsigned Each = 256;
    zeroFloatingPoint(LB,
                      LB.CreateInBoundsGEP(AT, Ptr, {LB.getInt64(0), Index}),
                      AT->getElementType(), Each);
    B.SetInsertPoint(Before);
    return;
  }
  for (uint64_t I = 0; I < AT->getNumElements() && Budget; ++I)
    zeroFloatingPoint(B, B.CreateConstInBoundsGEP2_64(AT, Ptr, 0, I),
                      AT->getElementType(), Budget);
}

bool GlobalShadows::zeroImplicitShadows(IRBuilderBase &B,
                                        ArrayRef<Function *> Ds) {
  SmallSetVector<GlobalVariable *, 4> Used;
  for (Function *D : Ds)
    for (GlobalVariable *S : GlobalShadows::implicitShadowsUsedBy(*D))
      Used.insert(S);
  for (GlobalVariable *S : Used) {
    unsigned Budget = 256;
    zeroFloatingPoint(B, S, S->getValueType(), Budget);
  }
  return !Used.empty();
}

bool GlobalShadows::holdsPointers(Type *T) {
  if (T->isPtrOrPtrVectorTy())
    return true;
  if (auto *ST = dyn_cast<StructType>(T))
    return any_of(ST->elements(), holdsPointers);
  if (auto *AT = dyn_cast<ArrayType>(T))
    return holdsPointers(AT->getElementType());
  return false;
}

} // namespace tapestry
