//===- GlobalContentReads.h - Reads through global pointers -----*- C++ -*-===//
//
// Where a global holds pointers that may lead to derivatives but gets no
// shadow, what the code reads through them would be taken for constants.
// GlobalContentReads finds those floating-point reads, following the
// global's address and the pointers loaded from it through the calls that
// stay calls in code as the front end writes it (C++ member functions given
// the global as `this`: std::unique_ptr::operator*, std::vector::operator[]).
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_ANALYSIS_GLOBALCONTENTREADS_H
#define TAPESTRY_ANALYSIS_GLOBALCONTENTREADS_H

#include "llvm/ADT/DenseMap.h"
#include <map>
#include <tuple>
#include <vector>

namespace llvm {
class Function;
class GlobalVariable;
class Instruction;
class User;
class Value;
} // namespace llvm

namespace tapestry {

class GlobalContentReads {
public:
  /// Works on the promoted copies \p Copies (original to copy) of the
  /// reachable functions.
  explicit GlobalContentReads(
      const llvm::DenseMap<llvm::Function *, llvm::Function *> &Copies)
      : Copies(Copies) {
    for (auto &[F, Copy] : Copies)
      Originals[Copy] = F;
  }

  struct Read {
    /// The promoted copy holding the read.
    const llvm::Function *Copy;
    /// A floating-point load, or a call whose callee makes one.
    const llvm::Instruction *At;
    /// Where, in the same copy, the pointer was read from the global (a
    /// load, or a call that loads it).
    const llvm::Instruction *Pointer;
  };
  /// The floating-point values the copies read through pointers loaded
  /// from \p G (through further pointers too), at the outermost call.
  std::vector<Read> find(const llvm::GlobalVariable &G);

private:
  /// What a value may be: the global's address (or one inside it), or a
  /// pointer read from the global, directly or through other pointers.
  enum Level : unsigned { Address = 1, Content = 2 };

  /// What a function does when one parameter has a level.
  struct Summary {
    unsigned Returns = 0;
    bool ReadsFloatingPoint = false;
  };
  struct Frame;

  void follow(Frame &Fr, const llvm::User &U, const llvm::Value &V,
              unsigned Depth);
  const Summary &summary(llvm::Function &F, unsigned ArgNo, unsigned Levels,
                         unsigned Depth);

  /// How deep calls are followed.
  static constexpr unsigned MaxDepth = 8;

  const llvm::DenseMap<llvm::Function *, llvm::Function *> &Copies;
  llvm::DenseMap<const llvm::Function *, const llvm::Function *> Originals;
  std::map<std::tuple<const llvm::Function *, unsigned, unsigned>, Summary>
      Summaries;
};

} // namespace tapestry

#endif // TAPESTRY_ANALYSIS_GLOBALCONTENTREADS_H
