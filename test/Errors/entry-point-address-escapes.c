// Enzyme's entry point called through a local variable is a request
// (Integration/strangers-entry-point-local-pointer.c); one whose address
// goes elsewhere -- stored into a global at run time, or passed to a
// function that calls it -- cannot be followed to its calls. That is an
// error at the use that says what works, not an undefined reference to
// __enzyme_autodiff at link time.
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=1 2>&1 | FileCheck %s --check-prefixes=CHECK,C1
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=2 2>&1 | FileCheck %s --check-prefixes=CHECK,C2
// CHECK-NOT: PLEASE submit a bug report
// C1: entry-point-address-escapes.c:[[@LINE+15]]:{{[0-9]+}}: error: tapestry: the address of '__enzyme_autodiff' goes where its calls cannot be found (stored in memory other than one local variable, or passed to a function); call it directly, or through a local variable or a constant global that holds only it
// C2: entry-point-address-escapes.c:[[@LINE+18]]:{{[0-9]+}}: error: tapestry: the address of '__enzyme_autodiff' goes where its calls cannot be found (stored in memory other than one local variable, or passed to a function); call it directly, or through a local variable or a constant global that holds only it
typedef double (*grad_fn)(void *, ...);
extern double __enzyme_autodiff(void *, ...);

double square(double x) { return x * x; }

__attribute__((noinline)) double apply(grad_fn g, double x) {
  return g((void *)square, x);
}

grad_fn saved;

double gradient(double x) {
#if CASE == 1
  saved = (grad_fn)__enzyme_autodiff;
  return saved((void *)square, x);
#else
  volatile double y = x;
  return apply((grad_fn)__enzyme_autodiff, y);
#endif
}
