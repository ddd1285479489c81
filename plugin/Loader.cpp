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
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <dlfcn.h>

using namespace llvm;

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
    // The clang part's initialisers must not load a pass plugin of their
    // own (a renamed copy of this file would register every option twice).
    ::setenv(TAPESTRY_LOADING_PASS_PLUGIN_ENV, Self.dli_fname, 1);
    void *Part = dlopen(Path.c_str(), RTLD_NOW | RTLD_GLOBAL);
    ::unsetenv(TAPESTRY_LOADING_PASS_PLUGIN_ENV);
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
