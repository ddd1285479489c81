// Structs passed by value whose members include pointers, spelled as
// Tapestry documents (enzyme_dup, v, dv with a shadow struct): in forward
// mode the pointer members were taken as constant and every tangent came
// back 0 without a word (probe22a W3); in reverse mode a struct of
// pointers and integers was refused with advice that was refused in turn
// (M1). Pointer members now take their shadows from the shadow struct.
// A variadic call out of registers passes such a struct in memory though
// the function takes it in pieces (a batch's tangents, a struct after
// several other arguments): that was refused with "too few arguments" or
// a request for the spelling given (probe22a W3c, R4); the pieces are now
// read from memory. The adjoint of a struct with an integer member
// (enzyme_out, {double x; int tag}) comes back as that struct with the
// integer 0; declared so, it was refused (R5), also with a float pair the
// ABI passes as one vector piece (found in review). Forward, batch forward and reverse; expected
// derivatives are analytic.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <math.h>

extern int enzyme_dup, enzyme_const, enzyme_width;
double __enzyme_fwddiff(void *, ...);
void __enzyme_autodiff(void *, ...);
typedef struct {
  double d[2];
} Pair;
Pair __enzyme_fwddiff_pair(void *, ...);
extern int enzyme_out;

typedef struct {
  double *data;
  int n;
} VecI;
typedef struct {
  int n;
  const double *data;
} IVec;
typedef struct {
  const double *data;
  double scale;
} Scaled;
typedef struct {
  const double *a;
  const double *b;
} Two;

// s = sum data_i^2 sin(data_i)
double energy(VecI v) {
  double s = 0;
  for (int i = 0; i < v.n; i++)
    s += v.data[i] * v.data[i] * sin(v.data[i]);
  return s;
}
double energyI(IVec v) {
  double s = 0;
  for (int i = 0; i < v.n; i++)
    s += v.data[i] * v.data[i] * sin(v.data[i]);
  return s;
}
// scale * (data_0^2 + data_1^2 + data_2^2)
double scaled(Scaled v) {
  return v.scale *
         (v.data[0] * v.data[0] + v.data[1] * v.data[1] + v.data[2] * v.data[2]);
}
// a . b over 2
double dot(Two t) { return t.a[0] * t.b[0] + t.a[1] * t.b[1]; }

typedef struct {
  double x;
  int tag;
} Tagged;
// w_0 x_0^2 + ... over a struct given last, after a weight array
double wsum(const double *w, IVec v) {
  double s = 0;
  for (int i = 0; i < v.n; i++)
    s += w[i] * v.data[i] * v.data[i];
  return s;
}
// x^3 (tag + 1)
double tagged(Tagged t) { return t.x * t.x * t.x * (t.tag + 1); }
Tagged __enzyme_autodiff_tagged(void *, ...);
typedef struct {
  float a, b;
  int tag;
} FloatsTagged;
FloatsTagged __enzyme_autodiff_ft(void *, ...);
// a^2 b (tag + 1)
float floatsTagged(FloatsTagged t) { return t.a * t.a * t.b * (t.tag + 1); }

static double dE(double x) { return 2 * x * sin(x) + x * x * cos(x); }

int main(void) {
  double x[3] = {0.4, -1.1, 2.3}, e0[3] = {1, 0, 0}, e2[3] = {0, 0, 1};
  VecI v = {x, 3};
  // Forward: the tangent in direction e0, then e2.
  VecI t0 = {e0, 3}, t2 = {e2, 3};
  check_close("forward {double*, int}",
              __enzyme_fwddiff((void *)energy, enzyme_dup, v, t0), dE(x[0]),
              1e-13);
  check_close("forward {double*, int} e2",
              __enzyme_fwddiff((void *)energy, enzyme_dup, v, t2), dE(x[2]),
              1e-13);
  IVec w = {3, x}, s2 = {3, e2};
  check_close("forward {int, double*}",
              __enzyme_fwddiff((void *)energyI, enzyme_dup, w, s2), dE(x[2]),
              1e-13);
  Scaled sc = {x, 1.5}, dsc = {e0, 0.5};
  check_close("forward {double*, double}",
              __enzyme_fwddiff((void *)scaled, enzyme_dup, sc, dsc),
              1.5 * 2 * x[0] + 0.5 * (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]),
              1e-13);
  double y[2] = {5, 7}, dy[2] = {0, 1};
  Two ab = {x, y}, dab = {e0, dy};
  check_close("forward {double*, double*}",
              __enzyme_fwddiff((void *)dot, enzyme_dup, ab, dab), y[0] + x[1],
              1e-13);
  // Batch: both directions at once (the tangents go in memory).
  Pair p = __enzyme_fwddiff_pair((void *)energy, enzyme_width, 2, enzyme_dup, v,
                                 t0, t2);
  check_close("batch lane 0", p.d[0], dE(x[0]), 1e-13);
  check_close("batch lane 1", p.d[1], dE(x[2]), 1e-13);
  Tagged tg = {1.5, 2}, dt1 = {1, 0}, dt2 = {2, 0};
  Pair q = __enzyme_fwddiff_pair((void *)tagged, enzyme_width, 2, enzyme_dup,
                                 tg, dt1, dt2);
  check_close("batch {double, int} 0", q.d[0], 3 * 1.5 * 1.5 * 3, 1e-13);
  check_close("batch {double, int} 1", q.d[1], 2 * 3 * 1.5 * 1.5 * 3, 1e-13);
  Tagged adj = __enzyme_autodiff_tagged((void *)tagged, enzyme_out, tg);
  check_close("adjoint {double, int} x", adj.x, 3 * 1.5 * 1.5 * 3, 1e-13);
  check_close("adjoint {double, int} tag", adj.tag, 0, 0);
  FloatsTagged ft = {1.5f, -0.5f, 2};
  FloatsTagged dft = __enzyme_autodiff_ft((void *)floatsTagged, enzyme_out, ft);
  check_close("adjoint {float, float, int} a", dft.a, 2 * 1.5 * -0.5 * 3, 1e-6);
  check_close("adjoint {float, float, int} b", dft.b, 1.5 * 1.5 * 3, 1e-6);
  check_close("adjoint {float, float, int} tag", dft.tag, 0, 0);
  // A constant struct after other arguments (in memory).
  double wt[3] = {0.5, 1, 2}, dwt[3] = {0, 0, 0}, ones[3] = {1, 1, 1};
  __enzyme_autodiff((void *)wsum, enzyme_dup, wt, dwt, enzyme_const, w);
  for (int i = 0; i < 3; i++)
    check_close("reverse, constant struct last", dwt[i], x[i] * x[i], 1e-13);
  check_close("forward, constant struct last",
              __enzyme_fwddiff((void *)wsum, enzyme_dup, wt, ones, enzyme_const,
                               w),
              x[0] * x[0] + x[1] * x[1] + x[2] * x[2], 1e-13);
  // Reverse: a struct of a pointer and an integer, its shadow struct's
  // pointer receiving the gradient.
  double g[3] = {0, 0, 0};
  VecI G = {g, 3};
  __enzyme_autodiff((void *)energy, enzyme_dup, v, G);
  for (int i = 0; i < 3; i++)
    check_close("reverse {double*, int}", g[i], dE(x[i]), 1e-13);
  double h[3] = {0, 0, 0};
  IVec H = {3, h};
  __enzyme_autodiff((void *)energyI, enzyme_dup, w, H);
  for (int i = 0; i < 3; i++)
    check_close("reverse {int, double*}", h[i], dE(x[i]), 1e-13);
  return check_report();
}
