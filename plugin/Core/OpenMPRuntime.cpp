//===- OpenMPRuntime.cpp - What LLVM's OpenMP runtime calls mean ----------===//
//
// Implements OpenMPRuntime.h by name: recognising __kmpc_fork_call and its
// outlined function, the list of runtime calls that move no floating-point
// data, the synchronisation calls a derivative must mirror (openMPSyncKind),
// and the message for a construct Tapestry does not differentiate. Preparing
// and differentiating parallel regions is Synthesis/OpenMP*.cpp.
//
//===----------------------------------------------------------------------===//
#include "Core/OpenMPRuntime.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"

using namespace llvm;

namespace tapestry {

static StringRef calleeName(const CallBase &CB) {
  if (const Function *F = CB.getCalledFunction())
    return F->getName();
  return "";
}

bool isOpenMPForkCall(const CallBase &CB) {
  return calleeName(CB) == "__kmpc_fork_call" &&
         CB.arg_size() >= ForkFirstArg && forkedFunction(CB);
}

Function *forkedFunction(const CallBase &CB) {
  return dyn_cast<Function>(CB.getArgOperand(2)->stripPointerCasts());
}

bool isInactiveOpenMPFunction(StringRef Name) {
  if (Name.starts_with("__kmpc_for_static_init_") ||
      Name.starts_with("__kmpc_dispatch_init_") ||
      Name.starts_with("__kmpc_dispatch_next_") ||
      Name.starts_with("__kmpc_dispatch_fini_"))
    return true;
  return StringSwitch<bool>(Name)
      .Cases("__kmpc_for_static_fini", "__kmpc_dispatch_deinit", true)
      .Cases("__kmpc_global_thread_num", "__kmpc_push_num_threads", true)
      .Cases("__kmpc_push_proc_bind", "__kmpc_serialized_parallel", true)
      .Cases("__kmpc_end_serialized_parallel", "__kmpc_flush", true)
      .Cases("__kmpc_barrier", "__kmpc_critical", "__kmpc_end_critical", true)
      .Cases("__kmpc_critical_with_hint", "__kmpc_single", true)
      .Cases("__kmpc_end_single", "__kmpc_master", "__kmpc_end_master", true)
      .Cases("__kmpc_masked", "__kmpc_end_masked", true)
      .Cases("omp_get_thread_num", "omp_get_num_threads", true)
      .Cases("omp_get_max_threads", "omp_get_num_procs", "omp_in_parallel",
             true)
      .Cases("omp_get_wtime", "omp_get_wtick", "omp_get_level", true)
      .Cases("omp_set_num_threads", "omp_get_thread_limit", true)
      .Cases("omp_get_dynamic", "omp_set_dynamic", "omp_get_team_size", true)
      .Cases("omp_get_ancestor_thread_num", "omp_get_active_level", true)
      .Default(false);
}

OpenMPSync openMPSyncKind(const CallBase &CB) {
  return StringSwitch<OpenMPSync>(calleeName(CB))
      .Case("__kmpc_barrier", OpenMPSync::Barrier)
      .Cases("__kmpc_critical", "__kmpc_critical_with_hint",
             OpenMPSync::Critical)
      .Case("__kmpc_end_critical", OpenMPSync::EndCritical)
      .Default(OpenMPSync::None);
}

std::string unsupportedOpenMPCall(const CallBase &CB, bool Reverse) {
  StringRef Name = calleeName(CB);
  if (Name == "__kmpc_fork_call")
    return isOpenMPForkCall(CB)
               ? ""
               : "this OpenMP parallel region calls its body through a "
                 "pointer Tapestry cannot follow";
  if (isInactiveOpenMPFunction(Name))
    return "";
  if (Name.starts_with("omp_") && Name.contains("_lock"))
    return Reverse ? "OpenMP locks (" + Name.str() +
                         ") are not supported in reverse mode; use "
                         "'#pragma omp critical' or '#pragma omp atomic'"
                   : "";
  if (!Name.starts_with("__kmpc_") && !Name.starts_with("omp_"))
    return "";
  StringRef What =
      Name.contains("task")          ? "OpenMP tasks ('#pragma omp task', "
                                       "'taskloop', 'taskwait')"
      : Name.contains("teams")       ? "'#pragma omp teams'"
      : Name == "__kmpc_copyprivate" ? "'#pragma omp single copyprivate'"
      : Name.contains("ordered") || Name.contains("doacross")
          ? "'#pragma omp ordered'"
      : Name.starts_with("__kmpc_reduce") || Name.contains("end_reduce")
          ? "this OpenMP reduction"
          : "";
  std::string Construct =
      What.empty() ? "the OpenMP runtime call '" + Name.str() + "'"
                   : What.str() + " (runtime call '" + Name.str() + "')";
  return Construct +
         " inside a differentiated function is not supported; supported "
         "are 'parallel', 'for' (any schedule), reductions, 'critical', "
         "'atomic', 'barrier', 'single', 'master' and 'masked'";
}

} // namespace tapestry
