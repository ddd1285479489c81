//===- GlobalShadows.h - Shadows of global variables ------------*- C++ -*-===//
//
// A global variable that differentiated code writes with floating-point
// values (a file-scope scratch array, a result a callee leaves in a global
// for its caller) carries derivatives from where they are written to where
// they are read. Such a global gets a shadow: a zero-initialised global of
// the same type beside it, "<name>.tapestry.shadow" (lane K > 0 of a batch:
// "<name>.tapestry.shadow<K>"), which every derivative in the module shares,
// as Enzyme's implicit global shadows. So does a global the code stores a
// pointer into that may lead to derivatives (one computed at run time: an
// input array, a heap block; or the address of a global with a shadow): its
// shadow holds the shadow pointer for the code that loads the pointer back
// (a static context or work pointer read again after a call the analysis
// cannot see through). A global the code only reads is a constant, as
// before; one the user declared inactive has no shadow.
//
// The shadow lives as long as the program, but no derivative inherits the
// derivatives another left there: each request's call site zeroes the
// floating-point values of the implicit shadows its derivative uses (a
// thunk's augmented forward too; pointers stay, pointing to the shadows of
// what they point to), so a
// forward call's tangents are never read as a later reverse call's seeds
// (probe22a W2), nor a reverse call's leftover adjoints as tangents.
//
// A derivative nested in the code of another (the gradient inside a
// Hessian-vector product) uses these shadows; the outer derivative, which
// differentiates the inner one's code, uses shadows of its own depth
// ("<name>.tapestry.shadow.d1", DiffRequest::GlobalDepth), and shadows of
// the inner one's shadows, which that code writes (probe22a W1: one shadow
// for both gave 20 for a second derivative of 12).
//
// A shadow context (__enzyme_context, Passes/ShadowContexts.h) has shadows
// of its own, "<name>.tapestry.ctx<N>" (lane K > 0: "...ctx<N>.<K>"), which
// the derivatives requested in it use instead. Their initial value is the
// global's own with every floating-point value zero and every pointer to
// another global pointing to that global's shadow in the same context and
// lane (a descriptor's shadow points to the shadow of its data).
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_ANALYSIS_GLOBALSHADOWS_H
#define TAPESTRY_ANALYSIS_GLOBALSHADOWS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <string>
#include <vector>

namespace llvm {
class Constant;
class Function;
class GlobalVariable;
class Instruction;
class IRBuilderBase;
class Module;
class Type;
class Value;
} // namespace llvm

namespace tapestry {

class CustomRules;

/// True if the pointer \p V is only compared, turned into an integer (a
/// block's size from its end), or released, and the pointers read from the
/// block it points to likewise (a vector's buffer, deleted with the
/// vector), here or, where \p Copies maps a callee to its promoted copy,
/// in a callee given it (a destructor): nothing reads values through it.
/// An owner's old pointer read only to release its block (unique_ptr::
/// reset) is such a pointer.
bool releasesOnly(
    const llvm::Value &V,
    const llvm::DenseMap<llvm::Function *, llvm::Function *> *Copies = nullptr);

class GlobalShadows {
public:
  /// The globals that the functions of \p M in \p Reachable (those a
  /// request differentiates, and their callees) write with floating-point
  /// values that are not constants, or with pointers that may lead to
  /// derivatives, in the module's order.
  /// At \p Depth > 0 (DiffRequest::GlobalDepth) the shadows are those of
  /// that depth, and the globals include the shadows of lesser depths that
  /// the inner derivatives in the reachable code write.
  static GlobalShadows
  collect(llvm::Module &M,
          const llvm::SmallPtrSetImpl<llvm::Function *> &Reachable,
          const CustomRules &Rules, unsigned Depth = 0);

  bool contains(const llvm::Value *V) const;
  /// True if \p F, or a function it calls, reads or writes a global with a
  /// shadow: a call to it has a derivative even if no argument has one.
  bool isTouchedBy(const llvm::Function *F) const { return Touching.count(F); }
  llvm::ArrayRef<llvm::GlobalVariable *> globals() const {
    return Globals.getArrayRef();
  }

  /// The shadow of lane \p Lane of the global \p G at nesting depth
  /// \p Depth (created on first use): "<name>.tapestry.shadow[<Lane>]" at
  /// depth 0, "<name>.tapestry.shadow.d<Depth>[.<Lane>]" deeper.
  static llvm::GlobalVariable *shadowOf(llvm::GlobalVariable &G,
                                        unsigned Lane = 0, unsigned Depth = 0);
  /// The shadow value of \p G in a derivative of width \p W: the shadow
  /// global, or an array of the W lanes' shadow globals.
  static llvm::Constant *batchShadowOf(llvm::GlobalVariable &G, unsigned W,
                                       unsigned Depth = 0);
  /// True if \p G is an implicit shadow (made by shadowOf).
  static bool isImplicitShadow(const llvm::GlobalVariable &G);
  /// True if \p G is an implicit shadow or a shadow context's.
  static bool isShadowGlobal(const llvm::GlobalVariable &G);
  /// The companion of shadow global \p Shadow (created on first use):
  /// "<shadow>.primal", where each derivative that stores a pointer's
  /// shadow into \p Shadow stores the pointer too, at the same offset. An
  /// owner's old block read back is then known to have the shadow the
  /// global holds only if the companion holds that block (no plain call
  /// replaced it since, no other derivative stored a marker for another).
  /// It is bookkeeping: never shadowed itself.
  static llvm::GlobalVariable *companionOf(llvm::GlobalVariable &Shadow);
  /// True if \p G is a companion (made by companionOf).
  static bool isCompanion(const llvm::GlobalVariable &G);
  /// Records that the program asked for \p Shadow, an implicit shadow of
  /// \p G (Enzyme's `__enzyme_shadow(&g, width, lane)`, without a
  /// context): the program seeds and reads it, so derivatives use it for
  /// \p G even where they only read \p G, and no request zeroes it.
  static void markQueried(llvm::GlobalVariable &G,
                          llvm::GlobalVariable &Shadow);
  /// True if \p G (a global or one of its shadows) was marked queried.
  static bool isQueried(const llvm::GlobalVariable &G);
  /// The nesting depth of implicit shadow \p G.
  static unsigned implicitShadowDepth(const llvm::GlobalVariable &G);
  /// The implicit shadows that derivative \p D and the functions it calls
  /// use, in the order first met.
  static llvm::SmallVector<llvm::GlobalVariable *, 4>
  implicitShadowsUsedBy(llvm::Function &D);
  /// Zeroes, at \p B, the floating-point values of the implicit shadows
  /// that the derivatives \p Ds use (a one-shot derivative, or both halves
  /// of a split), so that a request starts from no derivative of them (at
  /// its call site, or in a thunk's augmented forward); pointers in them
  /// stay. Emits nothing, and returns false, when they use none.
  static bool zeroImplicitShadows(llvm::IRBuilderBase &B,
                                  llvm::ArrayRef<llvm::Function *> Ds);
  /// True if values of \p T hold pointers.
  static bool holdsPointers(llvm::Type *T);
  /// True if values of \p T hold pointers and no floating-point values.
  static bool holdsOnlyPointers(llvm::Type *T);

  /// The globals with shadows in shadow context \p Context: those the
  /// functions in \p Reachable write with floating-point values, the
  /// globals in \p Queried (the program reads or seeds their shadows), and
  /// the globals these point to in their initial values.
  static GlobalShadows collectForContext(
      llvm::Module &M, const llvm::SmallPtrSetImpl<llvm::Function *> &Reachable,
      const CustomRules &Rules, llvm::ArrayRef<llvm::GlobalVariable *> Queried,
      unsigned Context);
  /// The shadow of lane \p Lane of \p G in shadow context \p Context
  /// (created, with the globals it points to, on first use).
  static llvm::GlobalVariable *contextShadowOf(llvm::GlobalVariable &G,
                                               unsigned Context, unsigned Lane);
  /// The shadow value of \p G in a derivative of width \p W that uses
  /// these shadows (implicit ones, or a context's).
  llvm::Constant *shadowFor(llvm::GlobalVariable &G, unsigned W) const;
  /// The context these shadows belong to (0: the implicit shadows).
  unsigned context() const { return Context; }

  /// A global the reachable code stores a pointer into that may lead to
  /// derivatives (an argument, a local array, a pointer read from memory),
  /// but that gets no shadow because not every read of it follows a store
  /// in the same call: what is read through it would be taken for
  /// constants.
  struct PointerWithoutShadow {
    /// A function that stores such a pointer into it, and where.
    const llvm::Function *SetIn;
    const llvm::Instruction *Store;
    /// Where its address goes where the analysis does not follow it (a
    /// call), or null.
    const llvm::Instruction *AddressUse = nullptr;
  };
  /// The global \p G's entry, or null.
  const PointerWithoutShadow *pointerWithoutShadow(const llvm::Value *G) const {
    auto It = Unshadowed.find(G);
    return It == Unshadowed.end() ? nullptr : &It->second;
  }

  /// Reports an error at each floating-point value the reachable code
  /// reads through a pointer loaded from such a global (it would be taken
  /// for a constant). Returns true if there is none.
  bool reportReadsWithoutShadow() const;

private:
  struct ReadWithoutShadow {
    const llvm::Function *F;
    const llvm::Instruction *Read;
    std::string Why;
  };

  /// The functions that use a shadowed global, then their callers.
  void findTouching(llvm::Module &M,
                    const llvm::SmallPtrSetImpl<llvm::Function *> &Reachable);

  unsigned Context = 0;
  unsigned Depth = 0;
  llvm::SmallSetVector<llvm::GlobalVariable *, 8> Globals;
  llvm::SmallPtrSet<const llvm::Function *, 8> Touching;
  llvm::DenseMap<const llvm::Value *, PointerWithoutShadow> Unshadowed;
  std::vector<ReadWithoutShadow> ReadsWithoutShadow;
};

} // namespace tapestry

#endif // TAPESTRY_ANALYSIS_GLOBALSHADOWS_H
