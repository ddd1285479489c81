//===- TypeAnalysis.cpp ---------------------------------------------------===//
#include "Analysis/TypeAnalysis.h"

#include "Analysis/PromotedCopy.h"
#include "Core/Diagnostics.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>

using namespace llvm;

namespace tapestry {

const Value *TypeInfo::root(const Value *Ptr) {
  return getUnderlyingObject(Ptr, /*MaxLookup=*/0);
}

SmallVector<Type *, 4> TypeInfo::typesAt(const Value *Ptr) const {
  SmallSetVector<Type *, 4> All;
  for (const Value *R : roots(Ptr)) {
    auto It = Types.find(R);
    if (It != Types.end())
      All.insert(It->second.begin(), It->second.end());
  }
  return SmallVector<Type *, 4>(All.begin(), All.end());
}

SmallVector<const Value *, 4> TypeInfo::roots(const Value *Ptr) {
  SmallVector<const Value *, 4> Objs;
  getUnderlyingObjects(Ptr, Objs, /*LI=*/nullptr, /*MaxLookup=*/0);
  // A null pointer (one side of a phi while a vector is empty) is no
  // object: as a root it would mix the types of unrelated buffers.
  if (Objs.size() > 1)
    erase_if(Objs, [](const Value *V) { return isa<ConstantPointerNull>(V); });
  return Objs;
}

Type *TypeInfo::floatTypeAt(const Value *Ptr) const {
  Type *Found = nullptr;
  for (Type *T : typesAt(Ptr)) {
    if (!T->isFloatingPointTy())
      continue;
    if (Found && Found != T)
      return nullptr;
    Found = T;
  }
  return Found;
}

namespace {

class TypeInference {
public:
  explicit TypeInference(TypeInfo &Out) : Out(Out) {}

  /// Records what \p F does with memory; accesses through \p F's
  /// parameters are also recorded for \p ArgRoots (the caller's roots).
  void visit(Function &F, ArrayRef<const Value *> ArgRoots, unsigned Depth) {
    std::function<void(const Value *, Type *)> Note = [&](const Value *Ptr,
                                                          Type *T) {
      T = T->getScalarType();
      if (auto *ST = dyn_cast<StructType>(T)) {
        for (Type *E : ST->elements())
          Note(Ptr, E);
        return;
      }
      if (auto *AT = dyn_cast<ArrayType>(T))
        return Note(Ptr, AT->getElementType());
      for (const Value *R : TypeInfo::roots(Ptr)) {
        Out.Types[R].insert(T);
        if (auto *A = dyn_cast<Argument>(R))
          if (A->getParent() == &F && A->getArgNo() < ArgRoots.size() &&
              ArgRoots[A->getArgNo()])
            Out.Types[ArgRoots[A->getArgNo()]].insert(T);
      }
    };
    for (Instruction &I : instructions(F)) {
      if (auto *LI = dyn_cast<LoadInst>(&I))
        Note(LI->getPointerOperand(), LI->getType());
      else if (auto *SI = dyn_cast<StoreInst>(&I))
        Note(SI->getPointerOperand(), SI->getValueOperand()->getType());
      else if (auto *GEP = dyn_cast<GetElementPtrInst>(&I)) {
        // An i8 GEP is a byte offset, not a statement about the data.
        if (!GEP->getResultElementType()->isIntegerTy(8))
          Note(GEP, GEP->getResultElementType());
      } else if (auto *MT = dyn_cast<MemTransferInst>(&I))
        for (const Value *D : TypeInfo::roots(MT->getDest()))
          for (const Value *S : TypeInfo::roots(MT->getSource()))
            Copies.push_back({D, S});
      else if (auto *CB = dyn_cast<CallBase>(&I))
        visitCall(*CB, F, ArgRoots, Depth);
    }
  }

  /// A copy moves data: both ends hold the same types.
  void unifyCopies() {
    bool Changed = true;
    while (Changed) {
      Changed = false;
      for (auto [Dst, Src] : Copies) {
        auto &D = Out.Types[Dst];
        auto S = Out.Types[Src];
        for (Type *T : S)
          Changed |= D.insert(T);
        for (Type *T : D.getArrayRef().vec())
          Changed |= Out.Types[Src].insert(T);
      }
    }
  }

private:
  void visitCall(CallBase &CB, Function &Caller,
                 ArrayRef<const Value *> CallerArgRoots, unsigned Depth) {
    Function *Callee = CB.getCalledFunction();
    if (!Callee || Callee->isDeclaration() || Depth == 0 ||
        !Visited.insert(Callee).second)
      return;
    SmallVector<const Value *, 8> Roots;
    for (Value *A : CB.args()) {
      const Value *R =
          A->getType()->isPointerTy() ? TypeInfo::root(A) : nullptr;
      // A parameter of the caller passed on maps to the caller's root.
      if (auto *Arg = dyn_cast_or_null<Argument>(R))
        if (Arg->getParent() == &Caller &&
            Arg->getArgNo() < CallerArgRoots.size() &&
            CallerArgRoots[Arg->getArgNo()])
          R = CallerArgRoots[Arg->getArgNo()];
      Roots.push_back(R);
    }
    // Callees are seen as the front end wrote them (parameters spilled to
    // the stack at -O0 or before optimisation): promote those slots first,
    // on a copy, so that accesses through a parameter are seen as such.
    Function *Copy = clonePromoted(*Callee);
    Clones.push_back(Copy);
    visit(*Copy, Roots, Depth - 1);
    Visited.erase(Callee);
  }

public:
  /// Forgets what was noted about the callees' copies and deletes them.
  void dropClones() {
    for (Function *Copy : Clones) {
      for (Argument &A : Copy->args())
        Out.Types.erase(&A);
      for (Instruction &I : instructions(*Copy))
        Out.Types.erase(&I);
      Copy->eraseFromParent();
    }
    Clones.clear();
  }

private:
  SmallVector<Function *, 4> Clones;

  TypeInfo &Out;
  SmallVector<std::pair<const Value *, const Value *>, 8> Copies;
  SmallPtrSet<Function *, 8> Visited;
};

} // namespace

TypeInfo computeTypes(Function &F, unsigned Depth) {
  TypeInfo Info;
  TypeInference TI(Info);
  TI.visit(F, {}, Depth);
  TI.unifyCopies();
  TI.dropClones();
  return Info;
}

void TypeInfo::print(raw_ostream &OS, const Function &F) const {
  OS << "types of '" << F.getName() << "':\n";
  auto PrintRoot = [&](const Value *V, StringRef Label) {
    OS << "  " << Label << ": ";
    SmallVector<Type *, 4> Ts = typesAt(V);
    if (Ts.empty())
      OS << "unknown";
    for (unsigned I = 0; I < Ts.size(); ++I)
      OS << (I ? ", " : "") << *Ts[I];
    OS << "\n";
  };
  for (const Argument &A : F.args())
    if (A.getType()->isPointerTy())
      PrintRoot(&A, ("arg %" + A.getName()).str());
  for (const Instruction &I : instructions(F))
    if (I.getType()->isPointerTy() && root(&I) == &I)
      PrintRoot(&I, ("%" + I.getName()).str());
}

PreservedAnalyses TypePrinterPass::run(Function &F, FunctionAnalysisManager &) {
  if (!F.isDeclaration())
    computeTypes(F).print(OS, F);
  return PreservedAnalyses::all();
}

} // namespace tapestry
