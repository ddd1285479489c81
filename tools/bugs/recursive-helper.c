/* Limitation (Enzyme supports it): a differentiated function calling a
 * recursive helper is refused.
 *
 * Build: clang-19 -O0 -fpass-plugin=build/plugin/TapestryPlugin-19.so \
 *          tools/bugs/recursive-helper.c -lm -o /tmp/a && /tmp/a
 *
 * Expected: compiles; prints "2.8 (want 2.8)" (d/dx x^2 = 2x at x = 1.4).
 * Actual:   error: tapestry: cannot differentiate 'f': the call to 'rpow' is
 *           recursive; recursive calls are not supported yet
 * (A clear diagnostic, not a wrong number; same at -O0..-O3.)
 */
#include <stdio.h>
extern int enzyme_out, enzyme_const;
double __enzyme_autodiff(void *, ...);
static double rpow(double x, int n) {
  return n == 0 ? 1.0 : x * rpow(x, n - 1);
}
double f(double x, int n) { return rpow(x, n); }
int main(void) {
  double d = __enzyme_autodiff((void *)f, enzyme_out, 1.4, enzyme_const, 2);
  printf("%g (want 2.8)\n", d);
  return d != 2.8;
}
