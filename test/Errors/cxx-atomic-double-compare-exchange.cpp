// A single compare_exchange on std::atomic<double> (not a loop that adds: it
// may fail and leave the value), or a loop of them that may give up (a
// retry budget), cannot be differentiated: a clear error at the call naming
// std::atomic, not OpenMP, at -O0 and -O2; never a value added
// unconditionally (review40 F2: the budgeted loop was taken for an atomic
// add, a silent wrong derivative).
// RUN: not %clangxx -std=c++20 -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not="#pragma omp"
// RUN: not %clangxx -std=c++20 -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not="#pragma omp"
// CHECK-NOT: PLEASE submit a bug report
// CHECK-DAG: error: tapestry: cannot differentiate 'add_once(double)': a compare-exchange of a floating-point value's bits (std::atomic<double>::compare_exchange_weak or _strong, or an atomic update other than += and -=) cannot be differentiated; update the atomic with fetch_add, fetch_sub, += or -=, or accumulate into a plain double
#include <atomic>

extern "C" int enzyme_out;
extern "C" double __enzyme_autodiff(void *, ...);

double add_once(double x) {
  std::atomic<double> a{1.0};
  double seen = a.load();
  a.compare_exchange_strong(seen, seen + x * x);
  return a.load();
}

int tries = 1;
double add_with_budget(double x) {
  std::atomic<double> a{2.0};
  double snap = a.load();
  a.store(snap * x); // changed since the snapshot: the swap fails
  for (int k = 0; k < tries; ++k)
    // CHECK-DAG: cxx-atomic-double-compare-exchange.cpp:[[@LINE+1]]:{{.*}}error: tapestry: cannot differentiate {{.*}}: a compare-exchange of a floating-point value's bits
    if (a.compare_exchange_strong(snap, snap + x))
      break;
  return a.load();
}

double grad(double x) {
  return __enzyme_autodiff((void *)add_once, enzyme_out, x) +
         __enzyme_autodiff((void *)add_with_budget, enzyme_out, x);
}
