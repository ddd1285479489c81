//===- TypeAnalysis.h - Which memory holds floating-point data --*- C++ -*-===//
//
// LLVM 19 pointers are opaque, so what a pointer points to is inferred from
// what the code does with it: the types of loads and stores through it and
// through addresses computed from it, GEP element types, TBAA metadata
// (scalar tags on accesses, !tbaa.struct on aggregate copies), memcpy/memmove
// and integer load/store pairs that only move bytes (both ends hold the same
// data), and calls to functions with bodies (what the callee does with its
// parameter).
//
// Types are tracked per object AND byte offset: a place is an underlying
// object (an argument, an allocation, a loaded pointer, a global), a byte
// offset in it and a stride (the place repeats every Stride bytes: an array
// indexed by a variable; 0 means exactly that offset). A constant null or
// undef is no object: two pointers that may both be null share nothing.
//
// Reverse mode needs it where bytes move without a type: the adjoint of a
// memcpy or of an integer copy must add only the floating-point parts.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_ANALYSIS_TYPEANALYSIS_H
#define TAPESTRY_ANALYSIS_TYPEANALYSIS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/PassManager.h"
#include <cstdint>
#include <optional>

namespace llvm {
class BitCastInst;
class Instruction;
class DataLayout;
class Function;
class LoadInst;
class StoreInst;
class Type;
class Value;
class raw_ostream;
} // namespace llvm

namespace tapestry {

/// A place in memory: \p Offset bytes into \p Root and, if \p Stride is not
/// zero, every Offset + k * Stride.
struct MemPlace {
  const llvm::Value *Root;
  int64_t Offset;
  uint64_t Stride;
};

/// A scalar type (integer, floating-point or pointer) seen at a place of an
/// object (Offset normalised into [0, Stride) when Stride is not zero).
/// A fact only a GEP's element types state is Weak: optimised code indexes
/// from a member's address with the enclosing struct's type, so it yields
/// to what loads, stores, TBAA tags and copies say about the same bytes.
struct TypeFact {
  int64_t Offset;
  uint64_t Stride;
  llvm::Type *T;
  bool Weak = false;
  bool samePlaceAndType(const TypeFact &O) const {
    return Offset == O.Offset && Stride == O.Stride && T == O.T;
  }
};

/// What is known about a window of bytes: scalar types at byte offsets from
/// the window's start, repeating every Period bytes (0: no repetition).
struct ByteLayout {
  struct Part {
    uint64_t Offset;
    llvm::Type *T;
  };
  uint64_t Period = 0;
  llvm::SmallVector<Part, 8> Parts; // sorted by offset
  /// The size of the smallest floating-point type the objects hold at
  /// offsets the analysis could not place (accessed at a stride shorter
  /// than itself), or 0: one may be in a window that large even where no
  /// part says so.
  uint64_t UnplacedFloatSize = 0;
  /// The floating-point parts (float or double), one per offset.
  llvm::SmallVector<Part, 8> floatParts() const;
  /// True if a float and a double overlap (the bytes are read both ways).
  bool mixesFloatWidths(const llvm::DataLayout &DL) const;
  bool hasPointers() const;
  bool empty() const { return Parts.empty(); }
  /// Adds a part of type \p T at every multiple of its size where no part
  /// covers its bytes, over the window (the period if there is one, else
  /// the \p Size bytes; nothing if neither is known). Used where the
  /// window is known to be an array of \p T with some elements untouched.
  void fillGaps(llvm::Type *T, uint64_t Size, const llvm::DataLayout &DL);
  /// True if 4 aligned bytes of the window (the period, else the \p Size
  /// bytes; unknown: true) are covered by no part and are not the padding
  /// after a 4-byte part that aligns an 8-byte part or the window's end:
  /// a float or a double nothing here accesses may be there.
  bool mayHideFloats(uint64_t Size, const llvm::DataLayout &DL) const;
};

/// The lanes of vector load \p LI that its users pick out, if every user
/// only picks lanes (extractelement with a constant index, shufflevector,
/// directly or after lane-wise arithmetic, comparisons and casts; lanes
/// picked after an integer reinterpretation do not count) and some lane is
/// never picked; nullopt otherwise. The vectoriser loads
/// a <16 x float> over structs {float w; double x, y} to pick the floats:
/// the other lanes are not floats, and neither the type analysis nor the
/// adjoint of the load may treat them as such.
std::optional<llvm::SmallBitVector> lanesPicked(const llvm::LoadInst &LI);
/// The same for any vector value \p V.
std::optional<llvm::SmallBitVector> lanesPickedOf(const llvm::Value &V);
/// True if \p BC reinterprets a vector of floating-point lanes as as many
/// integer lanes. (A load's lanes picked out through such a bitcast are
/// integers, not lanes of the load's type.)
bool isIntegerReinterpretation(const llvm::BitCastInst &BC);

class TypeInfo {
public:
  /// The scalar types accessed anywhere in the objects \p Ptr may point
  /// into, in first-seen order.
  llvm::SmallVector<llvm::Type *, 4> typesAt(const llvm::Value *Ptr) const;
  /// The single floating-point type of those objects, or null if they hold
  /// none or both float and double.
  llvm::Type *floatTypeAt(const llvm::Value *Ptr) const;
  /// The floating-point type whose one value fills the \p Size bytes at
  /// \p Ptr in every object it may point into (a part of that type and
  /// size at their start, no other floating-point type and no pointer
  /// among them), or null.
  llvm::Type *floatFilling(const llvm::Value *Ptr, uint64_t Size) const;
  /// What is known of the \p Size bytes at \p Ptr (0: a size not known at
  /// compile time), from every object \p Ptr may point into, and as well
  /// at \p Other if given (the other end of a copy).
  ByteLayout layoutAt(const llvm::Value *Ptr, uint64_t Size,
                      const llvm::Value *Other = nullptr) const;
  /// True if the 4 bytes at \p Ptr are, in every object it may point into,
  /// the padding after a 4-byte member that aligns an 8-byte one: no
  /// access covers them, a 4-byte one ends where they start (at an offset
  /// of 4 modulo 8) and one of 8 bytes or more starts where they end. (A
  /// copy of such bytes, SROA's i32 load and store of a struct's padding,
  /// moves no derivative.)
  bool isPaddingAt(const llvm::Value *Ptr) const;
  /// The places a pointer may point to (through GEPs, casts, phis,
  /// selects; never a null or undef constant).
  static llvm::SmallVector<MemPlace, 4> places(const llvm::Value *Ptr);
  /// The memory root of a pointer: the object its address is computed from.
  static const llvm::Value *root(const llvm::Value *Ptr);
  /// Every object a pointer may be computed from (no null or undef).
  static llvm::SmallVector<const llvm::Value *, 4>
  roots(const llvm::Value *Ptr);

  void print(llvm::raw_ostream &OS, const llvm::Function &F) const;

  /// The object that stands for \p Root: pointers stored at and loaded
  /// from the same place (a vector's data pointer, reloaded after it grew)
  /// point to the same memory.
  const llvm::Value *rep(const llvm::Value *Root) const {
    auto It = Alias.find(Root);
    return It == Alias.end() ? Root : It->second;
  }

  llvm::DenseMap<const llvm::Value *, llvm::SmallVector<TypeFact, 4>> Facts;
  llvm::DenseMap<const llvm::Value *, const llvm::Value *> Alias;
  const llvm::DataLayout *DL = nullptr;
  /// Callee bodies looked into, and whether more were left unseen because
  /// `-tapestry-type-callee-budget` was reached.
  unsigned CalleeCopies = 0;
  bool CalleeBudgetReached = false;
  /// Whether callees with bodies lay deeper than the analysis looked.
  bool CalleeDepthReached = false;
};

/// Metadata on a derivative request call: per parameter of the function
/// it differentiates, the index of the call operand passing the parameter's
/// primal value, or -1 (Passes/TapestryPass.cpp records it before any
/// request is resolved). With it, the type analysis reads what the
/// requesting code does with the memory it passes, as it does for direct
/// callers.
inline constexpr const char *RequestPrimalsMD = "tapestry.request.primals";

/// Infers the types of the memory that \p F's pointers reach, looking into
/// callees with bodies (to \p Depth levels). With \p CallersOf (the
/// function \p F is a copy of), also from what its direct callers do with
/// the memory they pass to its pointer parameters. \p FrontEndArithmetic:
/// \p F's pointer arithmetic is still the front end's (code compiled at
/// -O0, whose preparation only promoted and inlined): a one-index GEP of a
/// type then says the memory holds elements of that type.
TypeInfo computeTypes(llvm::Function &F, unsigned Depth = 4,
                      llvm::Function *CallersOf = nullptr,
                      bool FrontEndArithmetic = false);

/// True if \p LI is an integer (or integer vector) load that only moves
/// bytes: every use stores it unchanged (an aggregate copy the optimiser
/// emitted as i64, i128 or <2 x i64>, a union's integer member copied).
/// Such a load and its stores are a copy, not a statement of type.
bool isCopyLoad(const llvm::LoadInst &LI);
/// The scalar type the TBAA access tag of the load or store \p I names
/// (`long` for a std::list's element count): null without a tag, for
/// char (which may be anything) and for names not known here.
llvm::Type *tbaaAccessType(const llvm::Instruction &I);

/// The stores an integer load \p LI reaches only as a choice (phis and
/// selects among it and other values, then stored unchanged): bytes moved
/// like a copy, chosen on the way (a one-element memcpy made on two paths).
/// Empty if it is used otherwise, or stored without a choice (isCopyLoad).
llvm::SmallVector<const llvm::StoreInst *, 2>
choiceCopyStores(const llvm::LoadInst &LI);

/// True if \p V is a phi or select whose values, through other phis and
/// selects, include a load that choiceCopyStores moves: a store of \p V
/// copies bytes (from that load) rather than saying what the memory holds.
bool choosesCopiedLoad(const llvm::Value &V);

/// `opt -passes='print<tapestry-types>'`: prints, for every function with a
/// body, each pointer argument's and memory root's inferred types, as
/// `[offset] type` or `[offset + stride*i] type`.
class TypePrinterPass : public llvm::PassInfoMixin<TypePrinterPass> {
public:
  explicit TypePrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
  static bool isRequired() { return true; }

private:
  llvm::raw_ostream &OS;
};

} // namespace tapestry

#endif // TAPESTRY_ANALYSIS_TYPEANALYSIS_H
