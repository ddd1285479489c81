// -flto, the request in this file, the differentiated function 'wave' and
// the registered 'step' it calls in another: the other file's compile
// (-O2, its own optimiser) inlined step into wave, so the link-time run
// differentiated step's body, not its registration: 0.88 where the
// registered rule gives 3 exp(-x^2) + cos x = 3.21 at x = 0.5 (review23
// F5). The compile now keeps registered functions calls in a -flto
// compile (noinline), for the link-time run to find.
// RUN: %clang -O2 -flto -c %s -o %t.main.o
// RUN: %clang -O2 -flto -c %S/Inputs/lto-registered-inlined-wave.c -o %t.wave.o
// RUN: %clang -O2 -flto -fuse-ld=lld -Wl,--load-pass-plugin=%plugin %t.main.o %t.wave.o -lm -o %t 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// RUN: %t | FileCheck %s
// QUIET-NOT: tapestry
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <math.h>

extern int enzyme_out;
double __enzyme_autodiff(void *, ...);
double wave(double x);

int main(void) {
  check_close("wave' by step's registered derivative",
              __enzyme_autodiff((void *)wave, enzyme_out, 0.5),
              3 * exp(-0.25) + cos(0.5), 1e-12);
  return check_report();
}
