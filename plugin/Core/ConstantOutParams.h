//===- ConstantOutParams.h - Numbers stored with derivative 0 ---*- C++ -*-===//
//
// Library calls that store, through a pointer argument, a number whose
// derivative is zero: modf's integer part, a number read from text by
// std::istream::operator>>, by std::from_chars or by the scanf family (scanf,
// fscanf, sscanf and glibc's __isoc99_ and __isoc23_ names, whose format says
// which arguments receive float, double or long double). The memory's
// derivative becomes zero there; the analyses must count the call as a write.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_CORE_CONSTANTOUTPARAMS_H
#define TAPESTRY_CORE_CONSTANTOUTPARAMS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace llvm {
class CallBase;
class Type;
class Value;
} // namespace llvm

namespace tapestry {

/// A pointer argument and the floating-point type stored through it.
struct ConstantOut {
  llvm::Value *Ptr;
  llvm::Type *T;
};

/// The position of a scanf-family function's format argument, or -1 if
/// \p Name is not one.
int scanfFormatArg(llvm::StringRef Name);
/// The name the user wrote for scanf-family function \p Name: glibc's
/// __isoc99_sscanf and __isoc23_sscanf are sscanf.
llvm::StringRef scanfSourceName(llvm::StringRef Name);

/// True if \p CB may store numbers with derivative zero through its
/// arguments (modf, input streams, the scanf family).
bool writesConstantOutParams(const llvm::CallBase &CB);

/// Appends to \p Out the arguments \p CB stores floating-point numbers with
/// derivative zero through. False for a scanf call whose format is not a
/// constant string that can be read: what it stores where is then unknown.
bool constantOutParams(const llvm::CallBase &CB,
                       llvm::SmallVectorImpl<ConstantOut> &Out);

} // namespace tapestry

#endif // TAPESTRY_CORE_CONSTANTOUTPARAMS_H
