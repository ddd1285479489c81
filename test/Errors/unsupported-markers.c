// Enzyme's markers for features Tapestry does not support are errors at the
// call that name the marker and the feature and say so (with what to do
// instead where there is something), not "unknown marker": enzyme_byref
// (an argument given by address), the probabilistic-programming markers,
// Julia's enzyme_interface, and __enzyme_batch's enzyme_buffer.
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=1 2>&1 | FileCheck %s --check-prefixes=CHECK,C1
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=2 2>&1 | FileCheck %s --check-prefixes=CHECK,C2
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=3 2>&1 | FileCheck %s --check-prefixes=CHECK,C3
// RUN: not %clang -O1 -g -c %s -o /dev/null -DCASE=4 2>&1 | FileCheck %s --check-prefixes=CHECK,C4
// CHECK-NOT: unknown marker
// CHECK-NOT: PLEASE submit a bug report
extern int enzyme_byref, enzyme_trace, enzyme_interface, enzyme_buffer,
    enzyme_width;
double __enzyme_autodiff(void *, ...);
typedef struct {
  double a[2];
} Two;
Two __enzyme_batch(void *, ...);
double f(double x) { return x * x; }
double g(double x, void *t) {
#if CASE == 1
  // C1: unsupported-markers.c:[[@LINE+1]]:10: error: tapestry: enzyme_byref is Enzyme's marker for an argument given by address (enzyme_byref, N, &value: the value is loaded from there); Tapestry does not support it: pass the value itself (Tapestry takes enzyme_byref only before the seed of __enzyme_reverse) (in the call to __enzyme_autodiff)
  return __enzyme_autodiff((void *)f, enzyme_byref, 8, &x);
#elif CASE == 2
  // C2: unsupported-markers.c:[[@LINE+1]]:10: error: tapestry: enzyme_trace is Enzyme's marker for probabilistic programming (traces); Tapestry does not support it (in the call to __enzyme_autodiff)
  return __enzyme_autodiff((void *)f, enzyme_trace, t, x);
#elif CASE == 3
  // C3: unsupported-markers.c:[[@LINE+1]]:10: error: tapestry: enzyme_interface is Enzyme's marker for Julia's dynamic interface; Tapestry does not support it: Tapestry differentiates C and C++ (in the call to __enzyme_autodiff)
  return __enzyme_autodiff((void *)f, enzyme_interface, t, x);
#else
  // C4: unsupported-markers.c:[[@LINE+1]]:11: error: tapestry: enzyme_buffer is Enzyme's marker for an __enzyme_batch argument whose lanes lie at a byte stride; Tapestry does not support it: give __enzyme_batch one value per lane (enzyme_vector) (before parameter 1
  Two r = __enzyme_batch((void *)f, enzyme_width, 2, enzyme_buffer, 8, &x);
  return r.a[0];
#endif
}
// CHECK: 1 error generated.
