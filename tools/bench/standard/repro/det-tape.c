/* Reproducer (issue 16 item 5): the tape of a recursive function grows by
 * about 1.7 KB per recursive call, whatever the call's work. The determinant
 * by minors of an l x l matrix makes about e * l! calls of a few
 * multiply-adds each; its gradient's tape is 352 KB at l = 5, 14.8 MB at
 * l = 7 and 1.07 GB at l = 9 (a value-per-multiply tape would be ~16 bytes
 * per call: 16 MB at l = 9). The gradient is right (checked against the
 * cofactors at l = 3). Since loops of unknown trip count start their
 * records with room for 8 (not 4 KiB): 134 bytes per call at l = 5 and 7
 * (test/Integration/recursion-tape-grows.c); each call still mallocs its
 * tape.
 *   clang-19 -O2 -Iinclude \
 *     -fplugin=build/plugin/TapestryPlugin-19.so -mllvm -tapestry-tape-stats \
 *     tools/bench/standard/repro/det-tape.c -Lbuild/runtime -ltapestry-rt \
 *     -o /tmp/det-tape && /tmp/det-tape 5 && /tmp/det-tape 7 */
#include <stdio.h>
#include <stdlib.h>

#include "tapestry/runtime.h"
extern int enzyme_const, enzyme_dup;
void __enzyme_autodiff(void *, ...);

static long calls;

/* The k x k minor of the m x m matrix a on the rows r[m], r[r[m]], ... and
 * the columns c[m], c[c[m]], ... (linked lists, unlinked while in use). */
static double minor(const double *a, int m, int k, int *r, int *c) {
  calls++;
  int i = r[m];
  if (k == 1)
    return a[i * m + c[m]];
  r[m] = r[i];
  double d = 0, sign = 1;
  for (int prev = m, j = c[m]; j < m; prev = j, j = c[j]) {
    c[prev] = c[j];
    double sub = minor(a, m, k - 1, r, c);
    c[prev] = j;
    d += sign * a[i * m + j] * sub;
    sign = -sign;
  }
  r[m] = i;
  return d;
}

double det(const double *a, int m, int *r, int *c) {
  for (int i = 0; i <= m; i++)
    r[i] = c[i] = (i + 1) % (m + 1);
  return minor(a, m, m, r, c);
}

int main(int argc, char **argv) {
  int m = argc > 1 ? atoi(argv[1]) : 5;
  double *a = malloc(sizeof(double) * m * m), *g = calloc(m * m, 8);
  int *r = malloc(sizeof(int) * (m + 1)), *c = malloc(sizeof(int) * (m + 1));
  for (int i = 0; i < m * m; i++)
    a[i] = (i * 7919 % 17) / 17.0 - 0.5 + (i % (m + 1) == 0);
  det(a, m, r, c);
  long primalCalls = calls;
  tapestry_tape_reset_high_water();
  __enzyme_autodiff((void *)det, enzyme_dup, a, g, enzyme_const, m,
                    enzyme_const, r, enzyme_const, c);
  unsigned long long tape = tapestry_tape_high_water();
  printf("l=%d: %ld recursive calls, tape %llu bytes (%.0f per call)\n", m,
         primalCalls, tape, (double)tape / primalCalls);
  if (m == 3) { /* cofactor of a[0][0]: a11 a22 - a12 a21 */
    double want = a[4] * a[8] - a[5] * a[7];
    printf("g[0] %.15g want %.15g\n", g[0], want);
  }
  return 0;
}
