//===- VariableActivity.cpp - Activity of each source variable ------------===//
//
// A variable is bound to IR values by debug records: dbg.value records
// bind SSA values (each assignment), dbg.declare records bind the memory
// of a variable kept in memory (arrays, variables whose address is
// taken). The variable's verdict is the strongest over its values:
// active, then shadowed memory, then varied-but-unused, then constant.
//
//===----------------------------------------------------------------------===//
#include "Analysis/VariableActivity.h"

#include "Analysis/ActivityAnalysis.h"
#include "Core/SourceTypes.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace tapestry {

namespace {

/// What the values bound to one variable show, strongest first.
enum class Strength { Integer, Constant, Varied, ShadowedMemory, Active };

struct Binding {
  Strength S = Strength::Integer;
  bool Bound = false; ///< Some record binds a value (not poison).
  bool Memory = false;
};

} // namespace

static void bind(Binding &B, const Value *V, bool IsAddress,
                 const ActivityInfo &AI) {
  if (!V || isa<UndefValue>(V))
    return;
  B.Bound = true;
  Strength S = Strength::Integer;
  Type *T = V->getType();
  bool FP = T->isFPOrFPVectorTy();
  if (IsAddress || T->isPointerTy()) {
    B.Memory = true;
    S = AI.hasShadow(V) ? Strength::ShadowedMemory : Strength::Constant;
  } else if (AI.isActive(V)) {
    S = Strength::Active;
  } else if (FP) {
    S = AI.isVaried(V) ? Strength::Varied : Strength::Constant;
  }
  B.S = std::max(B.S, S);
}

/// True if the variable's source type is a pointer or reference (through
/// typedefs and qualifiers).
static bool isPointerVariable(const DILocalVariable &Var) {
  const DIType *T = Var.getType();
  while (auto *D = dyn_cast_or_null<DIDerivedType>(T)) {
    switch (D->getTag()) {
    case dwarf::DW_TAG_pointer_type:
    case dwarf::DW_TAG_reference_type:
    case dwarf::DW_TAG_rvalue_reference_type:
      return true;
    case dwarf::DW_TAG_typedef:
    case dwarf::DW_TAG_const_type:
    case dwarf::DW_TAG_volatile_type:
    case dwarf::DW_TAG_restrict_type:
      T = D->getBaseType();
      continue;
    default:
      return false;
    }
  }
  return false;
}

static std::string verdict(const Binding &B, bool Pointer) {
  if (!B.Bound)
    return "no value left: optimised away before differentiation";
  switch (B.S) {
  case Strength::Active:
    return "active: carries a derivative";
  case Strength::ShadowedMemory:
    return Pointer ? "active pointer: points to memory whose shadow carries "
                     "the derivative"
                   : "active memory: its shadow carries the derivative";
  case Strength::Varied:
    return "not differentiated: depends on the inputs but does not affect "
           "a differentiated result";
  case Strength::Constant:
    if (Pointer)
      return "constant pointer: the memory it points to carries no "
             "derivative";
    return B.Memory ? "constant memory: nothing differentiated is stored "
                      "in it"
                    : "constant: does not depend on a differentiated input";
  case Strength::Integer:
    return "not differentiated: an integer";
  }
  return "";
}

SmallVector<VariableActivity, 8> variableActivities(const Function &F,
                                                    const ActivityInfo &AI) {
  MapVector<const DILocalVariable *, Binding> Vars;
  auto Note = [&](const DILocalVariable *Var, const DILocation *At,
                  ArrayRef<Value *> Values, bool IsAddress) {
    // Parameters are described with the request; callees' variables
    // belong to other functions.
    if (!Var || Var->getArg() || (At && At->getInlinedAt()))
      return;
    Binding &B = Vars[Var];
    for (const Value *V : Values)
      bind(B, V, IsAddress, AI);
  };
  for (const Instruction &I : instructions(F)) {
    for (const DbgVariableRecord &R : filterDbgVars(I.getDbgRecordRange())) {
      // An assignment-tracking record (optimised code) binds both the
      // value assigned and the variable's memory.
      bool Assign = R.getType() == DbgVariableRecord::LocationType::Assign;
      if (Assign)
        Note(R.getVariable(), R.getDebugLoc().get(), {R.getAddress()}, true);
      SmallVector<Value *, 2> Values(R.location_ops());
      Note(R.getVariable(), R.getDebugLoc().get(), Values,
           R.getType() == DbgVariableRecord::LocationType::Declare);
    }
    if (auto *DI = dyn_cast<DbgVariableIntrinsic>(&I)) {
      SmallVector<Value *, 2> Values(DI->location_ops());
      Note(DI->getVariable(), DI->getDebugLoc().get(), Values,
           isa<DbgDeclareInst>(DI));
    }
  }
  SmallVector<VariableActivity, 8> Out;
  for (auto &[Var, B] : Vars)
    Out.push_back({Var->getName().str(), sourceTypeName(Var->getType()),
                   Var->getLine(), verdict(B, isPointerVariable(*Var))});
  llvm::stable_sort(Out,
                    [](const VariableActivity &A, const VariableActivity &B) {
                      return A.Line < B.Line;
                    });
  return Out;
}

} // namespace tapestry
