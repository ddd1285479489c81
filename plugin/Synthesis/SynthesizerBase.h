//===- SynthesizerBase.h - What forward and reverse mode share --*- C++ -*-===//
//
// Both modes clone the prepared primal into a new function with the
// derivative signature and give every shadowed pointer a shadow computed next
// to it (ShadowMemory.cpp). The mode classes add tangents (forward) or
// adjoints and the reverse sweep (reverse).
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_SYNTHESIS_SYNTHESIZERBASE_H
#define TAPESTRY_SYNTHESIS_SYNTHESIZERBASE_H

#include "Analysis/ActivityAnalysis.h"
#include "Analysis/InlinedTypes.h"
#include "Analysis/RuntimeActivity.h"
#include "Analysis/TapeAnalysis.h"
#include "Analysis/TypeAnalysis.h"
#include "Core/Batch.h"
#include "Core/ConstantOutParams.h"
#include "Core/CustomRules.h"
#include "Core/DiffRequest.h"
#include "Synthesis/DerivativeRules.h"
#include "Synthesis/DerivativeSignature.h"
#include "Synthesis/SupportedInstructions.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/ValueMapper.h"
#include <memory>
#include <string>

namespace llvm {
class GlobalVariable;
class DominatorTree;
class LoopInfo;
class ScalarEvolution;
} // namespace llvm

namespace tapestry {

/// How a caller's derivative calls a callee's split derivative: the
/// augmented forward allocates the callee's tape and returns it (with the
/// primal result: `{ptr, T}`), the reverse consumes and frees it.
struct CalleeSplit {
  /// (primal and shadow args...) -> ptr tape, or {ptr tape, T primal}.
  llvm::Function *Augmented = nullptr;
  /// (primal and shadow args..., [seed], ptr tape) -> adjoints.
  llvm::Function *Reverse = nullptr;
  /// For a split caller, which keeps the callee's tapes for its own
  /// release: (primal and shadow args..., ptr list) -> as Augmented, where
  /// the tape sits behind a 16-byte header whose first word links it into
  /// the list whose head is at `list` (one list per call site)...
  llvm::Function *KeptAugmented = nullptr;
  /// The bytes of that header.
  static constexpr uint64_t KeptTapeHeaderBytes = 16;
  /// ...the callee's own reverse, which does not free that tape (a stub
  /// while a recursive callee is built, replaced by it)...
  llvm::Function *KeptReverse = nullptr;
  /// ...and (ptr first) -> void, which releases and frees each tape of a
  /// list, calling the callee's release directly (no function address is
  /// kept in memory, so that the caller's derivative can be differentiated
  /// again).
  llvm::Function *KeptRelease = nullptr;
  /// Why the callee's reverse may not run twice on one tape, as a clause
  /// after its name ("whose own tape ..."); empty when it
  /// may (a function's split that calls itself assumes that it may: by
  /// induction on the depth of the recursion, that holds if the rest of
  /// its reverse allows it).
  std::string NotReplayable;
  /// The tapes come from the thread's tape arena (DiffRequest::LifoTapes):
  /// Augmented and KeptAugmented take them there, Reverse gives its tape
  /// back together with everything taken after it, and KeptRelease leaves
  /// its tapes to that (TapeCache.h).
  bool Lifo = false;
};

/// What a synthesizer works from.
struct SynthesisInput {
  const DiffRequest &Request;
  /// The prepared (simplified, inlined) clone of the user's function.
  llvm::Function &Primal;
  const CustomRules &Rules;
  const ActivityInfo &Activity;
  /// What the reverse sweep may recompute instead of caching.
  const TapePlan &Tape;
  /// The canonical induction variable (0, 1, 2, ...) of each loop header
  /// that has one, inserted by primal preparation.
  const llvm::DenseMap<const llvm::BasicBlock *, llvm::PHINode *> &LoopIVs;
  /// Analyses of the prepared primal.
  llvm::DominatorTree &DT;
  llvm::LoopInfo &LI;
  llvm::ScalarEvolution &SE;
  /// The derivative for a callee's request (memoised; may be a declaration
  /// while that derivative is still being built, for recursion).
  llvm::function_ref<llvm::Function *(const DiffRequest &)> Callee;
  /// Reverse mode: the split derivative of a callee (memoised; the
  /// functions may still be empty while it is built, for recursion).
  llvm::function_ref<CalleeSplit(const DiffRequest &)> CalleeSplitFor;
  /// Globals with shadows (Analysis/GlobalShadows.h).
  const GlobalShadows *Globals = nullptr;
};

class SynthesizerBase {
  /// Decides what can be differentiated (Synthesis/SupportedInstructions.h).
  friend class SupportedInstructions;

protected:
  explicit SynthesizerBase(const SynthesisInput &In);

  /// Clones the primal into the derivative function G.
  void createFunction();
  /// Reports an error at primal instruction \p PI (or the request's
  /// function) and marks the synthesis failed.
  void fail(const llvm::Instruction *PI, const llvm::Twine &Msg);
  /// Erases the clones of the primal's writes into memory the caller marked
  /// enzyme_dupnoneed (Synthesis/UnneededPrimalWrites.h); their shadow
  /// writes stay. Returns the clones' primal instructions.
  llvm::SmallVector<llvm::Instruction *, 8> dropUnneededPrimalWrites();
  /// Forward mode: whether \p Ptr points only into enzyme_dupnoneed
  /// arguments whose memory updatesOnlyItself (UnneededPrimalWrites.h); a
  /// callee given it gets enzyme_dupnoneed too.
  bool passesUnneededMemory(const llvm::Value *Ptr) const;
  /// For a function returning a pointer whose shadow its caller needs
  /// (calleeRequest): a pointer it may return that has no shadow (a
  /// global's address, a constant parameter), looking through phis,
  /// selects, address arithmetic and the local variable -O0 returns
  /// through; null if every one has a shadow (or is null).
  const llvm::Value *unshadowedReturn(const llvm::Value *RV) const;
  /// strtod and its family store where the number ends, a pointer into the
  /// text, through their second argument: its shadow gets the same offset
  /// into the text's shadow (the text itself if it has none), so that a
  /// parser's cursor kept in differentiated memory keeps a shadow.
  void storeEndPointerShadow(llvm::CallBase &CB);
  /// The error for such a pointer, at \p Ret.
  void failUnshadowedReturn(const llvm::Instruction *Ret);
  /// True if differentiating a call through request \p CR has nothing to
  /// do: no argument or result carries a derivative, and the callee touches
  /// no global with a shadow.
  bool hasNoDerivative(const DiffRequest &CR) const;

  /// The clone of a primal value (constants map to themselves).
  llvm::Value *primal(llvm::Value *PV) const;
  llvm::Instruction *primal(llvm::Instruction *PI) const {
    return llvm::cast<llvm::Instruction>(VMap.lookup(PI));
  }
  llvm::BasicBlock *primal(llvm::BasicBlock *PB) const {
    return llvm::cast<llvm::BasicBlock>(VMap.lookup(PB));
  }

  /// The shadow of a primal pointer: an argument's shadow, null for null,
  /// or the shadow created for an instruction. Reports an error and returns
  /// null if the pointer has none.
  llvm::Value *shadowOf(llvm::Value *PV, const llvm::Instruction *User);
  /// The parameter without a shadow whose memory \p P points into,
  /// through addresses computed from it and pointers loaded from it (a
  /// std::vector's elements), or null.
  const llvm::Argument *constantArgumentBehind(const llvm::Value *P) const;
  /// Creates the shadow of a shadowed pointer instruction right after its
  /// clone. Shadow phis get their incoming values in finishShadowPhis().
  void createShadow(llvm::Instruction &PI);
  void finishShadowPhis();
  /// Lowers every access of the derivative that assumes more alignment
  /// than its scalar type's to that type's: a shadow block is only as
  /// aligned as malloc makes it, and which accesses go through a shadow is
  /// not tracked.
  void relaxAccessAlignments();
  /// Repeats a call that only links or walks a pointer structure
  /// (isShadowMirrorCall) on the shadows, lane by lane; returns the shadow
  /// of its pointer result, or null (Synthesis/MirroredCalls.cpp).
  llvm::Value *mirrorCall(llvm::CallBase &CB);
  /// posix_memalign(&p, align, size) with p in shadowed memory: allocates
  /// the shadow block the same way into p's shadow and zeroes it; returns
  /// the shadow blocks, one per lane (Synthesis/OutParamAllocations.cpp).
  llvm::SmallVector<llvm::Value *, 4>
  allocateOutParamShadow(llvm::CallBase &CB);
  /// What the \p Size bytes (0: not known at compile time) a copy moves
  /// from \p Src to \p Dst hold, from both ends' types (TypeAnalysis);
  /// reports an error at \p At and returns false where the reverse sweep
  /// cannot tell which parts hold floating-point data.
  bool copyLayout(llvm::Value *Dst, llvm::Value *Src, uint64_t Size,
                  const llvm::Instruction *At, ByteLayout &Out);
  /// The (offset, type) parts of \p L whose type satisfies \p Keep (they
  /// repeat every L.Period bytes).
  static llvm::SmallVector<std::pair<uint64_t, llvm::Type *>, 8>
  partsOf(const ByteLayout &L, llvm::function_ref<bool(llvm::Type *)> Keep);
  /// The table rule for a math call (directly or through
  /// __enzyme_function_like), or null.
  const DerivativeRule *ruleFor(const llvm::CallBase &CB) const;
  /// The pointers into shadowed memory through which a call stores
  /// floating-point values with derivative zero (Core/ConstantOutParams.h:
  /// modf's integer part, std::cin >> x, sscanf's %lf), with the values'
  /// types; the shadow there is zeroed.
  llvm::SmallVector<ConstantOut, 2>
  constantOutParams(const llvm::CallBase &CB) const;
  /// Checks a registered derivative's signature against the one its
  /// function implies; reports both on mismatch.
  bool checkCustomSignature(const llvm::Function &Callee,
                            const llvm::Function &Custom, llvm::StringRef Role,
                            llvm::FunctionType *Expected,
                            const llvm::Instruction *At);
  /// The request for differentiating call \p CB (to a function with a body
  /// that was not inlined: recursion) in this request's mode.
  DiffRequest calleeRequest(llvm::CallBase &CB) const;
  /// True if \p SI puts a value that carries a derivative where no shadow
  /// keeps it although it matters: a global, or memory read back later.
  bool losesDerivative(llvm::StoreInst &SI) const;
  /// True if some load of the function may read what is written through
  /// \p Ptr.
  bool isReadBack(const llvm::Value *Ptr) const;
  /// True if, after \p Write, the function reads back from \p GV (a global
  /// the user declared inactive) a floating-point value whose derivative
  /// matters to the result: a load, a callee given \p GV that returns one,
  /// or a copy out of it. Earlier reads (a warm start from the last call),
  /// integers (a counter beside the data) and calls whose result does not
  /// matter (a logger) do not count.
  bool isReadBackWithDerivative(const llvm::Instruction &Write,
                                const llvm::GlobalVariable &GV) const;
  /// The same for a copy \p MT of memory that may hold derivatives
  /// (memcpy, memmove, std::copy) into memory without a shadow.
  bool losesDerivative(llvm::MemTransferInst &MT);
  /// True if \p SI writes an integer (not an address, not bytes an integer
  /// load copies) over bytes the type analysis says hold floating-point
  /// data (a double's bits memcpy'd in from an integer): the value there
  /// is then one that carries no derivative, as a stored constant.
  bool overwritesFloats(llvm::StoreInst &SI);
  /// Reports an active value stored (or, \p Copied, copied) where no
  /// shadow receives its derivative.
  void reportLostStore(llvm::Instruction &I, bool Copied = false);
  /// Rejects a call to a function the user declared inactive that may
  /// write differentiated data read afterwards (Synthesis/InactiveCalls.cpp).
  void checkInactiveDeclaredCall(llvm::CallBase &CB);

  /// Runtime activity: an active value \p SI stores through a pointer that
  /// may be constant (its shadow \p SPtr may be the pointer itself) and
  /// that is read back would lose its derivative where the pointer turns
  /// out constant: the primal stops there at run time with the reason.
  void checkStoreThroughConstant(llvm::StoreInst &SI, llvm::Value *SPtr);
  /// The same for a copy \p MT of memory with a shadow into memory that may
  /// be constant: where the destination turns out constant and the source
  /// does not, and the bytes are read back.
  void checkCopyThroughConstant(llvm::MemTransferInst &MT);
  /// Runtime activity: true if lane shadow \p SK of the primal pointer
  /// \p GP marks it constant (is the pointer itself).
  llvm::Value *isConstantShadow(llvm::IRBuilderBase &B, llvm::Value *SK,
                                llvm::Value *GP);
  /// Where a derivative access of type \p T through shadow lane \p SK goes:
  /// the shadow, or a scratch slot when it marks \p GP constant.
  llvm::Value *guardedShadow(llvm::IRBuilderBase &B, llvm::Value *SK,
                             llvm::Value *GP, llvm::Type *T);
  /// Runtime activity: the byte count \p Len of a derivative copy or fill
  /// through shadow lane \p SK, or zero where \p SK marks \p GP constant
  /// (no \p GP: \p Len).
  llvm::Value *bytesUnlessConstant(llvm::IRBuilderBase &B, llvm::Value *Len,
                                   llvm::Value *SK, llvm::Value *GP);
  /// Runtime activity: \p Len where \p SK marks \p GP constant, else zero.
  llvm::Value *bytesIfConstant(llvm::IRBuilderBase &B, llvm::Value *Len,
                               llvm::Value *SK, llvm::Value *GP);
  /// Runtime activity: a copy \p MT whose source may be constant moves
  /// primal values where it is: \p Fn becomes the helper that zeroes the
  /// floating-point parts of the destination's shadow (null if none).
  /// False, with an error, where the copy's layout is unknown.
  bool constantSourceZeroFn(llvm::MemTransferInst &MT, llvm::Function *&Fn);
  /// True if the memory a copy \p MT moves is known to hold pointers and
  /// no floating-point data: its shadow holds the pointers' shadows.
  bool copiesOnlyPointers(llvm::MemTransferInst &MT);
  /// Repeats the copy \p MT of pointers on the shadow memory: the source's
  /// shadow, or (constant pointers) the source itself.
  void copyConstantPointerShadows(llvm::IRBuilderBase &B,
                                  llvm::MemTransferInst &MT);
  /// True if the pointer store \p SI into shadowed memory has a shadow to
  /// store beside it: the value has a shadow, is a constant pointer whose
  /// shadow is itself (runtime activity), or is null. A null must clear the
  /// shadow slot too: a list's link reset to null before it is relinked
  /// (a hash table's rehash) would otherwise keep the old node's shadow,
  /// and the shadow list would loop.
  bool storesPointerShadow(llvm::StoreInst &SI) const;
  /// The shadow stored beside the pointer \p Val stored into shadowed
  /// memory: its shadow, or (a constant pointer) the pointer itself.
  llvm::Value *shadowToStore(llvm::IRBuilderBase &B, llvm::Value *Val,
                             const llvm::Instruction *At);
  /// Where \p SI stores an address as an integer (store i64 ptrtoint(P):
  /// std::function keeping a lambda's captured reference in its storage)
  /// into shadowed memory: P's shadow (or, for a constant pointer, P) as
  /// the same integer, computed at \p B, for the shadow memory; else null.
  llvm::Value *addressShadowToStore(llvm::IRBuilderBase &B,
                                    llvm::StoreInst &SI);
  /// A masked store or scatter of pointers \p CB into shadowed memory
  /// (vectorised code filling a pointer table): stores their shadows (or,
  /// for constant pointers, the pointers themselves) into the shadow memory
  /// under the same mask, at \p B.
  void storePointerShadows(llvm::IRBuilderBase &B, llvm::CallBase &CB);
  /// The address in the companion of a shadow global (GlobalShadows::
  /// companionOf) at the offset \p ShadowAddr points to in that shadow
  /// global, or null if \p ShadowAddr is not into one.
  llvm::Value *companionAddress(llvm::IRBuilderBase &B,
                                llvm::Value *ShadowAddr);
  /// Where a derivative stores a pointer's shadow at \p ShadowAddr in a
  /// shadow global, records the pointer \p Primal it stored it for in the
  /// companion, at \p B.
  void recordStoredPrimal(llvm::IRBuilderBase &B, llvm::Value *ShadowAddr,
                          llvm::Value *Primal, llvm::Align A);
  /// Makes the derivative stop with a message where \p CB, the fallback of
  /// a dispatched indirect call, is reached with active values.
  void stopAtUnknownCallee(llvm::CallBase &CB);
  /// The types memory holds (TypeAnalysis), computed on first need.
  TypeInfo &types();
  /// The same, DeepTypeDepth levels of callees deep and with what the
  /// function's callers do with the memory they pass (computed on first
  /// need: where types() cannot tell, or says integers a caller reads as
  /// floating-point data).
  TypeInfo &deepTypes();
  /// The same, on a copy of the function with its small callees inlined
  /// (Analysis/InlinedTypes.h); computed only where deepTypes cannot tell.
  InlinedTypes &inlinedTypes();

  llvm::Module &module() const;

  // OpenMP (Synthesis/OpenMPRegions.cpp).
  /// The request for the body of parallel region \p Fork: its pointer
  /// arguments with or without shadows, adjoints added atomically.
  DiffRequest regionRequest(llvm::CallBase &Fork);
  static bool isRegionConstant(const DiffRequest &CR);
  /// In a parallel region's body: true if \p Ptr may point to memory other
  /// threads share (not the thread's stack or its own allocations).
  bool isSharedMemory(llvm::Value *Ptr) const;
  /// Rejects OpenMP constructs Tapestry cannot differentiate; false after
  /// reporting one.
  bool checkOpenMPCall(llvm::CallBase &CB);

  /// Batch mode: the type carrying W derivatives of a value of type \p T,
  /// and lane \p K of such a value (both the identity at width 1).
  llvm::Type *batchTy(llvm::Type *T) const { return batchType(T, W); }
  llvm::Value *lane(llvm::IRBuilderBase &B, llvm::Value *V, unsigned K) const {
    return extractLane(B, V, K, W);
  }
  /// Builds a batch value of type batchTy(\p T) lane by lane.
  llvm::Value *lanes(llvm::IRBuilderBase &B, llvm::Type *T,
                     llvm::function_ref<llvm::Value *(unsigned)> Fn) const {
    return perLane(B, T, W, Fn);
  }

  const DiffRequest &R;
  /// The batch width: derivatives per value.
  const unsigned W;
  llvm::Function &P;
  const CustomRules &Rules;
  const ActivityInfo &AI;
  const TapePlan &Tape;
  const llvm::DenseMap<const llvm::BasicBlock *, llvm::PHINode *> &LoopIVs;
  llvm::function_ref<llvm::Function *(const DiffRequest &)> CalleeDerivative;
  llvm::function_ref<CalleeSplit(const DiffRequest &)> CalleeSplitFor;
  const GlobalShadows *Globals;
  DerivativeSignature Sig;
  llvm::Function *G = nullptr;
  llvm::ValueToValueMapTy VMap;
  /// Shadows of primal pointers, keyed by primal value.
  llvm::DenseMap<const llvm::Value *, llvm::Value *> Shadows;
  bool Failed = false;
  /// Computed on first need (most functions copy no memory).
  std::unique_ptr<TypeInfo> Types;
  /// The same, looking DeepTypeDepth levels of callees deep; computed only
  /// where Types cannot tell what a copy moves.
  std::unique_ptr<TypeInfo> DeepTypes;
  static constexpr unsigned DeepTypeDepth = 12;
  std::unique_ptr<InlinedTypes> Inlined;
  /// Pointers that may be constant at run time (createFunction()).
  RuntimeActivity RA;
  /// Scratch slots that receive accesses through constant pointers.
  llvm::DenseMap<llvm::Type *, llvm::AllocaInst *> ScratchSlots;
  /// What can be differentiated: both modes check every instruction with it
  /// before differentiating anything.
  SupportedInstructions Supported{*this};
};

} // namespace tapestry

#endif // TAPESTRY_SYNTHESIS_SYNTHESIZERBASE_H
