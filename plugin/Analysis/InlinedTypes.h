//===- InlinedTypes.h - Types seen with small callees inlined ---*- C++ -*-===//
//
// C++ at -O0 reaches memory through layers of small functions: an
// iterator's operator+ returns an address its operator* hands on, each a
// call, with the address passing through a struct on the stack between
// them. The type analysis (TypeAnalysis.h) follows pointers into callees'
// parameters but not out of a callee's result, so a memcpy that moves an
// element whose address came from such calls (libstdc++'s heap and
// insertion sorts, at -O0) has no type where it stands. InlinedTypes
// analyses a copy of the function with its small callees inlined and its
// stack slots split into values (LLVM's InlineFunction and SROA), where the
// address is one GEP of the element type away from a parameter; it is asked
// only where the analysis of the function as it is cannot tell.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_ANALYSIS_INLINEDTYPES_H
#define TAPESTRY_ANALYSIS_INLINEDTYPES_H

#include "Analysis/TypeAnalysis.h"

#include "llvm/Transforms/Utils/ValueMapper.h"

namespace llvm {
class Function;
class Value;
} // namespace llvm

namespace tapestry {

class InlinedTypes {
public:
  /// Analyses a copy of \p F with its small callees inlined, \p Depth
  /// levels of the remaining callees deep and, with \p CallersOf, with
  /// what its callers pass (computeTypes). The copy lives as long as this.
  /// \p FrontEndArithmetic as for computeTypes.
  InlinedTypes(llvm::Function &F, unsigned Depth, llvm::Function *CallersOf,
               bool FrontEndArithmetic);
  ~InlinedTypes();
  InlinedTypes(const InlinedTypes &) = delete;
  InlinedTypes &operator=(const InlinedTypes &) = delete;

  const TypeInfo &info() const { return Info; }
  /// The copy's counterpart of \p V, a value of the function analysed, or
  /// null where the copy has none (removed by the inlining or SROA).
  llvm::Value *inCopy(const llvm::Value *V) const;

private:
  llvm::Function *Copy = nullptr;
  llvm::ValueToValueMapTy VMap;
  TypeInfo Info;
};

} // namespace tapestry

#endif // TAPESTRY_ANALYSIS_INLINEDTYPES_H
