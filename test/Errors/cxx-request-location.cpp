// Errors about a request made through the C++ headers are reported at the
// user's call (not inside the header's wrappers), with C++ names
// demangled: a function pointer chosen at run time, and a marker that does
// not fit a parameter.
// RUN: not %clangxx -g -O0 -c %s -o /dev/null -DRUNTIME 2>&1 | FileCheck %s --check-prefix=RUNTIME
// RUN: not %clangxx -g -O2 -c %s -o /dev/null -DRUNTIME 2>&1 | FileCheck %s --check-prefix=RUNTIME
// RUN: not %clangxx -g -O0 -c %s -o /dev/null -DMARKER 2>&1 | FileCheck %s --check-prefix=MARKER
// CHECK-NOT: PLEASE submit a bug report
#include <enzyme/enzyme>

extern "C" {
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);
}

double a(double x) { return x * x; }
double b(double x) { return x * x * x; }
double scaled(double x, int n) { return x * n; }

double run(int which) {
#ifdef RUNTIME
  double (*fp)(double) = which ? a : b;
  // RUNTIME: cxx-request-location.cpp:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: the first argument of __enzyme_autodiff must be a function, e.g. (void *)f; got {{.*}}, a function pointer whose value is known only at run time: name the function itself at the request, or differentiate a function that calls the pointer, given as enzyme_const
  return enzyme::get<0>(enzyme::get<0>(enzyme::autodiff<enzyme::Reverse>(fp, enzyme::Active(2.0))));
#endif
#ifdef MARKER
  // MARKER: cxx-request-location.cpp:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: enzyme_out marks an active floating-point value, but parameter 2 'n' of 'scaled' (int) is not one
  return __enzyme_autodiff((void *)scaled, enzyme_out, 1.0, enzyme_out, which);
#endif
}
