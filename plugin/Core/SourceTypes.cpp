//===- SourceTypes.cpp - Source-level types and names ---------------------===//
//
// Implements SourceTypes.h: renders DWARF types as C and C++ spell them
// (pointers, qualifiers, arrays, scoped class names), finds a parameter's
// source name in the debug variable records, and the return type a cast to a
// function pointer would spell, for messages and tapestry-explain. Without
// debug information it falls back to the IR type; it never changes IR.
//
//===----------------------------------------------------------------------===//
#include "Core/SourceTypes.h"

#include "Core/Diagnostics.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace tapestry {

/// "std::" for a class declared in namespace std, "Outer::" for a nested
/// class.
static std::string scopePrefix(const DIScope *S) {
  std::string Prefix;
  for (unsigned Depth = 0;
       S && !isa<DIFile>(S) && !isa<DICompileUnit>(S) && Depth < 16;
       S = S->getScope(), ++Depth) {
    if (isa<DINamespace>(S) || isa<DICompositeType>(S)) {
      if (S->getName().empty())
        continue; // an anonymous namespace
      Prefix = S->getName().str() + "::" + Prefix;
    } else {
      break; // a class local to a function
    }
  }
  return Prefix;
}

/// Renders \p T around a declarator suffix: pointers and qualifiers bind
/// to what they follow, arrays follow the name.
static std::string render(const DIType *T, unsigned Depth = 0) {
  if (!T)
    return "void";
  if (Depth > 16)
    return "...";
  if (auto *D = dyn_cast<DIDerivedType>(T)) {
    std::string Base = render(D->getBaseType(), Depth + 1);
    switch (D->getTag()) {
    case dwarf::DW_TAG_pointer_type:
      return Base + " *";
    case dwarf::DW_TAG_reference_type:
      return Base + " &";
    case dwarf::DW_TAG_rvalue_reference_type:
      return Base + " &&";
    case dwarf::DW_TAG_const_type:
      // "const double", but "double *const" after a pointer.
      return StringRef(Base).ends_with("*") ? Base + "const" : "const " + Base;
    case dwarf::DW_TAG_volatile_type:
      return StringRef(Base).ends_with("*") ? Base + "volatile"
                                            : "volatile " + Base;
    case dwarf::DW_TAG_restrict_type:
      return Base + "restrict";
    case dwarf::DW_TAG_typedef:
      return D->getName().str();
    default:
      return D->getName().empty() ? Base : D->getName().str();
    }
  }
  if (auto *C = dyn_cast<DICompositeType>(T)) {
    if (C->getTag() == dwarf::DW_TAG_array_type) {
      std::string Dims;
      for (const DINode *N : C->getElements())
        if (auto *R = dyn_cast<DISubrange>(N)) {
          auto *Count = dyn_cast_if_present<ConstantInt *>(R->getCount());
          Dims +=
              "[" + (Count ? std::to_string(Count->getSExtValue()) : "") + "]";
        }
      return render(C->getBaseType(), Depth + 1) + Dims;
    }
    StringRef Name = C->getName();
    // C has tags; C++ names a class by itself.
    bool IsC = false;
    if (const DIScope *S = C->getScope(); !S || isa<DIFile>(S))
      IsC = C->getIdentifier().empty();
    if (Name.empty())
      return "(anonymous)";
    if (!IsC)
      return scopePrefix(C->getScope()) + Name.str();
    switch (C->getTag()) {
    case dwarf::DW_TAG_structure_type:
      return "struct " + Name.str();
    case dwarf::DW_TAG_union_type:
      return "union " + Name.str();
    case dwarf::DW_TAG_enumeration_type:
      return "enum " + Name.str();
    default:
      return Name.str();
    }
  }
  if (isa<DISubroutineType>(T))
    return "function";
  return T->getName().str();
}

std::string sourceTypeName(const DIType *T) { return render(T); }

static const DISubroutineType *subroutineType(const Function &F) {
  const DISubprogram *SP = F.getSubprogram();
  return SP ? SP->getType() : nullptr;
}

/// The name debug information gives parameter \p DwarfArg (from 1): in
/// the variables the body declares, or those optimised code retains.
static std::string parameterName(const Function &F, unsigned DwarfArg) {
  auto Matches = [&](const DILocalVariable *V) {
    return V && V->getArg() == DwarfArg;
  };
  for (const Instruction &I : instructions(F)) {
    for (const DbgVariableRecord &DVR : filterDbgVars(I.getDbgRecordRange()))
      if (Matches(DVR.getVariable()))
        return DVR.getVariable()->getName().str();
    if (auto *DI = dyn_cast<DbgVariableIntrinsic>(&I))
      if (Matches(DI->getVariable()))
        return DI->getVariable()->getName().str();
  }
  if (const DISubprogram *SP = F.getSubprogram())
    for (const DINode *N : SP->getRetainedNodes())
      if (auto *V = dyn_cast<DILocalVariable>(N); Matches(V))
        return V->getName().str();
  return "";
}

SourceParameter sourceParameter(const Function &F, unsigned ArgNo) {
  SourceParameter P;
  P.Name = parameterName(F, ArgNo + 1);
  const DISubroutineType *T = subroutineType(F);
  // Element 0 is the return type; a C++ method's `this` is an argument.
  if (T && ArgNo + 1 < T->getTypeArray().size())
    P.Type = sourceTypeName(T->getTypeArray()[ArgNo + 1]);
  else if (ArgNo < F.arg_size())
    P.Type = describe(F.getArg(ArgNo)->getType());
  if (P.Name.empty() && ArgNo < F.arg_size() && F.getArg(ArgNo)->hasName() &&
      !F.getArg(ArgNo)->getName().contains('.'))
    P.Name = F.getArg(ArgNo)->getName().str();
  return P;
}

std::string sourceReturnType(const Function &F) {
  if (const DISubroutineType *T = subroutineType(F);
      T && T->getTypeArray().size() > 0)
    return sourceTypeName(T->getTypeArray()[0]);
  return describe(F.getReturnType());
}

/// The return type a cast to \p F's function pointer type spells: from the
/// mangled name (templates), debug information, or a floating-point or
/// void IR type; empty if none of them says.
static std::string castReturnType(const Function &F,
                                  ItaniumPartialDemangler &D) {
  if (char *R = D.getFunctionReturnType(nullptr, nullptr)) {
    std::string S = R;
    std::free(R);
    if (!S.empty())
      return S;
  }
  if (const DISubroutineType *T = subroutineType(F);
      T && T->getTypeArray().size() > 0)
    return sourceTypeName(T->getTypeArray()[0]);
  Type *RT = F.getReturnType();
  if (RT->isVoidTy())
    return "void";
  if (RT->isDoubleTy())
    return "double";
  if (RT->isFloatTy())
    return "float";
  return "";
}

std::string functionPointerText(const Function &F) {
  std::string Plain = "(void*)" + sourceIdentifier(F);
  ItaniumPartialDemangler D;
  if (!F.getName().starts_with("_Z") || D.partialDemangle(F.getName().data()) ||
      !D.isFunction() || D.isCtorOrDtor() || D.hasFunctionQualifiers())
    return Plain;
  // A method cannot be named by a function pointer at all: known as one
  // from debug information, or by its enclosing name being a class or
  // struct type of the module (a declaration has no debug information).
  if (const DISubprogram *SP = F.getSubprogram();
      SP && isa_and_nonnull<DICompositeType>(SP->getScope()))
    return Plain;
  if (char *Ctx = D.getFunctionDeclContextName(nullptr, nullptr)) {
    std::string Scope = Ctx;
    std::free(Ctx);
    LLVMContext &C = F.getContext();
    if (!Scope.empty() && (StructType::getTypeByName(C, "class." + Scope) ||
                           StructType::getTypeByName(C, "struct." + Scope)))
      return Plain;
  }
  std::string Ret = castReturnType(F, D);
  char *Params = D.getFunctionParameters(nullptr, nullptr);
  char *Name = D.getFunctionName(nullptr, nullptr);
  std::string Text = Plain;
  if (!Ret.empty() && Params && Name)
    Text = "(void*)(" + Ret + " (*)" + Params + ")" + Name;
  std::free(Params);
  std::free(Name);
  return Text;
}

} // namespace tapestry
