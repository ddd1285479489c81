// The function to differentiate chosen by a call of a weak function whose
// body here returns its argument: the linker may take another body (a
// library overriding the default), so the choice is known only at run time
// and the request is refused, not resolved to the argument. (Review44 F2:
// resolved to sq while the overriding choose() returned cube, a silently
// wrong 6 for 27.) A weak hook tested against null is not folded either.
// RUN: not %clang -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK: error: tapestry: the first argument of __enzyme_autodiff must be a function, e.g. (void *)f; got {{.*}}known only at run time
// CHECK-NOT: error:
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);

typedef double (*fn_t)(double);

double sq(double x) { return x * x; }

/* Default objective selector: the identity; a library may override it. */
__attribute__((weak)) fn_t choose(fn_t f) { return f; }

double slope(double x) {
  return __enzyme_autodiff((void *)choose(sq), enzyme_out, x);
}
