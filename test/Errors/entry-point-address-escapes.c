// Enzyme's entry point called through local variables is a request
// (Integration/strangers-entry-point-local-pointer.c,
// Integration/entry-point-variable-copies.c); one whose address goes
// elsewhere -- stored into a global at run time, passed to a function that
// calls it (directly or from a local variable), chosen between two entry
// points, compared with another function -- cannot be followed to its
// calls. That is an error at the use that says what works, not an
// undefined reference to __enzyme_autodiff at link time.
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=1 2>&1 | FileCheck %s --check-prefixes=CHECK,C1
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=2 2>&1 | FileCheck %s --check-prefixes=CHECK,C2
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=3 2>&1 | FileCheck %s --check-prefixes=CHECK,C3
// RUN: not %clang -O1 -g -c %s -o /dev/null -DCASE=4 2>&1 | FileCheck %s --check-prefixes=CHECK,C4
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=5 2>&1 | FileCheck %s --check-prefixes=CHECK,C5
// CHECK-NOT: PLEASE submit a bug report
// C1: entry-point-address-escapes.c:[[@LINE+20]]:{{[0-9]+}}: error: tapestry: the address of '__enzyme_autodiff' goes where its calls cannot be found (stored in memory other than local variables that hold only it, passed to a function, or compared or chosen with other values); call it directly, or through a local variable or a constant global that holds only it
// C2: entry-point-address-escapes.c:[[@LINE+23]]:{{[0-9]+}}: error: tapestry: the address of '__enzyme_autodiff' goes where its calls cannot be found
// C3: entry-point-address-escapes.c:[[@LINE+25]]:{{[0-9]+}}: error: tapestry: the address of '__enzyme_autodiff' goes where its calls cannot be found
// C4: entry-point-address-escapes.c:[[@LINE+26]]:{{[0-9]+}}: error: tapestry: the address of '__enzyme_{{autodiff|fwddiff}}' goes where its calls cannot be found
// C5: entry-point-address-escapes.c:[[@LINE+29]]:{{[0-9]+}}: error: tapestry: the address of '__enzyme_autodiff' goes where its calls cannot be found
typedef double (*grad_fn)(void *, ...);
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup;

double square(double x) { return x * x; }

__attribute__((noinline)) double apply(grad_fn g, double x) {
  return g((void *)square, x);
}

grad_fn saved;

double gradient(double x, int forward) {
#if CASE == 1
  saved = (grad_fn)__enzyme_autodiff;
  return saved((void *)square, x);
#elif CASE == 2
  volatile double y = x;
  return apply((grad_fn)__enzyme_autodiff, y);
#elif CASE == 3
  grad_fn g = (grad_fn)__enzyme_autodiff;
  return apply(g, x);
#elif CASE == 4
  grad_fn g = forward ? (grad_fn)__enzyme_fwddiff : (grad_fn)__enzyme_autodiff;
  return g((void *)square, enzyme_dup, x, 1.0);
#else
  grad_fn g = (grad_fn)__enzyme_autodiff;
  if (g == saved) return 0;
  return g((void *)square, x);
#endif
}
