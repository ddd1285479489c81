// A helper requesting its function parameter, declared without a prototype
// (K&R) and called through that declaration, once with an int where the
// definition takes a double: that call's type differs from the helper's,
// so it is not inlined, and the helper, kept for it, has its request on
// its parameter refused. (Review44b R4: such a call was taken as the
// helper's call site and crashed clang.)
// RUN: not %clang -std=gnu17 -w -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -std=gnu17 -w -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
// CHECK: error: tapestry: the first argument of __enzyme_autodiff must be a function, e.g. (void *)f; got {{.*}}known only at run time
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);
typedef double (*fn_t)(double);

static double sq(double x) { return x * x; }
static double helper(); /* no prototype */

double slope(double x) { return helper(sq, x); }
double slopeAtThree(void) { return helper(sq, 3); }

static double helper(f, x) fn_t f;
double x;
{ return __enzyme_autodiff((void *)f, enzyme_out, x); }
