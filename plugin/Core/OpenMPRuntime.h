//===- OpenMPRuntime.h - What LLVM's OpenMP runtime calls mean --*- C++ -*-===//
//
// Clang outlines an OpenMP parallel region into a function that the runtime
// runs on every thread of a team: __kmpc_fork_call(loc, n, outlined,
// args...) calls outlined(&gtid, &btid, args...) once per thread. Inside, the
// runtime's calls only hand out loop chunks, thread numbers and locks; none
// of them moves floating-point data. This file names them and says which
// the derivative must mirror (barriers, critical sections) and which it
// cannot support (tasks, teams, copyprivate, ordered).
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_CORE_OPENMPRUNTIME_H
#define TAPESTRY_CORE_OPENMPRUNTIME_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace llvm {
class CallBase;
class Function;
} // namespace llvm

namespace tapestry {

/// True for __kmpc_fork_call(loc, nargs, outlined, args...) with a known
/// outlined function.
bool isOpenMPForkCall(const llvm::CallBase &CB);
/// The outlined function a fork call runs on each thread.
llvm::Function *forkedFunction(const llvm::CallBase &CB);
/// Index of the first argument a fork call passes on to the outlined
/// function (after loc, nargs and the function).
constexpr unsigned ForkFirstArg = 3;

/// True for runtime bookkeeping that moves no floating-point data: loop
/// scheduling, thread numbers, locks, barriers, single/master.
bool isInactiveOpenMPFunction(llvm::StringRef Name);

/// How the reverse sweep mirrors a synchronising runtime call.
enum class OpenMPSync {
  None,
  Barrier,     ///< __kmpc_barrier: a barrier again.
  Critical,    ///< __kmpc_critical: its reverse leaves the section.
  EndCritical, ///< __kmpc_end_critical: its reverse enters it.
};
OpenMPSync openMPSyncKind(const llvm::CallBase &CB);

/// For an OpenMP runtime call Tapestry cannot differentiate through (tasks,
/// teams, copyprivate, ordered, locks in reverse mode, an unknown
/// __kmpc_ entry point), what to tell the user; empty otherwise.
std::string unsupportedOpenMPCall(const llvm::CallBase &CB, bool Reverse);

} // namespace tapestry

#endif // TAPESTRY_CORE_OPENMPRUNTIME_H
