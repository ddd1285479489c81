//===- TypeAnalysis.cpp - Which memory holds floating-point data ----------===//
//
// Implements TypeAnalysis.h: TypeInference walks a function (and, on promoted
// copies, the callees it passes pointers to, within
// -tapestry-type-callee-budget) and records at each place (object, offset,
// stride) the types loads, stores, GEPs, TBAA tags and byte copies show;
// computeTypes is the entry point. TypeInfo answers queries (typesAt,
// floatTypeAt, layoutAt for typeless copies), and TypePrinterPass is
// print<tapestry-types>. It decides nothing about activity.
//
//===----------------------------------------------------------------------===//
#include "Analysis/TypeAnalysis.h"

#include "Analysis/PromotedCopy.h"
#include "Core/BlasFunctions.h"
#include "Core/CopiedScalars.h"
#include "Core/KnownInactive.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <numeric>
#include <tuple>

#define DEBUG_TYPE "tapestry"

using namespace llvm;
using namespace llvm::PatternMatch;

STATISTIC(NumTypeAnalyses, "Functions whose memory types were inferred");
STATISTIC(NumTypeCalleeCopies,
          "Callee bodies the type analysis looked into, per call site");
STATISTIC(NumTypeBudgetReached,
          "Type analyses stopped by -tapestry-type-callee-budget");

namespace tapestry {

namespace {

/// Larger periods than this are not tracked (no struct is that large).
constexpr uint64_t MaxPeriod = 4096;
/// The largest window whose untyped bytes fillGaps fills, element by
/// element (a longer copy is listed part by part only where typed).
constexpr uint64_t MaxGapWindow = 1 << 16;
/// Facts kept per object, and rounds of copy propagation.
constexpr unsigned MaxFacts = 512, MaxCopyRounds = 16;
/// How many levels of callers a function differentiated on its own asks
/// what the memory it is given holds (a caller passing its own parameter
/// on asks its callers).
constexpr unsigned MaxCallerLevels = 3;

TypeInfo analyse(Function &F, unsigned Depth, Function *CallersOf,
                 unsigned CallerLevels, bool FrontEndArithmetic);

uint64_t gcdOf(uint64_t A, uint64_t B) { return std::gcd(A, B); }

int64_t normalise(int64_t Off, uint64_t Stride) {
  if (!Stride)
    return Off;
  int64_t S = static_cast<int64_t>(Stride), R = Off % S;
  return R < 0 ? R + S : R;
}

const DataLayout *layoutOf(const Value *V) {
  if (auto *I = dyn_cast<Instruction>(V))
    return &I->getModule()->getDataLayout();
  if (auto *A = dyn_cast<Argument>(V))
    return &A->getParent()->getParent()->getDataLayout();
  if (auto *G = dyn_cast<GlobalValue>(V))
    return G->getParent() ? &G->getParent()->getDataLayout() : nullptr;
  if (auto *CE = dyn_cast<ConstantExpr>(V))
    return layoutOf(CE->getOperand(0));
  return nullptr;
}

uint64_t storeSize(const DataLayout &DL, Type *T) {
  return DL.getTypeStoreSize(T).getFixedValue();
}

/// A number \p V is a multiple of because the program divides it exactly
/// (`ashr exact %bytes, 5`, `sdiv exact %bytes, 24`): a byte distance
/// between two elements of an array, such as std::vector's size in bytes,
/// which libstdc++ divides by the element's size. 1 if none.
static uint64_t exactMultiple(const Value *V) {
  uint64_t M = 1;
  for (const User *U : V->users()) {
    auto *BO = dyn_cast<PossiblyExactOperator>(U);
    if (!BO || !BO->isExact() || BO->getOperand(0) != V)
      continue;
    auto *C = dyn_cast<ConstantInt>(BO->getOperand(1));
    if (!C || C->getValue().uge(4096) || C->isZero())
      continue;
    uint64_t K = C->getZExtValue();
    switch (BO->getOpcode()) {
    case Instruction::AShr:
    case Instruction::LShr:
      M = std::lcm(M, uint64_t(1) << std::min<uint64_t>(K, 12));
      break;
    case Instruction::SDiv:
    case Instruction::UDiv:
      M = std::lcm(M, K);
      break;
    default:
      break;
    }
  }
  return M;
}

/// A number the integer \p V is a multiple of by how it is computed: a
/// product or left shift by a constant (`12 * i`: records of 12 bytes, an
/// int and a double at offset 4), through extensions that keep it (zext of
/// a computation that cannot wrap unsigned, or that cannot wrap signed and
/// is known non-negative; sext of one that cannot wrap signed), and sums of
/// such. 0 for the constant 0 (a multiple of anything), 1 if nothing is
/// known. Trailing zero bits alone would see only the 4 in 12.
static uint64_t productMultiple(const Value *V, unsigned Depth,
                                SmallPtrSetImpl<const PHINode *> &OnPath) {
  if (auto *C = dyn_cast<ConstantInt>(V))
    return C->getValue().abs().getLimitedValue(MaxPeriod + 1) > MaxPeriod
               ? 1
               : C->getValue().abs().getZExtValue();
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 6)
    return 1;
  // A running offset (`pos += 12` from 0): a multiple of what every
  // incoming value is, its own value around the loop assumed so (0, a
  // multiple of anything) as an induction does.
  if (auto *Phi = dyn_cast<PHINode>(I)) {
    if (!OnPath.insert(Phi).second)
      return 0;
    uint64_t M = 0;
    for (const Value *In : Phi->incoming_values())
      M = gcdOf(M, productMultiple(In, Depth + 1, OnPath));
    OnPath.erase(Phi);
    return M;
  }
  auto Bounded = [](uint64_t M) { return M > MaxPeriod ? 1 : M; };
  switch (I->getOpcode()) {
  case Instruction::ZExt:
  case Instruction::SExt: {
    auto *OBO = dyn_cast<OverflowingBinaryOperator>(I->getOperand(0));
    bool Keeps = OBO && (isa<SExtInst>(I)
                             ? OBO->hasNoSignedWrap()
                             : OBO->hasNoUnsignedWrap() ||
                                   (OBO->hasNoSignedWrap() && I->hasNonNeg()));
    return Keeps ? productMultiple(I->getOperand(0), Depth + 1, OnPath) : 1;
  }
  case Instruction::Mul:
    return Bounded(productMultiple(I->getOperand(0), Depth + 1, OnPath) *
                   productMultiple(I->getOperand(1), Depth + 1, OnPath));
  case Instruction::Shl:
    if (auto *C = dyn_cast<ConstantInt>(I->getOperand(1));
        C && C->getValue().ult(12))
      return Bounded(productMultiple(I->getOperand(0), Depth + 1, OnPath)
                     << C->getZExtValue());
    return 1;
  case Instruction::Or:
    // `or disjoint` is a sum.
    if (!cast<PossiblyDisjointInst>(I)->isDisjoint())
      return 1;
    [[fallthrough]];
  case Instruction::Add:
  case Instruction::Sub:
    return gcdOf(productMultiple(I->getOperand(0), Depth + 1, OnPath),
                 productMultiple(I->getOperand(1), Depth + 1, OnPath));
  default:
    return 1;
  }
}

static uint64_t productMultiple(const Value *V) {
  SmallPtrSet<const PHINode *, 4> OnPath;
  return productMultiple(V, 0, OnPath);
}

/// The value \p V is known to differ from where \p Cond is \p Taken: O
/// where Cond is V != O (V == O not taken), also as one of the conditions
/// of an && taken or an || not taken.
static const Value *differsWhere(const Value *V, const Value *Cond, bool Taken,
                                 unsigned Depth = 0) {
  if (Depth > 3)
    return nullptr;
  if (auto *Cmp = dyn_cast<ICmpInst>(Cond)) {
    if (!Cmp->isEquality() ||
        (Cmp->getPredicate() == ICmpInst::ICMP_NE) != Taken)
      return nullptr;
    if (Cmp->getOperand(0) == V)
      return Cmp->getOperand(1);
    if (Cmp->getOperand(1) == V)
      return Cmp->getOperand(0);
    return nullptr;
  }
  const Value *A = nullptr, *B = nullptr;
  // a && b (and, select a, b, false) taken; a || b (or, select a, true,
  // b) not taken: both hold.
  if (Taken ? match(Cond, m_LogicalAnd(m_Value(A), m_Value(B)))
            : match(Cond, m_LogicalOr(m_Value(A), m_Value(B)))) {
    if (const Value *O = differsWhere(V, A, Taken, Depth + 1))
      return O;
    return differsWhere(V, B, Taken, Depth + 1);
  }
  return nullptr;
}

/// The value \p V is known to differ from on the edge \p From -> \p To:
/// O where the branch taking it tests V != O (a walk over a circular
/// list stops at its sentinel, std::list's header: the nodes visited are
/// never the header). Follows single predecessors a few blocks up.
static const Value *differsOnEdge(const Value *V, const BasicBlock *From,
                                  const BasicBlock *To) {
  for (unsigned Steps = 0; From && Steps < 4; ++Steps) {
    auto *Br = dyn_cast<BranchInst>(From->getTerminator());
    if (Br && Br->isConditional()) {
      if (Br->getSuccessor(0) == Br->getSuccessor(1))
        return nullptr;
      return differsWhere(V, Br->getCondition(), Br->getSuccessor(0) == To);
    }
    To = From;
    From = From->getSinglePredecessor();
  }
  return nullptr;
}

/// Walks a pointer back to the objects it is computed from, keeping the
/// byte offset (and the stride of variable indices) on the way.
class PlaceWalker {
public:
  explicit PlaceWalker(const DataLayout *DL) : DL(DL) {}
  SmallVector<MemPlace, 4> Out;

  void walk(const Value *V, int64_t Off, uint64_t Stride) {
    while (Budget) {
      --Budget;
      if (isa<ConstantPointerNull>(V) || isa<UndefValue>(V))
        return; // no object: null and undef share nothing
      if (auto *GEP = dyn_cast<GEPOperator>(V)) {
        if (!DL) {
          Stride = 1;
        } else {
          unsigned BW = DL->getIndexSizeInBits(GEP->getPointerAddressSpace());
          MapVector<Value *, APInt> Var;
          APInt C(BW, 0);
          if (!GEP->collectOffset(*DL, BW, Var, C)) {
            Stride = 1; // any offset
          } else {
            Off += C.getSExtValue();
            // A byte index computed as `i << 3` or `8 * i` still steps
            // by whole elements: the index's known trailing zeros scale
            // its stride (a lowered element move, an i8 GEP at -O0).
            for (auto &Entry : Var) {
              KnownBits Index = computeKnownBits(Entry.first, *DL);
              if (Index.isZero())
                continue;
              unsigned Zeros = std::min(Index.countMinTrailingZeros(), 12u);
              uint64_t Multiple =
                  std::lcm(uint64_t(1) << Zeros, exactMultiple(Entry.first));
              if (uint64_t Product = productMultiple(Entry.first); Product > 1)
                Multiple = std::lcm(Multiple, Product);
              Stride =
                  gcdOf(Stride, Entry.second.abs().getZExtValue() * Multiple);
            }
          }
        }
        V = GEP->getPointerOperand();
        continue;
      }
      if (auto *Op = dyn_cast<Operator>(V))
        if (Op->getOpcode() == Instruction::BitCast ||
            Op->getOpcode() == Instruction::AddrSpaceCast) {
          V = Op->getOperand(0);
          continue;
        }
      if (auto *Call = dyn_cast<CallBase>(V))
        if (const Value *RP =
                getArgumentAliasingToReturnedPointer(Call, false)) {
          V = RP;
          continue;
        }
      if (auto *Sel = dyn_cast<SelectInst>(V)) {
        walk(Sel->getTrueValue(), Off, Stride);
        walk(Sel->getFalseValue(), Off, Stride);
        return;
      }
      if (auto *Phi = dyn_cast<PHINode>(V)) {
        auto It = OnPath.find(Phi);
        if (It != OnPath.end()) {
          // Around a loop: the pointer advances by (Off - entry) each trip.
          uint64_t Step = static_cast<uint64_t>(std::abs(Off - It->second));
          CycleStride[Phi] = gcdOf(CycleStride[Phi], gcdOf(Step, Stride));
          return;
        }
        OnPath[Phi] = Off;
        size_t Start = Out.size();
        for (unsigned I = 0; I < Phi->getNumIncomingValues(); ++I) {
          const Value *In = Phi->getIncomingValue(I);
          // An incoming pointer tested against an object on its edge is
          // not that object's address.
          const Value *Not =
              differsOnEdge(In, Phi->getIncomingBlock(I), Phi->getParent());
          if (Not)
            Excluded.push_back({Not, Off, Stride});
          walk(In, Off, Stride);
          if (Not)
            Excluded.pop_back();
        }
        OnPath.erase(Phi);
        if (uint64_t CS = CycleStride.lookup(Phi))
          for (size_t I = Start; I < Out.size(); ++I)
            Out[I].Stride = gcdOf(Out[I].Stride, CS);
        return;
      }
      if (any_of(Excluded, [&](const MemPlace &P) {
            return P.Root == V && P.Offset == Off && P.Stride == Stride;
          }))
        return;
      Out.push_back({V, Off, Stride});
      return;
    }
  }

private:
  const DataLayout *DL;
  unsigned Budget = 256;
  /// Objects (at the offset and stride of the pointer compared) that the
  /// pointer being walked is known not to be.
  SmallVector<MemPlace, 2> Excluded;
  SmallDenseMap<const Value *, int64_t, 4> OnPath;
  DenseMap<const Value *, uint64_t> CycleStride;
};

/// The scalar type a TBAA access tag names, for an access of \p Size bytes
/// (null for char, which may be anything, and for names not known here).
Type *tbaaType(const MDNode *Tag, LLVMContext &C, uint64_t Size) {
  if (!Tag || Tag->getNumOperands() < 2)
    return nullptr;
  auto *Access = dyn_cast<MDNode>(Tag->getOperand(1));
  if (!Access || Access->getNumOperands() < 1)
    return nullptr;
  auto *Name = dyn_cast<MDString>(Access->getOperand(0));
  if (!Name)
    return nullptr;
  StringRef N = Name->getString();
  if (N == "double")
    return Size == 8 ? Type::getDoubleTy(C) : nullptr;
  if (N == "float")
    return Size == 4 ? Type::getFloatTy(C) : nullptr;
  if (N == "any pointer" || N == "vtable pointer" || N.starts_with("p1 ") ||
      N.starts_with("p2 ") || N.starts_with("p3 "))
    return Size == 8 ? PointerType::getUnqual(C) : nullptr;
  if (N == "int" || N == "long" || N == "long long" || N == "short" ||
      N == "bool" || N == "_Bool" || N == "__int128")
    return IntegerType::get(C, Size * 8);
  return nullptr;
}

} // namespace

Type *tbaaAccessType(const Instruction &I) {
  Type *T = getLoadStoreType(const_cast<Instruction *>(&I));
  return tbaaType(I.getMetadata(LLVMContext::MD_tbaa), I.getContext(),
                  I.getModule()->getDataLayout().getTypeStoreSize(T));
}

bool isCopyLoad(const LoadInst &LI) {
  Type *T = LI.getType();
  if (!T->isIntOrIntVectorTy() || LI.isVolatile() || LI.use_empty())
    return false;
  return all_of(LI.users(), [&](const User *U) {
    auto *SI = dyn_cast<StoreInst>(U);
    return SI && SI->getValueOperand() == &LI && !SI->isVolatile();
  });
}

/// Most phis and selects followed from one load to its stores.
static constexpr unsigned MaxChoicesFollowed = 32;

SmallVector<const StoreInst *, 2> choiceCopyStores(const LoadInst &LI) {
  SmallVector<const StoreInst *, 2> Stores;
  if (!LI.getType()->isIntOrIntVectorTy() || LI.isVolatile())
    return Stores;
  SmallVector<const Value *, 8> Work{&LI};
  SmallPtrSet<const Value *, 8> Seen{&LI};
  bool ThroughChoice = false;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (auto *SI = dyn_cast<StoreInst>(U);
          SI && SI->getValueOperand() == V && !SI->isVolatile()) {
        if (!is_contained(Stores, SI))
          Stores.push_back(SI);
        continue;
      }
      auto *Sel = dyn_cast<SelectInst>(U);
      if (!isa<PHINode>(U) && !(Sel && Sel->getCondition() != V))
        return {};
      ThroughChoice = true;
      if (Seen.insert(U).second) {
        if (Seen.size() > MaxChoicesFollowed)
          return {};
        Work.push_back(U);
      }
    }
  }
  if (!ThroughChoice)
    Stores.clear(); // a plain copy: isCopyLoad
  return Stores;
}

bool choosesCopiedLoad(const Value &V) {
  if (!isa<PHINode>(V) && !isa<SelectInst>(V))
    return false;
  SmallVector<const Value *, 8> Work{&V};
  SmallPtrSet<const Value *, 8> Seen{&V};
  bool Chosen = false;
  while (!Work.empty()) {
    const Value *C = Work.pop_back_val();
    SmallVector<const Value *, 4> Ins;
    if (auto *Sel = dyn_cast<SelectInst>(C))
      Ins = {Sel->getTrueValue(), Sel->getFalseValue()};
    else
      append_range(Ins, cast<PHINode>(C)->incoming_values());
    for (const Value *In : Ins) {
      if (auto *LI = dyn_cast<LoadInst>(In)) {
        Chosen |= !choiceCopyStores(*LI).empty();
        continue;
      }
      if (!isa<PHINode>(In) && !isa<SelectInst>(In))
        continue;
      if (Seen.insert(In).second) {
        if (Seen.size() > MaxChoicesFollowed)
          return Chosen;
        Work.push_back(In);
      }
    }
  }
  return Chosen;
}

SmallVector<MemPlace, 4> TypeInfo::places(const Value *Ptr) {
  const DataLayout *DL = layoutOf(Ptr);
  if (!DL)
    if (const Value *Obj = getUnderlyingObject(Ptr, 0))
      DL = layoutOf(Obj);
  PlaceWalker W(DL);
  W.walk(Ptr, 0, 0);
  SmallVector<MemPlace, 4> Unique;
  for (MemPlace P : W.Out) {
    P.Offset = normalise(P.Offset, P.Stride);
    if (none_of(Unique, [&](const MemPlace &Q) {
          return Q.Root == P.Root && Q.Offset == P.Offset &&
                 Q.Stride == P.Stride;
        }))
      Unique.push_back(P);
  }
  return Unique;
}

const Value *TypeInfo::root(const Value *Ptr) {
  return getUnderlyingObject(Ptr, /*MaxLookup=*/0);
}

SmallVector<const Value *, 4> TypeInfo::roots(const Value *Ptr) {
  SmallVector<const Value *, 4> Objs;
  for (const MemPlace &P : places(Ptr))
    if (!is_contained(Objs, P.Root))
      Objs.push_back(P.Root);
  return Objs;
}

SmallVector<Type *, 4> TypeInfo::typesAt(const Value *Ptr) const {
  SmallVector<Type *, 4> All;
  for (const Value *R : roots(Ptr)) {
    auto It = Facts.find(rep(R));
    if (It == Facts.end())
      continue;
    bool AnyStrong =
        any_of(It->second, [](const TypeFact &F) { return !F.Weak; });
    for (const TypeFact &F : It->second)
      if ((!F.Weak || !AnyStrong) && !is_contained(All, F.T))
        All.push_back(F.T);
  }
  return All;
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

Type *TypeInfo::floatFilling(const Value *Ptr, uint64_t Size) const {
  ByteLayout L = layoutAt(Ptr, Size);
  if (!DL || !Size || L.hasPointers())
    return nullptr;
  Type *Found = nullptr;
  for (const ByteLayout::Part &Part : L.floatParts()) {
    if (Part.Offset != 0 || storeSize(*DL, Part.T) != Size ||
        (Found && Found != Part.T))
      return nullptr;
    Found = Part.T;
  }
  return Found;
}

ByteLayout TypeInfo::layoutAt(const Value *Ptr, uint64_t Size,
                              const Value *Other) const {
  ByteLayout L;
  if (!DL)
    return L;
  struct Raw {
    int64_t Off;
    uint64_t Period;
    Type *T;
    bool Weak;
  };
  SmallVector<Raw, 16> Raws;
  uint64_t Period = 0;
  SmallVector<MemPlace, 8> Ps = places(Ptr);
  if (Other) {
    SmallVector<MemPlace, 4> More = places(Other);
    Ps.append(More.begin(), More.end());
  }
  for (const MemPlace &P : Ps) {
    auto It = Facts.find(rep(P.Root));
    if (It == Facts.end())
      continue;
    for (const TypeFact &F : It->second) {
      uint64_t G = gcdOf(F.Stride, P.Stride);
      int64_t Rel = F.Offset - P.Offset;
      int64_t TS = storeSize(*DL, F.T);
      if (!G) {
        if (Rel < 0 || (Size && Rel + TS > static_cast<int64_t>(Size)))
          continue;
        Raws.push_back({Rel, 0, F.T, F.Weak});
        continue;
      }
      // An access at a stride shorter than itself (a double at a byte
      // offset known only to be a multiple of 1: the element a
      // std::vector's push_back writes at begin + (end - begin) bytes)
      // says the type is somewhere, not where: every byte would be taken
      // for a double's start.
      if (G < static_cast<uint64_t>(TS)) {
        if (F.T->isFloatingPointTy())
          L.UnplacedFloatSize =
              L.UnplacedFloatSize ? std::min<uint64_t>(L.UnplacedFloatSize, TS)
                                  : TS;
        continue;
      }
      Rel = normalise(Rel, G);
      if (Size && Rel >= static_cast<int64_t>(Size))
        continue;
      uint64_t NewPeriod = Period ? Period / gcdOf(Period, G) * G : G;
      if (NewPeriod > MaxPeriod)
        continue; // not a layout a program has
      Period = NewPeriod;
      Raws.push_back({Rel, G, F.T, F.Weak});
    }
  }
  // A window no longer than the period is listed byte by byte.
  if (Period && Size && Period >= Size)
    Period = 0;
  uint64_t Span = Period ? Period : Size;
  SmallVector<std::pair<ByteLayout::Part, bool>, 16> All; // (part, weak)
  for (const Raw &R : Raws) {
    uint64_t TS = storeSize(*DL, R.T);
    if (!R.Period) {
      uint64_t Off = Period ? normalise(R.Off, Period) : R.Off;
      All.push_back({{Off, R.T}, R.Weak});
      continue;
    }
    if (!Span) {
      All.push_back({{static_cast<uint64_t>(R.Off), R.T}, R.Weak});
      continue;
    }
    for (uint64_t Off = R.Off; Off + TS <= Span; Off += R.Period)
      All.push_back({{Off, R.T}, R.Weak});
  }
  // A GEP's word yields to an access's on the same bytes.
  auto Overlap = [&](const ByteLayout::Part &A, const ByteLayout::Part &B) {
    return A.Offset < B.Offset + storeSize(*DL, B.T) &&
           B.Offset < A.Offset + storeSize(*DL, A.T);
  };
  for (auto &[Part, Weak] : All)
    if (!Weak || none_of(All, [&](const auto &Other) {
          return !Other.second && Overlap(Part, Other.first);
        }))
      L.Parts.push_back(Part);
  L.Period = Period;
  llvm::sort(L.Parts, [](const ByteLayout::Part &A, const ByteLayout::Part &B) {
    return A.Offset != B.Offset ? A.Offset < B.Offset : A.T < B.T;
  });
  L.Parts.erase(
      std::unique(L.Parts.begin(), L.Parts.end(),
                  [](const ByteLayout::Part &A, const ByteLayout::Part &B) {
                    return A.Offset == B.Offset && A.T == B.T;
                  }),
      L.Parts.end());
  return L;
}

SmallVector<ByteLayout::Part, 8> ByteLayout::floatParts() const {
  SmallVector<Part, 8> FP;
  for (const Part &P : Parts)
    if (P.T->isFloatingPointTy())
      FP.push_back(P);
  return FP;
}

bool ByteLayout::mixesFloatWidths(const DataLayout &DL) const {
  SmallVector<Part, 8> FP = floatParts();
  for (unsigned I = 0; I < FP.size(); ++I)
    for (unsigned J = I + 1; J < FP.size(); ++J)
      if (FP[I].T != FP[J].T &&
          FP[J].Offset < FP[I].Offset + storeSize(DL, FP[I].T))
        return true;
  return false;
}

void ByteLayout::fillGaps(Type *T, uint64_t Size, const DataLayout &DL) {
  uint64_t Span = Period ? Period : Size;
  uint64_t TS = storeSize(DL, T);
  // Elements of T lie on a grid of its size; a layout off that grid (a
  // packed struct) is not such an array.
  if (!Span || !TS || Span > MaxGapWindow || any_of(Parts, [&](const Part &P) {
        return P.T->isFloatingPointTy() && P.Offset % TS;
      }))
    return;
  BitVector Covered(Span);
  for (const Part &P : Parts)
    Covered.set(std::min(P.Offset, Span),
                std::min(P.Offset + storeSize(DL, P.T), Span));
  SmallVector<Part, 8> Added;
  for (uint64_t Off = 0; Off + TS <= Span; Off += TS)
    if (Covered.find_first_in(Off, Off + TS) == -1)
      Added.push_back({Off, T});
  if (Added.empty())
    return;
  Parts.append(Added.begin(), Added.end());
  llvm::sort(Parts, [](const Part &A, const Part &B) {
    return A.Offset != B.Offset ? A.Offset < B.Offset : A.T < B.T;
  });
}

bool ByteLayout::mayHideFloats(uint64_t Size, const DataLayout &DL) const {
  uint64_t Span = Period ? Period : Size;
  if (!Span || Span > MaxGapWindow)
    return true;
  BitVector Covered(Span);
  for (const Part &P : Parts)
    Covered.set(std::min(P.Offset, Span),
                std::min(P.Offset + storeSize(DL, P.T), Span));
  auto PartAt = [&](uint64_t Off) -> const Part * {
    for (const Part &P : Parts)
      if (P.Offset == Off)
        return &P;
    return nullptr;
  };
  for (uint64_t Off = 0; Off + 4 <= Span; Off += 4) {
    if (Covered.find_first_in(Off, Off + 4) != -1)
      continue;
    const Part *Prev = Off >= 4 ? PartAt(Off - 4) : nullptr;
    bool After4 = Off % 8 == 4 && Prev && storeSize(DL, Prev->T) == 4;
    const Part *Next = PartAt(Off + 4);
    bool Padding =
        After4 && (Off + 4 == Span || (Next && storeSize(DL, Next->T) >= 8));
    if (!Padding)
      return true;
  }
  return false;
}

/// True if the bytes of \p A and \p B overlap, each repeated with its
/// stride (modulo their common period).
static bool overlapsModulo(const TypeFact &A, const TypeFact &B,
                           const DataLayout &DL) {
  int64_t SA = storeSize(DL, A.T), SB = storeSize(DL, B.T);
  uint64_t G = gcdOf(A.Stride, B.Stride);
  if (!G)
    return A.Offset < B.Offset + SB && B.Offset < A.Offset + SA;
  int64_t D = normalise(B.Offset - A.Offset, G);
  return D < SA || D + SB > static_cast<int64_t>(G);
}

bool TypeInfo::isPaddingAt(const Value *Ptr) const {
  if (!DL)
    return false;
  SmallVector<MemPlace, 4> Ps = places(Ptr);
  if (Ps.empty())
    return false;
  for (const MemPlace &P : Ps) {
    auto It = Facts.find(rep(P.Root));
    if (It == Facts.end())
      return false;
    bool Before = false, After = false;
    for (const TypeFact &F : It->second) {
      // A GEP's word yields to an access's on the same bytes, as in
      // layoutAt (LICM's invariant GEP names an array type at a member's
      // address: its word is shifted by that member's offset).
      if (F.Weak && any_of(It->second, [&](const TypeFact &S) {
            return !S.Weak && overlapsModulo(F, S, *DL);
          }))
        continue;
      uint64_t G = gcdOf(F.Stride, P.Stride);
      int64_t TS = storeSize(*DL, F.T);
      // The fact's offset relative to the hole, modulo their common
      // period.
      int64_t Rel = F.Offset - P.Offset;
      if (G) {
        if (G < 16 || G % 8)
          return false; // a period shorter than the three places
        Rel = normalise(Rel, G);
        if (Rel > static_cast<int64_t>(G) / 2)
          Rel -= G;
      }
      if (Rel < 4 && Rel + TS > 0)
        return false; // covers some of the 4 bytes
      Before |= Rel == -4 && TS == 4;
      After |= Rel == 4 && TS >= 8;
    }
    if (!Before || !After || normalise(P.Offset, 8) != 4)
      return false;
  }
  return true;
}

bool ByteLayout::hasPointers() const {
  return any_of(Parts, [](const Part &P) { return P.T->isPointerTy(); });
}

/// True if lane I of \p U's result depends on lane I of its operands
/// alone: arithmetic, comparisons, casts and selects on vectors of the
/// same length, and the element-wise intrinsics (fmuladd, sqrt, ...).
static bool isLaneWise(const User &U, unsigned N) {
  if (auto *BC = dyn_cast<BitCastInst>(&U);
      BC && isIntegerReinterpretation(*BC))
    return false;
  auto *VT = dyn_cast<FixedVectorType>(U.getType());
  if (!VT || VT->getNumElements() != N)
    return false;
  if (isa<BinaryOperator>(U) || isa<UnaryOperator>(U) || isa<CmpInst>(U) ||
      isa<SelectInst>(U))
    return true;
  if (auto *C = dyn_cast<CastInst>(&U))
    return cast<FixedVectorType>(C->getSrcTy())->getNumElements() == N;
  if (auto *II = dyn_cast<IntrinsicInst>(&U))
    return isTriviallyVectorizable(II->getIntrinsicID());
  return false;
}

/// Adds to \p Used the lanes of \p V that its users pick out, following
/// lane-wise operations; false if some use reads the whole vector.
static bool pickedLanes(const Value &V, SmallBitVector &Used, unsigned Depth) {
  unsigned N = Used.size();
  for (const Use &U : V.uses()) {
    if (auto *EE = dyn_cast<ExtractElementInst>(U.getUser())) {
      auto *Idx = dyn_cast<ConstantInt>(EE->getIndexOperand());
      if (!Idx || Idx->getZExtValue() >= N)
        return false;
      Used.set(Idx->getZExtValue());
      continue;
    }
    if (auto *SV = dyn_cast<ShuffleVectorInst>(U.getUser())) {
      unsigned Base = U.getOperandNo() == 0 ? 0 : N;
      for (int M : SV->getShuffleMask())
        if (M >= static_cast<int>(Base) && M < static_cast<int>(Base + N))
          Used.set(M - Base);
      continue;
    }
    // Lanes reinterpreted as integers and picked out as such (the int
    // member of structs whose floats the same load reads) are not lanes
    // of this type.
    if (auto *BC = dyn_cast<BitCastInst>(U.getUser());
        BC && isIntegerReinterpretation(*BC)) {
      SmallBitVector AsIntegers(N);
      if (Depth && pickedLanes(*BC, AsIntegers, Depth - 1))
        continue;
      return false;
    }
    // (fmul of the loaded vector, then a shuffle picking every fourth
    // lane: the vectoriser's strided read of one member of a struct.)
    if (Depth && isLaneWise(*U.getUser(), N) &&
        pickedLanes(*U.getUser(), Used, Depth - 1))
      continue;
    return false;
  }
  return true;
}

bool isIntegerReinterpretation(const BitCastInst &BC) {
  auto *From = dyn_cast<FixedVectorType>(BC.getSrcTy());
  auto *To = dyn_cast<FixedVectorType>(BC.getDestTy());
  return From && To && From->getElementType()->isFloatingPointTy() &&
         To->getElementType()->isIntegerTy() &&
         From->getNumElements() == To->getNumElements();
}

std::optional<SmallBitVector> lanesPickedOf(const Value &V) {
  auto *VT = dyn_cast<FixedVectorType>(V.getType());
  if (!VT)
    return std::nullopt;
  SmallBitVector Used(VT->getNumElements());
  if (!pickedLanes(V, Used, /*Depth=*/4) || Used.all())
    return std::nullopt;
  return Used;
}

std::optional<SmallBitVector> lanesPicked(const LoadInst &LI) {
  return lanesPickedOf(LI);
}

static cl::opt<unsigned> CalleeCopyBudget(
    "tapestry-type-callee-budget", cl::init(2000),
    cl::desc("Most callee bodies the type analysis of one function looks "
             "into (each call site's callee is analysed on its own copy)"));

namespace {

class TypeInference {
public:
  TypeInference(TypeInfo &Out, const DataLayout &DL, bool FrontEndArithmetic)
      : Out(Out), DL(DL), FrontEndArithmetic(FrontEndArithmetic) {}
  using ArgPlaceList = ArrayRef<SmallVector<MemPlace, 2>>;

  /// Records what \p F does with memory; accesses through \p F's
  /// parameters are also recorded at \p ArgPlaces (the caller's places).
  void visit(Function &F, ArgPlaceList ArgPlaces, unsigned Depth) {
    for (Instruction &I : instructions(F)) {
      if (auto *LI = dyn_cast<LoadInst>(&I)) {
        if (LI->getType()->isPointerTy() && &F == Top)
          PtrSlots.push_back(
              {TypeInfo::places(LI->getPointerOperand()), {{LI, 0, 0}}});
        // Bytes moved by an integer load and stores (possibly chosen among
        // other loads on the way): typed by a TBAA tag that says so,
        // otherwise a copy like memcpy.
        SmallVector<const StoreInst *, 2> Stores;
        if (isCopyLoad(*LI))
          for (User *U : LI->users())
            Stores.push_back(cast<StoreInst>(U));
        else
          Stores = choiceCopyStores(*LI);
        if (Stores.empty()) {
          if (!noteUsedLanes(*LI, F, ArgPlaces))
            noteAccess(LI->getPointerOperand(), LI->getType(), F, ArgPlaces);
          continue;
        }
        uint64_t Size = storeSize(DL, LI->getType());
        if (Type *T = tbaaType(I.getMetadata(LLVMContext::MD_tbaa),
                               I.getContext(), Size)) {
          noteAt(placesIn(LI->getPointerOperand(), F, ArgPlaces), 0, T);
          for (const StoreInst *SI : Stores)
            noteAt(placesIn(SI->getPointerOperand(), F, ArgPlaces), 0, T);
          continue;
        }
        for (const StoreInst *SI : Stores)
          Copies.push_back({placesIn(SI->getPointerOperand(), F, ArgPlaces),
                            placesIn(LI->getPointerOperand(), F, ArgPlaces),
                            Size});
      } else if (auto *SI = dyn_cast<StoreInst>(&I)) {
        if (SI->getValueOperand()->getType()->isPointerTy() && &F == Top)
          PtrSlots.push_back({TypeInfo::places(SI->getPointerOperand()),
                              TypeInfo::places(SI->getValueOperand())});
        auto *From = dyn_cast<LoadInst>(SI->getValueOperand());
        if ((!From || !isCopyLoad(*From)) &&
            !choosesCopiedLoad(*SI->getValueOperand()))
          noteAccess(SI->getPointerOperand(), SI->getValueOperand()->getType(),
                     F, ArgPlaces);
      } else if (auto *GEP = dyn_cast<GetElementPtrInst>(&I)) {
        noteGEP(*GEP, F, ArgPlaces);
      } else if (auto *AI = dyn_cast<AllocaInst>(&I)) {
        noteAllocatedType(*AI, F, ArgPlaces);
      } else if (auto *MT = dyn_cast<MemTransferInst>(&I)) {
        auto *Len = dyn_cast<ConstantInt>(MT->getLength());
        Copy C{placesIn(MT->getDest(), F, ArgPlaces),
               placesIn(MT->getSource(), F, ArgPlaces),
               Len ? Len->getZExtValue() : 0};
        noteStructTags(*MT, C.Dst);
        noteStructTags(*MT, C.Src);
        noteConstantSource(*MT);
        Copies.push_back(std::move(C));
      } else if (auto *CB = dyn_cast<CallBase>(&I)) {
        visitCall(*CB, F, ArgPlaces, Depth);
      }
    }
  }

  /// What the direct callers of \p Original (of which \p F is a copy with
  /// the same parameters) do with the memory they pass: facts of \p F's
  /// pointer parameters, relative to the pointer passed. A function
  /// differentiated on its own (kept as a call) may move its parameter's
  /// bytes without a typed access while its caller reads them as double.
  /// Only if every use of Original is a direct call (no caller is hidden
  /// behind its address), and a parameter gets facts only if every caller
  /// says something about it: what one caller says is not a guess about
  /// another. Functions Tapestry built (copies of user code, some still
  /// being built) and Original itself (a recursive call passes what its
  /// own callers passed) are not callers here. A caller that only passes
  /// its own parameter on is asked about its callers in turn, up to
  /// \p Levels levels up.
  void importCallerFacts(Function &F, Function &Original, unsigned Depth,
                         unsigned Levels) {
    if (F.arg_size() != Original.arg_size())
      return;
    // Each call site, with the operand passing each parameter (-1: none).
    using Site = std::pair<CallBase *, SmallVector<int, 8>>;
    MapVector<Function *, SmallVector<Site, 2>> Callers;
    for (Use &U : Original.uses()) {
      auto *CB = dyn_cast<CallBase>(U.getUser());
      if (!CB)
        return;
      SmallVector<int, 8> Operands;
      if (CB->isCallee(&U)) {
        for (unsigned I = 0; I < F.arg_size(); ++I)
          Operands.push_back(I < CB->arg_size() ? int(I) : -1);
      } else if (MDNode *MD = CB->getMetadata(RequestPrimalsMD);
                 MD && MD->getNumOperands() == F.arg_size()) {
        // A derivative request naming Original.
        for (const MDOperand &Op : MD->operands()) {
          auto *C = mdconst::dyn_extract<ConstantInt>(Op);
          Operands.push_back(C ? int(C->getSExtValue()) : -1);
        }
      } else {
        return;
      }
      Function *C = CB->getFunction();
      if (C == &Original || C->getName().contains("tapestry"))
        continue;
      Callers[C].push_back({CB, std::move(Operands)});
    }
    if (Callers.empty())
      return;
    // Per parameter, the facts every call site gives (empty once a call
    // site gives none).
    SmallVector<SmallVector<TypeFact, 8>, 8> Seen(F.arg_size());
    BitVector Unknown(F.arg_size());
    for (unsigned I = 0; I < F.arg_size(); ++I)
      if (!F.getArg(I)->getType()->isPointerTy())
        Unknown.set(I);
    for (auto &[C, Calls] : Callers) {
      ValueToValueMapTy VMap;
      Function *Copy = clonePromoted(*C, VMap);
      TypeInfo CallerInfo =
          analyse(*Copy, Depth, C, Levels - 1, FrontEndArithmetic);
      // A caller seen in part (its other callees are past the analysis's
      // depth or budget: a main that also runs an unrelated Eigen
      // product, probe31 03) may say too little about what it passes: no
      // caller's facts are taken, as for a function whose callers are
      // hidden, and the function's own view stands, complete or not on
      // its own account.
      if (CallerInfo.CalleeDepthReached || CallerInfo.CalleeBudgetReached) {
        Copy->eraseFromParent();
        return;
      }
      for (auto &[CB, Operands] : Calls) {
        auto *Call = dyn_cast_or_null<CallBase>(VMap.lookup(CB));
        if (!Call) {
          Unknown.set();
          continue;
        }
        for (unsigned I = 0; I < F.arg_size(); ++I) {
          if (Unknown[I])
            continue;
          if (Operands[I] < 0 || unsigned(Operands[I]) >= Call->arg_size()) {
            Unknown.set(I);
            continue;
          }
          SmallVector<TypeFact, 8> Here;
          for (const MemPlace &P :
               TypeInfo::places(Call->getArgOperand(Operands[I]))) {
            auto It = CallerInfo.Facts.find(CallerInfo.rep(P.Root));
            if (It == CallerInfo.Facts.end())
              continue;
            for (const TypeFact &Fact : It->second) {
              uint64_t G = gcdOf(Fact.Stride, P.Stride);
              Here.push_back(
                  {normalise(Fact.Offset - P.Offset, G), G, Fact.T, Fact.Weak});
            }
          }
          if (Here.empty())
            Unknown.set(I);
          else
            append_range(Seen[I], Here);
        }
      }
      Copy->eraseFromParent();
    }
    for (unsigned I = 0; I < F.arg_size(); ++I)
      if (!Unknown[I])
        for (const TypeFact &Fact : Seen[I])
          addFact(F.getArg(I), Fact.Offset, Fact.Stride, Fact.T, Fact.Weak);
  }

  /// Pointers stored at and loaded from the same place point to the same
  /// object (a vector's data pointer is stored when it grows and loaded
  /// again at each access): they become one object, to a fixed point.
  void resolveAliases() {
    auto Find = [&](const Value *V) {
      while (true) {
        auto It = Out.Alias.find(V);
        if (It == Out.Alias.end())
          return V;
        V = It->second;
      }
    };
    for (unsigned Round = 0; Round < 4; ++Round) {
      std::map<std::tuple<const Value *, int64_t, uint64_t>, const Value *>
          Slots;
      bool Changed = false;
      for (const PtrSlot &S : PtrSlots)
        for (const MemPlace &K : S.Slot)
          for (const MemPlace &V : S.Vals) {
            if (V.Offset || V.Stride)
              continue; // a pointer into an object, not to it
            const Value *R = Find(V.Root);
            // An object linked to itself (a circular list's or a tree's
            // header, the sentinel its nodes link back to) says nothing
            // of the other pointers its slot holds: its nodes.
            if (R == Find(K.Root))
              continue;
            auto [It, New] =
                Slots.insert({{Find(K.Root), K.Offset, K.Stride}, R});
            const Value *Other = Find(It->second);
            if (!New && Other != R) {
              Out.Alias[R] = Other;
              Changed = true;
            }
          }
      if (!Changed)
        break;
    }
    // Flatten, then move each object's facts to the one standing for it.
    SmallVector<const Value *, 8> Members;
    for (auto &[V, To] : Out.Alias)
      Members.push_back(V);
    for (const Value *V : Members)
      Out.Alias[V] = Find(V);
    for (const Value *V : Members) {
      auto It = Out.Facts.find(V);
      if (It == Out.Facts.end())
        continue;
      SmallVector<TypeFact, 8> Moved(It->second.begin(), It->second.end());
      Out.Facts.erase(V);
      for (const TypeFact &F : Moved)
        addFact(V, F.Offset, F.Stride, F.T, F.Weak);
    }
  }

  /// A copy moves data: both ends hold the same types at the same places
  /// relative to the copied window.
  void unifyCopies() {
    bool Changed = true;
    for (unsigned Round = 0; Changed && Round < MaxCopyRounds; ++Round) {
      Changed = false;
      for (const Copy &C : Copies)
        for (const MemPlace &D : C.Dst)
          for (const MemPlace &S : C.Src) {
            Changed |= transfer(S, D, C.Size);
            Changed |= transfer(D, S, C.Size);
          }
    }
  }

  /// Forgets what was noted about the callees' copies and deletes them.
  void dropClones() {
    for (Function *Copy : Clones) {
      for (Argument &A : Copy->args())
        Out.Facts.erase(&A);
      for (Instruction &I : instructions(*Copy))
        Out.Facts.erase(&I);
      Copy->eraseFromParent();
    }
    Clones.clear();
  }

private:
  struct Copy {
    SmallVector<MemPlace, 4> Dst, Src;
    uint64_t Size; // 0: not known at compile time
  };
  /// A pointer stored at or loaded from Slot.
  struct PtrSlot {
    SmallVector<MemPlace, 4> Slot, Vals;
  };

  /// The places of \p Ptr, with those at \p F's parameters also in the
  /// caller's terms.
  SmallVector<MemPlace, 4> placesIn(const Value *Ptr, Function &F,
                                    ArgPlaceList ArgPlaces) {
    SmallVector<MemPlace, 4> Result;
    for (const MemPlace &P : TypeInfo::places(Ptr)) {
      Result.push_back(P);
      if (auto *A = dyn_cast<Argument>(P.Root))
        if (A->getParent() == &F && A->getArgNo() < ArgPlaces.size())
          for (const MemPlace &C : ArgPlaces[A->getArgNo()])
            Result.push_back(
                {C.Root, C.Offset + P.Offset, gcdOf(C.Stride, P.Stride)});
    }
    return Result;
  }

  bool addFact(const Value *Root, int64_t Off, uint64_t Stride, Type *T,
               bool Weak) {
    auto &V = Out.Facts[Out.rep(Root)];
    TypeFact F{normalise(Off, Stride), Stride, T, Weak};
    for (TypeFact &Old : V)
      if (Old.samePlaceAndType(F)) {
        if (!Old.Weak || Weak)
          return false;
        Old.Weak = false; // an access confirms what a GEP said
        return true;
      }
    if (V.size() >= MaxFacts)
      return false;
    V.push_back(F);
    return true;
  }

  /// Notes \p T's scalar parts at \p Extra bytes past each place.
  void noteAt(ArrayRef<MemPlace> Ps, int64_t Extra, Type *T) {
    if (auto *ST = dyn_cast<StructType>(T)) {
      if (ST->isOpaque())
        return;
      const StructLayout *SL = DL.getStructLayout(ST);
      for (unsigned I = 0; I < ST->getNumElements(); ++I)
        noteAt(Ps, Extra + SL->getElementOffset(I), ST->getElementType(I));
      return;
    }
    if (auto *AT = dyn_cast<ArrayType>(T)) {
      Type *E = AT->getElementType();
      // A byte array in a type a GEP names is raw storage for any type
      // (libstdc++'s __aligned_membuf in a std::map node, aligned_storage),
      // not a statement that the bytes are characters.
      if (NotingWeak && E->isIntegerTy(8))
        return;
      uint64_t ES = DL.getTypeAllocSize(E);
      if (AT->getNumElements() <= 32) {
        for (uint64_t I = 0; I < AT->getNumElements(); ++I)
          noteAt(Ps, Extra + I * ES, E);
        return;
      }
      SmallVector<MemPlace, 4> Strided;
      for (const MemPlace &P : Ps)
        Strided.push_back({P.Root, P.Offset, gcdOf(P.Stride, ES)});
      return noteAt(Strided, Extra, E);
    }
    if (auto *VT = dyn_cast<FixedVectorType>(T)) {
      Type *E = VT->getElementType();
      if (E->isIntegerTy(1))
        return;
      for (unsigned I = 0; I < VT->getNumElements(); ++I)
        noteAt(Ps, Extra + I * storeSize(DL, E), E);
      return;
    }
    if (!T->isIntegerTy() && !T->isFloatingPointTy() && !T->isPointerTy())
      return;
    for (const MemPlace &P : Ps)
      addFact(P.Root, P.Offset + Extra, P.Stride, T, NotingWeak);
  }

  /// A vector load whose lanes are only picked out says what the lanes it
  /// picks hold, not the others (lanesPicked). Returns false (noting
  /// nothing) if some use reads the whole vector.
  bool noteUsedLanes(LoadInst &LI, Function &F, ArgPlaceList ArgPlaces) {
    std::optional<SmallBitVector> Used = lanesPicked(LI);
    if (!Used)
      return false;
    Type *E = cast<FixedVectorType>(LI.getType())->getElementType();
    SmallVector<MemPlace, 4> Ps =
        placesIn(LI.getPointerOperand(), F, ArgPlaces);
    for (unsigned I : Used->set_bits())
      noteAt(Ps, I * storeSize(DL, E), E);
    return true;
  }

  /// A load or store: its own type is what the memory holds (a TBAA tag
  /// is only read where an integer access moves bytes).
  void noteAccess(const Value *Ptr, Type *T, Function &F,
                  ArgPlaceList ArgPlaces) {
    noteAt(placesIn(Ptr, F, ArgPlaces), 0, T);
  }

  /// GEP element types, where a GEP selects a member (two or more
  /// indices): the member's type at the result, the source type at the
  /// element the first index selects. A GEP with one index is pointer
  /// arithmetic that says nothing of the data (the optimiser advances a
  /// pointer to a member by a struct's size this way), nor is an i8 GEP.
  void noteGEP(GetElementPtrInst &GEP, Function &F, ArgPlaceList ArgPlaces) {
    Type *Src = GEP.getSourceElementType();
    if (Src->isIntegerTy(8))
      return;
    if (GEP.getNumIndices() < 2) {
      if (FrontEndArithmetic)
        noteSourceArithmetic(GEP, F, ArgPlaces);
      return;
    }
    NotingWeak = true;
    noteAt(placesIn(&GEP, F, ArgPlaces), 0, GEP.getResultElementType());
    uint64_t Size = DL.getTypeAllocSize(Src);
    auto *First = dyn_cast<ConstantInt>(GEP.idx_begin()->get());
    SmallVector<MemPlace, 4> Base;
    for (const MemPlace &P : placesIn(GEP.getPointerOperand(), F, ArgPlaces))
      Base.push_back(First ? MemPlace{P.Root,
                                      P.Offset + First->getSExtValue() *
                                                     static_cast<int64_t>(Size),
                                      P.Stride}
                           : MemPlace{P.Root, P.Offset, gcdOf(P.Stride, Size)});
    noteAt(Base, 0, Src);
    NotingWeak = false;
  }

  /// A union's IR type names one member: its bytes may hold any other.
  static bool holdsUnion(Type *T) {
    if (auto *AT = dyn_cast<ArrayType>(T))
      return holdsUnion(AT->getElementType());
    auto *ST = dyn_cast<StructType>(T);
    if (!ST)
      return false;
    if (ST->hasName() && ST->getName().starts_with("union."))
      return true;
    return any_of(ST->elements(), holdsUnion);
  }

  /// Pointer arithmetic as the front end wrote it (FrontEndArithmetic:
  /// clang at -O0) is the source's: `p + n` on a `T *` is a one-index GEP
  /// of T, so the memory around the result holds T's, one every sizeof(T)
  /// bytes. (Optimised code also advances a pointer to a member by a
  /// struct's size so; clang never does.) A GEP's word, as for members.
  void noteSourceArithmetic(GetElementPtrInst &GEP, Function &F,
                            ArgPlaceList ArgPlaces) {
    Type *Src = GEP.getSourceElementType();
    if (!Src->isSized() || isa<ScalableVectorType>(Src) || holdsUnion(Src))
      return;
    uint64_t Size = DL.getTypeAllocSize(Src);
    if (!Size)
      return;
    NotingWeak = true;
    SmallVector<MemPlace, 4> Ps;
    for (const MemPlace &P : placesIn(&GEP, F, ArgPlaces))
      Ps.push_back({P.Root, P.Offset, gcdOf(P.Stride, Size)});
    noteAt(Ps, 0, Src);
    NotingWeak = false;
  }

  /// The type a local variable is allocated with, where it is a struct or
  /// an array of them (clang allocates a source variable with its type: at
  /// -O0, a struct whose int members and padding nothing accesses is copied
  /// whole), as a GEP's word: an access says more.
  void noteAllocatedType(AllocaInst &AI, Function &F, ArgPlaceList ArgPlaces) {
    Type *T = AI.getAllocatedType();
    while (auto *AT = dyn_cast<ArrayType>(T))
      T = AT->getElementType();
    if (!isa<StructType>(T) || AI.isArrayAllocation())
      return;
    NotingWeak = true;
    noteAt(placesIn(&AI, F, ArgPlaces), 0, AI.getAllocatedType());
    NotingWeak = false;
  }

  /// A local array or struct initialised from constants (`double a[2] =
  /// {2.5, 1.5}`) is a copy of a constant global whose initializer has
  /// the declared types: they type the copy's both ends.
  void noteConstantSource(MemTransferInst &MT) {
    auto *GV = dyn_cast<GlobalVariable>(getUnderlyingObject(MT.getSource()));
    if (!GV || !GV->isConstant() || !GV->hasDefinitiveInitializer() ||
        !NotedGlobals.insert(GV).second)
      return;
    noteAt({{GV, 0, 0}}, 0, GV->getValueType());
  }

  /// Clang describes the fields an aggregate copy moves in !tbaa.struct:
  /// (offset, size, tag) triples; the front end, where clang does not, in
  /// !tapestry.copy.types (Core/CopiedScalars.h).
  void noteStructTags(MemTransferInst &MT, ArrayRef<MemPlace> Ps) {
    if (std::optional<CopiedScalars> C = copiedScalars(MT)) {
      SmallVector<MemPlace, 4> Strided(Ps.begin(), Ps.end());
      if (C->Stride)
        for (MemPlace &P : Strided)
          P.Stride = gcdOf(P.Stride, C->Stride);
      for (auto [Off, T] : C->Scalars)
        noteAt(Strided, Off, T);
    }
    MDNode *M = MT.getMetadata(LLVMContext::MD_tbaa_struct);
    if (!M)
      return;
    for (unsigned I = 0; I + 2 < M->getNumOperands(); I += 3) {
      auto *Off = mdconst::dyn_extract<ConstantInt>(M->getOperand(I));
      auto *Size = mdconst::dyn_extract<ConstantInt>(M->getOperand(I + 1));
      auto *Tag = dyn_cast<MDNode>(M->getOperand(I + 2));
      if (!Off || !Size || !Tag)
        continue;
      if (Type *T = tbaaType(Tag, MT.getContext(), Size->getZExtValue()))
        noteAt(Ps, Off->getSExtValue(), T);
    }
  }

  /// Moves the facts of the copied window at \p From to \p To.
  bool transfer(const MemPlace &From, const MemPlace &To, uint64_t Size) {
    auto It = Out.Facts.find(Out.rep(From.Root));
    if (It == Out.Facts.end())
      return false;
    SmallVector<TypeFact, 8> Seen(It->second.begin(), It->second.end());
    bool Changed = false;
    for (const TypeFact &F : Seen) {
      uint64_t G = gcdOf(F.Stride, From.Stride);
      int64_t Rel = F.Offset - From.Offset;
      int64_t TS = storeSize(DL, F.T);
      if (!G) {
        if (Rel < 0 || (Size && Rel + TS > static_cast<int64_t>(Size)))
          continue;
      } else {
        Rel = normalise(Rel, G);
        if (Size && Rel >= static_cast<int64_t>(Size))
          continue;
      }
      Changed |=
          addFact(To.Root, To.Offset + Rel, gcdOf(G, To.Stride), F.T, F.Weak);
    }
    return Changed;
  }

  /// A BLAS routine's vector and matrix arguments are arrays of its
  /// precision (a buffer filled by memcpy and read only by cblas_ddot).
  void noteBlasArrays(CallBase &CB, Function &Caller,
                      ArgPlaceList CallerArgPlaces) {
    std::optional<BlasCall> BC = findBlasCall(CB);
    if (!BC || !BC->FPTy)
      return;
    uint64_t ES = storeSize(DL, BC->FPTy);
    for (BlasArg Arr :
         {BlasArg::A, BlasArg::B, BlasArg::C, BlasArg::X, BlasArg::Y}) {
      if (!BC->has(Arr))
        continue;
      Value *Ptr = CB.getArgOperand(BC->index(Arr));
      if (!Ptr->getType()->isPointerTy())
        continue;
      SmallVector<MemPlace, 4> Strided;
      for (const MemPlace &P : placesIn(Ptr, Caller, CallerArgPlaces))
        Strided.push_back({P.Root, P.Offset, gcdOf(P.Stride, ES)});
      noteAt(Strided, 0, BC->FPTy);
    }
  }

  void visitCall(CallBase &CB, Function &Caller, ArgPlaceList CallerArgPlaces,
                 unsigned Depth) {
    noteBlasArrays(CB, Caller, CallerArgPlaces);
    Function *Callee = CB.getCalledFunction();
    // A known-inactive helper's body (qsort's permutation, which copies the
    // elements next to integer indices in a buffer of its own) says nothing
    // about the caller's memory: its copies would mix those integers in.
    if (!Callee || Callee->isDeclaration() ||
        isKnownInactiveFunction(Callee->getName()) || Visited.contains(Callee))
      return;
    if (Depth == 0) {
      Out.CalleeDepthReached = true;
      return;
    }
    // Callees are analysed once per call site and path, so deep call trees
    // with several calls per function grow exponentially with the depth:
    // stop at a budget (what was not seen leaves types unknown, which the
    // synthesizers reject, never guess).
    if (Out.CalleeCopies >= CalleeCopyBudget) {
      Out.CalleeBudgetReached = true;
      return;
    }
    Visited.insert(Callee);
    ++Out.CalleeCopies;
    SmallVector<SmallVector<MemPlace, 2>, 8> ArgPlaces;
    for (Value *A : CB.args()) {
      ArgPlaces.emplace_back();
      if (A->getType()->isPointerTy())
        for (const MemPlace &P : placesIn(A, Caller, CallerArgPlaces))
          ArgPlaces.back().push_back(P);
    }
    // Callees are seen as the front end wrote them (parameters spilled to
    // the stack at -O0 or before optimisation): promote those slots first,
    // on a copy, so that accesses through a parameter are seen as such.
    Function *Copy = clonePromoted(*Callee);
    Clones.push_back(Copy);
    visit(*Copy, ArgPlaces, Depth - 1);
    Visited.erase(Callee);
  }

  TypeInfo &Out;
  const DataLayout &DL;
  const bool FrontEndArithmetic;
  bool NotingWeak = false;
  SmallVector<Function *, 4> Clones;
  SmallVector<PtrSlot, 16> PtrSlots;

public:
  /// The function analysed (callees' copies record no pointer slots).
  const Function *Top = nullptr;

private:
  SmallVector<Copy, 8> Copies;
  SmallPtrSet<Function *, 8> Visited;
  SmallPtrSet<const GlobalVariable *, 4> NotedGlobals;
};

} // namespace

TypeInfo computeTypes(Function &F, unsigned Depth, Function *CallersOf,
                      bool FrontEndArithmetic) {
  return analyse(F, Depth, CallersOf, MaxCallerLevels, FrontEndArithmetic);
}

namespace {
TypeInfo analyse(Function &F, unsigned Depth, Function *CallersOf,
                 unsigned CallerLevels, bool FrontEndArithmetic) {
  TypeInfo Info;
  Info.DL = &F.getParent()->getDataLayout();
  TypeInference TI(Info, *Info.DL, FrontEndArithmetic);
  TI.Top = &F;
  TI.visit(F, {}, Depth);
  if (CallersOf && CallerLevels)
    TI.importCallerFacts(F, *CallersOf, Depth, CallerLevels);
  TI.resolveAliases();
  TI.unifyCopies();
  TI.dropClones();
  ++NumTypeAnalyses;
  NumTypeCalleeCopies += Info.CalleeCopies;
  NumTypeBudgetReached += Info.CalleeBudgetReached;
  return Info;
}
} // namespace

void TypeInfo::print(raw_ostream &OS, const Function &F) const {
  OS << "types of '" << F.getName() << "':\n";
  auto PrintRoot = [&](const Value *V, StringRef Label) {
    OS << "  " << Label << ": ";
    SmallVector<TypeFact, 4> Fs;
    for (const Value *R : roots(V)) {
      auto It = Facts.find(rep(R));
      if (It != Facts.end())
        Fs.append(It->second.begin(), It->second.end());
    }
    if (Fs.empty())
      OS << "unknown";
    llvm::stable_sort(Fs, [](const TypeFact &A, const TypeFact &B) {
      return A.Stride != B.Stride ? A.Stride < B.Stride : A.Offset < B.Offset;
    });
    for (unsigned I = 0; I < Fs.size(); ++I) {
      OS << (I ? ", " : "") << "[" << Fs[I].Offset;
      if (Fs[I].Stride)
        OS << " + " << Fs[I].Stride << "i";
      OS << "] " << *Fs[I].T << (Fs[I].Weak ? "?" : "");
    }
    OS << "\n";
  };
  for (const Argument &A : F.args())
    if (A.getType()->isPointerTy())
      PrintRoot(&A, ("arg %" + A.getName()).str());
  for (const Instruction &I : instructions(F))
    if (I.getType()->isPointerTy() && root(&I) == &I)
      PrintRoot(&I, ("%" + I.getName()).str());
  if (CalleeBudgetReached)
    OS << "  callee budget reached: " << CalleeCopies
       << " callee bodies analysed, the rest unseen\n";
}

PreservedAnalyses TypePrinterPass::run(Function &F, FunctionAnalysisManager &) {
  if (!F.isDeclaration())
    computeTypes(F).print(OS, F);
  return PreservedAnalyses::all();
}

} // namespace tapestry
