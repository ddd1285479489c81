// An extern global or function marked enzyme_inactive that the program
// declares but never defines, whose only use the compiler removes (a read
// the optimiser finds dead, a call in code that is never emitted): plain
// clang++ links such a program, and so must -fplugin. The registrations
// Tapestry's clang part makes for them named them in the object file, so
// the link failed with "undefined reference to `mem_kind'" (found by
// running Enzyme's own tests, probe35b: ReverseMode/customglob.cpp). They
// are erased once the file's requests are resolved.
// g(a) = a (stored in and read from a block the inactive allocator
// returns): dg/da = 1; h(a) = a^3: dh/da = 3 a^2.
// RUN: %clangxx_fplugin -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx_fplugin -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx_fplugin -O3 %s -o %t3 && %t3 | FileCheck %s
// The call in `if (false)` is never emitted, at -O0 too.
// RUN: %clangxx_fplugin -O0 -DNO_GLOBAL %s -o %t0 && %t0 | FileCheck %s
// -flto keeps them for the link, which erases them once it has resolved
// the program's requests.
// RUN: %clangxx_fplugin -O2 -flto -c %s -o %t.lto.o
// RUN: %clangxx -O2 -flto -fuse-ld=lld -Wl,--load-pass-plugin=%plugin %t.lto.o -o %tlto && %tlto | FileCheck %s
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <cstdlib>

double __enzyme_autodiff(void *, ...);

__attribute__((enzyme_inactive)) extern int mem_kind;
__attribute__((enzyme_inactive)) extern void trace_event(const char *);

__attribute__((noinline)) static void *allocate(size_t n, int kind) {
  (void)kind;
  return malloc(n);
}

static double g(double a) {
#ifdef NO_GLOBAL
  double *d = (double *)allocate(sizeof(double), 0);
#else
  double *d = (double *)allocate(sizeof(double), mem_kind);
#endif
  d[0] = a;
  double r = d[0];
  free(d);
  return r;
}

static double h(double a) {
  if (false)
    trace_event("h");
  return a * a * a;
}

int main() {
  check_close("dg/da", __enzyme_autodiff((void *)g, 10.0), 1.0, 1e-12);
  check_close("dh/da", __enzyme_autodiff((void *)h, 2.0), 12.0, 1e-12);
  return check_report();
}
