//===- ToDense.cpp - __enzyme_todense, lowered to calls -------------------===//
//
// Implements ToDense.h: lowerToDense runs after every request is resolved,
// turns each __enzyme_todense pointer into a local record of its extra
// arguments, and rewrites every load and store at that pointer plus GEP offsets
// into calls of the user's load and store functions, cloning callees the
// pointer is passed to. Any other use is an error at the use.
//
//===----------------------------------------------------------------------===//
#include "Passes/ToDense.h"

#include "Core/Diagnostics.h"
#include "Passes/RequestDecoder.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/Utils/Local.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;

namespace tapestry {

namespace {

/// One todense pointer's meaning: its functions and the record of its
/// extra arguments.
struct DenseView {
  Function *Load = nullptr, *Store = nullptr;
  StructType *Record = nullptr;
};

class Lowering {
public:
  explicit Lowering(Module &M) : M(M), DL(M.getDataLayout()) {}

  bool run();

private:
  void lowerCall(CallBase &CB);
  /// Rewrites the uses of \p Base (the record's address) in its function.
  void lowerUses(Value *Base, const DenseView &View);
  Value *accessCall(IRBuilderBase &B, Function *Fn, Value *Base,
                    const DenseView &View, ArrayRef<Value *> Leading,
                    Instruction *At);
  Function *specialize(Function &Callee, unsigned ArgNo, const DenseView &View);
  void error(Instruction *At, const Twine &Msg) {
    reportError(*At->getFunction(), At, Msg);
    Failed = true;
  }

  Module &M;
  const DataLayout &DL;
  /// Callees specialised for a view passed as one of their arguments.
  DenseMap<
      std::tuple<Function *, unsigned, Function *, Function *, StructType *>,
      Function *>
      Clones;
  SmallPtrSet<Function *, 4> Promoted;
  bool Failed = false;
};

} // namespace

bool Lowering::run() {
  SmallVector<CallBase *, 4> Calls;
  for (Function &F : M)
    if (F.isDeclaration() &&
        classifyEntryPoint(F.getName()) == EntryPoint::ToDense)
      for (User *U : F.users())
        if (auto *CB = dyn_cast<CallBase>(U);
            CB && CB->getCalledFunction() == &F)
          Calls.push_back(CB);
  for (CallBase *CB : Calls)
    lowerCall(*CB);
  return !Failed;
}

/// Promotes \p F's local variables to values, so that a todense pointer kept
/// in one (as -O0 code keeps every pointer, or `p = __enzyme_todense(...)`
/// over a parameter) is followed to its uses.
static void promoteLocals(Function &F) {
  SmallVector<AllocaInst *, 8> Slots;
  for (Instruction &I : F.getEntryBlock())
    if (auto *AI = dyn_cast<AllocaInst>(&I); AI && isAllocaPromotable(AI))
      Slots.push_back(AI);
  if (Slots.empty())
    return;
  DominatorTree DT(F);
  PromoteMemToReg(Slots, DT);
}

void Lowering::lowerCall(CallBase &CB) {
  if (Promoted.insert(CB.getFunction()).second)
    promoteLocals(*CB.getFunction());
  DenseView View;
  if (CB.arg_size() >= 2) {
    View.Load = dyn_cast<Function>(CB.getArgOperand(0)->stripPointerCasts());
    View.Store = dyn_cast<Function>(CB.getArgOperand(1)->stripPointerCasts());
  }
  if (!View.Load || !View.Store || !CB.getType()->isPointerTy()) {
    error(&CB, "__enzyme_todense takes the function that loads, the function "
               "that stores, then their extra arguments: "
               "__enzyme_todense((void *)load, (void *)store, ...), and "
               "returns a pointer");
    return;
  }
  SmallVector<Type *, 4> Types;
  for (unsigned I = 2; I < CB.arg_size(); ++I)
    Types.push_back(CB.getArgOperand(I)->getType());
  View.Record = StructType::get(M.getContext(), Types);
  Function &F = *CB.getFunction();
  IRBuilder<> EB(&F.getEntryBlock(), F.getEntryBlock().begin());
  AllocaInst *Rec = EB.CreateAlloca(View.Record, nullptr, "todense");
  CB.replaceAllUsesWith(Rec);
  lowerUses(Rec, View);
  IRBuilder<> B(&CB);
  for (unsigned I = 2; I < CB.arg_size(); ++I)
    B.CreateStore(CB.getArgOperand(I),
                  B.CreateStructGEP(View.Record, Rec, I - 2));
  CB.eraseFromParent();
}

/// The loads of \p Slot if it is a local variable that only ever holds
/// \p V (as -O0 code keeps every pointer), else nothing.
static std::optional<SmallVector<LoadInst *, 4>> slotLoads(AllocaInst &Slot,
                                                           Value *V) {
  SmallVector<LoadInst *, 4> Loads;
  for (User *U : Slot.users()) {
    if (auto *LI = dyn_cast<LoadInst>(U)) {
      Loads.push_back(LI);
    } else if (auto *SI = dyn_cast<StoreInst>(U)) {
      if (SI->getValueOperand() != V || SI->getPointerOperand() != &Slot)
        return std::nullopt;
    } else if (!isa<DbgInfoIntrinsic>(U) &&
               !(isa<IntrinsicInst>(U) &&
                 cast<IntrinsicInst>(U)->isLifetimeStartOrEnd())) {
      return std::nullopt;
    }
  }
  return Loads;
}

Value *Lowering::accessCall(IRBuilderBase &B, Function *Fn, Value *Base,
                            const DenseView &View, ArrayRef<Value *> Leading,
                            Instruction *At) {
  FunctionType *FT = Fn->getFunctionType();
  SmallVector<Value *, 6> Args;
  auto Fit = [&](Value *V, Type *T) -> Value * {
    if (V->getType() == T)
      return V;
    if (V->getType()->isIntegerTy() && T->isIntegerTy())
      return B.CreateSExtOrTrunc(V, T);
    if (V->getType()->isFloatingPointTy() && T->isFloatingPointTy())
      return B.CreateFPCast(V, T);
    return nullptr;
  };
  unsigned Extra = View.Record->getNumElements();
  if (FT->isVarArg() || FT->getNumParams() < Leading.size() ||
      FT->getNumParams() > Leading.size() + Extra) {
    error(At, "'" + sourceName(*Fn) + "' must take " +
                  (Leading.size() == 1 ? "the byte offset"
                                       : "the value and the byte offset") +
                  ", then at most the " + Twine(Extra) +
                  " extra argument(s) given to __enzyme_todense");
    return nullptr;
  }
  for (unsigned I = 0; I < FT->getNumParams(); ++I) {
    Value *V =
        I < Leading.size()
            ? Leading[I]
            : B.CreateLoad(
                  View.Record->getElementType(I - Leading.size()),
                  B.CreateStructGEP(View.Record, Base, I - Leading.size()));
    Value *Arg = Fit(V, FT->getParamType(I));
    if (!Arg) {
      error(At, "parameter " + Twine(I) + " of '" + sourceName(*Fn) +
                    "' does not have the type of what __enzyme_todense "
                    "passes there");
      return nullptr;
    }
    Args.push_back(Arg);
  }
  return B.CreateCall(Fn, Args);
}

void Lowering::lowerUses(Value *Base, const DenseView &View) {
  // Each pointer derived from Base, with its byte offset from Base.
  SmallVector<std::pair<Value *, Value *>, 8> Work;
  Work.push_back({Base, ConstantInt::get(Type::getInt64Ty(M.getContext()), 0)});
  SmallVector<Instruction *, 8> Dead;
  while (!Work.empty()) {
    auto [V, Offset] = Work.pop_back_val();
    // (Not the record accesses added below.)
    SmallVector<User *, 8> Users(V->users());
    for (User *U : Users) {
      auto *I = dyn_cast<Instruction>(U);
      if (!I)
        continue;
      if (auto *GEP = dyn_cast<GetElementPtrInst>(I);
          GEP && GEP->getPointerOperand() == V) {
        IRBuilder<> B(GEP);
        Value *Delta = emitGEPOffset(&B, DL, GEP, /*NoAssumptions=*/true);
        Work.push_back(
            {GEP, B.CreateAdd(Offset,
                              B.CreateSExtOrTrunc(Delta, Offset->getType()))});
        Dead.push_back(GEP);
      } else if (isa<BitCastInst>(I) || isa<AddrSpaceCastInst>(I)) {
        Work.push_back({I, Offset});
        Dead.push_back(I);
      } else if (auto *LI = dyn_cast<LoadInst>(I)) {
        IRBuilder<> B(LI);
        if (V == Base && LI->getType() == View.Record) {
          error(LI, "the pointer from __enzyme_todense is read whole");
          continue;
        }
        Value *R = accessCall(B, View.Load, Base, View, {Offset}, LI);
        if (!R)
          continue;
        if (R->getType() != LI->getType()) {
          error(LI, "a " + describe(LI->getType()) +
                        " is read through the pointer from "
                        "__enzyme_todense, but '" +
                        sourceName(*View.Load) + "' returns " +
                        describe(R->getType()));
          continue;
        }
        LI->replaceAllUsesWith(R);
        LI->eraseFromParent();
      } else if (auto *SI = dyn_cast<StoreInst>(I);
                 SI && SI->getValueOperand() == V &&
                 isa<AllocaInst>(SI->getPointerOperand())) {
        // Kept in a local variable: what is loaded back is the pointer.
        auto *Slot = cast<AllocaInst>(SI->getPointerOperand());
        if (std::optional<SmallVector<LoadInst *, 4>> Loads =
                slotLoads(*Slot, V)) {
          for (LoadInst *LI : *Loads)
            Work.push_back({LI, Offset});
          continue;
        }
        error(I, "the pointer from __enzyme_todense is stored in a "
                 "variable that also holds other pointers");
      } else if (auto *SI = dyn_cast<StoreInst>(I);
                 SI && SI->getPointerOperand() == V &&
                 SI->getValueOperand() != V) {
        IRBuilder<> B(SI);
        if (accessCall(B, View.Store, Base, View,
                       {SI->getValueOperand(), Offset}, SI))
          SI->eraseFromParent();
      } else if (auto *CB = dyn_cast<CallBase>(I);
                 CB && isa<IntrinsicInst>(CB) &&
                 (cast<IntrinsicInst>(CB)->isLifetimeStartOrEnd() ||
                  isa<DbgInfoIntrinsic>(CB))) {
        Dead.push_back(CB);
      } else if (auto *CB = dyn_cast<CallBase>(I);
                 CB && isa<ConstantInt>(Offset) &&
                 cast<ConstantInt>(Offset)->isZero() &&
                 CB->getCalledFunction() &&
                 !CB->getCalledFunction()->isDeclaration() &&
                 !CB->getCalledFunction()->isVarArg()) {
        Function *Callee = CB->getCalledFunction();
        for (unsigned A = 0; A < CB->arg_size(); ++A)
          if (CB->getArgOperand(A) == V && !Failed)
            if (Function *Clone = specialize(*Callee, A, View)) {
              CB->setCalledFunction(Clone);
              Callee = Clone;
            }
      } else {
        auto *Call = dyn_cast<CallBase>(I);
        Function *Callee = Call ? Call->getCalledFunction() : nullptr;
        std::string Use =
            Callee ? "passed to '" + sourceName(*Callee) + "'" +
                         (Callee->isDeclaration() ? ", which has no body"
                                                  : " at an offset")
                   : "used by '" + describe(I) + "'";
        error(I, "the pointer from __enzyme_todense is " + Use +
                     "; Tapestry turns only loads and stores at an offset "
                     "from it into the load and store functions, and passes "
                     "it unchanged to functions with a body");
      }
    }
  }
  for (Instruction *I : reverse(Dead))
    if (I->use_empty())
      I->eraseFromParent();
}

Function *Lowering::specialize(Function &Callee, unsigned ArgNo,
                               const DenseView &View) {
  auto Key =
      std::make_tuple(&Callee, ArgNo, View.Load, View.Store, View.Record);
  if (Function *F = Clones.lookup(Key))
    return F;
  ValueToValueMapTy VMap;
  Function *Clone = CloneFunction(&Callee, VMap);
  Clone->setName(Callee.getName() + ".todense");
  Clone->setLinkage(GlobalValue::InternalLinkage);
  Clones[Key] = Clone;
  lowerUses(Clone->getArg(ArgNo), View);
  return Clone;
}

bool lowerToDense(Module &M) { return Lowering(M).run(); }

} // namespace tapestry
