/* Crash: __tapestry_thunk and __enzyme_augmentsize called from C++ code
 * whose call is an `invoke` (any function with a cleanup, e.g. a local
 * std::string, compiled with exceptions, the C++ default) crash clang.
 *
 * Build: clang++-19 -O0 -I include -fpass-plugin=build/plugin/TapestryPlugin-19.so \
 *          tools/bugs/split-invoke-thunk-augmentsize.cpp -o /tmp/a.out
 *        (-DSIZE for __enzyme_augmentsize; same at -O2; -fno-exceptions works)
 *
 * Expected: compiles, exits 0.
 * Actual:   clang segfaults ("Running pass 'Exception handling preparation'
 *           on function '@main'" at -O0, in a later pass at -O2).
 *
 * Cause (plugin/Passes/TapestryPass.cpp, resolveRequest, cases AugmentSize
 * and Thunk): the entry call is replaced by a constant and erased with
 * CB->eraseFromParent(). The extern "C" declarations in <tapestry/thunk.h>
 * and <tapestry/enzyme.h> are not noexcept, so in C++ the call is an
 * InvokeInst, which is the block's terminator: erasing it leaves a block
 * with no terminator. The same happens to a nounwind call that
 * inlineRequestWrappers turns into an invoke when it inlines a wrapper into
 * a caller with cleanups. __enzyme_autodiff is fine. Fix: for an invoke,
 * branch to its normal destination before erasing (or declare the entry
 * points noexcept / __attribute__((nothrow)) in the headers).
 * <tapestry/split.hpp> works around it by declaring its entry noexcept.
 */
#include <string>
#include <tapestry/thunk.h>
extern "C" int enzyme_out;
extern "C" int __enzyme_augmentsize(void *, ...);
double sq(double x) { return x * x; }
int main() {
  std::string s = "a cleanup: the call below becomes an invoke";
#ifdef SIZE
  return __enzyme_augmentsize((void *)sq, enzyme_out) >= 0 ? 0 : 1;
#else
  const tapestry_thunk *t = __tapestry_thunk((void *)sq, enzyme_out);
  return t->reusable ? 0 : 1;
#endif
}
