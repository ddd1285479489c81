//===- CustomRules.cpp - Derivatives and facts the user registers ---------===//
//
// Implements CustomRules.h: CustomRules::collect reads, in one walk over the
// module's globals, every Enzyme registration (gradients, forward derivatives,
// inactive functions and globals, function_like, allocation_like, the front
// end's autoreg globals) and the files of -enzyme-load-inactive-file, checks
// each one's shape and reports a malformed or unsupported one at its source
// line. applyFunctionAttributes turns the nofree and no_escaping_allocation
// registrations into function attributes. The rules are applied by Synthesis;
// this file only records them.
//
//===----------------------------------------------------------------------===//
#include "Core/CustomRules.h"

#include "Core/AllocationLike.h"
#include "Core/DeclaredShadows.h"
#include "Core/Diagnostics.h"
#include "Core/EnzymeOptions.h"
#include "Core/KnownInactive.h"
#include "Core/MathFunctions.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace tapestry {

bool CustomRules::isInactive(const Function *F) const {
  return Inactive.count(F) || isKnownInactiveFunction(F->getName());
}

bool CustomRules::isInactiveGlobal(const GlobalVariable *GV) const {
  return InactiveGlobals.count(GV) || enzymeGlobalsInactive();
}

bool CustomRules::isOpaque(const Function *F) const {
  return gradient(F) || forwardDerivative(F) || isInactive(F) ||
         !functionLike(F).empty() || customAllocator(*F) ||
         customFreedOperand(*F);
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

/// Reports \p Msg at the registration itself with -g; without, at the
/// function it registers for (its first element), else the first function
/// defined.
static void reportAtRegistration(GlobalVariable &GV, const Twine &Msg) {
  SmallVector<Constant *, 4> Elts = registrationElements(GV);
  auto *Registered = Elts.empty() ? nullptr : dyn_cast<Function>(Elts.front());
  const Function *Where =
      Registered && !Registered->isDeclaration() ? Registered : nullptr;
  for (Function &F : *GV.getParent())
    if (!Where && !F.isDeclaration())
      Where = &F;
  if (Where)
    reportErrorAtGlobal(*Where, GV, Msg);
}

static void reportRegistration(GlobalVariable &GV, const Twine &Msg) {
  reportAtRegistration(GV, "in '" + demangle(GV.getName()) + "': " + Msg);
}

/// The registrations Enzyme's attributes lower to (see CustomRules.h);
/// false for any other global.
bool CustomRules::collectAttribute(CustomRules &Rules, GlobalVariable &GV,
                                   ArrayRef<Constant *> Elts) {
  StringRef Name = GV.getName();
  auto Each = [&](StringRef Attr, bool GlobalsToo, auto Record) {
    for (Constant *E : Elts) {
      if (auto *F = dyn_cast<Function>(E))
        Record(F);
      else if (!GlobalsToo || !isa<GlobalVariable>(E))
        reportAtRegistration(
            GV, "__attribute__((" + Attr + ")) applies to " +
                    (GlobalsToo ? "functions and globals" : "functions"));
      else
        Record(cast<GlobalVariable>(E));
    }
  };
  if (Name.starts_with("__enzyme_inactivenoblockfn")) {
    // Inactive; Enzyme also learns that it does not synchronise threads,
    // which Tapestry's derivatives never rely on.
    Each("enzyme_inactive_noblock", false,
         [&](Value *F) { Rules.Inactive.insert(cast<Function>(F)); });
  } else if (Name.starts_with("__enzyme_inactive_global")) {
    Each("enzyme_inactive", true, [&](Value *V) {
      if (auto *G = dyn_cast<GlobalVariable>(V))
        Rules.InactiveGlobals.insert(G);
      else
        Rules.Inactive.insert(cast<Function>(V));
    });
  } else if (Name.starts_with("__enzyme_shadow_global")) {
    // enzyme_shadow(s) on g: {g, s}, s being g's shadow (Enzyme's
    // !enzyme_shadow), recorded on g (Analysis/GlobalShadows.h).
    auto *G = Elts.size() == 2 ? dyn_cast<GlobalVariable>(Elts[0]) : nullptr;
    auto *S = Elts.size() == 2 ? dyn_cast<GlobalVariable>(Elts[1]) : nullptr;
    if (!G || !S || G == S || G->getValueType() != S->getValueType())
      reportAtRegistration(GV, "__attribute__((enzyme_shadow(s))) names as "
                               "a global's shadow another global of its "
                               "type");
    else
      declareShadow(*G, *S);
  } else if (Name.starts_with("__enzyme_nofree")) {
    // The function frees no memory: LLVM's nofree. (On a global it promises
    // what Tapestry already assumes: globals are never freed.)
    Each("enzyme_nofree", true, [&](Value *V) {
      if (auto *F = dyn_cast<Function>(V))
        F->addFnAttr(Attribute::NoFree);
    });
  } else if (Name.starts_with("__enzyme_no_escaping_allocation")) {
    // The memory the function allocates does not escape it. Tapestry
    // derives what it needs from the code, so this promise changes nothing;
    // the function carries it as Enzyme's attribute for other tools.
    Each("enzyme_no_escaping_allocation", false, [&](Value *V) {
      cast<Function>(V)->addFnAttr("enzyme_no_escaping_allocation");
    });
  } else if (Name.starts_with("__enzyme_shouldrecompute") ||
             Name.starts_with("__enzyme_elementwise_read") ||
             Name.starts_with("__enzyme_notypeanalysis") ||
             Name.starts_with("__enzyme_sparse_accumulate")) {
    // Hints for Enzyme's cache (recompute rather than store), its batching,
    // its type analysis, and its sparsity optimisation (a function that
    // adds its value into a sparse structure, whose calls that optimisation
    // may move out of loops; Passes/ToDense.h does not optimise, so the
    // calls stay where they are): a hint cannot change a derivative's
    // value.
  } else {
    return false;
  }
  return true;
}

/// What an Enzyme registration global Tapestry does not implement is, and
/// what to do instead.
static std::string unsupportedRegistrationMessage(StringRef Name) {
  static const struct {
    StringRef Prefix, Message;
  } Known[] = {
      {"__enzyme_register_splitderivative",
       "Enzyme's registration of a split-mode forward derivative; Tapestry "
       "does not support it yet: register the reverse-mode rule with "
       "__enzyme_register_gradient and the forward rule with "
       "__enzyme_register_derivative"},
  };
  for (const auto &K : Known)
    if (Name.starts_with(K.Prefix))
      return K.Message.str();
  return "a global whose name starts with __enzyme_ is an Enzyme "
         "registration, and Tapestry does not know this one (it knows "
         "__enzyme_register_gradient*, __enzyme_register_derivative*, "
         "__enzyme_inactivefn*, __enzyme_function_like*, "
         "__enzyme_allocation_like*, __enzyme_inactive_global* and the "
         "registrations of Enzyme's attributes); rename "
         "the "
         "global if it is not meant for Enzyme";
}

/// The index a registration element spells (void *)N, or nothing.
static std::optional<uint64_t> registeredIndex(const Constant *C) {
  if (isa<ConstantPointerNull>(C)) // (void *)0
    return 0;
  if (auto *CE = dyn_cast<ConstantExpr>(C))
    if (CE->getOpcode() == Instruction::IntToPtr)
      if (auto *CI = dyn_cast<ConstantInt>(CE->getOperand(0)))
        return CI->getZExtValue();
  return std::nullopt;
}

/// The C string a registration element points to, or nothing.
static std::optional<StringRef> registeredString(const Constant *C) {
  auto *Str = dyn_cast<GlobalVariable>(C);
  auto *Data = Str && Str->hasInitializer()
                   ? dyn_cast<ConstantDataSequential>(Str->getInitializer())
                   : nullptr;
  if (!Data || !Data->isCString())
    return std::nullopt;
  return Data->getAsCString();
}

/// Reads {(void *)alloc, (void *)SIZE, (void *)"INDICES", (void *)dealloc}
/// (Core/AllocationLike.h); an error names what is wrong.
static void collectAllocationLike(GlobalVariable &GV,
                                  ArrayRef<Constant *> Elts) {
  auto Bad = [&](const Twine &Msg) {
    reportRegistration(
        GV, "an allocation-like registration is {(void *)alloc, (void *)N, "
            "(void *)\"INDICES\", (void *)dealloc}, where argument N of "
            "alloc is the size in bytes and INDICES lists dealloc's "
            "parameters (-1 the pointer alloc returned, k alloc's argument "
            "k), e.g. \"-1\"; " +
                Msg);
  };
  if (Elts.size() != 4)
    return Bad("this one has " + Twine(Elts.size()) + " elements, not 4");
  auto *Alloc = dyn_cast<Function>(Elts[0]);
  if (!Alloc || !Alloc->getReturnType()->isPointerTy())
    return Bad("its first element must be a function that returns a pointer");
  std::string AllocName = "'" + sourceName(*Alloc) + "'";
  unsigned NumArgs = Alloc->arg_size();
  std::optional<uint64_t> Size = registeredIndex(Elts[1]);
  if (!Size)
    return Bad("its second element must be an index written (void *)N");
  if (*Size >= NumArgs ||
      !Alloc->getFunctionType()->getParamType(*Size)->isIntegerTy())
    return Bad("argument " + Twine(*Size) + " of " + AllocName +
               " is not an integer size (arguments count from 0, and " +
               AllocName + " has " + Twine(NumArgs) + ")");
  std::optional<StringRef> Indices = registeredString(Elts[2]);
  if (!Indices)
    return Bad("its third element must be a string literal");
  SmallVector<StringRef, 4> Parts;
  Indices->split(Parts, ',');
  SmallVector<int, 4> Args;
  for (StringRef P : Parts) {
    int I;
    if (P.trim().getAsInteger(10, I) || I < -1 || I >= int(NumArgs))
      return Bad("\"" + *Indices + "\" has '" + P.trim() +
                 "', which is neither -1 nor an argument of " + AllocName +
                 " (it has " + Twine(NumArgs) + ")");
    Args.push_back(I);
  }
  if (count(Args, -1) != 1)
    return Bad("\"" + *Indices +
               "\" must list -1 (the pointer to free) exactly once");
  auto *Dealloc = dyn_cast<Function>(Elts[3]);
  if (!Dealloc)
    return Bad("its fourth element must be the function that frees");
  std::string DeallocName = "'" + sourceName(*Dealloc) + "'";
  FunctionType *DT = Dealloc->getFunctionType();
  if (DT->getNumParams() != Args.size() &&
      !(DT->isVarArg() && DT->getNumParams() < Args.size()))
    return Bad(DeallocName + " takes " + Twine(DT->getNumParams()) +
               " parameter(s) but \"" + *Indices + "\" lists " +
               Twine(Args.size()));
  for (unsigned J = 0; J < DT->getNumParams(); ++J) {
    Type *Want = Args[J] < 0 ? Alloc->getReturnType()
                             : Alloc->getFunctionType()->getParamType(Args[J]);
    if (DT->getParamType(J) != Want)
      return Bad("parameter " + Twine(J) + " of " + DeallocName +
                 " does not have the type of " +
                 (Args[J] < 0
                      ? "the pointer " + AllocName + " returns"
                      : "argument " + Twine(Args[J]) + " of " + AllocName));
  }
  unsigned Freed = find(Args, -1) - Args.begin();
  if (std::optional<unsigned> Old = customFreedOperand(*Dealloc);
      Old && *Old != Freed)
    return Bad(DeallocName + " is registered elsewhere to free its parameter " +
               Twine(*Old) + ", here its parameter " + Twine(Freed));
  markAllocationLike(*Alloc, *Size, Args, *Dealloc);
}

/// A registration's name: a C++ static member's
/// (`inline static void *__enzyme_allocation_like1[4]` in a class) is its
/// unqualified name.
static std::string registrationName(const GlobalVariable &GV) {
  StringRef Name = GV.getName();
  if (!Name.starts_with("_Z"))
    return Name.str();
  std::string Demangled = demangle(Name);
  size_t Colons = Demangled.rfind("::");
  return Colons == std::string::npos ? Demangled : Demangled.substr(Colons + 2);
}

bool CustomRules::applyFunctionAttributes(Module &M) {
  SmallVector<GlobalVariable *, 4> Applied;
  for (GlobalVariable &GV : M.globals()) {
    std::string Name = registrationName(GV);
    if (!StringRef(Name).starts_with("__enzyme_nofree") &&
        !StringRef(Name).starts_with("__enzyme_no_escaping_allocation"))
      continue;
    CustomRules Unused;
    collectAttribute(Unused, GV, registrationElements(GV));
    // What the clang part made (internal, kept only by llvm.compiler.used)
    // has done its work; a registration the user wrote stays.
    if (GV.hasLocalLinkage())
      Applied.push_back(&GV);
  }
  for (GlobalVariable *GV : Applied) {
    removeFromUsedLists(M, [&](Constant *C) { return C == GV; });
    GV->removeDeadConstantUsers();
    if (GV->use_empty())
      GV->eraseFromParent();
  }
  return !Applied.empty();
}

bool CustomRules::keepForLinkTime(Module &M) {
  SmallPtrSet<Constant *, 8> Used;
  for (const char *List : {"llvm.used", "llvm.compiler.used"})
    if (GlobalVariable *G = M.getNamedGlobal(List))
      if (auto *Init = dyn_cast<ConstantArray>(G->getInitializer()))
        for (Use &U : Init->operands())
          Used.insert(cast<Constant>(U.get()->stripPointerCasts()));
  SmallVector<GlobalValue *, 8> Keep;
  for (GlobalVariable &GV : M.globals())
    if (!GV.isDeclaration() &&
        StringRef(registrationName(GV)).starts_with("__enzyme_") &&
        !Used.count(&GV))
      Keep.push_back(&GV);
  appendToCompilerUsed(M, Keep);
  return !Keep.empty();
}

bool CustomRules::eraseFrontEndRegistrations(Module &M) {
  SmallVector<GlobalVariable *, 8> Made;
  for (GlobalVariable &GV : M.globals())
    if (GV.hasLocalLinkage() && GV.getName().starts_with("__enzyme_") &&
        GV.getName().contains("_autoreg_"))
      Made.push_back(&GV);
  if (Made.empty())
    return false;
  SmallPtrSet<Constant *, 8> ToErase(Made.begin(), Made.end());
  removeFromUsedLists(M, [&](Constant *C) { return ToErase.count(C); });
  for (GlobalVariable *GV : Made) {
    GV->removeDeadConstantUsers();
    if (GV->use_empty())
      GV->eraseFromParent();
  }
  return true;
}

/// True if the optimiser may have inlined calls to \p F: it has a body
/// and nothing forbade inlining it (noinline; optnone, -O0's mark).
static bool mayBeInlined(const Function &F) {
  return !F.isDeclaration() && !F.hasFnAttribute(Attribute::NoInline) &&
         !F.hasFnAttribute(Attribute::OptimizeNone);
}

/// True if every use of \p F is in registration globals: no call, no
/// request, no table of function pointers names it.
static bool onlyRegistered(const Function &F) {
  SmallVector<const User *, 8> Work(F.users().begin(), F.users().end());
  SmallPtrSet<const User *, 8> Seen;
  while (!Work.empty()) {
    const User *U = Work.pop_back_val();
    if (!Seen.insert(U).second)
      continue;
    if (auto *GV = dyn_cast<GlobalVariable>(U)) {
      StringRef Name = GV->getName();
      if (!StringRef(registrationName(*GV)).starts_with("__enzyme_") &&
          Name != "llvm.used" && Name != "llvm.compiler.used")
        return false;
      continue;
    }
    if (!isa<Constant>(U))
      return false;
    append_range(Work, U->users());
  }
  return true;
}

/// For each subprogram whose code was inlined into a function reachable by
/// direct calls from \p Targets (what requests differentiate), the first
/// instruction found holding such code.
static DenseMap<const DISubprogram *, const Instruction *>
inlinedCopies(ArrayRef<Function *> Targets) {
  DenseMap<const DISubprogram *, const Instruction *> Copies;
  SmallPtrSet<const Function *, 16> Seen;
  SmallVector<const Function *, 16> Work;
  for (Function *T : Targets)
    if (T && !T->isDeclaration() && Seen.insert(T).second)
      Work.push_back(T);
  while (!Work.empty()) {
    const Function *F = Work.pop_back_val();
    for (const Instruction &I : instructions(*F)) {
      for (const DILocation *L = I.getDebugLoc().get(); L;
           L = L->getInlinedAt())
        if (L->getInlinedAt())
          Copies.try_emplace(L->getScope()->getSubprogram(), &I);
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (const Function *C = CB->getCalledFunction();
            C && !C->isDeclaration() && Seen.insert(C).second)
          Work.push_back(C);
    }
  }
  return Copies;
}

/// Calls \p Each(registration, what it registers, kind) for the registered
/// functions whose inlining would lose their rule.
static void forEachRuleRegistration(
    Module &M,
    function_ref<void(GlobalVariable &, Function &, StringRef)> Each) {
  for (GlobalVariable &GV : M.globals()) {
    std::string FullName = registrationName(GV);
    StringRef Name = FullName;
    const char *What = Name.starts_with("__enzyme_register_gradient")
                           ? "a registered derivative"
                       : Name.starts_with("__enzyme_register_derivative")
                           ? "a registered forward derivative"
                       : Name.starts_with("__enzyme_inactivefn")
                           ? "a declaration that it is inactive"
                       : Name.starts_with("__enzyme_function_like")
                           ? "a registration as a math function"
                           : nullptr;
    if (!What)
      continue;
    SmallVector<Constant *, 4> Elts = registrationElements(GV);
    unsigned Count = Name.starts_with("__enzyme_inactivefn") ? Elts.size() : 1;
    for (unsigned I = 0; I < Count && I < Elts.size(); ++I)
      if (auto *F = dyn_cast<Function>(Elts[I]))
        Each(GV, *F, What);
  }
}

/// How a message names the registration \p GV: the global, or for one the
/// clang part made from an attribute, the attribute.
static std::string registrationSpelling(const GlobalVariable &GV) {
  std::string Name = registrationName(GV);
  if (StringRef(Name).contains("_autoreg_"))
    return StringRef(Name).starts_with("__enzyme_inactivefn")
               ? "__attribute__((enzyme_inactive))"
               : "its enzyme_ attribute";
  return demangle(Name);
}

bool CustomRules::reportInlinedRegistrations(Module &M,
                                             ArrayRef<Function *> Targets) {
  bool Any = false;
  DenseMap<const DISubprogram *, const Instruction *> Copies;
  bool CopiesFound = false;
  forEachRuleRegistration(M, [&](GlobalVariable &GV, Function &F,
                                 StringRef What) {
    if (!mayBeInlined(F))
      return;
    std::string Src = sourceName(F), Reg = registrationSpelling(GV);
    std::string Advice =
        "Mark '" + Src +
        "' __attribute__((noinline)) where code is optimised before Tapestry "
        "runs (the opt flow, -flto's link), or load Tapestry in clang "
        "(-fplugin=TapestryPlugin-19.so -fpass-plugin=TapestryPlugin-19.so), "
        "which resolves requests before anything is inlined";
    // With debug information, the inlined copies say where they came from.
    if (const DISubprogram *SP = F.getSubprogram()) {
      if (!CopiesFound) {
        Copies = inlinedCopies(Targets);
        CopiesFound = true;
      }
      if (const Instruction *I = Copies.lookup(SP)) {
        reportError(*I->getFunction(), I,
                    "code of '" + Src + "', which has " + What + " (" + Reg +
                        "), was inlined into '" +
                        sourceName(*I->getFunction()) +
                        "' by the optimiser before Tapestry ran, and would be "
                        "differentiated through its body instead of by its "
                        "registration. " +
                        Advice);
        Any = true;
      }
      return;
    }
    // Without, a function only a registration names, of which no call is
    // left, may have been inlined everywhere: said, not refused.
    if (!onlyRegistered(F))
      return;
    reportWarningAtGlobal(
        F, GV,
        "'" + Src + "' has " + What + " (" + Reg +
            "), but this module was optimised before Tapestry ran and no "
            "call to '" +
            Src +
            "' is left in it: if the optimiser inlined it into the code a "
            "request differentiates, that code is differentiated through its "
            "body instead of by its registration (compile with -g and "
            "Tapestry tells). " +
            Advice);
  });
  return Any;
}

bool CustomRules::keepRegisteredCalls(Module &M) {
  bool Changed = false;
  forEachRuleRegistration(M, [&](GlobalVariable &, Function &F, StringRef) {
    if (mayBeInlined(F)) {
      F.addFnAttr(Attribute::NoInline);
      Changed = true;
    }
  });
  return Changed;
}

CustomRules CustomRules::collect(Module &M) {
  CustomRules Rules;
  for (GlobalVariable &GV : M.globals()) {
    std::string FullName = registrationName(GV);
    StringRef Name = FullName;
    if (!Name.starts_with("__enzyme_"))
      continue;
    SmallVector<Constant *, 4> Elts = registrationElements(GV);
    if (collectAttribute(Rules, GV, Elts))
      continue;
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
      // Its calls take the math function's derivative rule, operand by
      // operand: the parameters must be the math function's.
      std::string Like = Data->getAsCString().str();
      if (const MathFunction *MF = findMathLibraryFunction(Like);
          MF && !hasMathSignature(*FnAt(0)->getFunctionType(), *MF)) {
        std::string Src = sourceName(*FnAt(0));
        reportRegistration(
            GV, "'" + Src + "' is registered as like '" + Like +
                    "', but its parameters are not " + Like + "'s (" +
                    std::to_string(MF->NumOperands) +
                    (MF->NumOperands == 1 ? " value" : " values") +
                    " of its return type, taken by value), so " + Like +
                    "'s derivative cannot be applied to its calls; register "
                    "a function with " +
                    Like +
                    "'s signature (a wrapper taking its arguments by value), "
                    "or register a derivative for '" +
                    Src + "' (__enzyme_register_gradient)");
        continue;
      }
      Rules.Like[FnAt(0)] = Like;
    } else if (Name.starts_with("__enzyme_allocation_like")) {
      collectAllocationLike(GV, Elts);
    } else {
      // (__enzyme_inactive_global* is read by collectAttribute.)
      // Anything else of Enzyme's could change a derivative: never ignored.
      reportRegistration(GV, unsupportedRegistrationMessage(Name));
    }
  }
  collectInactiveFiles(Rules, M);
  return Rules;
}

/// -enzyme-load-inactive-file: each line of each file names a function that
/// is inactive, as if listed in __enzyme_inactivefn.
void CustomRules::collectInactiveFiles(CustomRules &Rules, Module &M) {
  for (const std::string &Path : enzymeInactiveFiles()) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
        MemoryBuffer::getFile(Path, /*IsText=*/true);
    if (!Buffer) {
      for (Function &F : M)
        if (!F.isDeclaration()) {
          reportError(F, nullptr,
                      "cannot read the file given with "
                      "-enzyme-load-inactive-file=" +
                          Path + ": " + Buffer.getError().message());
          break;
        }
      continue;
    }
    SmallVector<StringRef, 16> Lines;
    (*Buffer)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
    for (StringRef Line : Lines) {
      StringRef Name = Line.trim();
      Function *F = Name.empty() ? nullptr : M.getFunction(Name);
      if (!F)
        continue;
      Rules.Inactive.insert(F);
      if (enzymePrintActivity())
        errs() << "[activity] loaded file forced instruction to be inactive: "
               << Name << "\n";
    }
  }
}

} // namespace tapestry
