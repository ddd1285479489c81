//===- TypeAnalysis.h - Which memory holds floating-point data --*- C++ -*-===//
//
// LLVM 19 pointers are opaque, so what a pointer points to is inferred from
// what the code does with it: the types of loads and stores through it and
// through addresses computed from it, GEP element types, memcpy/memmove
// between two objects (both hold the same data), and calls to functions
// with bodies (what the callee does with its parameter). The result is, per
// memory root (an argument, an allocation, a loaded pointer, a global), the
// set of scalar types stored there. Reverse mode needs it where bytes move
// without a type: the adjoint of memcpy must know whether it copies doubles
// or floats.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_ANALYSIS_TYPEANALYSIS_H
#define TAPESTRY_ANALYSIS_TYPEANALYSIS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/PassManager.h"

namespace llvm {
class Function;
class Type;
class Value;
class raw_ostream;
} // namespace llvm

namespace tapestry {

class TypeInfo {
public:
  /// The scalar types accessed in the memory \p Ptr points into (through
  /// its root), in first-seen order.
  llvm::SmallVector<llvm::Type *, 4> typesAt(const llvm::Value *Ptr) const;
  /// The single floating-point type of that memory, or null if it holds
  /// none or both float and double.
  llvm::Type *floatTypeAt(const llvm::Value *Ptr) const;
  /// The memory root of a pointer: the object its address is computed from.
  static const llvm::Value *root(const llvm::Value *Ptr);
  /// Every object a pointer may be computed from (through phis, selects).
  static llvm::SmallVector<const llvm::Value *, 4>
  roots(const llvm::Value *Ptr);

  void print(llvm::raw_ostream &OS, const llvm::Function &F) const;

  llvm::DenseMap<const llvm::Value *, llvm::SmallSetVector<llvm::Type *, 2>>
      Types;
};

/// Infers the types of the memory that \p F's pointers reach, looking into
/// callees with bodies (to \p Depth levels).
TypeInfo computeTypes(llvm::Function &F, unsigned Depth = 4);

/// `opt -passes='print<tapestry-types>'`: prints, for every function with a
/// body, each pointer argument's and memory root's inferred types.
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
