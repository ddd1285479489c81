//===- InactiveCalls.cpp - Calls the user declared inactive ---------------===//
//
// A function listed in __enzyme_inactivefn is called as it is and gets no
// derivative: right when nothing it returns or writes depends on
// differentiated values (a logger, a check). A function that moves
// differentiated data (copies a vector) cannot be inactive: what it writes
// would carry no derivative, and code reading it afterwards would get a
// silently wrong one. Such a call is rejected when it receives a pointer to
// differentiated floating-point memory that it may write and that is read
// afterwards (here, or by the caller when it is an argument).
//
//===----------------------------------------------------------------------===//
#include "Synthesis/SynthesizerBase.h"

#include "Core/Diagnostics.h"
#include "Core/SourceTypes.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Analysis/VectorUtils.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace tapestry {

/// True if the body of \p F may write through its argument \p A (anything
/// but loads, address arithmetic, comparisons and read-only calls counts).
static bool bodyMayWriteThrough(Argument &A) {
  SmallVector<const Value *, 8> Work{&A};
  SmallPtrSet<const Value *, 8> Seen{&A};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const Use &U : V->uses()) {
      auto *I = dyn_cast<Instruction>(U.getUser());
      if (!I)
        return true;
      if (isa<LoadInst>(I) || isa<ICmpInst>(I) || isa<DbgInfoIntrinsic>(I))
        continue;
      if (auto *CB = dyn_cast<CallBase>(I)) {
        if (CB->isArgOperand(&U) &&
            (CB->onlyReadsMemory(CB->getArgOperandNo(&U)) ||
             (isa<MemTransferInst>(CB) && CB->getArgOperandNo(&U) == 1)))
          continue;
        return true;
      }
      if (isa<GetElementPtrInst>(I) || isa<CastInst>(I) || isa<PHINode>(I) ||
          isa<SelectInst>(I)) {
        if (Seen.insert(I).second)
          Work.push_back(I);
        continue;
      }
      // Kept in a local variable (as at -O0): followed through its loads
      // if the variable is only loaded and stored.
      auto *SI = dyn_cast<StoreInst>(I);
      auto *Slot = SI && SI->getValueOperand() == V
                       ? dyn_cast<AllocaInst>(SI->getPointerOperand())
                       : nullptr;
      if (Slot && all_of(Slot->users(), [&](const User *SU) {
            auto *SS = dyn_cast<StoreInst>(SU);
            return isa<LoadInst>(SU) || isa<DbgInfoIntrinsic>(SU) ||
                   isa<LifetimeIntrinsic>(SU) ||
                   (SS && SS->getPointerOperand() == Slot);
          })) {
        for (const User *SU : Slot->users())
          if (isa<LoadInst>(SU) && Seen.insert(SU).second)
            Work.push_back(SU);
        continue;
      }
      return true; // stored, returned, or something else: assume written
    }
  }
  return false;
}

/// For a function without a body (a library's), what its declaration says:
/// with debug info (clang attaches it to declarations it calls when
/// optimising with -g), a parameter declared as a pointer to const is only
/// read. Without it nothing says the function does not write, and a
/// silently wrong gradient is worse than an error that says what to do.
static bool declarationMayWriteThrough(const Function &F, unsigned ArgNo) {
  const DISubprogram *SP = F.getSubprogram();
  const DISubroutineType *Ty = SP ? SP->getType() : nullptr;
  if (!Ty)
    return true;
  DITypeRefArray Types = Ty->getTypeArray(); // [0] is the result
  if (ArgNo + 1 >= Types.size())
    return true;
  const DIType *T = Types[ArgNo + 1];
  while (auto *D = dyn_cast_or_null<DIDerivedType>(T)) {
    if (D->getTag() == dwarf::DW_TAG_pointer_type ||
        D->getTag() == dwarf::DW_TAG_reference_type) {
      // Writable unless the pointee is const-qualified.
      const DIType *Pointee = D->getBaseType();
      while (auto *Q = dyn_cast_or_null<DIDerivedType>(Pointee)) {
        if (Q->getTag() == dwarf::DW_TAG_const_type)
          return false;
        if (Q->getTag() != dwarf::DW_TAG_typedef &&
            Q->getTag() != dwarf::DW_TAG_volatile_type)
          break;
        Pointee = Q->getBaseType();
      }
      return true;
    }
    if (D->getTag() != dwarf::DW_TAG_typedef &&
        D->getTag() != dwarf::DW_TAG_const_type)
      break;
    T = D->getBaseType();
  }
  return true;
}

/// True if the call \p CB may write through its argument \p ArgNo.
static bool mayWriteThrough(CallBase &CB, unsigned ArgNo) {
  if (CB.onlyReadsMemory(ArgNo))
    return false;
  Function *F = CB.getCalledFunction();
  if (F && F->isDeclaration())
    return declarationMayWriteThrough(*F, ArgNo);
  if (!F || F->isVarArg() || ArgNo >= F->arg_size())
    return true;
  return bodyMayWriteThrough(*F->getArg(ArgNo));
}

/// True if memory of \p Objs is read after \p CB in \p P: by a load with a
/// derivative, a copy, or a call that is differentiated.
static bool isReadAfter(Function &P, CallBase &CB, ArrayRef<const Value *> Objs,
                        const ActivityInfo &AI, const CustomRules &Rules) {
  auto SameMemory = [&](const Value *Ptr) {
    SmallVector<const Value *, 4> Other;
    getUnderlyingObjects(Ptr, Other, nullptr, 0);
    return any_of(Other, [&](const Value *O) { return is_contained(Objs, O); });
  };
  for (Instruction &I : instructions(P)) {
    if (&I == &CB || !isPotentiallyReachable(&CB, &I))
      continue;
    if (auto *LI = dyn_cast<LoadInst>(&I)) {
      if (AI.isActive(LI) && SameMemory(LI->getPointerOperand()))
        return true;
    } else if (auto *MT = dyn_cast<MemTransferInst>(&I)) {
      if (SameMemory(MT->getSource()))
        return true;
    } else if (auto *II = dyn_cast<IntrinsicInst>(&I);
               II && (II->getIntrinsicID() == Intrinsic::masked_load ||
                      II->getIntrinsicID() == Intrinsic::masked_gather)) {
      if (!AI.isActive(II))
        continue;
      // A gather's addresses: their common base where the IR shows one,
      // else any memory.
      const Value *Addr = II->getArgOperand(0);
      if (Addr->getType()->isVectorTy()) {
        if (const Value *Splat = getSplatValue(Addr))
          Addr = Splat;
        else if (auto *GEP = dyn_cast<GetElementPtrInst>(Addr))
          Addr = GEP->getPointerOperand()->getType()->isVectorTy()
                     ? getSplatValue(GEP->getPointerOperand())
                     : GEP->getPointerOperand();
        else
          Addr = nullptr;
      }
      if (!Addr || SameMemory(Addr))
        return true;
    } else if (auto *Call = dyn_cast<CallBase>(&I)) {
      Function *Callee = Call->getCalledFunction();
      if (Callee && !Callee->isDeclaration() && !Rules.isInactive(Callee) &&
          any_of(Call->args(), [&](Value *Arg) {
            return Arg->getType()->isPointerTy() && SameMemory(Arg);
          }))
        return true;
    }
  }
  return false;
}

void SynthesizerBase::checkInactiveDeclaredCall(CallBase &CB) {
  // Only a call that sees differentiated data can move it.
  if (!any_of(CB.args(),
              [&](Value *A) { return AI.isActive(A) || AI.hasShadow(A); }))
    return;
  if (!Types)
    Types = std::make_unique<TypeInfo>(computeTypes(P));
  // The first argument read here afterwards, else the first the caller
  // reads back.
  Value *Written = nullptr;
  unsigned WrittenNo = 0;
  bool ByCaller = false;
  for (unsigned ArgNo = 0; ArgNo < CB.arg_size(); ++ArgNo) {
    Value *A = CB.getArgOperand(ArgNo);
    if (!A->getType()->isPointerTy() || !AI.hasShadow(A))
      continue;
    // Where it returns a struct by value: its result, whose derivative is
    // zero (constantOutParams).
    if (CB.paramHasAttr(ArgNo, Attribute::StructRet))
      continue;
    SmallVector<Type *, 4> Held = Types->typesAt(A);
    if (!Held.empty() && none_of(Held, [](Type *T) {
          return T->isFPOrFPVectorTy() || T->isPointerTy();
        }))
      continue; // integer data only
    if (!mayWriteThrough(CB, ArgNo))
      continue;
    SmallVector<const Value *, 4> Objs;
    getUnderlyingObjects(A, Objs, nullptr, 0);
    if (isReadAfter(P, CB, Objs, AI, Rules)) {
      Written = A;
      WrittenNo = ArgNo;
      ByCaller = false;
      break;
    }
    if (!Written &&
        any_of(Objs, [](const Value *O) { return isa<Argument>(O); })) {
      Written = A;
      WrittenNo = ArgNo;
      ByCaller = true;
    }
  }
  if (!Written)
    return;
  // Where the argument points, in source terms.
  const Value *Obj = getUnderlyingObject(Written);
  std::string Where = "memory it points to";
  if (isa<Argument>(Obj))
    Where = describe(Obj) + " of '" + sourceName(*R.Fn) + "'";
  else if (auto *I = dyn_cast<Instruction>(Obj))
    if (std::string Loc = sourceLocation(I); !Loc.empty())
      Where = std::string(isa<AllocaInst>(I) ? "the local variable at "
                                             : "the memory allocated at ") +
              Loc;
  Function &Callee = *CB.getCalledFunction();
  std::string Suffix = registrationSuffix(Callee);
  std::string Address = functionPointerText(Callee);
  fail(&CB,
       "'" + sourceName(Callee) +
           "' is declared inactive (__enzyme_inactivefn) but may write "
           "floating-point data through its argument " +
           std::to_string(WrittenNo + 1) + " (" + Where + "), which " +
           (ByCaller ? "the caller reads back"
                     : "is read with a derivative afterwards") +
           "; a function that moves differentiated data cannot be inactive "
           "(its writes would carry no derivative). Remove it from "
           "__enzyme_inactivefn and give its body (one that only reads the "
           "data may stay inactive), or register its derivative with 'void "
           "*__enzyme_register_gradient_" +
           Suffix + "[3] = {" + Address +
           ", (void*)aug, (void*)rev};' or 'void "
           "*__enzyme_register_derivative_" +
           Suffix + "[2] = {" + Address + ", (void*)fwd};'");
}

} // namespace tapestry
