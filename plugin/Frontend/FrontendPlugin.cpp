//===- FrontendPlugin.cpp - Tapestry's part in clang's front end ----------===//
//
// The clang part of the plugin (TapestryClang-19.so), loaded by
// TapestryPlugin-19.so when clang loads that with `-fplugin=` (which passes
// `-load TapestryPlugin-19.so` to the compiler proper): see Loader.cpp. It
// is part of clang before clang parses anything, so that
//   - Enzyme's attributes are known (EnzymeAttributes.cpp) and lowered to
//     the registration globals the pass reads (Registrations.cpp);
//   - what each struct copy moves is written down for the pass, where the
//     IR's memcpy no longer says it (CopyTypes.cpp);
//   - `-mllvm -enzyme-...` options parse (Core/EnzymeOptions.h, in the
//     plugin proper);
//   - errors point at the user's line without -g (locations are tracked
//     without emitting debug information, as for -Rpass remarks);
//   - Enzyme's headers (<enzyme/enzyme>) are found without -I, as with
//     Enzyme's clang plugin;
//   - the pass itself joins clang's pipeline: the plugin's file is added to
//     the pass plugins clang loads, unless the command line already names
//     it (Enzyme's spelling `-fpass-plugin=X -Xclang -load -Xclang X`), so
//     that it is registered once. Loaded on its own (`-Xclang -load -Xclang
//     TapestryClang-19.so`), this part finds the plugin beside itself.
//
//===----------------------------------------------------------------------===//
#include "Frontend/CopyTypes.h"
#include "Frontend/Registrations.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/CodeGenOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Sema/Sema.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <dlfcn.h>
#include <link.h>

using namespace clang;

namespace {

/// This library's own file.
std::string ownFile() {
  static const char Anchor = 0;
  Dl_info Self;
  if (!dladdr(&Anchor, &Self) || !Self.dli_fname)
    return "";
  return Self.dli_fname;
}

/// The pass plugin's file beside this library's, if it is there.
std::string siblingPassPlugin() {
  std::string Own = ownFile();
  if (Own.empty())
    return "";
  llvm::SmallString<256> Path(llvm::sys::path::parent_path(Own));
  llvm::sys::path::append(Path, TAPESTRY_PASS_PLUGIN_FILE);
  return llvm::sys::fs::exists(Path) ? std::string(Path) : "";
}

/// dl_iterate_phdr's callback for loadedPassPlugin: stops at the loaded
/// object that defines the pass plugin's marker.
int findPassPlugin(struct dl_phdr_info *Info, size_t, void *Found) {
  if (!Info->dlpi_name || !*Info->dlpi_name)
    return 0;
  void *Handle = dlopen(Info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD);
  if (!Handle)
    return 0;
  bool IsPassPlugin = dlsym(Handle, "tapestry_pass_plugin_marker") != nullptr;
  dlclose(Handle);
  if (!IsPassPlugin)
    return 0;
  *static_cast<std::string *>(Found) = Info->dlpi_name;
  return 1;
}

/// The pass plugin already in the process (the one loading this library,
/// Loader.cpp, whatever its file is named), or "".
std::string loadedPassPlugin() {
  std::string Found;
  dl_iterate_phdr(findPassPlugin, &Found);
  return Found;
}

/// The pass plugin's file (TapestryPlugin-19.so), as the loader found it,
/// or found beside this library when clang loaded it directly.
std::string &passPluginPath() {
  static std::string Path = [] {
    std::string Loaded = loadedPassPlugin();
    return Loaded.empty() ? siblingPassPlugin() : Loaded;
  }();
  return Path;
}

/// Loaded directly by clang (-Xclang -load), this library loads the pass
/// plugin at once, as -fplugin would have: its -mllvm options must be
/// registered before clang parses them. (Loaded by the pass plugin, that
/// one is loaded already.)
struct PassPluginLoader {
  PassPluginLoader() {
    const std::string &Path = passPluginPath();
    if (Path.empty() || !loadedPassPlugin().empty())
      return;
    if (void *Loaded = dlopen(Path.c_str(), RTLD_LAZY | RTLD_NOLOAD)) {
      dlclose(Loaded);
      return;
    }
    // Kept loaded for the process, as clang keeps -load'ed libraries.
    (void)dlopen(Path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  }
};
PassPluginLoader LoadPassPlugin;

/// Adds the pass plugin to the pass plugins \p CI loads, if no pass plugin
/// given is that very file, or this library (whose pass plugin entry point
/// is the pass plugin's).
void addPassPlugin(CompilerInstance &CI) {
  const std::string &Self = passPluginPath();
  if (Self.empty())
    return;
  std::string Own = ownFile();
  std::vector<std::string> &Plugins = CI.getCodeGenOpts().PassPlugins;
  if (llvm::none_of(Plugins, [&](const std::string &P) {
        return P == Self || llvm::sys::fs::equivalent(P, Self) ||
               (!Own.empty() && llvm::sys::fs::equivalent(P, Own));
      }))
    Plugins.push_back(Self);
}

/// Without -g the IR carries no source locations, and an error about a
/// request could only name the function it is in. Track locations without
/// emitting debug information, as clang does for -Rpass remarks: the
/// object file is the same, and errors point at the user's line.
void trackLocations(CompilerInstance &CI) {
  CodeGenOptions &Opts = CI.getCodeGenOpts();
  if (Opts.getDebugInfo() == llvm::codegenoptions::NoDebugInfo)
    Opts.setDebugInfo(llvm::codegenoptions::LocTrackingOnly);
}

/// The directory holding Enzyme's headers as Tapestry ships them
/// (<enzyme/enzyme>, with <tapestry/...>): an installed package's include/
/// beside the lib/ directory of the plugin, else the source tree's, or "".
std::string headerDirectory() {
  llvm::SmallString<256> Dir(passPluginPath());
  for (int Up = 0; Up < 3 && !Dir.empty(); ++Up) {
    llvm::sys::path::remove_filename(Dir);
    llvm::SmallString<256> Candidate(Dir);
    llvm::sys::path::append(Candidate, "include");
    llvm::SmallString<256> Header(Candidate);
    llvm::sys::path::append(Header, "enzyme", "enzyme");
    if (llvm::sys::fs::exists(Header))
      return std::string(Candidate);
  }
  llvm::SmallString<256> Header(TAPESTRY_SOURCE_INCLUDE_DIR);
  llvm::sys::path::append(Header, "enzyme", "enzyme");
  return llvm::sys::fs::exists(Header) ? TAPESTRY_SOURCE_INCLUDE_DIR : "";
}

/// Enzyme's clang plugin makes its headers available, so its users write
/// `#include <enzyme/enzyme>` with no -I: search Tapestry's headers last,
/// after every directory the command line and the system give.
void addHeaderDirectory(CompilerInstance &CI) {
  std::string Dir = headerDirectory();
  if (Dir.empty() || !CI.hasPreprocessor())
    return;
  if (auto Ref = CI.getFileManager().getOptionalDirectoryRef(Dir))
    CI.getPreprocessor().getHeaderSearchInfo().AddSystemSearchPath(
        DirectoryLookup(*Ref, SrcMgr::C_System, /*isFramework=*/false));
}

class TapestryConsumer : public ASTConsumer {
public:
  explicit TapestryConsumer(CompilerInstance &CI) : CI(CI) {}

  /// Runs before code generation sees the end of the unit (the plugin's
  /// consumer comes first), when every template has been instantiated.
  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (!CI.hasSema())
      return;
    tapestry::emitRegistrations(CI.getSema(), Ctx);
    tapestry::emitCopyTypes(CI.getSema(), Ctx);
  }

private:
  CompilerInstance &CI;
};

class TapestryAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    addPassPlugin(CI);
    addHeaderDirectory(CI);
    trackLocations(CI);
    return std::make_unique<TapestryConsumer>(CI);
  }
  bool ParseArgs(const CompilerInstance &,
                 const std::vector<std::string> &) override {
    return true;
  }
  ActionType getActionType() override { return AddBeforeMainAction; }
};

FrontendPluginRegistry::Add<TapestryAction>
    RegisterAction("tapestry", "Enzyme's attributes and the Tapestry pass");

} // namespace

/// -fpass-plugin=TapestryClang-19.so, as Enzyme's users name Enzyme's clang
/// plugin (-fpass-plugin=ClangEnzyme-19.so -Xclang -load -Xclang
/// ClangEnzyme-19.so): the pass plugin's callbacks, from its own entry
/// point.
extern "C" LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  using InfoFn = ::llvm::PassPluginLibraryInfo (*)();
  const std::string &Path = passPluginPath();
  if (void *Handle =
          Path.empty() ? nullptr : dlopen(Path.c_str(), RTLD_NOW | RTLD_GLOBAL))
    if (auto Get =
            reinterpret_cast<InfoFn>(dlsym(Handle, "llvmGetPassPluginInfo"));
        Get && Get != &llvmGetPassPluginInfo)
      return Get();
  return {LLVM_PLUGIN_API_VERSION, "TapestryClang", "0.1.0",
          [](llvm::PassBuilder &) {}};
}

/// Called by the pass plugin once it has loaded this library, with the
/// pass plugin's own file.
extern "C" LLVM_ATTRIBUTE_VISIBILITY_DEFAULT void
tapestryClangInit(const char *PassPluginPath) {
  passPluginPath() = PassPluginPath;
}
