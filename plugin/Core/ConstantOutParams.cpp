//===- ConstantOutParams.cpp - Numbers stored with derivative zero --------===//
//
// Implements ConstantOutParams.h: recognises modf and the input stream
// extraction operators by name, and reads a scanf format string conversion
// by conversion (assignment suppression, field width, length modifier,
// scan sets) to find the arguments that receive floating-point numbers.
//
//===----------------------------------------------------------------------===//
#include "Core/ConstantOutParams.h"

#include "Core/MathFunctions.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Type.h"
#include <optional>

using namespace llvm;

namespace tapestry {

StringRef scanfSourceName(StringRef Name) {
  if (!Name.consume_front("__isoc99_"))
    Name.consume_front("__isoc23_");
  return Name;
}

int scanfFormatArg(StringRef Name) {
  return StringSwitch<int>(scanfSourceName(Name))
      .Case("scanf", 0)
      .Cases("sscanf", "fscanf", 1)
      .Default(-1);
}

/// What each argument after a scanf format receives: a floating-point type
/// or null (integers, characters, pointers); nullopt for a conversion this
/// does not know.
static std::optional<SmallVector<Type *, 4>> scanfTargets(StringRef Format,
                                                          LLVMContext &C) {
  SmallVector<Type *, 4> Targets;
  for (size_t I = 0; I < Format.size(); ++I) {
    if (Format[I] != '%')
      continue;
    if (++I >= Format.size())
      return std::nullopt;
    if (Format[I] == '%')
      continue;
    bool Assigns = Format[I] != '*';
    if (!Assigns)
      ++I;
    while (I < Format.size() && isDigit(Format[I]))
      ++I;
    // Length modifiers: hh h l ll L q j z t.
    StringRef Rest = Format.drop_front(I);
    StringRef Length;
    for (StringRef M : {"hh", "ll", "h", "l", "L", "q", "j", "z", "t"})
      if (Rest.starts_with(M)) {
        Length = M;
        break;
      }
    I += Length.size();
    if (I >= Format.size())
      return std::nullopt;
    char Conv = Format[I];
    Type *T = nullptr;
    switch (Conv) {
    case 'a':
    case 'A':
    case 'e':
    case 'E':
    case 'f':
    case 'F':
    case 'g':
    case 'G':
      T = Length == "l"                    ? Type::getDoubleTy(C)
          : Length == "L" || Length == "q" ? Type::getX86_FP80Ty(C)
          : Length.empty()                 ? Type::getFloatTy(C)
                                           : nullptr;
      if (!T)
        return std::nullopt;
      break;
    case 'd':
    case 'i':
    case 'o':
    case 'u':
    case 'x':
    case 'X':
    case 'n':
    case 'p':
    case 's':
    case 'c':
      break;
    case '[': {
      // A scan set: ']' right after '[' or '[^' belongs to the set.
      size_t J = I + 1;
      if (J < Format.size() && Format[J] == '^')
        ++J;
      if (J < Format.size() && Format[J] == ']')
        ++J;
      J = Format.find(']', J);
      if (J == StringRef::npos)
        return std::nullopt;
      I = J;
      break;
    }
    default:
      return std::nullopt;
    }
    if (Assigns)
      Targets.push_back(T);
  }
  return Targets;
}

/// std::istream::operator>>(double &) and _M_extract<double>(double &),
/// float and long double alike: the number read goes to the last argument.
static Type *streamExtractionType(const CallBase &CB, StringRef Name) {
  if (!Name.starts_with("_ZNSi") || CB.arg_size() != 2)
    return nullptr;
  LLVMContext &C = CB.getContext();
  for (auto [Suffix, Ty] :
       {std::pair<StringRef, Type *>{"rsERd", Type::getDoubleTy(C)},
        {"rsERf", Type::getFloatTy(C)},
        {"rsERe", Type::getX86_FP80Ty(C)},
        {"_M_extractIdEERSiRT_", Type::getDoubleTy(C)},
        {"_M_extractIfEERSiRT_", Type::getFloatTy(C)},
        {"_M_extractIeEERSiRT_", Type::getX86_FP80Ty(C)}})
    if (Name.ends_with(Suffix))
      return Ty;
  return nullptr;
}

/// std::from_chars(first, last, double &value, chars_format) (float and
/// long double alike): the number parsed goes to the third argument.
static Type *fromCharsType(const CallBase &CB, StringRef Name) {
  if (!Name.consume_front("_ZSt10from_charsPKcS0_R") || CB.arg_size() < 3 ||
      Name.empty())
    return nullptr;
  LLVMContext &C = CB.getContext();
  switch (Name.front()) {
  case 'd':
    return Type::getDoubleTy(C);
  case 'f':
    return Type::getFloatTy(C);
  case 'e':
    return Type::getX86_FP80Ty(C);
  default:
    return nullptr;
  }
}

bool writesConstantOutParams(const CallBase &CB) {
  const Function *F = CB.getCalledFunction();
  if (!F)
    return false;
  const MathFunction *M = findMathFunction(CB);
  return (M && StringRef(M->LibName) == "modf") ||
         streamExtractionType(CB, F->getName()) ||
         fromCharsType(CB, F->getName()) || scanfFormatArg(F->getName()) >= 0;
}

bool constantOutParams(const CallBase &CB, SmallVectorImpl<ConstantOut> &Out) {
  const Function *F = CB.getCalledFunction();
  if (!F)
    return true;
  StringRef Name = F->getName();
  if (const MathFunction *M = findMathFunction(CB);
      M && StringRef(M->LibName) == "modf") {
    Out.push_back({CB.getArgOperand(1), CB.getType()});
    return true;
  }
  if (Type *T = streamExtractionType(CB, Name)) {
    Out.push_back({CB.getArgOperand(1), T});
    return true;
  }
  if (Type *T = fromCharsType(CB, Name)) {
    Out.push_back({CB.getArgOperand(2), T});
    return true;
  }
  int FormatArg = scanfFormatArg(Name);
  if (FormatArg < 0 || CB.arg_size() <= static_cast<unsigned>(FormatArg))
    return true;
  StringRef Format;
  if (!getConstantStringInfo(CB.getArgOperand(FormatArg), Format))
    return false;
  std::optional<SmallVector<Type *, 4>> Targets =
      scanfTargets(Format, CB.getContext());
  if (!Targets)
    return false;
  unsigned First = FormatArg + 1;
  for (unsigned K = 0; K < Targets->size(); ++K) {
    if (First + K >= CB.arg_size())
      return false; // fewer arguments than conversions
    if (Type *T = (*Targets)[K])
      Out.push_back({CB.getArgOperand(First + K), T});
  }
  return true;
}

} // namespace tapestry
