/* Bug: type analysis cannot type a buffer that is conditionally replaced by a
 * larger copy (malloc + memcpy + free) inside a loop, so a grown buffer, the
 * standard "append with doubling capacity" pattern, is rejected.
 *
 * Build: clang-19 -O0 -fpass-plugin=build/plugin/TapestryPlugin-19.so \
 *          tools/bugs/array-grow-buffer-phi-type.c -o /tmp/a && /tmp/a
 *
 * f = sum x_i^2 over the copies kept in buf.
 *
 * Expected: dx = 2 4 6, forward d/dx1 = 4
 * Actual:   compile error at -O0, -O1, -O2, -O3 (with -g it points at the
 *           memcpy):
 *   error: tapestry: cannot differentiate 'grow': cannot tell whether the
 *   memory this instruction copies holds float or double data; access it as
 *   such in the function
 *
 * The buffer is stored to as double (buf[i] = x[i]) and read as double; the
 * pointer reaches the store through phi(buf, bigger) at the join after the
 * `if`, and the memcpy's source is the loop-header phi(malloc, that join
 * phi). The same code with the reallocation unconditional (so the store goes
 * to `bigger` directly) compiles and is right, so the type of the stored-to
 * phi apparently does not flow back to the phi's incoming pointers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

double grow(const double *x, int n) {
  double *buf = malloc(sizeof *buf);
  for (int i = 0; i < n; i++) {
    if (i > 0) {
      double *bigger = malloc((i + 1) * sizeof *bigger);
      memcpy(bigger, buf, i * sizeof *buf);
      free(buf);
      buf = bigger;
    }
    buf[i] = x[i];
  }
  double s = 0;
  for (int k = 0; k < n; k++)
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
