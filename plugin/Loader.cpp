//===- Loader.cpp - Loads the clang part when clang loads the plugin ------===//
//
// The clang front-end part (Frontend/, Enzyme's attributes) needs clang's
// library, which opt does not have: loaded into opt, libclang-cpp would
// register its command-line options a second time beside opt's own, and
// opt would abort. So it is a companion file, TapestryClang-19.so, next to
// TapestryPlugin-19.so, that this plugin loads only in a process that has
// clang's library already, i.e. clang itself: `-fplugin=TapestryPlugin-19.so`
// alone does everything.
//
//===----------------------------------------------------------------------===//
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Compiler.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <dlfcn.h>

using namespace llvm;

/// Marks this file as the pass plugin: the clang part's initialisers look
/// for it among the loaded objects, so that, loaded by a copy of this file
/// under another name, they do not load the TapestryPlugin-19.so beside
/// them too (every option would be registered twice).
extern "C" LLVM_ATTRIBUTE_VISIBILITY_DEFAULT const char
    tapestry_pass_plugin_marker[] = "TapestryPlugin";

namespace {

struct ClangPartLoader {
  ClangPartLoader() {
    // Only inside clang, whose library is loaded already.
    if (void *Clang =
            dlopen(TAPESTRY_CLANG_CPP_SONAME, RTLD_LAZY | RTLD_NOLOAD))
      dlclose(Clang);
    else
      return;
    static const char Anchor = 0;
    Dl_info Self;
    if (!dladdr(&Anchor, &Self) || !Self.dli_fname)
      return;
    SmallString<256> Path(sys::path::parent_path(Self.dli_fname));
    sys::path::append(Path, TAPESTRY_CLANG_PART);
    void *Part = dlopen(Path.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (!Part) {
      errs() << "tapestry: cannot load the clang part of the plugin ("
             << dlerror() << "): Enzyme's attributes will not be known\n";
      return;
    }
    using InitFn = void (*)(const char *);
    if (auto Init = reinterpret_cast<InitFn>(dlsym(Part, "tapestryClangInit")))
      Init(Self.dli_fname);
  }
};

ClangPartLoader Loader;

} // namespace
