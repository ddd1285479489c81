/* Bug: a struct passed by value is split by the C ABI into several IR
 * parameters, and the request decoder numbers and marks IR parameters, not C
 * parameters. One natural forward-mode request silently returns a wrong
 * tangent; others get misleading errors.
 *
 * Build: clang-19 -O0 -g -fpass-plugin=build/plugin/TapestryPlugin-19.so \
 *          tools/bugs/errors-struct-by-value.c -o /tmp/a && /tmp/a
 *
 * On x86-64, V = {double a, b} is passed as two doubles to sf and through
 * the '...' of the request, so sf is (double a, double b, double x) in IR.
 * __enzyme_fwddiff(sf, enzyme_dup, v, dv, enzyme_const, x) decodes as
 *   a: dup, value v.a, tangent v.b;  b: (default dup) value dv.a, tangent
 *   dv.b;  x: const.
 * Expected: "tangent = 5" ((dv.a + 2 dv.b) x), or an error that sf takes a
 *           struct by value (detectable with -g from the DISubprogram type).
 * Actual:   "tangent = 15" at -O0..-O3, no diagnostic.
 * With enzyme_const v the errors are misleading instead: "expected the
 * shadow of parameter 2 of 'sf' (double) but found the marker enzyme_dup"
 * (forward) and "declared to return double, which does not match its 2
 * result(s) (double, double)" (reverse, with enzyme_out x only).
 * Still present after 04e4127 (checked again: "tangent = 15" at -O0 and -O2,
 * and the two misleading errors above, word for word).
 * Test: test/Errors/struct-by-value.c (XFAIL).
 */
#include <stdio.h>
extern int enzyme_dup, enzyme_const;
double __enzyme_fwddiff(void *, ...);
typedef struct { double a, b; } V;
double sf(V v, double x) { return (v.a + 2 * v.b) * x; }
int main(void) {
  V v = {2.0, 3.0}, dv = {1.0, 0.0};
  double x = 5.0;
  double t = __enzyme_fwddiff((void *)sf, enzyme_dup, v, dv, enzyme_const, x);
  printf("tangent = %g (want (dv.a + 2*dv.b)*x = 5)\n", t);
  return 0;
}
