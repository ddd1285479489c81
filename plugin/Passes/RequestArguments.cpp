//===- RequestArguments.cpp - Values as request calls pass them -----------===//
//
// Implements RequestArguments.h: requestTarget and resolveFunction find the
// function a request differentiates through casts, aliases, constant globals
// and -O0 locals stored once, markerName recognises a load of an enzyme_*
// global, and constantValue and constantIntegerArgument see through the same
// locals for compile-time constants. It reads IR only; the decoder
// (Passes/RequestDecoder.cpp) gives the values their meaning.
//
//===----------------------------------------------------------------------===//
#include "Passes/RequestArguments.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tapestry {

StringRef markerName(const Value *V) {
  V = V->stripPointerCasts();
  while (auto *CI = dyn_cast<CastInst>(V))
    V = CI->getOperand(0);
  if (auto *LI = dyn_cast<LoadInst>(V))
    V = LI->getPointerOperand()->stripPointerCasts();
  if (auto *GV = dyn_cast<GlobalVariable>(V))
    if (GV->getName().starts_with("enzyme_") ||
        GV->getName().starts_with("tapestry_"))
      return GV->getName();
  return "";
}

Value *convertAsArgument(IRBuilderBase &B, Value *V, Type *To) {
  Type *From = V->getType();
  if (From == To)
    return V;
  if (From->isFloatingPointTy() && To->isFloatingPointTy())
    return B.CreateFPCast(V, To);
  if (From->isIntegerTy() && To->isIntegerTy())
    return B.CreateSExtOrTrunc(V, To);
  if (From->isPointerTy() && To->isPointerTy())
    return B.CreatePointerCast(V, To);
  return nullptr;
}

static bool isDebugOrLifetime(const User *U) {
  return isa<DbgInfoIntrinsic>(U) ||
         (isa<IntrinsicInst>(U) &&
          cast<IntrinsicInst>(U)->isLifetimeStartOrEnd());
}

/// True if local \p Holder is stored into once and otherwise only loaded:
/// a local that keeps an address, as an inlined wrapper keeps a reference
/// parameter at -O0.
static bool storedOnceThenRead(const AllocaInst *Holder) {
  unsigned Stores = 0;
  for (const User *U : Holder->users()) {
    if (isDebugOrLifetime(U))
      continue;
    if (const auto *SI = dyn_cast<StoreInst>(U)) {
      if (SI->getPointerOperand() != Holder || ++Stores > 1)
        return false;
      continue;
    }
    if (!isa<LoadInst>(U))
      return false;
  }
  return Stores == 1;
}

/// True if the address held by local \p Holder (stored into it once) is
/// only ever read through: each load of \p Holder is only loaded from or
/// passed on to another such holder. This is how an inlined C++ wrapper
/// chain keeps a reference parameter, e.g. to the temporary holding `&f`,
/// spilling it once per inlined level at -O0.
static bool holdsReadOnlyAddress(const AllocaInst *Holder, unsigned Depth = 0) {
  if (Depth > 16 || !storedOnceThenRead(Holder))
    return false;
  for (const User *U : Holder->users()) {
    const auto *LI = dyn_cast<LoadInst>(U);
    if (!LI)
      continue;
    for (const User *V : LI->users()) {
      if (isDebugOrLifetime(V))
        continue;
      if (const auto *Read = dyn_cast<LoadInst>(V);
          Read && Read->getPointerOperand() == LI)
        continue;
      const auto *Pass = dyn_cast<StoreInst>(V);
      const auto *Next = Pass && Pass->getValueOperand() == LI
                             ? dyn_cast<AllocaInst>(Pass->getPointerOperand())
                             : nullptr;
      if (!Next || Next == Holder || !holdsReadOnlyAddress(Next, Depth + 1))
        return false;
    }
  }
  return true;
}

/// The value of a local variable (an alloca) that is stored exactly once and
/// otherwise only read, directly or through a local holding its address
/// that is itself only read: how -O0 code and inlined wrappers hold a
/// function pointer.
static Value *onlyStoredValue(Value *Ptr) {
  auto *AI = dyn_cast<AllocaInst>(Ptr->stripPointerCasts());
  if (!AI)
    return nullptr;
  StoreInst *Only = nullptr;
  for (User *U : AI->users()) {
    // (A volatile local may change outside the program's view.)
    if (auto *LI = dyn_cast<LoadInst>(U); LI && LI->isVolatile())
      return nullptr;
    if (isa<LoadInst>(U) || isDebugOrLifetime(U))
      continue;
    auto *SI = dyn_cast<StoreInst>(U);
    if (SI && SI->isVolatile())
      return nullptr;
    if (SI && SI->getValueOperand() == AI && SI->getPointerOperand() != AI) {
      auto *Holder =
          dyn_cast<AllocaInst>(SI->getPointerOperand()->stripPointerCasts());
      if (Holder && holdsReadOnlyAddress(Holder))
        continue;
      return nullptr;
    }
    if (!SI || SI->getPointerOperand() != AI || Only)
      return nullptr;
    Only = SI;
  }
  return Only ? Only->getValueOperand() : nullptr;
}

/// Most locals followed from a value to what it holds: each level of a C++
/// wrapper inlined at -O0 keeps a value in several (the header's
/// enzyme::autodiff takes eight from a helper's parameter to the request).
static constexpr unsigned MaxLocalsFollowed = 32;

static Value *localAddress(Value *Ptr);

Value *argumentPassedThrough(Value *V) {
  auto *CB = dyn_cast<CallBase>(V);
  Function *Callee = CB ? CB->getCalledFunction() : nullptr;
  // (A weak body may be replaced by another at link time, review44 F2; an
  // ODR one only by an identical one.)
  if (!Callee || Callee->isDeclaration() || Callee->isInterposable() ||
      Callee->isVarArg() || Callee->getReturnType() != V->getType())
    return nullptr;
  // Nothing but its own locals written, and nothing called: reading its
  // returns below then calls nothing back here.
  for (Instruction &I : instructions(*Callee))
    if (auto *SI = dyn_cast<StoreInst>(&I)) {
      if (SI->isVolatile() ||
          !isa<AllocaInst>(SI->getPointerOperand()->stripPointerCasts()))
        return nullptr;
    } else if (isa<CallBase>(I) && !isDebugOrLifetime(&I)) {
      return nullptr;
    } else if (I.mayWriteToMemory()) {
      return nullptr;
    }
  const Argument *Same = nullptr;
  for (BasicBlock &BB : *Callee) {
    auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator());
    if (!Ret)
      continue;
    // (At -O0 the parameter is spilled to a local and read back.)
    auto *A = Ret->getReturnValue()
                  ? dyn_cast<Argument>(localAddress(Ret->getReturnValue()))
                  : nullptr;
    if (!A || (Same && Same != A))
      return nullptr;
    Same = A;
  }
  return Same ? CB->getArgOperand(Same->getArgNo()) : nullptr;
}

/// The local variable a pointer operand names: the alloca itself, or the
/// value of a local stored once that holds its address.
static Value *localAddress(Value *Ptr) {
  for (unsigned Depth = 0; Depth < MaxLocalsFollowed; ++Depth) {
    Ptr = Ptr->stripPointerCasts();
    if (Value *Arg = argumentPassedThrough(Ptr)) {
      Ptr = Arg;
      continue;
    }
    auto *LI = dyn_cast<LoadInst>(Ptr);
    if (!LI)
      return Ptr;
    Value *Stored = onlyStoredValue(LI->getPointerOperand());
    if (!Stored)
      return Ptr;
    Ptr = Stored;
  }
  return Ptr;
}

Value *throughLocals(Value *V) { return localAddress(V)->stripPointerCasts(); }

Value *onlyValueOfLocal(Value *Ptr) {
  return onlyStoredValue(localAddress(Ptr));
}

/// The function a request's first argument names, through casts, aliases,
/// constant globals holding the pointer and local variables stored once.
Function *resolveFunction(Value *V, unsigned Nesting) {
  for (unsigned Depth = 0; Depth < MaxLocalsFollowed; ++Depth) {
    V = V->stripPointerCasts();
    if (auto *F = dyn_cast<Function>(V))
      return F;
    if (auto *GA = dyn_cast<GlobalAlias>(V)) {
      V = GA->getAliasee();
      continue;
    }
    if (Value *Arg = argumentPassedThrough(V)) {
      V = Arg;
      continue;
    }
    if (auto *LI = dyn_cast<LoadInst>(V))
      if (Value *Stored =
              onlyStoredValue(localAddress(LI->getPointerOperand()))) {
        V = Stored;
        continue;
      }
    // A call whose every return gives the same function: a captureless
    // lambda's conversion to a function pointer (`+[](double x) {...}`).
    if (auto *Call = dyn_cast<CallBase>(V))
      if (Function *Callee = Call->getCalledFunction();
          Callee && !Callee->isDeclaration() && !Callee->isInterposable() &&
          Nesting < 4) {
        Function *Same = nullptr;
        bool Agree = true;
        for (BasicBlock &BB : *Callee)
          if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator())) {
            Function *Given =
                Ret->getReturnValue()
                    ? resolveFunction(Ret->getReturnValue(), Nesting + 1)
                    : nullptr;
            Agree &= Given && (!Same || Same == Given);
            Same = Given;
          }
        if (Agree && Same)
          return Same;
      }
    if (auto *LI = dyn_cast<LoadInst>(V))
      if (auto *GV = dyn_cast<GlobalVariable>(
              LI->getPointerOperand()->stripPointerCasts()))
        if (GV->isConstant() && GV->hasDefinitiveInitializer()) {
          V = GV->getInitializer();
          continue;
        }
    return nullptr;
  }
  return nullptr;
}

/// The constant an integer argument holds, as -O0 code passes it too: through
/// integer casts, a local variable stored once (`const int w = 4;`) or a
/// constant global; null if it is not a constant.
Constant *constantValue(Value *V) {
  for (unsigned Depth = 0; Depth < MaxLocalsFollowed; ++Depth) {
    if (auto *C = dyn_cast<Constant>(V))
      return C;
    if (auto *CI = dyn_cast<CastInst>(V)) {
      if (!CI->getType()->isIntegerTy() ||
          !CI->getOperand(0)->getType()->isIntegerTy())
        return nullptr;
      Constant *Op = constantValue(CI->getOperand(0));
      return Op ? ConstantFoldIntegerCast(Op, CI->getType(), isa<SExtInst>(CI),
                                          CI->getModule()->getDataLayout())
                : nullptr;
    }
    auto *LI = dyn_cast<LoadInst>(V);
    if (!LI || LI->isVolatile())
      return nullptr;
    if (Value *Stored = onlyStoredValue(LI->getPointerOperand())) {
      V = Stored;
      continue;
    }
    auto *GV =
        dyn_cast<GlobalVariable>(LI->getPointerOperand()->stripPointerCasts());
    if (!GV || !GV->isConstant() || !GV->hasDefinitiveInitializer() ||
        GV->getValueType() != LI->getType())
      return nullptr;
    V = GV->getInitializer();
  }
  return nullptr;
}

/// The local object (an alloca) that \p Ptr addresses at offset 0, through
/// locals holding its address; null if there is none.
static AllocaInst *localObject(Value *Ptr) {
  for (unsigned Depth = 0; Depth < 16; ++Depth) {
    Ptr = Ptr->stripPointerCasts();
    if (auto *AI = dyn_cast<AllocaInst>(Ptr))
      return AI;
    auto *LI = dyn_cast<LoadInst>(Ptr);
    auto *Holder =
        LI ? dyn_cast<AllocaInst>(LI->getPointerOperand()->stripPointerCasts())
           : nullptr;
    if (!Holder || !storedOnceThenRead(Holder))
      return nullptr;
    StoreInst *Only = nullptr;
    for (User *U : Holder->users())
      if (auto *SI = dyn_cast<StoreInst>(U))
        Only = SI;
    Ptr = Only->getValueOperand();
  }
  return nullptr;
}

/// The one store that writes local object \p Obj, if every use of its
/// address is a read, that store (at offset 0), or the address kept in a
/// local that is stored once and otherwise read (whose loads are then its
/// address too); null if the address goes anywhere else (a call, memcpy, an
/// offset) or the object is written more than once.
static StoreInst *onlyWrite(AllocaInst *Obj) {
  SmallVector<Value *, 8> Work{Obj};
  SmallPtrSet<Value *, 8> Seen{Obj};
  StoreInst *Write = nullptr;
  auto Push = [&](Value *V) {
    if (Seen.insert(V).second)
      Work.push_back(V);
  };
  while (!Work.empty()) {
    Value *Addr = Work.pop_back_val();
    for (User *U : Addr->users()) {
      if (isDebugOrLifetime(U))
        continue;
      if (auto *LI = dyn_cast<LoadInst>(U)) {
        if (LI->isVolatile())
          return nullptr;
        continue;
      }
      if (auto *SI = dyn_cast<StoreInst>(U)) {
        if (SI->getValueOperand() != Addr) {
          if (Write || SI->isVolatile())
            return nullptr;
          Write = SI;
          continue;
        }
        auto *Holder =
            dyn_cast<AllocaInst>(SI->getPointerOperand()->stripPointerCasts());
        if (!Holder || Holder == Obj || !storedOnceThenRead(Holder))
          return nullptr;
        for (User *HU : Holder->users())
          if (isa<LoadInst>(HU))
            Push(HU);
        continue;
      }
      if (isa<BitCastInst>(U)) {
        Push(U);
        continue;
      }
      if (auto *GEP = dyn_cast<GetElementPtrInst>(U);
          GEP && GEP->getPointerOperand() == Addr && GEP->hasAllZeroIndices()) {
        Push(U);
        continue;
      }
      return nullptr;
    }
  }
  return Write;
}

Value *throughLocalObjects(Value *V) {
  for (unsigned Depth = 0; Depth < MaxLocalsFollowed; ++Depth) {
    V = V->stripPointerCasts();
    auto *LI = dyn_cast<LoadInst>(V);
    AllocaInst *Obj = LI && !LI->isVolatile()
                          ? localObject(LI->getPointerOperand())
                          : nullptr;
    StoreInst *Write = Obj ? onlyWrite(Obj) : nullptr;
    if (!Write || Write->getValueOperand()->getType() != LI->getType())
      return throughLocals(V);
    V = Write->getValueOperand();
  }
  return V;
}

Function *requestTarget(CallBase &CB) {
  unsigned First = CB.hasStructRetAttr() ? 1 : 0;
  if (CB.arg_size() <= First)
    return nullptr;
  return resolveFunction(CB.getArgOperand(First));
}

std::optional<int64_t> constantIntegerArgument(Value *V) {
  if (auto *C = dyn_cast_or_null<ConstantInt>(constantValue(V)))
    return C->getSExtValue();
  return std::nullopt;
}

} // namespace tapestry
