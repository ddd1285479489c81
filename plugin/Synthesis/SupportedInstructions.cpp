//===- SupportedInstructions.cpp - What Tapestry can differentiate --------===//
//
// The legality check both synthesizers run before differentiating (see the
// header). Every message says, in source terms, what to do instead.
//
//===----------------------------------------------------------------------===//
#include "Synthesis/SupportedInstructions.h"

#include "Analysis/TypeAnalysis.h"
#include "Core/AllocationFunctions.h"
#include "Core/AllocationLike.h"
#include "Core/BlasFunctions.h"
#include "Core/Diagnostics.h"
#include "Core/EntryPoints.h"
#include "Core/KnownInactive.h"
#include "Core/MPIFunctions.h"
#include "Core/OpenMPRuntime.h"
#include "Core/SourceTypes.h"
#include "Synthesis/DerivativeRules.h"
#include "Synthesis/IndirectCalls.h"
#include "Synthesis/SynthesizerBase.h"
#include "Synthesis/VectorRules.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/Debug.h"

using namespace llvm;

#define DEBUG_TYPE "tapestry"

STATISTIC(NumRejected, "Instructions rejected as not differentiable");

namespace tapestry {

void SupportedInstructions::fail(const Instruction *I, const Twine &Msg) {
  ++NumRejected;
  LLVM_DEBUG(dbgs() << "tapestry: cannot differentiate:" << *I << "\n");
  S.fail(I, Msg);
}

void SupportedInstructions::check(Instruction &I) {
  checkRuntimeConstantUse(I);
  if (checkVectors(I))
    visit(I);
  // __enzyme_error_estimate (forward mode): the calls the error model does
  // not describe. A call returning a pointer only gets a shadow, and an
  // OpenMP fork has its body estimated on its own.
  if (auto *CB = dyn_cast<CallBase>(&I);
      CB && S.R.ErrorEstimate && !CB->isTerminator() &&
      !CB->getType()->isPtrOrPtrVectorTy() && !isOpenMPForkCall(*CB))
    if (std::string Gap = errorModelGap(*CB); !Gap.empty())
      fail(CB, Gap);
}

//===----------------------------------------------------------------------===//
// Checks that apply to every instruction
//===----------------------------------------------------------------------===//

/// True if \p CB's callee is differentiated on its own (calleeRequest),
/// which tests at run time the pointer arguments this function cannot tell
/// constant, and those in memory they point to, up to
/// DiffRequest::MaxRuntimeActivityArgs parameters.
static bool testsRuntimeActivity(const CallBase &CB, const CustomRules &Rules,
                                 const Use &Arg) {
  const Function *Callee = CB.getCalledFunction();
  return Callee && !Callee->isDeclaration() && !Callee->isVarArg() &&
         !Rules.isOpaque(Callee) && !Rules.gradient(Callee) &&
         !Rules.forwardDerivative(Callee) &&
         !Rules.isDeclaredInactive(Callee) && !isOpenMPForkCall(CB) &&
         CB.isArgOperand(&Arg) &&
         CB.getArgOperandNo(&Arg) < DiffRequest::MaxRuntimeActivityArgs;
}

void SupportedInstructions::checkRuntimeConstantUse(Instruction &I) {
  const RuntimeActivity &RA = S.RA;
  if (RA.MaybeConstant.empty())
    return;
  // Where the pointer turns out constant, the stored value's derivative
  // has nowhere to go: fine for a constant output, wrong if read back, which
  // the derivative checks at run time (checkStoreThroughConstant).
  if (isa<StoreInst>(I))
    return;
  auto *CB = dyn_cast<CallBase>(&I);
  if (!CB || isa<DbgInfoIntrinsic>(CB) || CB->isLifetimeStartOrEnd() ||
      isInactiveCall(*CB, &S.Rules))
    return;
  // A gather tests each lane's shadow against its pointer itself
  // (Synthesis/VectorRules.cpp).
  auto *II = dyn_cast<IntrinsicInst>(CB);
  bool Gather = II && II->getIntrinsicID() == Intrinsic::masked_gather;
  // A deallocation frees its shadow only where the shadow is not the block
  // itself (ForwardModeSynthesizer::freeShadow, FreedShadows.h).
  bool Dealloc = isDeallocationCall(*CB);
  // memcpy, memmove and memset test both ends' shadows
  // (SynthesizerBase::bytesUnlessConstant).
  if (isa<MemIntrinsic>(CB))
    return;
  for (Use &A : CB->args())
    if (RA.mayBeConstant(A) && !(Gather && A.getOperandNo() == 0) &&
        !(Dealloc && A.get() == freedPointer(*CB)) &&
        !testsRuntimeActivity(*CB, S.Rules, A)) {
      fail(&I, "argument " + Twine(A.getOperandNo() + 1) +
                   " of this call is a pointer read from memory that also "
                   "holds pointers to constant data (enzyme_const or "
                   "global), so whether it "
                   "points to constant data is only known at run time, and "
                   "this call cannot test it; pass the constant data as "
                   "enzyme_dup with a zeroed shadow, or access it "
                   "element by element here");
      return;
    }
}

bool SupportedInstructions::checkVectors(Instruction &I) {
  const ActivityInfo &AI = S.AI;
  auto Varied = [&](Value *V) { return AI.isVaried(V); };
  auto Scalable = [](const Value *V) {
    return isa<ScalableVectorType>(V->getType());
  };
  if ((Scalable(&I) || any_of(I.operands(), Scalable)) &&
      (AI.isVaried(&I) || any_of(I.operands(), Varied))) {
    fail(&I, "scalable vectors (SVE, RVV) are not supported yet; compile "
             "without scalable vectorisation (-fno-vectorize, or "
             "fixed-width vectors with -msve-vector-bits=N)");
    return false;
  }
  return true;
}

static bool onlyFeedsComparisons(const Value *V, unsigned Depth,
                                 SmallPtrSetImpl<const Value *> &Seen);

/// True if memory \p Ptr points into holds keys only compared: a block the
/// function allocates (on the stack or the heap) whose every access,
/// through addresses computed from it (merged at most with null), is an
/// integer load whose value only feeds comparisons (or indexes, or is
/// stored into such memory again), an integer store, a copy or memset into
/// it, a release or a comparison of addresses. Sort keys made from
/// doubles' bits, kept in an array and moved about by a radix sort, so
/// never become floating-point values again.
static bool isKeyMemory(const Value *Ptr, unsigned Depth,
                        SmallPtrSetImpl<const Value *> &Seen);

static bool isKeyObject(const Value *Obj, unsigned Depth,
                        SmallPtrSetImpl<const Value *> &Seen) {
  auto *CB = dyn_cast<CallBase>(Obj);
  if (!isa<AllocaInst>(Obj) && !(CB && isAllocationCall(*CB)))
    return false;
  if (!Seen.insert(Obj).second)
    return true; // being checked further up
  SmallVector<const Value *, 8> Work{Obj};
  SmallPtrSet<const Value *, 16> Pointers{Obj};
  auto Follow = [&](const Value *D) {
    if (Pointers.insert(D).second)
      Work.push_back(D);
    return true;
  };
  while (!Work.empty()) {
    const Value *P = Work.pop_back_val();
    for (const User *U : P->users()) {
      bool Ok = false;
      if (auto *LI = dyn_cast<LoadInst>(U))
        Ok = LI->getType()->isIntegerTy() &&
             onlyFeedsComparisons(LI, Depth + 1, Seen);
      else if (auto *SI = dyn_cast<StoreInst>(U))
        Ok = SI->getPointerOperand() == P &&
             SI->getValueOperand()->getType()->isIntegerTy();
      else if (auto *GEP = dyn_cast<GetElementPtrInst>(U))
        Ok = GEP->getPointerOperand() == P && Follow(GEP);
      else if (isa<PHINode>(U) || isa<SelectInst>(U))
        // Merged with null or other key memory (a radix sort's two
        // buffers, swapped every pass).
        Ok = all_of(U->operands(),
                    [&](const Use &Op) {
                      return !Op->getType()->isPointerTy() ||
                             isa<ConstantPointerNull>(Op) ||
                             isKeyMemory(Op, Depth + 1, Seen);
                    }) &&
             Follow(U);
      else if (isa<ICmpInst>(U))
        Ok = true;
      else if (auto *MI = dyn_cast<MemIntrinsic>(U))
        Ok = MI->getRawDest() == P;
      else if (auto *II = dyn_cast<IntrinsicInst>(U))
        Ok = II->isLifetimeStartOrEnd();
      else if (auto *Call = dyn_cast<CallBase>(U))
        Ok = isDeallocationCall(*Call) && freedPointer(*Call) == P;
      if (!Ok)
        return false;
    }
  }
  return true;
}

static bool isKeyMemory(const Value *Ptr, unsigned Depth,
                        SmallPtrSetImpl<const Value *> &Seen) {
  if (Depth > 16)
    return false;
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects);
  return all_of(Objects, [&](const Value *Obj) {
    return isa<ConstantPointerNull>(Obj) || isKeyObject(Obj, Depth, Seen);
  });
}

/// True if the integer \p V is only compared (signbit(x) is a bitcast, a
/// shift or mask, and a compare), used as an index, kept in memory that
/// isKeyMemory, or reported by a sanitizer check (-fsanitize=undefined
/// passes an operand's bits to __ubsan_handle_float_cast_overflow): no
/// derivative flows through it.
static bool onlyFeedsComparisons(const Value *V, unsigned Depth,
                                 SmallPtrSetImpl<const Value *> &Seen) {
  if (Depth > 16)
    return false;
  if (!Seen.insert(V).second)
    return true; // a cycle of phis adds no other use
  return all_of(V->users(), [&](const User *U) {
    if (isa<ICmpInst>(U))
      return true;
    // An index (a radix sort's digit choosing a bucket): addresses carry
    // no derivative.
    if (auto *GEP = dyn_cast<GetElementPtrInst>(U);
        GEP && GEP->getPointerOperand() != V)
      return true;
    if (auto *SI = dyn_cast<StoreInst>(U))
      return SI->getValueOperand() == V &&
             isKeyMemory(SI->getPointerOperand(), Depth + 1, Seen);
    if (auto *Sel = dyn_cast<SelectInst>(U); Sel && Sel->getCondition() == V)
      return true;
    if (auto *CB = dyn_cast<CallBase>(U);
        CB && CB->getCalledFunction() &&
        isSanitizerCheck(CB->getCalledFunction()->getName()))
      return true;
    if (isa<BinaryOperator>(U) || isa<TruncInst>(U) || isa<ZExtInst>(U) ||
        isa<SExtInst>(U) || isa<FreezeInst>(U) || isa<PHINode>(U) ||
        isa<SelectInst>(U))
      return onlyFeedsComparisons(U, Depth + 1, Seen);
    return false;
  });
}

/// True if the integer \p V only decides comparisons: through integer
/// arithmetic, shifts, extensions, selects and phis, it reaches nothing but
/// icmp (a sort key made from a double's bits, `(u >> 63) ? ~u : u | sign`,
/// compared to choose an element). No derivative has to flow through it.
static bool onlyFeedsComparisons(const Value *V) {
  SmallPtrSet<const Value *, 16> Seen;
  return onlyFeedsComparisons(V, 0, Seen);
}

/// The pointer whose address the integer \p V is, through extensions and
/// offsets (`(intptr_t)p`, `(uintptr_t)p + 8 * i`, an alignment mask), or
/// null. A difference of two addresses (a std::vector's size) is not one.
static const Value *pointerBehindInteger(const Value *V, unsigned Depth = 0) {
  if (Depth > 8)
    return nullptr;
  if (auto *P2I = dyn_cast<PtrToIntInst>(V))
    return P2I->getPointerOperand();
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !I->getType()->isIntegerTy())
    return nullptr;
  if (isa<ZExtInst>(I) || isa<SExtInst>(I) || isa<TruncInst>(I))
    return pointerBehindInteger(I->getOperand(0), Depth + 1);
  auto *BO = dyn_cast<BinaryOperator>(I);
  if (!BO)
    return nullptr;
  Value *L = BO->getOperand(0), *R = BO->getOperand(1);
  switch (BO->getOpcode()) {
  case Instruction::Add: {
    const Value *PL = pointerBehindInteger(L, Depth + 1);
    const Value *PR = pointerBehindInteger(R, Depth + 1);
    return PL && PR ? nullptr : PL ? PL : PR;
  }
  case Instruction::Sub:
    return pointerBehindInteger(R, Depth + 1)
               ? nullptr
               : pointerBehindInteger(L, Depth + 1);
  case Instruction::And:
  case Instruction::Or:
    return isa<Constant>(R) ? pointerBehindInteger(L, Depth + 1) : nullptr;
  default:
    return nullptr;
  }
}

/// A pointer with a shadow inside the array or struct \p V, as far as the
/// insertvalue chain that built it shows, or \p V itself if it has a shadow;
/// null if none.
static const Value *shadowedPointerInAggregate(const Value *V,
                                               const ActivityInfo &AI) {
  if (!isa<ArrayType>(V->getType()) && !isa<StructType>(V->getType()))
    return nullptr;
  SmallVector<const Value *, 8> Work{V};
  SmallPtrSet<const Value *, 8> Seen;
  while (!Work.empty()) {
    const Value *X = Work.pop_back_val();
    if (!Seen.insert(X).second)
      continue;
    if (AI.hasShadow(X))
      return X;
    if (auto *IV = dyn_cast<InsertValueInst>(X)) {
      Work.push_back(IV->getAggregateOperand());
      Work.push_back(IV->getInsertedValueOperand());
    }
  }
  return nullptr;
}

/// What \p I does to an active floating-point value, in source terms: "a
/// double is reinterpreted as a long here".
static std::string reinterpretation(const Instruction &I) {
  Type *From = nullptr;
  for (const Value *Op : I.operands())
    if (Op->getType()->isFPOrFPVectorTy() ||
        (!From && !isa<Constant>(Op) && !isa<BasicBlock>(Op)))
      From = Op->getType();
  if (isa<CastInst>(I) && From && From->isFPOrFPVectorTy())
    return "a " + describe(From) + " is reinterpreted as a " +
           describe(I.getType()) + " here";
  return "an active floating-point value is reinterpreted as a " +
         describe(I.getType()) + " here";
}

/// The scalar member of \p T that starts at byte \p Off, or null.
static Type *scalarAt(Type *T, uint64_t Off, const DataLayout &DL) {
  if (auto *ST = dyn_cast<StructType>(T)) {
    const StructLayout *SL = DL.getStructLayout(ST);
    if (Off >= SL->getSizeInBytes())
      return nullptr;
    unsigned I = SL->getElementContainingOffset(Off);
    return scalarAt(ST->getElementType(I), Off - SL->getElementOffset(I), DL);
  }
  if (auto *AT = dyn_cast<ArrayType>(T)) {
    uint64_t E = DL.getTypeAllocSize(AT->getElementType());
    if (!E || Off >= E * AT->getNumElements())
      return nullptr;
    return scalarAt(AT->getElementType(), Off % E, DL);
  }
  return Off == 0 ? T : nullptr;
}

/// True if \p BC reinterprets, as integers, lanes of a vector load that
/// hold integers: lanes the load's floating-point uses never pick, that
/// are integer members of the structs the load reads (by their type in the
/// address computation), where nothing puts a float or double either (the
/// vectoriser reads the int member of structs {float f; double d; int k;
/// float g} with the same <24 x float> load as the floats, and picks it
/// out through a bitcast to <24 x i32>).
bool SupportedInstructions::readsIntegerLanes(BitCastInst &BC) {
  auto *L = dyn_cast<LoadInst>(BC.getOperand(0));
  if (!L || !isIntegerReinterpretation(BC))
    return false;
  std::optional<SmallBitVector> FloatLanes = lanesPicked(*L);
  std::optional<SmallBitVector> IntLanes = lanesPickedOf(BC);
  if (!FloatLanes || !IntLanes || FloatLanes->anyCommon(*IntLanes))
    return false;
  const DataLayout &DL = BC.getModule()->getDataLayout();
  auto *VT = cast<FixedVectorType>(L->getType());
  uint64_t Lane = DL.getTypeStoreSize(VT->getElementType());
  ByteLayout Layout =
      S.types().layoutAt(L->getPointerOperand(), Lane * VT->getNumElements());
  // Each lane picked as an integer is an integer member of the structs the
  // load reads, by their type in the address computation: the layout's
  // facts come partly from this bitcast itself, and a float member read
  // through it (a bit trick) holds an active float.
  auto *GEP = dyn_cast<GetElementPtrInst>(L->getPointerOperand());
  Type *Elt = GEP ? GEP->getResultElementType() : nullptr;
  while (auto *AT = dyn_cast_or_null<ArrayType>(Elt))
    Elt = AT->getElementType();
  auto *ST = dyn_cast_or_null<StructType>(Elt);
  if (!ST || ST->isOpaque())
    return false;
  uint64_t Size = DL.getTypeAllocSize(ST);
  for (unsigned I : IntLanes->set_bits()) {
    Type *Member = scalarAt(ST, (I * Lane) % Size, DL);
    if (!Member || !Member->isIntegerTy() ||
        DL.getTypeStoreSize(Member) != Lane)
      return false;
  }
  for (const ByteLayout::Part &P : Layout.floatParts()) {
    uint64_t Size = DL.getTypeStoreSize(P.T);
    for (unsigned I : IntLanes->set_bits()) {
      uint64_t Begin = I * Lane, End = Begin + Lane;
      auto Covers = [&](uint64_t Off) {
        return Off < End && Off + Size > Begin;
      };
      if (Covers(P.Offset) ||
          (Layout.Period &&
           any_of(seq<uint64_t>(0, End / Layout.Period + 1), [&](uint64_t K) {
             return Covers(P.Offset + K * Layout.Period);
           })))
        return false;
    }
  }
  return true;
}

void SupportedInstructions::checkBitManipulation(Instruction &I) {
  const ActivityInfo &AI = S.AI;
  if (auto *BC = dyn_cast<BitCastInst>(&I); BC && readsIntegerLanes(*BC))
    return;
  if (!AI.isActive(&I) &&
      any_of(I.operands(), [&](Value *V) { return AI.isVaried(V); }) &&
      !onlyFeedsComparisons(&I) && !I.getType()->isFPOrFPVectorTy() &&
      !isa<SelectInst>(I) && !isa<PHINode>(I) &&
      // An integer member of a struct holding doubles ({double, i32})
      // carries no derivative of its own.
      !isa<ExtractValueInst>(I) && !isa<StructType>(I.getType()) &&
      !isa<ArrayType>(I.getType())) {
    // clang makes an atomic update other than += and -= of a double
    // (#pragma omp atomic x *= v) a compare-exchange loop on its bits, and
    // libstdc++ std::atomic<double>'s compare_exchange a compare-exchange
    // (its fetch_add and fetch_sub loops are atomic adds,
    // Synthesis/AtomicFloatUpdates.h).
    if (any_of(I.users(),
               [](const User *U) { return isa<AtomicCmpXchgInst>(U); })) {
      if (I.getFunction()->getName().contains(".omp_outlined"))
        return fail(&I, "an atomic update of a floating-point value other "
                        "than += and -= (#pragma omp atomic x *= v, which "
                        "becomes a compare-exchange loop on its bits) cannot "
                        "be differentiated; use a reduction clause "
                        "(reduction(*:x)) or write the update under '#pragma "
                        "omp critical'");
      return fail(&I, "a compare-exchange of a floating-point value's bits "
                      "(std::atomic<double>::compare_exchange_weak or "
                      "_strong, or an atomic update other than += and -=) "
                      "cannot be differentiated; update the atomic with "
                      "fetch_add, fetch_sub, += or -=, or accumulate into a "
                      "plain double");
    }
    fail(&I, reinterpretation(I) +
                 "; derivatives cannot flow through bit manipulation (keep "
                 "the value as a floating-point number: fabs, copysign, "
                 "signbit)");
  }
}

/// True if the aggregate \p V, of a type that cannot carry a derivative,
/// may hold a value that depends on an active input: built from one, loaded
/// from memory with a shadow, or returned by a call that reads one.
static bool mayHoldVariedMember(const Value *V, const ActivityInfo &AI,
                                const CustomRules *Rules,
                                SmallPtrSetImpl<const Value *> &Seen) {
  if (!Seen.insert(V).second)
    return false;
  auto Any = [&](auto Range) {
    return any_of(Range, [&](const Value *Op) {
      return mayHoldVariedMember(Op, AI, Rules, Seen);
    });
  };
  if (auto *LI = dyn_cast<LoadInst>(V))
    return AI.hasShadow(LI->getPointerOperand());
  if (auto *CB = dyn_cast<CallBase>(V))
    return !isInactiveCall(*CB, Rules) &&
           any_of(CB->args(), [&](const Value *A) {
             return AI.isVaried(A) || AI.hasShadow(A);
           });
  if (auto *IV = dyn_cast<InsertValueInst>(V))
    return AI.isVaried(IV->getInsertedValueOperand()) ||
           mayHoldVariedMember(IV->getInsertedValueOperand(), AI, Rules,
                               Seen) ||
           mayHoldVariedMember(IV->getAggregateOperand(), AI, Rules, Seen);
  if (auto *EV = dyn_cast<ExtractValueInst>(V))
    return mayHoldVariedMember(EV->getAggregateOperand(), AI, Rules, Seen);
  if (auto *Phi = dyn_cast<PHINode>(V))
    return Any(Phi->incoming_values());
  if (auto *Sel = dyn_cast<SelectInst>(V))
    return Any(
        ArrayRef<const Value *>{Sel->getTrueValue(), Sel->getFalseValue()});
  if (auto *Fr = dyn_cast<FreezeInst>(V))
    return mayHoldVariedMember(Fr->getOperand(0), AI, Rules, Seen);
  return false;
}

void SupportedInstructions::checkUntrackedAggregate(ExtractValueInst &EV) {
  const ActivityInfo &AI = S.AI;
  Value *Agg = EV.getAggregateOperand();
  if (!isDifferentiableType(EV.getType()) || AI.isVaried(&EV) ||
      !AI.Useful.count(&EV) || isDifferentiableType(Agg->getType()))
    return;
  SmallPtrSet<const Value *, 8> Seen;
  if (!mayHoldVariedMember(Agg, AI, &S.Rules, Seen))
    return;
  fail(&EV, "a struct holding both floating-point values and pointers ('" +
                describe(Agg->getType()) +
                "') is passed by value here, and Tapestry cannot carry a "
                "derivative through such a value yet; pass the struct by "
                "pointer, or return its floating-point members through "
                "pointer arguments");
}

//===----------------------------------------------------------------------===//
// Instructions that carry derivatives
//===----------------------------------------------------------------------===//

void SupportedInstructions::visitInstruction(Instruction &I) {
  checkBitManipulation(I);
  if (S.AI.isActive(&I))
    fail(&I, "cannot differentiate the instruction '" + describe(&I) + "'");
}

void SupportedInstructions::checkRule(Instruction &I) {
  checkBitManipulation(I);
  if (!S.AI.isActive(&I))
    return;
  if (!findInstructionRule(I.getOpcode()))
    fail(&I, "cannot differentiate the instruction '" + describe(&I) + "'");
  else if (S.R.ErrorEstimate && !I.getType()->isFPOrFPVectorTy())
    fail(&I, "__enzyme_error_estimate has no model of the round-off error "
             "of '" +
                 describe(&I) + "'");
}

bool SupportedInstructions::mayHoldFloat(const Value *Ptr, Type *Loaded) {
  TypeInfo &Types = S.types();
  const DataLayout &DL = S.module().getDataLayout();
  ByteLayout L = Types.layoutAt(Ptr, DL.getTypeStoreSize(Loaded));
  if (!L.empty())
    return !L.floatParts().empty();
  SmallVector<Type *, 4> Held = Types.typesAt(Ptr);
  return Held.empty() ||
         any_of(Held, [](Type *T) { return T->isFPOrFPVectorTy(); });
}

bool SupportedInstructions::callersHoldFloat(const Value *Ptr, Type *Loaded) {
  const DataLayout &DL = S.module().getDataLayout();
  return !S.deepTypes()
              .layoutAt(Ptr, DL.getTypeStoreSize(Loaded))
              .floatParts()
              .empty();
}

/// True if \p I is an `and` with a constant that clears every mantissa bit
/// of the floating-point type \p FP, of the integer's width.
static bool keepsNoMantissa(const Instruction &I, Type *FP) {
  using namespace PatternMatch;
  const APInt *Mask = nullptr;
  if (I.getOpcode() != Instruction::And ||
      !match(&I, m_c_And(m_Value(), m_APInt(Mask))) ||
      Mask->getBitWidth() != FP->getScalarSizeInBits())
    return false;
  unsigned Mantissa =
      APFloat::semanticsPrecision(FP->getScalarType()->getFltSemantics()) - 1;
  return Mask->countr_zero() >= Mantissa;
}

void SupportedInstructions::checkFloatFromLoadedIntegers(BitCastInst &BC) {
  const ActivityInfo &AI = S.AI;
  if (!BC.getType()->isFPOrFPVectorTy() ||
      !BC.getSrcTy()->isIntOrIntVectorTy() || AI.isVaried(&BC) ||
      !AI.Useful.count(&BC))
    return;
  // Walk back through what moves integers unchanged to the loads, and
  // through bitwise operations and shifts (Changed) to loads of
  // floating-point bytes, or of integers as wide as the result: a double's
  // bits masked or shifted (the sign bit's operations are fabs, fneg and
  // copysign already: FloatBitOperations.h).
  SmallVector<std::pair<Value *, bool>, 8> Work{{BC.getOperand(0), false}};
  SmallPtrSet<Value *, 8> Seen;
  while (!Work.empty()) {
    auto [V, Changed] = Work.pop_back_val();
    if (!Seen.insert(V).second || Seen.size() > 64)
      continue;
    // The bitcast itself says the loaded bytes are floating-point data,
    // whatever other uses of the memory say.
    if (auto *LI = dyn_cast<LoadInst>(V)) {
      if (!AI.hasShadow(LI->getPointerOperand()))
        continue;
      if (!Changed)
        fail(&BC, "a floating-point value is rebuilt here from an integer "
                  "('" +
                      describe(BC.getSrcTy()) +
                      "') read from memory that has derivatives, and "
                      "derivatives cannot flow through integers; load the "
                      "value as double or float");
      else if (LI->getType()->isIntOrIntVectorTy() &&
               (mayHoldFloat(LI->getPointerOperand(), LI->getType()) ||
                LI->getType()->getPrimitiveSizeInBits() >=
                    BC.getType()->getScalarSizeInBits()))
        fail(&BC, "a floating-point value is made here from the bits of "
                  "floating-point data read as an integer ('" +
                      describe(LI->getType()) +
                      "') and changed by integer operations; derivatives "
                      "cannot flow through bit manipulation (keep the value "
                      "as a floating-point number: fabs, copysign, "
                      "signbit)");
      continue;
    }
    auto *I = dyn_cast<Instruction>(V);
    if (!I)
      continue;
    if (isa<InsertElementInst>(I) || isa<ShuffleVectorInst>(I) ||
        isa<PHINode>(I) || isa<FreezeInst>(I) || isa<BitCastInst>(I))
      for (Value *Op : I->operands())
        Work.push_back({Op, Changed});
    else if (auto *EE = dyn_cast<ExtractElementInst>(I))
      Work.push_back({EE->getVectorOperand(), Changed});
    else if (auto *Sel = dyn_cast<SelectInst>(I))
      Work.append(
          {{Sel->getTrueValue(), Changed}, {Sel->getFalseValue(), Changed}});
    else if (keepsNoMantissa(*I, BC.getType()))
      // The exponent (and sign) alone: a piecewise constant, whose
      // derivative 0 is exact (frexp's scale by the bits).
      continue;
    else if (I->isBitwiseLogicOp() || I->isShift() || isa<TruncInst>(I) ||
             isa<ZExtInst>(I))
      // Bits moved and masked, not integer arithmetic (2^k built from an
      // integer k as an exponent is no floating-point value's bits).
      for (Value *Op : I->operands())
        Work.push_back({Op, true});
  }
}

void SupportedInstructions::visitCastInst(CastInst &I) {
  checkBitManipulation(I);
  if (auto *BC = dyn_cast<BitCastInst>(&I))
    checkFloatFromLoadedIntegers(*BC);
  if (!S.AI.isActive(&I) || isa<FPExtInst>(I) || isa<FPTruncInst>(I))
    return;
  if (!S.R.ErrorEstimate)
    fail(&I, "cannot differentiate the conversion '" + describe(&I) + "'");
  else if (!I.getType()->isFPOrFPVectorTy())
    fail(&I, "__enzyme_error_estimate has no model of the round-off error "
             "of '" +
                 describe(&I) + "'");
  else
    fail(&I, "__enzyme_error_estimate has no model of the round-off error "
             "of the conversion '" +
                 describe(&I) + "'");
}

void SupportedInstructions::visitLoadInst(LoadInst &LI) {
  checkBitManipulation(LI);
  if (isCopyLoad(LI))
    checkSharedCopy(LI, LI.getPointerOperand());
}

void SupportedInstructions::visitMemTransferInst(MemTransferInst &MT) {
  visitCallBase(MT);
  checkSharedCopy(MT, MT.getSource());
}

void SupportedInstructions::checkSharedCopy(Instruction &I, Value *Src) {
  // Adjoints other threads may add to at the same time go in with atomic
  // adds (reverseLoad); these other ways of adding would race.
  if (S.R.Mode == DiffMode::Reverse && S.R.Parallel && S.AI.hasShadow(Src) &&
      S.isSharedMemory(Src))
    fail(&I, "inside an OpenMP parallel region, this copy of shared memory "
             "would add derivatives that other threads add to at the same "
             "time; copy the data element by element as double or float");
}

void SupportedInstructions::visitIndirectBrInst(IndirectBrInst &I) {
  fail(&I, "a computed goto (goto *p, with label addresses &&label) cannot "
           "be differentiated: the derivative has its own copies of the "
           "function's labels; write the jumps as a switch");
}

void SupportedInstructions::visitAtomicRMWInst(AtomicRMWInst &RMW) {
  checkBitManipulation(RMW);
  if (S.AI.hasShadow(RMW.getPointerOperand()) &&
      RMW.getType()->isFPOrFPVectorTy() &&
      RMW.getOperation() != AtomicRMWInst::FAdd &&
      RMW.getOperation() != AtomicRMWInst::FSub)
    fail(&RMW, "atomic read-modify-write of differentiable memory is not "
               "supported yet except += and -= (#pragma omp atomic x += "
               "v); write the update under '#pragma omp critical'");
}

//===----------------------------------------------------------------------===//
// Stores
//===----------------------------------------------------------------------===//

/// Strips casts between integer and pointer widths to find the value an
/// integer store writes.
static const Value *stripIntCasts(const Value *V) {
  while (auto *CI = dyn_cast<CastInst>(V))
    V = CI->getOperand(0);
  return V;
}

const LoadInst *
SupportedInstructions::floatLoadBehindChoice(const Value *Choice) {
  SmallVector<const Value *, 8> Work{Choice};
  SmallPtrSet<const Value *, 8> Seen;
  while (!Work.empty()) {
    const Value *V = stripIntCasts(Work.pop_back_val());
    if (!Seen.insert(V).second)
      continue;
    if (auto *Sel = dyn_cast<SelectInst>(V)) {
      Work.push_back(Sel->getTrueValue());
      Work.push_back(Sel->getFalseValue());
    } else if (auto *MM = dyn_cast<MinMaxIntrinsic>(V)) {
      Work.push_back(MM->getLHS());
      Work.push_back(MM->getRHS());
    } else if (auto *Phi = dyn_cast<PHINode>(V)) {
      append_range(Work, Phi->incoming_values());
    } else if (auto *LI = dyn_cast<LoadInst>(V);
               LI && S.AI.hasShadow(LI->getPointerOperand()) &&
               (mayHoldFloat(LI->getPointerOperand(), LI->getType()) ||
                callersHoldFloat(LI->getPointerOperand(), LI->getType()))) {
      return LI;
    }
  }
  return nullptr;
}

/// The integer load of a floating-point value's bytes that integer \p V is
/// computed from, through integer arithmetic, casts, phis and selects, or
/// null.
const LoadInst *SupportedInstructions::floatBitsBehind(const Value *V,
                                                       unsigned Depth) {
  if (Depth > 8)
    return nullptr;
  if (auto *LI = dyn_cast<LoadInst>(V))
    return S.AI.hasShadow(LI->getPointerOperand()) &&
                   mayHoldFloat(LI->getPointerOperand(), LI->getType())
               ? LI
               : nullptr;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !I->getType()->isIntOrIntVectorTy() ||
      !(isa<BinaryOperator>(I) || isa<CastInst>(I) || isa<PHINode>(I) ||
        isa<SelectInst>(I) || isa<FreezeInst>(I)))
    return nullptr;
  for (const Use &Op : I->operands())
    if (!isa<Constant>(Op) && Op->getType()->isIntOrIntVectorTy() &&
        !(isa<SelectInst>(I) && Op.getOperandNo() == 0))
      if (const LoadInst *L = floatBitsBehind(Op, Depth + 1))
        return L;
  return nullptr;
}

/// True if \p LI reads an integer member of a struct (not a union) by the
/// front end's own address computation: a GEP of the struct's type
/// selecting a member of \p LI's type. (At -O0 clang emits no TBAA; the
/// struct types of its GEPs say what each member is declared as.)
static bool readsIntegerMember(const LoadInst &LI) {
  auto *GEP = dyn_cast<GetElementPtrInst>(LI.getPointerOperand());
  auto *ST = GEP ? dyn_cast<StructType>(GEP->getSourceElementType()) : nullptr;
  if (!ST || GEP->getNumIndices() < 2 ||
      (ST->hasName() && ST->getName().starts_with("union.")))
    return false;
  return LI.getType()->isIntegerTy() &&
         GEP->getResultElementType() == LI.getType();
}

/// True if \p LI reads memory declared as an integer: TBAA's tag, or
/// without one, a struct's integer member (readsIntegerMember).
static bool readsDeclaredInteger(const LoadInst &LI) {
  if (Type *Declared = tbaaAccessType(LI))
    return Declared->isIntegerTy();
  return readsIntegerMember(LI);
}

/// True if \p BO counts: a load the front end tagged as an integer's
/// (TBAA `long`) plus or minus another integer that carries no float's
/// bits (or is read as a declared integer too), as a std::list's element
/// count is updated (++, or += the number of nodes inserted, or another
/// list's count) in a header the type analysis merges with the nodes
/// holding doubles (an iterator may reach either). Under strict aliasing
/// no double is read there; a double's bits flipped or masked (xor, and,
/// or), or moved through a union or memcpy (whose accesses carry char's
/// tag), are not counts. Without TBAA (-O0), a struct's integer member
/// updated in place (stored back where it was read) counts: C++ code
/// reads a double's bits only through a union or memcpy, and adding to
/// them in place is not a computation any program differentiates.
bool SupportedInstructions::isCountUpdate(const BinaryOperator &BO) {
  if (BO.getOpcode() != Instruction::Add && BO.getOpcode() != Instruction::Sub)
    return false;
  for (unsigned I = 0; I < 2; ++I) {
    auto *LI = dyn_cast<LoadInst>(BO.getOperand(I));
    if (!LI)
      continue;
    bool Declared = false;
    if (Type *Tag = tbaaAccessType(*LI))
      Declared = Tag->isIntegerTy();
    else
      Declared =
          readsIntegerMember(*LI) && any_of(BO.users(), [&](const User *U) {
            auto *SI = dyn_cast<StoreInst>(U);
            return SI && SI->getValueOperand() == &BO &&
                   SI->getPointerOperand() == LI->getPointerOperand();
          });
    if (!Declared)
      continue;
    const LoadInst *Bits = floatBitsBehind(BO.getOperand(1 - I), 0);
    if (!Bits || readsDeclaredInteger(*Bits))
      return true;
  }
  return false;
}

void SupportedInstructions::visitStoreInst(StoreInst &SI) {
  const ActivityInfo &AI = S.AI;
  Value *Val = SI.getValueOperand();
  if (Val->getType()->isPtrOrPtrVectorTy() && !AI.hasShadow(Val) &&
      AI.hasShadow(SI.getPointerOperand()))
    checkShadowlessPointerStore(SI);
  if (!AI.hasShadow(SI.getPointerOperand()) ||
      !Val->getType()->isIntOrIntVectorTy() ||
      Val->getType()->getPrimitiveSizeInBits() < 32)
    return;
  // A double's bits changed by integer arithmetic (a sign flipped by xor)
  // and stored where they may be read as a double again: the store would
  // carry no derivative (review 38: half the gradient, no error). Keys only
  // compared are fine (isKeyMemory).
  if (auto *BO = dyn_cast<BinaryOperator>(Val); BO && !isCountUpdate(*BO)) {
    SmallPtrSet<const Value *, 16> Seen;
    if (const LoadInst *Bits = floatBitsBehind(BO, 0);
        Bits && !isKeyMemory(SI.getPointerOperand(), 0, Seen))
      return fail(BO, reinterpretation(*BO) +
                          "; derivatives cannot flow through bit "
                          "manipulation (keep the value as a "
                          "floating-point number: fabs, copysign, "
                          "signbit)");
  }
  // A choice among integers loaded on different paths (phis, selects) is
  // not a copy the reverse sweep follows: the bytes' adjoints would stay
  // behind (PrimalPreparation stores doubles where the bytes are also read
  // as one).
  const Value *Stripped = stripIntCasts(Val);
  if (isa<PHINode>(Stripped) || isa<SelectInst>(Stripped) ||
      isa<MinMaxIntrinsic>(Stripped)) {
    if (const LoadInst *Leaf = floatLoadBehindChoice(Stripped))
      fail(&SI, "this store copies memory that may hold floating-point data "
                "as an integer ('" +
                    describe(Leaf->getType()) +
                    "') chosen among values read on different paths; copy "
                    "it as double or float, or use memcpy on each path");
    return;
  }
  auto *LI = dyn_cast<LoadInst>(Stripped);
  if (!LI || !AI.hasShadow(LI->getPointerOperand()))
    return;
  // An integer load whose every use stores it unchanged only moves bytes
  // (an aggregate copy emitted as i64 or <2 x i64>, a union's integer
  // member): the shadow bytes move with them, and the reverse sweep moves
  // the adjoints of the floating-point parts (reverseStore).
  if (LI == Val && isCopyLoad(*LI))
    return;
  // Otherwise the integer is converted or computed with: only memory known
  // to hold no floating-point data there carries no derivative (an iterator
  // or a vector's bounds).
  if (mayHoldFloat(LI->getPointerOperand(), LI->getType()))
    fail(&SI, "this store copies memory that may hold floating-point "
              "data as an integer; copy it as double or float, or use "
              "memcpy");
}

/// A pointer without a shadow (an enzyme_const argument, a global table)
/// stored into memory that has one gets itself as its shadow, the marker of
/// a constant pointer (Analysis/RuntimeActivity.h); every read of it in this
/// function tests for the marker. A callee differentiated on its own that
/// may read the memory would not: rejected, with what to do. Where the
/// memory goes cannot always be seen (a table filled through a pointer
/// advanced in a loop, a vector's storage): any callee argument that may
/// point to the same memory counts as a reader.
void SupportedInstructions::checkShadowlessPointerStore(StoreInst &SI) {
  const ActivityInfo &AI = S.AI;
  Value *Val = SI.getValueOperand();
  if (isa<ConstantPointerNull>(Val) || isa<UndefValue>(Val))
    return; // its shadow is itself
  // A function's address is its own shadow too, in every function: no
  // derivative goes through it, and calls through it are dispatched on the
  // primal pointer (Synthesis/IndirectCalls.h).
  if (isa<Function>(Val->stripPointerCasts()))
    return;
  // Integer data has nothing to differentiate behind it: an array of
  // integers (read at a variable index). What this function reads of a
  // struct (its size fields) says nothing of the fields only the callee
  // reads (its data pointer).
  SmallVector<Type *, 4> Held = S.types().typesAt(Val);
  if (!Held.empty() && S.types().layoutAt(Val, 0).Period != 0 &&
      none_of(Held, [](Type *T) {
        return T->isFPOrFPVectorTy() || T->isPointerTy();
      }))
    return;
  SmallVector<const Value *, 4> Stored = S.RA.roots(SI.getPointerOperand());
  const CallBase *Reader = nullptr;
  for (Instruction &I : instructions(S.P)) {
    auto *CB = dyn_cast<CallBase>(&I);
    Function *Callee = CB ? CB->getCalledFunction() : nullptr;
    if (Callee && !Callee->isDeclaration() && !S.Rules.isOpaque(Callee) &&
        any_of(CB->args(), [&](Use &A) {
          return A->getType()->isPointerTy() && AI.hasShadow(A) &&
                 !testsRuntimeActivity(*CB, S.Rules, A) &&
                 mayShareObject(S.RA.roots(A), Stored);
        })) {
      Reader = CB;
      break;
    }
  }
  if (!Reader)
    return;
  fail(&SI, describe(Val->stripPointerCasts()) +
                " has no shadow (it is constant) but is stored into memory "
                "that has one, which '" +
                sourceName(*Reader->getCalledFunction()) +
                "', differentiated on its own, reads: it cannot tell the "
                "pointer is constant. Pass it as enzyme_dup with a zeroed "
                "shadow (a global table: copy it into an array passed that "
                "way)");
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

void SupportedInstructions::visitCallBase(CallBase &CB) {
  const ActivityInfo &AI = S.AI;
  const CustomRules &Rules = S.Rules;
  const DiffRequest &R = S.R;
  if (!S.checkOpenMPCall(CB) || isOpenMPForkCall(CB))
    return;
  Function *Known = CB.getCalledFunction();
  if (Known && R.Mode == DiffMode::Forward && Rules.forwardDerivative(Known))
    return;
  if (Known && R.Mode == DiffMode::Reverse && Rules.gradient(Known)) {
    // A registered reverse takes a seed only for a floating-point result
    // (CustomSignatures.cpp): a struct's would be dropped.
    if (!CB.getType()->isFPOrFPVectorTy() && AI.isActive(&CB))
      fail(&CB, "'" + sourceName(*Known) +
                    "' has a registered gradient but returns a struct by "
                    "value, whose adjoint a registered reverse cannot "
                    "receive; register the gradient of a function that "
                    "returns its floating-point result as a double, or "
                    "through a pointer argument");
    return;
  }
  if (R.Mode == DiffMode::Reverse && CB.hasMetadata("tapestry.realloc") &&
      AI.hasShadow(CB.getArgOperand(0)))
    if (auto *A = dyn_cast<Argument>(getUnderlyingObject(CB.getArgOperand(0))))
      fail(&CB, "realloc of " + describe(A) +
                    ", which the caller passed with a shadow: the "
                    "derivative with respect to its old contents would be "
                    "left in the caller's shadow buffer, which is freed "
                    "with it; copy the data into a buffer the function "
                    "allocates (malloc and memcpy) and realloc that");
  // setjmp: a longjmp back into the differentiated code skips the reverse
  // of everything that ran before it. (A longjmp alone leaves the whole
  // derivative, as exit does: no number comes out of it.)
  if (R.Mode == DiffMode::Reverse && CB.hasFnAttr(Attribute::ReturnsTwice))
    return fail(&CB, "setjmp and longjmp cannot be differentiated in reverse "
                     "mode: a longjmp out of the code being differentiated "
                     "skips the reverse sweep of what ran before it; return "
                     "an error code instead (forward mode, __enzyme_fwddiff, "
                     "differentiates it)");
  if (Known && Rules.isDeclaredInactive(Known))
    return S.checkInactiveDeclaredCall(CB);
  if (Known && scanfFormatArg(Known->getName()) >= 0)
    return checkScanfCall(CB);
  // A pointer with a shadow passed as an integer (intptr_t) to a function
  // differentiated as a call: the callee gets shadows for its pointer
  // parameters only, so what it reads through the integer would carry no
  // derivative (review 37: a gradient of 0).
  if (Known && !Known->isDeclaration())
    for (Value *A : CB.args())
      if (const Value *P = pointerBehindInteger(A); P && AI.hasShadow(P))
        return fail(&CB, "a pointer to memory with derivatives, " +
                             describe(P) + ", is passed to '" +
                             sourceName(*Known) +
                             "' as an integer, and Tapestry gives a called "
                             "function the shadows of its pointer "
                             "parameters only; pass it as a pointer "
                             "(double *)");
  // Pointers with shadows inside an array or struct passed by value (a
  // batch forward derivative's per-lane shadows, [W x ptr], handed to its
  // recursive call, differentiated again): as for integers, the callee
  // would get no shadows for them (review 38: a wrong gradient).
  if (Known && !Known->isDeclaration())
    for (Value *A : CB.args())
      if (const Value *P = shadowedPointerInAggregate(A, AI))
        return fail(&CB, "a pointer to memory with derivatives, " +
                             describe(P) + ", is passed to '" +
                             sourceName(*Known) +
                             "' inside an array or struct, and Tapestry "
                             "gives a called function the shadows of its "
                             "pointer parameters only; pass it as a pointer "
                             "parameter (a batch derivative, enzyme_width, "
                             "of a recursive function cannot be "
                             "differentiated again: use width-1 "
                             "derivatives there)");
  // Calls the synthesizers differentiate by their own rules: the
  // derivative table, allocation, vector and BLAS rules, ...
  if (isa<DbgInfoIntrinsic>(CB) || isInactiveCall(CB, &Rules) ||
      S.ruleFor(CB) || isAllocationCall(CB) || isOutParamAllocation(CB) ||
      isShadowMirrorCall(CB) || isDeallocationCall(CB) ||
      isa<MemIntrinsic>(CB) || isVectorRuleCall(CB) || isBlasCall(CB) ||
      isMPICall(CB))
    return;
  // Memory known to hold only integers (a local char buffer) carries no
  // derivative whatever the call does with it.
  auto HoldsOnlyIntegers = [&](Value *A) {
    SmallVector<Type *, 4> Held = S.types().typesAt(A);
    return !Held.empty() &&
           all_of(Held, [](Type *T) { return T->isIntegerTy(); });
  };
  bool Touches =
      (AI.isVaried(&CB) && AI.isActive(&CB)) ||
      any_of(CB.args(), [&](Value *A) {
        return AI.isActive(A) || (AI.hasShadow(A) && !HoldsOnlyIntegers(A));
      });
  if (!Touches)
    return checkCallReachingEscapedShadows(CB);
  Function *Callee = CB.getCalledFunction();
  if (CB.isInlineAsm()) {
    fail(&CB, "an inline assembly statement (asm) takes or gives active "
              "values, and Tapestry cannot differentiate assembly; write "
              "the computation in C, or move the asm into a function and "
              "register its derivative (__enzyme_register_gradient_NAME / "
              "__enzyme_register_derivative_NAME)");
    return;
  }
  if (Callee && Callee->isVarArg() && !Callee->isDeclaration() &&
      !Rules.isOpaque(Callee)) {
    std::string Shown = sourceName(*Callee);
    fail(&CB, "'" + Shown +
                  "' takes a variable number of arguments (...) and is "
                  "called with active values; Tapestry cannot "
                  "differentiate va_arg yet: pass the values in an array "
                  "(const double *) or as fixed parameters, or register "
                  "a derivative for '" +
                  Shown +
                  "' (if it only prints or logs them, declare it inactive: "
                  "__enzyme_inactivefn or __attribute__((enzyme_inactive)))");
    return;
  }
  if (!Callee)
    return checkIndirectCall(CB);
  checkExternalCall(CB, *Callee);
}

/// A scanf-family call stores numbers with derivative zero where its
/// format says (Core/ConstantOutParams.h); where the format cannot be read,
/// an argument into differentiated memory might receive a float or a
/// double whose derivative would be left as it was.
void SupportedInstructions::checkScanfCall(CallBase &CB) {
  SmallVector<ConstantOut, 4> Outs;
  if (constantOutParams(CB, Outs))
    return;
  int FormatArg = scanfFormatArg(CB.getCalledFunction()->getName());
  for (unsigned K = FormatArg + 1; K < CB.arg_size(); ++K) {
    Value *A = CB.getArgOperand(K);
    if (!A->getType()->isPointerTy() || !S.AI.hasShadow(A))
      continue;
    SmallVector<Type *, 4> Held = S.types().typesAt(A);
    if (!Held.empty() && all_of(Held, [](Type *T) { return T->isIntegerTy(); }))
      continue;
    fail(&CB, "this call to '" +
                  scanfSourceName(CB.getCalledFunction()->getName()).str() +
                  "' reads numbers into differentiated memory with a format "
                  "that is not a string literal Tapestry can read (it must "
                  "know which arguments receive a float or a double: their "
                  "derivative becomes zero); write the format as a string "
                  "literal");
    return;
  }
}

/// True if \p CB calls the target a std::function holds (its invoker,
/// loaded from the object).
static bool callsThroughStdFunction(const CallBase &CB) {
  auto *Target = dyn_cast<LoadInst>(CB.getCalledOperand());
  auto *GEP =
      Target ? dyn_cast<GEPOperator>(Target->getPointerOperand()) : nullptr;
  auto *ST = GEP ? dyn_cast<StructType>(GEP->getSourceElementType()) : nullptr;
  return ST && ST->hasName() &&
         (ST->getName().contains("std::function") ||
          ST->getName().contains("std::_Function_base"));
}

void SupportedInstructions::checkIndirectCall(CallBase &CB) {
  if (isUnknownCalleeFallback(CB)) {
    S.stopAtUnknownCallee(CB);
    return;
  }
  // A virtual call loads its target from the vtable, itself loaded from
  // the object (clang marks it !invariant.load when optimising).
  auto *Target = dyn_cast<LoadInst>(CB.getCalledOperand());
  bool Virtual =
      Target &&
      (Target->hasMetadata(LLVMContext::MD_invariant_load) ||
       isa<LoadInst>(
           Target->getPointerOperand()->stripInBoundsConstantOffsets()));
  size_t Seen = indirectCallCandidates(S.module(), CB.getFunctionType()).size();
  std::string Why =
      Seen == 0 ? " no function of its type has its address taken in "
                  "this file (Tapestry differentiates such a call by "
                  "dispatching on the pointer over the functions it "
                  "may hold)"
      : Seen > maxIndirectCandidates()
          ? " " + std::to_string(Seen) +
                " functions of its type have their address taken in "
                "this file, more than Tapestry dispatches over (-mllvm "
                "-tapestry-max-indirect-candidates=N)"
          : " Tapestry cannot dispatch it over the functions it may "
            "hold (a call that may throw to a handler here, or a "
            "musttail call)";
  // Too many candidates: they are all here already.
  std::string Raise =
      "; raise the limit to " + std::to_string(Seen) +
      " (-mllvm -tapestry-max-indirect-candidates=" + std::to_string(Seen) +
      ")";
  bool TooMany = Seen > maxIndirectCandidates();
  if (Virtual)
    fail(&CB, "this virtual call takes active arguments, and" + Why +
                  (TooMany ? Raise + ", or call the method non-virtually "
                                     "(Class::method)"
                           : "; define the classes that implement it in "
                             "this file, or call the method non-virtually "
                             "(Class::method)"));
  else
    fail(&CB, "a call through a function pointer takes active "
              "arguments, and" +
                  Why +
                  (TooMany ? Raise
                   : callsThroughStdFunction(CB)
                       ? "; define the callable in this file, or take "
                         "it as a template parameter, template <class "
                         "F> ... (F f), so that the call is direct"
                       : "; define the functions it may call in this "
                         "file"));
}

void SupportedInstructions::checkExternalCall(CallBase &CB, Function &Callee) {
  // An entry point still called here is a derivative request that was
  // refused, with its own error: asking for a derivative of the entry
  // point itself would only add noise.
  if (classifyEntryPoint(Callee.getName()) != EntryPoint::None &&
      anyErrorReportedIn(*CB.getModule())) {
    S.Failed = true;
    return;
  }
  std::string Shown = sourceName(Callee);
  std::string Suffix = registrationSuffix(Callee);
  if (StringRef Like = S.Rules.functionLike(&Callee); !Like.empty()) {
    fail(&CB, "'" + Shown + "' is registered as like '" + Like.str() +
                  "' (__enzyme_function_like), a function Tapestry has no "
                  "derivative rule for; name a math function it computes, "
                  "or register its derivative (__enzyme_register_gradient_" +
                  Suffix + ", __enzyme_register_derivative_" + Suffix + ")");
    return;
  }
  if (S.Rules.isOpaque(&Callee)) {
    fail(&CB, "'" + Shown + "' has a registered " +
                  (S.R.Mode == DiffMode::Forward
                       ? "gradient but no forward derivative; register "
                         "one with __enzyme_register_derivative_" +
                             Suffix
                       : "forward derivative but no gradient; register "
                         "one with __enzyme_register_gradient_" +
                             Suffix));
    return;
  }
  if (!Callee.isDeclaration()) {
    // Differentiated on its own (calleeRequest), which returns the shadow
    // of a pointer it returns, but not that of a pointer member of a struct
    // it returns ({ptr, T}): what the caller reads through the pointer
    // would count as constant.
    auto NeedsShadow = [&](const Value *P) {
      return S.AI.hasShadow(P) || mayReachDifferentiableData(P);
    };
    bool MemberNeedsShadow =
        isa<StructType>(CB.getType()) && any_of(CB.users(), [&](const User *U) {
          return isa<ExtractValueInst>(U) && U->getType()->isPointerTy() &&
                 NeedsShadow(U);
        });
    if ((CB.getType()->isPointerTy() && NeedsShadow(&CB) &&
         !returnsShadowedPointer(CB, &S.Rules)) ||
        MemberNeedsShadow)
      fail(&CB, "the call to '" + Shown +
                    "' stays a call (it is recursive) and returns a pointer "
                    "that may lead to differentiable data, but Tapestry's "
                    "derivative of such a call does not return the "
                    "pointer's shadow yet, so what is read through it "
                    "would count as constant; return the data through an "
                    "argument (or an index) instead");
    return;
  }
  if (std::string Hint = vectorLibraryHint(Callee); !Hint.empty())
    return fail(&CB, Hint);
  if (StringRef Blas = unsupportedBlasRoutine(Callee.getName()); !Blas.empty())
    return fail(&CB,
                "'" + Shown + "' is a BLAS/LAPACK routine (" + Blas +
                    ") Tapestry has no derivative for yet (it has dot, "
                    "axpy, scal, copy, nrm2, gemv, gemm, symv, spmv, trmv, "
                    "trsv, double and single, CBLAS and Fortran); register "
                    "a derivative for it with __enzyme_register_gradient_" +
                    Suffix + " or __enzyme_register_derivative_" + Suffix);
  if (isUnsupportedMPIFunction(Callee.getName())) // Core/MPIFunctions.h
    return fail(&CB, "'" + Shown + "' is an MPI routine " + mpiSupportNote());
  // Strict floating-point arithmetic: each operation a constrained
  // intrinsic with its rounding mode and exception behaviour.
  if (Callee.getName().starts_with("llvm.experimental.constrained."))
    return fail(&CB,
                "'" + Callee.getName().str() +
                    "' is arithmetic under strict floating-point semantics "
                    "(-ffp-model=strict, -frounding-math, "
                    "-ffp-exception-behavior=maytrap or strict, or #pragma "
                    "STDC FENV_ACCESS ON), which Tapestry does not "
                    "differentiate yet; compile the differentiated code "
                    "without these options, or keep the pragma out of it");
  // An intrinsic has no C name to register a derivative under.
  if (Callee.isIntrinsic())
    return fail(&CB, "the LLVM intrinsic '" + Callee.getName().str() +
                         "' (what the compiler made of a builtin: an x86 "
                         "vector intrinsic such as _mm256_max_pd, a "
                         "coroutine, ...) has no derivative in Tapestry, and "
                         "no C name to register one under; write that step "
                         "in plain C or C++ arithmetic (std::max, a loop the "
                         "compiler vectorises), or move it out of the "
                         "differentiated code");
  std::string Address = functionPointerText(Callee);
  fail(&CB, "no derivative is known for external function '" + Shown +
                "': give its body, register one with 'void "
                "*__enzyme_register_gradient_" +
                Suffix + "[3] = {" + Address +
                ", (void*)aug, (void*)rev};' or 'void "
                "*__enzyme_register_derivative_" +
                Suffix + "[2] = {" + Address +
                ", (void*)fwd};', or, only if nothing it returns or "
                "writes depends on differentiated values (it only prints "
                "or checks them), declare it inactive with 'void "
                "*__enzyme_inactivefn[] = {" +
                Address +
                "};'; if another file of the program defines it, compile "
                "every file and link with -flto and the plugin "
                "(docs/multi-file-lto.md)");
}

/// How other files reach a file-local global whose address left at
/// \p Published: " (its address is returned by 'get' (line N))", or "".
static std::string publishedBy(const Instruction *Published) {
  if (!Published)
    return "";
  if (isa<ReturnInst>(Published))
    return " (its address is returned by '" +
           sourceName(*Published->getFunction()) + "'" + atLine(Published) +
           ")";
  return " (its address leaves in '" + sourceName(*Published->getFunction()) +
         "'" + atLine(Published) + ")";
}

void SupportedInstructions::checkCallReachingEscapedShadows(CallBase &CB) {
  if (!mayChangeEscapedMemory(CB))
    return;
  if (!Escaped)
    Escaped = std::make_unique<EscapedShadows>(S.P, S.AI);
  const ShadowEscape *E = Escaped->reachedBy(CB);
  if (!E)
    return;
  // Through a pointer that may hold a function of another file: stop
  // there at run time, as for a call that takes active arguments.
  if (!CB.getCalledFunction())
    return S.stopAtUnknownCallee(CB);
  Function &Callee = *CB.getCalledFunction();
  std::string Shown = sourceName(Callee);
  std::string Line = E->Where ? atLine(E->Where) : std::string();
  std::string How;
  if (isa<GlobalVariable>(E->Object))
    How = "the global '" + describe(E->Object) +
          "', which other files can reach" + publishedBy(E->Published) +
          ", holds derivatives" +
          (E->Where ? " stored into it" + Line : std::string());
  else
    How = describe(E->Object) +
          ", which holds derivatives, became reachable from other files" +
          (E->Where == E->Object ? " (it has too many uses to follow)"
           : isa_and_nonnull<StoreInst>(E->Where)
               ? " when its address was stored" + Line
           : isa_and_nonnull<CallBase>(E->Where)
               ? " when its address was passed to a call" + Line
               : Line);
  fail(&CB, "'" + Shown + "' has no body in this file and is called while " +
                How +
                ": what it writes there, or returns from there, would get "
                "no derivative; give its body (or compile with -flto), "
                "register its derivative (__enzyme_register_gradient_" +
                registrationSuffix(Callee) +
                "), or, if it does not touch that memory, declare it "
                "inactive with 'void *__enzyme_inactivefn[] = {" +
                functionPointerText(Callee) + "};'");
}

std::string SupportedInstructions::errorModelGap(CallBase &CB) const {
  const ActivityInfo &AI = S.AI;
  bool Touches = AI.isActive(&CB) || any_of(CB.args(), [&](Value *A) {
                   return AI.isActive(A) || AI.hasShadow(A);
                 });
  if (!Touches)
    return "";
  Function *Callee = CB.getCalledFunction();
  std::string Name =
      Callee ? "'" + sourceName(*Callee) + "'" : std::string("this call");
  if (Callee && S.Rules.forwardDerivative(Callee))
    return Name + " has a registered forward derivative, which computes "
                  "tangents, not round-off errors; __enzyme_error_estimate "
                  "needs the function's body (leave it unregistered in this "
                  "translation unit) to estimate its errors";
  VectorOp Op = classifyVectorCall(CB);
  if (Op == VectorOp::ReduceFAdd || Op == VectorOp::ReduceFMul)
    return "__enzyme_error_estimate has no model of the round-off error "
           "of the vector reduction " +
           Name +
           "; compile the function without vectorisation "
           "(-fno-vectorize -fno-slp-vectorize) or without "
           "-ffast-math, so that the sum is computed element by "
           "element";
  if (isBlasCall(CB))
    return "__enzyme_error_estimate has no model of the round-off error "
           "of the BLAS routine " +
           Name +
           "; write the loop in C (or give the routine's body) to "
           "estimate its errors";
  if (AI.isActive(&CB) && S.ruleFor(CB) && !CB.getType()->isFPOrFPVectorTy())
    return "__enzyme_error_estimate has no model of the round-off error "
           "of '" +
           describe(&CB) + "'";
  return "";
}

} // namespace tapestry
