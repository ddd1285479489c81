/* Bogus error: a function pointer that the REQUEST passes as a compile-time
 * constant (enzyme_const, sq) is reported as "not known at compile time".
 *
 * Build: clang-19 -O0 -g -fpass-plugin=build/plugin/TapestryPlugin-19.so \
 *          tools/bugs/calls-fnptr-constant-at-request.c -lm -o /tmp/a.out
 *        (same at -O2)
 *
 * Issue 4 item 2 asks for "functions called through a function pointer that
 * is a compile-time constant". Calls through a constant pointer work when
 * the constant is visible inside the differentiated code (a static function
 * passed by a differentiated wrapper, a const global, a const table: see
 * test/Integration/calls-callback.c), but not when the differentiated
 * function is the one taking the pointer and the request itself supplies a
 * known function. The request's argument is a constant, so the derivative
 * can be specialised for it (as for the wrapper case).
 *
 * Expected: prints "6.75 want 6.75" twice (d/dx of sq(x) * x = 3 x^2).
 * Actual:   error: tapestry: cannot differentiate 'apply': a call through a
 *           function pointer that is not known at compile time takes active
 *           arguments   (once per request; the message is also factually
 *           wrong: the pointer is known at compile time at the request)
 * At the very least the message should say that a pointer passed by the
 * request is not specialised and suggest a wrapper function.
 */
#include <math.h>
#include <stdio.h>
extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
typedef double (*fn)(double);
__attribute__((noinline)) double apply(fn f, double x) { return f(x) * x; }
static double sq(double x) { return x * x; }
int main(void) {
  printf("%g want %g\n",
         __enzyme_autodiff((void *)apply, enzyme_const, sq, enzyme_out, 1.5),
         3 * 1.5 * 1.5);
  printf("%g want %g\n",
         __enzyme_fwddiff((void *)apply, enzyme_const, sq, enzyme_dup, 1.5,
                          1.0),
         3 * 1.5 * 1.5);
  return 0;
}
