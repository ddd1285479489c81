//===- SourceCopyTypes.cpp - The front end's copy types on memcpys --------===//
//
// Implements SourceCopyTypes.h. A memory transfer matches an entry when its
// debug location lies within the copy expression's source range (the
// innermost such range wins), the entry's object fits its length, and the
// entry belongs to the transfer's function; an entry of another function
// (a lambda's, code inlined at link time) is used only when every candidate
// describes the same bytes.
//
//===----------------------------------------------------------------------===//
#include "Passes/SourceCopyTypes.h"

#include "Core/CopiedScalars.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Path.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include <string>
#include <tuple>
#include <vector>

using namespace llvm;

namespace {

constexpr StringRef TableName = "__tapestry_copy_types";

/// Copies of an array repeat the element's description up to this many
/// times; longer ones are described by a stride.
constexpr uint64_t MaxRepeats = 32;

struct SourcePos {
  unsigned Line = 0, Col = 0;
  bool operator<=(const SourcePos &O) const {
    return std::tie(Line, Col) <= std::tie(O.Line, O.Col);
  }
};

struct CopyEntry {
  SmallVector<StringRef, 2> Functions;
  SourcePos Begin, End;
  uint64_t Stride = 0, Size = 0;
  StringRef Layout; ///< offset:kind,... (identical text, identical bytes)

  bool within(const CopyEntry &O) const {
    return O.Begin <= Begin && End <= O.End;
  }
};

bool parsePos(StringRef S, SourcePos &P) {
  auto [L, C] = S.split(':');
  return !L.getAsInteger(10, P.Line) && !C.getAsInteger(10, P.Col);
}

class CopyTable {
public:
  /// Reads every table global of \p M (one per unit linked together).
  /// Returns false if there is none.
  bool read(Module &M) {
    for (GlobalVariable &GV : M.globals()) {
      if (!GV.getName().starts_with(TableName) || !GV.hasInitializer())
        continue;
      if (auto *CDS = dyn_cast<ConstantDataSequential>(GV.getInitializer()))
        if (CDS->isString())
          Texts.push_back(CDS->getAsCString().str());
      Tables.push_back(&GV);
    }
    for (const std::string &Text : Texts) {
      SmallVector<StringRef, 0> Lines;
      StringRef(Text).split(Lines, '\n', -1, /*KeepEmpty=*/false);
      for (StringRef Line : Lines)
        parse(Line);
    }
    return !Tables.empty();
  }

  void erase(Module &M) {
    SmallPtrSet<Constant *, 4> Gone(Tables.begin(), Tables.end());
    removeFromUsedLists(M, [&](Constant *C) { return Gone.count(C); });
    for (GlobalVariable *GV : Tables)
      GV->eraseFromParent();
  }

  /// What \p MT copies, if an entry describes it.
  std::optional<tapestry::CopiedScalars> describe(MemTransferInst &MT) const {
    const DebugLoc &Loc = MT.getDebugLoc();
    if (!Loc)
      return std::nullopt;
    auto It = ByFile.find(sys::path::filename(Loc->getFilename()));
    if (It == ByFile.end())
      return std::nullopt;
    auto *Len = dyn_cast<ConstantInt>(MT.getLength());
    SourcePos At{Loc.getLine(), Loc.getCol()};
    SmallVector<const CopyEntry *, 4> Found;
    for (unsigned I : It->second) {
      const CopyEntry &E = Entries[I];
      if (E.Begin <= At && At <= E.End && fits(E, Len))
        Found.push_back(&E);
    }
    // The function's own entries if it has any there, and of those the
    // innermost copy expression around the location.
    StringRef Fn = MT.getFunction()->getName();
    SmallVector<const CopyEntry *, 4> Own;
    for (const CopyEntry *E : Found)
      if (is_contained(E->Functions, Fn))
        Own.push_back(E);
    ArrayRef<const CopyEntry *> Pool = Own.empty() ? Found : Own;
    SmallVector<const CopyEntry *, 4> Use;
    for (const CopyEntry *E : Pool)
      if (none_of(Pool, [&](const CopyEntry *O) {
            return O != E && O->within(*E) && !E->within(*O);
          }))
        Use.push_back(E);
    if (Use.empty() || any_of(Use, [&](const CopyEntry *E) {
          return E->Layout != Use[0]->Layout || E->Size != Use[0]->Size ||
                 E->Stride != Use[0]->Stride;
        }))
      return std::nullopt;
    return scalars(*Use[0], Len, *MT.getModule());
  }

private:
  void parse(StringRef Line) {
    SmallVector<StringRef, 7> F;
    Line.split(F, '\t');
    CopyEntry E;
    if (F.size() != 7 || !parsePos(F[2], E.Begin) || !parsePos(F[3], E.End) ||
        F[4].getAsInteger(10, E.Stride) || F[5].getAsInteger(10, E.Size) ||
        !E.Size)
      return;
    F[0].split(E.Functions, ';', -1, /*KeepEmpty=*/false);
    E.Layout = F[6];
    ByFile[sys::path::filename(F[1])].push_back(Entries.size());
    Entries.push_back(std::move(E));
  }

  /// A copy of one object moves at most its bytes (less when the object
  /// may overlap another's tail padding); a copy of an array moves any
  /// number of elements.
  static bool fits(const CopyEntry &E, const ConstantInt *Len) {
    if (E.Stride)
      return !Len || Len->getZExtValue() % E.Stride == 0;
    return Len && Len->getZExtValue() && Len->getZExtValue() <= E.Size;
  }

  static Type *kindType(StringRef K, LLVMContext &C) {
    unsigned Bits = 0;
    if (K.consume_front("i"))
      return !K.getAsInteger(10, Bits) && Bits ? IntegerType::get(C, Bits)
                                               : nullptr;
    return StringSwitch<Type *>(K)
        .Case("f", Type::getFloatTy(C))
        .Case("d", Type::getDoubleTy(C))
        .Case("x", Type::getX86_FP80Ty(C))
        .Case("q", Type::getFP128Ty(C))
        .Case("h", Type::getHalfTy(C))
        .Case("b", Type::getBFloatTy(C))
        .Case("p", PointerType::getUnqual(C))
        .Default(nullptr);
  }

  static std::optional<tapestry::CopiedScalars>
  scalars(const CopyEntry &E, const ConstantInt *Len, const Module &M) {
    LLVMContext &C = M.getContext();
    const DataLayout &DL = M.getDataLayout();
    SmallVector<std::pair<uint64_t, Type *>, 8> One;
    SmallVector<StringRef, 8> Parts;
    E.Layout.split(Parts, ',', -1, /*KeepEmpty=*/false);
    for (StringRef P : Parts) {
      auto [OffText, Kind] = P.split(':');
      uint64_t Off;
      Type *T = kindType(Kind, C);
      if (OffText.getAsInteger(10, Off) || !T)
        return std::nullopt;
      One.push_back({Off, T});
    }
    uint64_t Length = Len ? Len->getZExtValue() : 0;
    uint64_t Copies = E.Stride && Len ? Length / E.Stride : 1;
    tapestry::CopiedScalars Out;
    if (E.Stride && (!Len || Copies > MaxRepeats)) {
      Out.Stride = E.Stride;
      Out.Scalars = One;
      return Out;
    }
    for (uint64_t K = 0; K < Copies; ++K)
      for (auto [Off, T] : One) {
        uint64_t At = K * E.Size + Off;
        // Bytes past a potentially-overlapping object's data are not copied.
        if (!Len || At + DL.getTypeStoreSize(T) <= Length)
          Out.Scalars.push_back({At, T});
      }
    return Out;
  }

  /// The tables' text, which the entries point into (all read before any
  /// is parsed).
  std::vector<std::string> Texts;
  SmallVector<GlobalVariable *, 2> Tables;
  std::vector<CopyEntry> Entries;
  StringMap<SmallVector<unsigned, 4>> ByFile;
};

} // namespace

namespace tapestry {

bool annotateSourceCopyTypes(Module &M) {
  CopyTable Table;
  if (!Table.read(M))
    return false;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *MT = dyn_cast<MemTransferInst>(&I))
        if (!MT->hasMetadata(LLVMContext::MD_tbaa_struct))
          if (auto Described = Table.describe(*MT))
            setCopiedScalars(*MT, *Described);
  Table.erase(M);
  setCopiesDescribed(M);
  return true;
}

} // namespace tapestry
