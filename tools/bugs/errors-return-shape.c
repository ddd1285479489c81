/* Bug: a request whose declared return type does not match its results is
 * accepted silently in several shapes; the results are wrong or memory is
 * corrupted.
 *
 * Build: clang-19 -O0 -g -fpass-plugin=build/plugin/TapestryPlugin-19.so \
 *          tools/bugs/errors-return-shape.c -o /tmp/a && /tmp/a
 *
 * Expected: each request below is a compile error at its line, like
 *   error: tapestry: the call to __enzyme_autodiff_d4 is declared to return
 *   ..., which does not hold its 3 result(s) (double, double, double); ...
 * (a demanding user would accept a value conversion for a single scalar
 * result, as for float <- double, but never a reinterpretation of bytes).
 * Actual (same at -O0..-O3), no diagnostic, and:
 *   D3 <- 4 doubles: the derivative's {double x4} (32 bytes) is stored into
 *                    the 24-byte sret buffer: out-of-bounds write on the
 *                    caller's stack (see the IR: store { double, double,
 *                    double, double } %r, ptr %sret)
 *   D4 <- 3 doubles: member d is uninitialised (0 at -O0, 3.2e-319 at -O2)
 *   long <- double:  4613937818241073152 (the bits of 3.0)
 *   int <- double:   0 (the low 32 bits of 3.0)
 *   {double, double} <- (double, float): dy is the float's bytes read as a
 *                    double (6.9e-310 instead of 2)
 * Fixed meanwhile: {double, double} <- 3 doubles is now an error.
 * (ASan: "stack-buffer-overflow ... WRITE of size 32" in the caller.)
 * Cause: CallSiteRewriter::deliverResults (plugin/Passes/TapestryPass.cpp)
 * stores the result to D.SRet without comparing sizes, and reinterprets
 * through memory whenever the (8-rounded) sizes agree, without comparing
 * the scalar layout (type at each offset) of the two types.
 * Tests: test/Errors/return-{struct-too-many-members,sret-too-small,
 * integer,member-type}.c (XFAIL).
 */
#include <stdio.h>
extern int enzyme_out;
typedef struct { double a, b, c; } D3;
typedef struct { double a, b, c, d; } D4;
typedef struct { double dx, dy; } D2;
D3 __enzyme_autodiff_d3(void *, ...);
D4 __enzyme_autodiff_d4(void *, ...);
long __enzyme_autodiff_l(void *, ...);
int __enzyme_autodiff_i(void *, ...);
D2 __enzyme_autodiff_mixed(void *, ...);
double f3(double x, double y, double z) { return x * y * z; }
double f4(double x, double y, double z, double w) { return x * y * z * w; }
double f1(double x) { return 3 * x; }
double fm(double x, float y) { return x * y; }
int main(void) {
  D3 b = __enzyme_autodiff_d3((void *)f4, enzyme_out, 2.0, enzyme_out, 3.0,
                              enzyme_out, 5.0, enzyme_out, 7.0);
  printf("D3 <- 4: %g %g %g (and 8 bytes written past b)\n", b.a, b.b, b.c);
  D4 c = __enzyme_autodiff_d4((void *)f3, enzyme_out, 2.0, enzyme_out, 3.0,
                              enzyme_out, 5.0);
  printf("D4 <- 3: %g %g %g %g (d is garbage)\n", c.a, c.b, c.c, c.d);
  long l = __enzyme_autodiff_l((void *)f1, enzyme_out, 2.0);
  printf("long <- double: %ld (want an error; 3.0's bits)\n", l);
  int i = __enzyme_autodiff_i((void *)f1, enzyme_out, 2.0);
  printf("int <- double: %d (want an error)\n", i);
  D2 m = __enzyme_autodiff_mixed((void *)fm, enzyme_out, 2.0, enzyme_out, 3.0f);
  printf("{double,double} <- (double,float): dx=%g dy=%g (want 3 2)\n", m.dx,
         m.dy);
  return 0;
}
