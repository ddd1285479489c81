//===- KnownInlineAsm.cpp - Inline assembly with a known meaning ----------===//
//
// Implements KnownInlineAsm.h. Only statements whose text and constraints
// say exactly what they compute are rewritten: `vfmadd231p[ds]`/`s[ds]`
// `$1, $2, $0` with constraints `=x,x,x,0` (or `=v,v,v,0`), result and
// operands of one floating-point type. In AT&T order the instruction
// computes $0 = $2 * $1 + $0, and $0 is tied to the third input.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/KnownInlineAsm.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace tapestry {

/// True if \p Asm is `vfmadd231{pd,ps,sd,ss} $1, $2, $0` whose output is
/// tied to its third input, in a vector or SSE register.
static bool isFusedMultiplyAdd(const InlineAsm &Asm) {
  StringRef Text = StringRef(Asm.getAsmString()).trim();
  if (!Text.consume_front("vfmadd231") || Text.size() < 2 ||
      !StringRef("ps").contains(Text[0]) || !StringRef("sd").contains(Text[1]))
    return false;
  Text = Text.drop_front(2).trim();
  SmallVector<StringRef, 3> Ops;
  Text.split(Ops, ',');
  if (Ops.size() != 3 || Ops[0].trim() != "$1" || Ops[1].trim() != "$2" ||
      Ops[2].trim() != "$0")
    return false;
  StringRef Cons = Asm.getConstraintString();
  return Cons.starts_with("=x,x,x,0") || Cons.starts_with("=v,v,v,0");
}

bool lowerKnownInlineAsm(Function &F) {
  SmallVector<CallInst *, 8> Found;
  for (Instruction &I : instructions(F))
    if (auto *CI = dyn_cast<CallInst>(&I))
      if (auto *Asm = dyn_cast<InlineAsm>(CI->getCalledOperand());
          Asm && CI->arg_size() == 3 && isFusedMultiplyAdd(*Asm)) {
        Type *T = CI->getType();
        if (T->isFPOrFPVectorTy() &&
            all_of(CI->args(), [&](Value *A) { return A->getType() == T; }))
          Found.push_back(CI);
      }
  for (CallInst *CI : Found) {
    IRBuilder<> B(CI);
    Value *Fma = B.CreateIntrinsic(
        Intrinsic::fma, {CI->getType()},
        {CI->getArgOperand(0), CI->getArgOperand(1), CI->getArgOperand(2)});
    Fma->takeName(CI);
    if (auto *I = dyn_cast<Instruction>(Fma))
      I->setDebugLoc(CI->getDebugLoc());
    CI->replaceAllUsesWith(Fma);
    CI->eraseFromParent();
  }
  return !Found.empty();
}

} // namespace tapestry
