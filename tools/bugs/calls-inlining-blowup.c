/* Compile time explodes on call trees: every call to a function with a body
 * is inlined into the derivative instead of differentiating each callee once
 * per distinct request (issue 4, item 1: "Each synthesised function is
 * memoised by its request ... so a callee called from many places is
 * differentiated once per distinct request"; Done when: "each callee's
 * derivative appears once per distinct request in the output IR").
 *
 * Here ROOT calls the next level twice (with x and x/2), and so on down to
 * leaf: DEPTH + 1 small functions, 2^DEPTH paths to the leaf.
 *
 * Build: time clang-19 -O0 -fpass-plugin=build/plugin/TapestryPlugin-19.so \
 *          tools/bugs/calls-inlining-blowup.c -lm -o /tmp/a.out
 *   (-DDEPTH=N: the tree has N + 1 levels; default 10)
 *
 * Expected: one derivative per function (DEPTH + 1 augmented/reverse pairs,
 *   or as many tangent functions), compile time a fraction of a second
 *   like the plain program (0.1 s), and the program prints
 *   "ok: got X want X" (the want is the closed form below).
 * Actual (this machine, -O0; without the plugin the file compiles in 0.1 s):
 *   DEPTH  8 (256 leaf calls):   0.3 s
 *   DEPTH 10 (1024 leaf calls):  0.7 s  (the default here)
 *   DEPTH 11 (2048 leaf calls):  3.7 s
 *   DEPTH 12 (4096 leaf calls): 29 s
 *   (with leaf = sin(x) * 1.0001 instead: 1.5 s, 12 s and ~90 s)
 *   i.e. ~8x per level while the program only doubles: worse than the
 *   (already exponential) size of the fully inlined derivative. The output
 *   IR has a single ROOT.tapestry.rev_* function with every call inlined, and
 *   no derivative function for any other level or leaf. The numbers are right.
 * Test: test/Reverse/calls-memoised.c (XFAIL) checks the structure on a
 *   small tree; test/Integration/calls-call-tree.c the numbers.
 */
#include <math.h>
#include <stdio.h>
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);

#ifndef DEPTH
#define DEPTH 10
#endif

__attribute__((noinline)) double leaf(double x) { return sin(x); }
#define LEVEL(k, next)                                                        \
  __attribute__((noinline)) double k(double x) {                              \
    return next(x) + next(0.5 * x);                                           \
  }
LEVEL(f12, leaf)
LEVEL(f11, f12)
LEVEL(f10, f11)
LEVEL(f9, f10)
LEVEL(f8, f9)
LEVEL(f7, f8)
LEVEL(f6, f7)
LEVEL(f5, f6)
LEVEL(f4, f5)
LEVEL(f3, f4)
LEVEL(f2, f3)
LEVEL(f1, f2)

/* The root of a tree with D levels above the leaf is f(13 - D). */
#if DEPTH == 8
#define ROOT f5
#elif DEPTH == 10
#define ROOT f3
#elif DEPTH == 11
#define ROOT f2
#elif DEPTH == 12
#define ROOT f1
#else
#error "DEPTH must be 8, 10, 11 or 12"
#endif

int main(void) {
  /* root(x) = sum_j C(D, j) sin(x / 2^j), D levels of doubling */
  double x = 0.3, want = 0, c = 1;
  for (int j = 0; j <= DEPTH; j++) {
    want += c * cos(x / ldexp(1, j)) / ldexp(1, j);
    c = c * (DEPTH - j) / (j + 1);
  }
  double got = __enzyme_autodiff((void *)ROOT, enzyme_out, x);
  printf("%s: got %.17g want %.17g\n",
         fabs(got - want) <= 1e-12 * fabs(want) ? "ok" : "WRONG", got, want);
  return 0;
}
