// A double adjoint returned through a request declared to return an integer:
// an error at the call (before the fix, 'long' received the bit pattern of
// the double, d/dx 3x = 3.0 coming back as 4613937818241073152, and 'int'
// its low 32 bits). The spelling of the declared type ('long', 'int' rather
// than the IR's i64, i32) is checked by return-type-spelling.c.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O0 -g -c %s -o /dev/null -DINT 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null -DINT 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
extern int enzyme_out;
#ifdef INT
typedef int R;
#else
typedef long R;
#endif
R __enzyme_autodiff(void *, ...);
double f(double x) { return 3 * x; }
R g(double x) {
  // CHECK: return-integer.c:[[@LINE+1]]:10: error: tapestry: the call to __enzyme_autodiff is declared to return {{[^ ]+}}, which does not match its 1 result(s) (double); declare it to return that type
  return __enzyme_autodiff((void *)f, enzyme_out, x);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
