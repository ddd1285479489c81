/* farm-bench driver: the gradient of the determinant by minors (l x l,
 * tools/bench/standard/repro/det-tape.c's recursion), reps times. */
#include <stdio.h>
#include <stdlib.h>
extern int enzyme_const, enzyme_dup;
void __enzyme_autodiff(void *, ...);
static double minor(const double *a, int m, int k, int *r, int *c) {
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
  int m = atoi(argv[1]), reps = atoi(argv[2]);
  double *a = malloc(sizeof(double) * m * m), *g = calloc(m * m, 8);
  int *r = malloc(sizeof(int) * (m + 1)), *c = malloc(sizeof(int) * (m + 1));
  for (int i = 0; i < m * m; i++)
    a[i] = (i * 7919 % 17) / 17.0 - 0.5 + (i % (m + 1) == 0);
  for (int k = 0; k < reps; k++)
    __enzyme_autodiff((void *)det, enzyme_dup, a, g, enzyme_const, m,
                      enzyme_const, r, enzyme_const, c);
  printf("%g\n", g[0]);
  return 0;
}
