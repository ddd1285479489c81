// In C++ with exceptions, a request in a function with cleanups is an
// invoke; __tapestry_thunk and __enzyme_augmentsize there fold to constants
// and the code continues on the normal path.
// RUN: %clangxx -O0 %s -o %t0 && %t0
// RUN: %clangxx -O2 %s -o %t2 && %t2
// RUN: %clangxx -O0 -DSIZE %s -o %t3 && %t3
// RUN: %clangxx -O2 -DSIZE %s -o %t4 && %t4
#include <string>
#include <tapestry/thunk.h>
extern "C" int enzyme_out;
extern "C" int __enzyme_augmentsize(void *, ...);
double sq(double x) { return x * x; }
int main() {
  std::string s = "a cleanup: the call below becomes an invoke";
#ifdef SIZE
  return __enzyme_augmentsize((void *)sq, enzyme_out) >= 8 ? 0 : 1;
#else
  const tapestry_thunk *t = __tapestry_thunk((void *)sq, enzyme_out);
  return t->reusable && t->tape_bytes >= 8 ? 0 : 1;
#endif
}
