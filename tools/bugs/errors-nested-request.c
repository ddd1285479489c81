/* Bug: a request inside a differentiated function (second derivative)
 * works or fails depending on the order of the definitions, and fails with
 * a misleading message.
 *
 * Build: clang-19 -O0 -g -fpass-plugin=build/plugin/TapestryPlugin-19.so \
 *          tools/bugs/errors-nested-request.c -o /tmp/a && /tmp/a
 *        (add -DSWAP to define g before d: then it compiles and prints 12)
 *
 * Expected: prints "d2 = 12" in both orders (d2/dx2 x^3 = 6x at x = 2).
 * Actual:   without -DSWAP, at -O0..-O2:
 *   error: tapestry: cannot differentiate 'd': no derivative is known for
 *   external function '__enzyme_autodiff': give its body, register one with
 *   'void *__enzyme_register_gradient___enzyme_autodiff[3] = ...
 * Cause: TapestryPass::run collects requests in use-list order (the last
 * call in the module first) and differentiates 'd' while its own request is
 * still an unresolved call. Resolving requests callee-first (or a
 * worklist that defers a request whose function still contains requests)
 * would fix it. A function requesting its own derivative
 *   double self(double x) { return x * __enzyme_autodiff((void *)self, x); }
 * gets the same misleading text; it should say the request is recursive.
 * Tests: test/Errors/nested-request.c, test/Errors/self-request.c (XFAIL).
 */
#include <stdio.h>
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);
double cube(double x) { return x * x * x; }
#ifndef SWAP
double d(double x) { return __enzyme_autodiff((void *)cube, enzyme_out, x); }
double g(double x) { return __enzyme_autodiff((void *)d, enzyme_out, x); }
#else
double d(double x);
double g(double x) { return __enzyme_autodiff((void *)d, enzyme_out, x); }
double d(double x) { return __enzyme_autodiff((void *)cube, enzyme_out, x); }
#endif
int main(void) {
  printf("d2 = %g\n", g(2.0));
  return 0;
}
