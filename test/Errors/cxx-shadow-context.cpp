// enzyme::context follows Enzyme's rule for contexts: one is used in the
// function that makes it. A context passed to a function that is not
// inlined, or copied, is an error at the user's line naming enzyme::context
// (never a shadow of another context, or of none).
// RUN: not %clangxx -std=c++17 -g -O0 -c %s -o /dev/null -DHELPER 2>&1 | FileCheck %s --check-prefix=HELPER
// RUN: not %clangxx -std=c++17 -g -O2 -c %s -o /dev/null -DCOPY 2>&1 | FileCheck %s --check-prefix=COPY
// CHECK-NOT: PLEASE submit a bug report
#include <enzyme/enzyme>

double rate = 1.5;
double f(double x) { return rate * x; }

#ifdef HELPER
__attribute__((noinline)) double seed(const enzyme::context &c) {
  // HELPER: cxx-shadow-context.cpp:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: the first argument of __enzyme_shadow must be a context that __enzyme_context made in this function (Enzyme's rule: each call of __enzyme_context is one context, made in the function that uses it; in C++, an enzyme::context made in this function and not copied)
  return *enzyme::shadow(c, rate);
}
int main() {
  auto ctx = enzyme::context();
  return seed(ctx) > 0;
}
#endif

#ifdef COPY
int main() {
  auto ctx = enzyme::context();
  enzyme::context copy = ctx;
  // COPY: cxx-shadow-context.cpp:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: enzyme_context must be followed by a context that __enzyme_context made in this function ({{.*}}in C++, an enzyme::context made in this function and not copied); got
  auto r = enzyme::autodiff<enzyme::Reverse>(copy, f, enzyme::Active(1.0));
  return enzyme::get<0>(enzyme::get<0>(r)) > 0;
}
#endif
