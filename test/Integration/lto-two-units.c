// Functions defined in another translation unit, with -flto: the compile
// step leaves the requests that need them, and the plugin loaded by the
// linker (ld.lld --load-pass-plugin) resolves them on the whole program.
// Reverse and forward mode, against analytic derivatives.
// RUN: %clang -O0 -flto -c %s -o %t.main0.o
// RUN: %clang -O0 -flto -c %S/Inputs/lto-other-unit.c -o %t.other0.o
// RUN: %clang -O0 -flto -fuse-ld=lld -Wl,--load-pass-plugin=%plugin %t.main0.o %t.other0.o -lm -o %t0
// RUN: %t0 | FileCheck %s
// RUN: %clang -O2 -flto -c %s -o %t.main2.o
// RUN: %clang -O2 -flto -c %S/Inputs/lto-other-unit.c -o %t.other2.o
// RUN: %clang -O2 -flto -fuse-ld=lld -Wl,--load-pass-plugin=%plugin %t.main2.o %t.other2.o -lm -o %t2
// RUN: %t2 | FileCheck %s
// Without -flto the request is an error that says how to link.
// RUN: not %clang -O2 -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOLTO
// NOLTO: error: tapestry: 'wave' has no body in this translation unit{{.*}}-flto -fuse-ld=lld -Wl,--load-pass-plugin
// ThinLTO optimises each unit on its own, even at link time: the compile step
// says so and how to build instead (not an undefined symbol at the link).
// RUN: not %clang -O2 -flto=thin -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=THIN
// THIN: lto-two-units.c:{{[0-9]+}}:{{[0-9]+}}: error: tapestry: 'wave' has no body in this translation unit, and ThinLTO (-flto=thin) optimises each file on its own{{.*}}full LTO instead (-flto, and link with -flto -fuse-ld=lld
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

double wave(double x, double y);
void smooth(double *u, int n, double c);
extern int enzyme_out, enzyme_const, enzyme_dup;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
void __enzyme_autodiff_v(void *, ...);

/* Defined here, calling the other unit. */
double local(double x) { return wave(x, 2.0) * x; }

int main(void) {
  double x = 0.7;
  check_close("wave reverse", __enzyme_autodiff((void *)wave, enzyme_out, x,
                                                enzyme_const, 2.0),
              2 * cos(2 * x), 1e-14);
  check_close("local reverse", __enzyme_autodiff((void *)local, enzyme_out, x),
              sin(2 * x) + 2 * x * cos(2 * x), 1e-14);
  check_close("local forward",
              __enzyme_fwddiff((void *)local, enzyme_dup, x, 1.0),
              sin(2 * x) + 2 * x * cos(2 * x), 1e-14);
  /* smooth with n = 2: u1' = u1 + c u0^2; seed du = (0, 1). */
  double u[2] = {0.5, 0.25}, du[2] = {0, 1};
  __enzyme_autodiff_v((void *)smooth, enzyme_dup, u, du, enzyme_const, 2,
                      enzyme_const, 0.3);
  check_close("smooth du0", du[0], 2 * 0.3 * 0.5, 1e-15);
  check_close("smooth du1", du[1], 1, 0);
  return check_report();
}
