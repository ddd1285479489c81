// enzyme_dupnoneed: the caller needs only the shadow of an output, and
// passes an invalid primal pointer for it, as Enzyme's users do
// ((double *)0x1, or null). The derivative must not write through it, in
// forward, reverse, split and batch mode. An output the function also
// reads (`*acc += ...`) keeps its primal writes, so there the caller's
// valid pointer is updated as with enzyme_dup.
// RUN: %clang -O0 %s -o %t0 -lm && %t0 | FileCheck %s
// RUN: %clang -O1 %s -o %t1 -lm && %t1 | FileCheck %s
// RUN: %clang -O2 %s -o %t2 -lm && %t2 | FileCheck %s
// RUN: %clang -O3 %s -o %t3 -lm && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <string.h>

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_width;
void __enzyme_fwddiff(void *, ...);
void __enzyme_autodiff(void *, ...);
typedef struct {
  void *tape;
} Aug;
Aug __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

static double bond(double r) { return (r - 1.0) * (r - 1.0) + 0.1 * sin(r); }
static double dbond(double r) { return 2.0 * (r - 1.0) + 0.1 * cos(r); }

// Total energy of a chain of springs, written into *energy.
static void chain_energy(const double *x, double *energy, int n) {
  double e = 0;
  for (int i = 0; i + 1 < n; ++i)
    e += bond(x[i + 1] - x[i]);
  *energy = e;
}

// Two outputs, cleared first with memset.
static void polar(const double *p, double *out) {
  memset(out, 0, 2 * sizeof(double));
  out[0] = sqrt(p[0] * p[0] + p[1] * p[1]);
  out[1] = atan2(p[1], p[0]);
}

// Reads its output: primal writes are needed.
static void accumulate(const double *x, double *acc) {
  *acc += x[0] * x[1];
  *acc *= 2.0;
}

static double d_energy(const double *x, int n, int k) {
  double d = 0;
  if (k > 0)
    d += dbond(x[k] - x[k - 1]);
  if (k + 1 < n)
    d -= dbond(x[k + 1] - x[k]);
  return d;
}

int main(void) {
  double x[4] = {0.0, 1.3, 2.1, 3.7};
  double *bad = (double *)0x1;

  // Forward: tangent of the energy along e_1.
  double tx[4] = {0, 1, 0, 0}, de = 0;
  __enzyme_fwddiff((void *)chain_energy, enzyme_dup, x, tx, enzyme_dupnoneed,
                   bad, &de, enzyme_const, 4);
  check_close("energy forward", de, d_energy(x, 4, 1), 1e-12);

  // Reverse, primal pointer 0x1 and null.
  double gx[4] = {0}, seed = 1.0;
  __enzyme_autodiff((void *)chain_energy, enzyme_dup, x, gx, enzyme_dupnoneed,
                    bad, &seed, enzyme_const, 4);
  for (int k = 0; k < 4; ++k)
    check_close("energy reverse", gx[k], d_energy(x, 4, k), 1e-12);
  double gn[4] = {0};
  seed = 1.0;
  __enzyme_autodiff((void *)chain_energy, enzyme_dup, x, gn, enzyme_dupnoneed,
                    (double *)0, &seed, enzyme_const, 4);
  check_close("energy reverse (null)", gn[2], d_energy(x, 4, 2), 1e-12);

  // Split: augmented forward and reverse both get the invalid pointer.
  double gs[4] = {0};
  seed = 1.0;
  Aug a = __enzyme_augmentfwd((void *)chain_energy, enzyme_dup, x, gs,
                              enzyme_dupnoneed, bad, &seed, enzyme_const, 4);
  __enzyme_reverse((void *)chain_energy, enzyme_dup, x, gs, enzyme_dupnoneed,
                   bad, &seed, enzyme_const, 4, a.tape);
  for (int k = 0; k < 4; ++k)
    check_close("energy split", gs[k], d_energy(x, 4, k), 1e-12);

  // Two outputs cleared by memset; forward and batch of width 2.
  double p[2] = {0.6, -0.8}, tp[2] = {1, 0}, dout[2] = {7, 7};
  double r = sqrt(p[0] * p[0] + p[1] * p[1]);
  __enzyme_fwddiff((void *)polar, enzyme_dup, p, tp, enzyme_dupnoneed, bad,
                   dout);
  check_close("polar d r / d p0", dout[0], p[0] / r, 1e-12);
  check_close("polar d phi / d p0", dout[1], -p[1] / (r * r), 1e-12);
  double e0[2] = {1, 0}, e1[2] = {0, 1}, l0[2], l1[2];
  __enzyme_fwddiff((void *)polar, enzyme_width, 2, enzyme_dup, p, e0, e1,
                   enzyme_dupnoneed, bad, l0, l1);
  check_close("polar batch d r / d p1", l1[0], p[1] / r, 1e-12);
  check_close("polar batch d phi / d p0", l0[1], -p[1] / (r * r), 1e-12);
  check_close("polar batch d phi / d p1", l1[1], p[0] / (r * r), 1e-12);

  // An output that is read: the primal pointer must be valid and updated.
  double y[2] = {1.5, -2.0}, gy[2] = {0}, acc = 0.25, dacc = 1.0;
  __enzyme_autodiff((void *)accumulate, enzyme_dup, y, gy, enzyme_dupnoneed,
                    &acc, &dacc);
  check_close("accumulate primal", acc, 2.0 * (0.25 + y[0] * y[1]), 1e-12);
  check_close("accumulate d/dy0", gy[0], 2.0 * y[1], 1e-12);
  check_close("accumulate d/dacc", dacc, 2.0, 1e-12);
  return check_report();
}
