// -flto with the registrations (custom derivatives, __enzyme_inactivefn)
// in another file than the requests, which are resolved at link time:
// nothing refers to the registration arrays, and link-time optimisation
// dropped them before the plugin ran on the whole program, so the
// derivatives silently ignored them (found by a probe of Enzyme users'
// build lines). The compile step now keeps them (llvm.compiler.used).
// Expected: d/dx [3 table_sin(x) + x] = 3 cos x + 1 from the registered
// rules, and d/dx [x - step_size(x) x] = 1 - step_size(x) with step_size
// inactive.
// RUN: %clang -O0 -flto -c %s -o %t.main0.o
// RUN: %clang -O0 -flto -c %S/Inputs/lto-registrations.c -o %t.regs0.o
// RUN: %clang -O0 -flto -fuse-ld=lld -Wl,--load-pass-plugin=%plugin %t.main0.o %t.regs0.o -lm -o %t0
// RUN: %t0 | FileCheck %s
// RUN: %clang_fplugin -O2 -flto -c %s -o %t.main2.o
// RUN: %clang_fplugin -O2 -flto -c %S/Inputs/lto-registrations.c -o %t.regs2.o
// RUN: %clang -O2 -flto -fuse-ld=lld -Wl,--load-pass-plugin=%plugin %t.main2.o %t.regs2.o -lm -o %t2
// RUN: %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <math.h>

extern int enzyme_out, enzyme_dup;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
double table_sin(double x);
double step_size(double x);

double wave(double x) { return 3 * table_sin(x) + x; }
double update(double x) { return x - step_size(x) * x; }

int main(void) {
  double x = 0.7;
  check_close("reverse, registered gradient",
              __enzyme_autodiff((void *)wave, enzyme_out, x), 3 * cos(x) + 1,
              1e-12);
  check_close("forward, registered derivative",
              __enzyme_fwddiff((void *)wave, enzyme_dup, x, 1.0),
              3 * cos(x) + 1, 1e-12);
  double y = 2.0;
  check_close("inactive function",
              __enzyme_autodiff((void *)update, enzyme_out, y),
              1 - 0.1 * y * y, 1e-14);
  return check_report();
}
