//===- VariableActivity.h - Activity of each source variable ----*- C++ -*-===//
//
// The activity analysis works on IR values; a user thinks in variables.
// This summarises, for each local variable the debug information names in
// a prepared primal, whether it carries a derivative and why (for
// tapestry-explain).
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_ANALYSIS_VARIABLEACTIVITY_H
#define TAPESTRY_ANALYSIS_VARIABLEACTIVITY_H

#include "llvm/ADT/SmallVector.h"
#include <string>

namespace llvm {
class Function;
} // namespace llvm

namespace tapestry {

class ActivityInfo;

/// One local variable of the differentiated function and its activity.
struct VariableActivity {
  std::string Name;
  std::string Type; ///< Its source type ("double", "float *").
  unsigned Line = 0;
  std::string Verdict; ///< "active: ..." / "constant: ..." / ...
};

/// The local variables of \p F (not its parameters, not the variables of
/// callees inlined into it) named by its debug information, in the order
/// of their declaration, each with what \p AI says of the values it holds.
/// Empty without debug information.
llvm::SmallVector<VariableActivity, 8>
variableActivities(const llvm::Function &F, const ActivityInfo &AI);

} // namespace tapestry

#endif // TAPESTRY_ANALYSIS_VARIABLEACTIVITY_H
