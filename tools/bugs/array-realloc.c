/* Missing feature (issue 3, item 6): realloc inside differentiated code is
 * rejected, so a buffer grown with realloc cannot be differentiated.
 *
 * Build: clang-19 -O0 -fpass-plugin=build/plugin/TapestryPlugin-19.so \
 *          tools/bugs/array-realloc.c -o /tmp/a && /tmp/a
 *
 * Expected: dx = 2 4 6, forward d/dx1 = 4
 * Actual:   compile error at -O0 through -O3 (one per request):
 *   error: tapestry: cannot differentiate 'grow': realloc inside
 *   differentiated code is not supported yet; allocate a new buffer, copy,
 *   and free the old one
 * (and the workaround the message suggests, when the copy is conditional,
 * hits tools/bugs/array-grow-buffer-phi-type.c.)
 */
#include <stdio.h>
#include <stdlib.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

double grow(const double *x, int n) {
  int cap = 1, len = 0;
  double *buf = malloc(cap * sizeof *buf);
  for (int i = 0; i < n; i++) {
    if (len == cap) {
      cap *= 2;
      buf = realloc(buf, cap * sizeof *buf);
    }
    buf[len++] = x[i];
  }
  double s = 0;
  for (int k = 0; k < len; k++)
    s += buf[k] * buf[k];
  free(buf);
  return s;
}

int main(void) {
  double x[3] = {1, 2, 3}, dx[3] = {0}, tx[3] = {0, 1, 0};
  __enzyme_autodiff((void *)grow, enzyme_dup, x, dx, enzyme_const, 3);
  printf("dx = %g %g %g\n", dx[0], dx[1], dx[2]);
  printf("forward d/dx1 = %g\n",
         __enzyme_fwddiff((void *)grow, enzyme_dup, x, tx, enzyme_const, 3));
  return 0;
}
