// Structs passed by value under -flto, with the request in another file
// than the function (docs/multi-file-lto.md): the request is resolved at
// link time, on optimised IR, where nothing showed which values were one
// struct any more; forward mode paired the ABI's pieces as value and
// tangent (v.x with tangent v.y: 2.16 for 1.68), without a word (probe24a
// W1). The compile step now keeps the grouping in metadata. Forward mode
// (also batched) and reverse mode, at -O0 and -O2, with V2 {double x, y},
// {double x; float y}, and double complex. Expected: analytic.
// RUN: %clang -O0 -flto -c %s -o %t.main0.o
// RUN: %clang -O0 -flto -c %S/Inputs/lto-struct-by-value-model.c -o %t.model0.o
// RUN: %clang -O0 -flto -fuse-ld=lld -Wl,--load-pass-plugin=%plugin %t.main0.o %t.model0.o -lm -o %t0
// RUN: %t0 | FileCheck %s
// RUN: %clang -O2 -flto -c %s -o %t.main2.o
// RUN: %clang -O2 -flto -c %S/Inputs/lto-struct-by-value-model.c -o %t.model2.o
// RUN: %clang -O2 -flto -fuse-ld=lld -Wl,--load-pass-plugin=%plugin %t.main2.o %t.model2.o -lm -o %t2
// RUN: %t2 | FileCheck %s
// The request's file compiled without the plugin, the function's with it
// (review24 F1): nothing says which of the request's values are one
// struct, and the two readings give different numbers: an error.
// RUN: %plain_cc -O2 -flto -c %s -o %t.mainplain.o
// RUN: not %clang -O2 -flto -fuse-ld=lld -Wl,--load-pass-plugin=%plugin %t.mainplain.o %t.model2.o -lm -o %tx 2>&1 | FileCheck %s --check-prefix=MIXED
// MIXED: tapestry: 'quadratic' takes struct V2 by value (parameter 1), but the file making this request was compiled without the Tapestry plugin, so nothing says which of its values are one struct; compile this file with the plugin too
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <complex.h>

extern int enzyme_dup, enzyme_out, enzyme_width;
double __enzyme_fwddiff(void *, ...);
typedef struct {
  double d[2];
} Pair;
Pair __enzyme_fwddiff_batch(void *, ...);

typedef struct {
  double x, y;
} V2;
V2 __enzyme_autodiff_v2(void *, ...);

typedef struct {
  double x;
  float y;
} Mixed;

double quadratic(V2 v);
double mixed(Mixed m);
double impedance(double complex z);

int main(void) {
  volatile double vx = 0.8;
  V2 v = {vx, 0.6}, t = {0.3, 0.4}, t2 = {1.0, -0.5};
  /* d quadratic = 2 x dx + 3 dy */
  check_close("V2 forward",
              __enzyme_fwddiff((void *)quadratic, enzyme_dup, v, t),
              2 * v.x * t.x + 3 * t.y, 1e-14);
  check_close("V2 forward, no marker", __enzyme_fwddiff((void *)quadratic, v, t),
              2 * v.x * t.x + 3 * t.y, 1e-14);
  Pair b = __enzyme_fwddiff_batch((void *)quadratic, enzyme_width, 2,
                                  enzyme_dup, v, t, t2);
  check_close("V2 batch lane 0", b.d[0], 2 * v.x * t.x + 3 * t.y, 1e-14);
  check_close("V2 batch lane 1", b.d[1], 2 * v.x * t2.x + 3 * t2.y, 1e-14);
  V2 g = __enzyme_autodiff_v2((void *)quadratic, enzyme_out, v);
  check_close("V2 reverse x", g.x, 2 * v.x, 1e-14);
  check_close("V2 reverse y", g.y, 3, 1e-14);

  Mixed m = {vx, 1.5f}, mt = {0.25, 2.0f};
  /* d mixed = (y + cos x) dx + x dy */
  check_close("{double, float} forward",
              __enzyme_fwddiff((void *)mixed, enzyme_dup, m, mt),
              (m.y + cos(m.x)) * mt.x + m.x * mt.y, 1e-6);

  double complex z = vx + 0.5 * I, dz = 0.3 + 0.4 * I;
  /* d/dz sqrt(z) = 1 / (2 sqrt z): d creal(sqrt z) = Re(dz / (2 sqrt z)) */
  check_close("complex forward", __enzyme_fwddiff((void *)impedance, z, dz),
              creal(dz / (2 * csqrt(z))) + 3 * cimag(dz), 1e-12);
  return check_report();
}
