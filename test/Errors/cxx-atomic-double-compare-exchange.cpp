// A single compare_exchange on std::atomic<double> (not a loop that adds: it
// may fail and leave the value) cannot be differentiated: a clear error at
// the call naming std::atomic, not OpenMP, at -O0 and -O2; never a value
// added unconditionally.
// RUN: not %clangxx -std=c++20 -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clangxx -std=c++20 -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK: error: tapestry: cannot differentiate {{.*}}: a compare-exchange of a floating-point value's bits (std::atomic<double>::compare_exchange_weak or _strong, or an atomic update other than += and -=) cannot be differentiated; update the atomic with fetch_add, fetch_sub, += or -=, or accumulate into a plain double
// CHECK-NOT: #pragma omp
#include <atomic>

extern "C" int enzyme_out;
extern "C" double __enzyme_autodiff(void *, ...);

double add_once(double x) {
  std::atomic<double> a{1.0};
  double seen = a.load();
  a.compare_exchange_strong(seen, seen + x * x);
  return a.load();
}

double grad(double x) { return __enzyme_autodiff((void *)add_once, enzyme_out, x); }
