// The width after enzyme_width may be spelled as a literal, a cast literal,
// a `const int` local or a `static const int` global: each is a
// compile-time constant at every -O level, -O0 included (where the local is
// a stack slot stored once). Against the analytic tangent.
// RUN: %clang -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"

extern int enzyme_width;
typedef struct { double d[2]; } D2;
D2 __enzyme_fwddiff(void *, ...);
double f(double x) { return x * x * x; }
static const int WG = 2;
enum { WE = 2 };

int main(void) {
  const int W = 2;
  double x = 1.5, d = 3 * x * x;
  D2 a = __enzyme_fwddiff((void *)f, enzyme_width, W, x, 1.0, 2.0);
  D2 b = __enzyme_fwddiff((void *)f, enzyme_width, WG, x, 1.0, -1.0);
  D2 c = __enzyme_fwddiff((void *)f, enzyme_width, (long)2, x, 1.0, 0.5);
  D2 e = __enzyme_fwddiff((void *)f, enzyme_width, WE, x, 0.0, 1.0);
  check_close("const local lane 0", a.d[0], d, 1e-15);
  check_close("const local lane 1", a.d[1], 2 * d, 1e-15);
  check_close("static const global lane 1", b.d[1], -d, 1e-15);
  check_close("cast literal lane 1", c.d[1], 0.5 * d, 1e-15);
  check_close("enumerator lane 0", e.d[0], 0, 0);
  check_close("enumerator lane 1", e.d[1], d, 1e-15);
  return check_report();
}
