//===- CustomRules.cpp ----------------------------------------------------===//
#include "Core/CustomRules.h"

#include "Core/Diagnostics.h"
#include "Core/KnownInactive.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tapestry {

bool CustomRules::isInactive(const Function *F) const {
  return Inactive.count(F) || isKnownInactiveFunction(F->getName());
}

/// The elements of a registration global's initializer, with casts
/// stripped; empty if it has none.
static SmallVector<Constant *, 4> registrationElements(GlobalVariable &GV) {
  SmallVector<Constant *, 4> Elts;
  if (!GV.hasInitializer())
    return Elts;
  Constant *Init = GV.getInitializer();
  for (unsigned I = 0; Constant *E = Init->getAggregateElement(I); ++I)
    Elts.push_back(cast<Constant>(E->stripPointerCasts()));
  return Elts;
}

static void reportRegistration(GlobalVariable &GV, const Twine &Msg) {
  // At the registration itself with -g; without, at the function it
  // registers for (its first element), else the first function defined.
  SmallVector<Constant *, 4> Elts = registrationElements(GV);
  auto *Registered =
      Elts.empty() ? nullptr : dyn_cast<Function>(Elts.front());
  const Function *Where =
      Registered && !Registered->isDeclaration() ? Registered : nullptr;
  for (Function &F : *GV.getParent())
    if (!Where && !F.isDeclaration())
      Where = &F;
  if (Where)
    reportErrorAtGlobal(*Where, GV, "in '" + GV.getName() + "': " + Msg);
}

CustomRules CustomRules::collect(Module &M) {
  CustomRules Rules;
  for (GlobalVariable &GV : M.globals()) {
    StringRef Name = GV.getName();
    if (!Name.starts_with("__enzyme_"))
      continue;
    SmallVector<Constant *, 4> Elts = registrationElements(GV);
    auto FnAt = [&](unsigned I) -> Function * {
      return I < Elts.size() ? dyn_cast<Function>(Elts[I]) : nullptr;
    };
    if (Name.starts_with("__enzyme_register_gradient")) {
      if (Elts.size() != 3 || !FnAt(0) || !FnAt(1) || !FnAt(2)) {
        reportRegistration(GV, "a gradient registration must be "
                               "{(void *)f, (void *)aug, (void *)rev}");
        continue;
      }
      Rules.Gradients[FnAt(0)] = {FnAt(1), FnAt(2)};
    } else if (Name.starts_with("__enzyme_register_derivative")) {
      if (Elts.size() != 2 || !FnAt(0) || !FnAt(1)) {
        reportRegistration(GV, "a forward derivative registration must be "
                               "{(void *)f, (void *)fwd}");
        continue;
      }
      Rules.Forward[FnAt(0)] = FnAt(1);
    } else if (Name.starts_with("__enzyme_inactivefn")) {
      for (unsigned I = 0; I < Elts.size(); ++I)
        if (Function *F = FnAt(I))
          Rules.Inactive.insert(F);
    } else if (Name.starts_with("__enzyme_function_like")) {
      auto *Str =
          Elts.size() == 2 ? dyn_cast<GlobalVariable>(Elts[1]) : nullptr;
      auto *Data = Str && Str->hasInitializer()
                       ? dyn_cast<ConstantDataSequential>(Str->getInitializer())
                       : nullptr;
      if (!FnAt(0) || !Data || !Data->isCString()) {
        reportRegistration(GV, "a function-like registration must be "
                               "{(void *)f, \"name\"}");
        continue;
      }
      Rules.Like[FnAt(0)] = Data->getAsCString().str();
    }
  }
  return Rules;
}

} // namespace tapestry
