//===- LinkTimePhase.h - Which link-time build a module is for --*- C++ -*-===//
//
// Clang marks the bitcode of `-flto` and `-flto=thin` compiles with module
// flags. Full LTO (`"ThinLTO" = 0`) links every unit into one module before
// the plugin runs again at link time, so a request that needs another unit's
// code can wait for it. ThinLTO (`"EnableSplitLTOUnit"` without
// `"ThinLTO"`) optimises each unit on its own even at link time, so such a
// request can never be resolved: it must be reported at compile time.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_CORE_LINKTIMEPHASE_H
#define TAPESTRY_CORE_LINKTIMEPHASE_H

#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"

namespace tapestry {

/// True for the compile half of `-flto=thin` (not unified LTO, whose link
/// may still choose full LTO).
inline bool isThinLTOPreLink(const llvm::Module &M) {
  return M.getModuleFlag("EnableSplitLTOUnit") && !M.getModuleFlag("ThinLTO") &&
         !M.getModuleFlag("UnifiedLTO");
}

/// True for the compile half of full `-flto` (or unified LTO): the linker
/// will run the plugin again on the whole program.
inline bool isFullLTOPreLink(const llvm::Module &M) {
  return M.getModuleFlag("ThinLTO") || M.getModuleFlag("UnifiedLTO");
}

} // namespace tapestry

#endif
