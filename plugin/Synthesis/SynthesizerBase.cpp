//===- SynthesizerBase.cpp ------------------------------------------------===//
#include "Synthesis/SynthesizerBase.h"

#include "Core/Diagnostics.h"
#include "Synthesis/DerivativeRules.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tapestry {

SynthesizerBase::SynthesizerBase(const SynthesisInput &In)
    : R(In.Request), P(In.Primal), AI(In.Activity), Tape(In.Tape),
      LoopIVs(In.LoopIVs),
      Sig(computeSignature(In.Request)) {}

void SynthesizerBase::createFunction() {
  G = createDerivativeFunction(R, Sig, P, VMap);
  for (unsigned I = 0; I < P.arg_size(); ++I)
    if (Sig.ShadowArg[I] >= 0)
      Shadows[P.getArg(I)] = G->getArg(Sig.ShadowArg[I]);
}

Module &SynthesizerBase::module() const { return *P.getParent(); }

void SynthesizerBase::fail(const Instruction *PI, const Twine &Msg) {
  Failed = true;
  reportError(*R.Fn, PI, "cannot differentiate '" + R.Fn->getName() + "': " +
                             Msg);
}

Value *SynthesizerBase::primal(Value *PV) const {
  if (isa<Constant>(PV) || isa<MetadataAsValue>(PV) || isa<InlineAsm>(PV))
    return PV;
  Value *GV = VMap.lookup(PV);
  assert(GV && "primal value has no clone");
  return GV;
}

/// Strips casts between integer and pointer widths to find the value an
/// integer store writes.
static const Value *stripIntCasts(const Value *V) {
  while (auto *CI = dyn_cast<CastInst>(V))
    V = CI->getOperand(0);
  return V;
}

void SynthesizerBase::checkSupported(Instruction &PI) {
  auto Varied = [&](Value *V) { return AI.isVaried(V); };
  if (auto *SI = dyn_cast<StoreInst>(&PI)) {
    Value *Val = SI->getValueOperand();
    if (AI.hasShadow(SI->getPointerOperand()) &&
        Val->getType()->isIntegerTy() &&
        Val->getType()->getPrimitiveSizeInBits() >= 32)
      if (auto *LI = dyn_cast<LoadInst>(stripIntCasts(Val)))
        if (AI.hasShadow(LI->getPointerOperand()))
          fail(&PI, "this store copies memory that may hold floating-point "
                    "data as an integer; copy it as double or float, or use "
                    "memcpy");
    return;
  }
  if (auto *CB = dyn_cast<CallBase>(&PI)) {
    if (isa<DbgInfoIntrinsic>(CB) || isInactiveCall(*CB) || findCallRule(*CB) ||
        isAllocationCall(*CB) || isDeallocationCall(*CB) ||
        isa<MemIntrinsic>(CB))
      return;
    bool Touches = (AI.isVaried(CB) && AI.isActive(CB)) ||
                   any_of(CB->args(), [&](Value *A) {
                     return AI.isActive(A) || AI.hasShadow(A);
                   });
    if (!Touches)
      return;
    Function *Callee = CB->getCalledFunction();
    if (!Callee) {
      fail(&PI, "a call through a function pointer that is not known at "
                "compile time takes active arguments");
      return;
    }
    StringRef Name = Callee->getName();
    if (!Callee->isDeclaration()) {
      fail(&PI, "the call to '" + Name +
                    "' is recursive; recursive calls are not supported yet");
      return;
    }
    fail(&PI, "no derivative is known for external function '" + Name +
                  "': give its body, register one with 'void "
                  "*__enzyme_register_gradient_" +
                  Name + "[3] = {(void*)" + Name +
                  ", (void*)aug, (void*)rev};' or 'void "
                  "*__enzyme_register_derivative_" +
                  Name + "[2] = {(void*)" + Name +
                  ", (void*)fwd};', or declare it inactive with 'void "
                  "*__enzyme_inactivefn[] = {(void*)" +
                  Name + "};'");
    return;
  }
  if (isa<FCmpInst>(PI) || isa<FPToSIInst>(PI) || isa<FPToUIInst>(PI) ||
      isa<ReturnInst>(PI) || PI.isTerminator())
    return;
  if (!AI.isActive(&PI) && any_of(PI.operands(), Varied) &&
      !PI.getType()->isFPOrFPVectorTy() && !isa<SelectInst>(PI) &&
      !isa<PHINode>(PI) && !isa<StructType>(PI.getType()) &&
      !isa<ArrayType>(PI.getType()))
    fail(&PI, "the instruction '" + describe(&PI) +
                  "' reinterprets an active floating-point value; derivatives "
                  "cannot flow through bit manipulation");
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&PI))
    if (AI.hasShadow(RMW->getPointerOperand()))
      fail(&PI, "atomic read-modify-write of differentiable memory is not "
                "supported yet");
}

} // namespace tapestry
