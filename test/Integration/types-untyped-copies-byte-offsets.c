// Doubles moved between two malloc'd scratch arrays through char pointers at
// byte offsets the IR cannot relate to elements: the offsets come from an
// enzyme_const table, so nothing proves they are multiples of 8, and at -O1
// and above each 8-byte memcpy becomes an i64 load and store. Both ends are
// memory the function allocates; the type analysis knows they hold doubles
// (typed stores and loads elsewhere) but not at which bytes of the copy.
// Such a copy must carry its derivative (an array of doubles), never be
// taken for integers: once it silently gave a zero gradient, the way the
// reverse of qsort did (test/Fuzz/qsort-copy-of-copy-reverse.c).
// A gather `c[i] = t[perm[i]]` written with a byte index `perm[i] << 3`
// (what the qsort lowering's element moves become) is the second kernel.
// Reverse and forward mode against central finite differences, -O0..-O3.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

#include "Inputs/gradcheck.h"

enum { N = 4 };
static const long Offsets[N] = {24, 0, 16, 8};
static const long Perm[N] = {2, 3, 1, 0};

/* c[i] = t[off[i] / 8], copied as bytes; r = sum (i + 1) * c[i] */
double by_offsets(const double *a, const long *off) {
  double *t = malloc(N * sizeof *t), *c = malloc(N * sizeof *c);
  for (int i = 0; i < N; i++)
    t[i] = a[i] * a[i] + sin(a[i]);
  for (int i = 0; i < N; i++)
    memcpy((char *)c + 8 * i, (const char *)t + off[i], 8);
  double r = 0;
  for (int i = 0; i < N; i++)
    r += (i + 1) * c[i];
  free(t);
  free(c);
  return r;
}

/* c[i] = t[perm[i]], through a byte index perm[i] << 3 */
double by_shifted_index(const double *a, const long *perm) {
  double *t = malloc(N * sizeof *t), *c = malloc(N * sizeof *c);
  for (int i = 0; i < N; i++)
    t[i] = exp(0.5 * a[i]);
  for (int i = 0; i < N; i++)
    memcpy((char *)c + (i << 3), (const char *)t + (perm[i] << 3), 8);
  double r = 0;
  for (int i = 0; i < N; i++)
    r += c[i] * c[(i + 1) % N];
  free(t);
  free(c);
  return r;
}

static double bo_eval(const double *p) { return by_offsets(p, Offsets); }
static void bo_grad(const double *p, double *g) {
  double *a = copy_of(p, N);
  __enzyme_autodiff((void *)by_offsets, enzyme_dup, a, g, enzyme_const,
                    Offsets);
  free(a);
}
static double bo_tangent(const double *p, int j) {
  double *a = copy_of(p, N), *e = unit_slice(j, 0, N);
  double t = __enzyme_fwddiff((void *)by_offsets, enzyme_dup, a, e,
                              enzyme_const, Offsets);
  free(a);
  free(e);
  return t;
}

static double bs_eval(const double *p) { return by_shifted_index(p, Perm); }
static void bs_grad(const double *p, double *g) {
  double *a = copy_of(p, N);
  __enzyme_autodiff((void *)by_shifted_index, enzyme_dup, a, g, enzyme_const,
                    Perm);
  free(a);
}
static double bs_tangent(const double *p, int j) {
  double *a = copy_of(p, N), *e = unit_slice(j, 0, N);
  double t = __enzyme_fwddiff((void *)by_shifted_index, enzyme_dup, a, e,
                              enzyme_const, Perm);
  free(a);
  free(e);
  return t;
}

int main(void) {
  double p[N];
  fill(p, N, -1.5, 1.5, 7);
  compare("by_offsets (memcpy at table offsets)", N, p, bo_eval, bo_grad,
          bo_tangent);
  compare("by_shifted_index (byte index perm[i] << 3)", N, p, bs_eval, bs_grad,
          bs_tangent);
  return check_report();
}
