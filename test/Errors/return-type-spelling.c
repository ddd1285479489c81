// A request whose declared return type does not match its results is an
// error (checked by return-integer.c, return-struct-too-many-members.c and
// return-sret-too-small.c); the message spells the declared type as C does
// ('long', 'int', 'struct D4 { ... }'), never as IR ('i64', '%struct.D4 =
// type ...').
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=1 2>&1 | FileCheck %s --check-prefixes=CHECK,LONG
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=1 2>&1 | FileCheck %s --check-prefixes=CHECK,LONG
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=2 2>&1 | FileCheck %s --check-prefixes=CHECK,INT
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=2 2>&1 | FileCheck %s --check-prefixes=CHECK,INT
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=3 2>&1 | FileCheck %s --check-prefixes=CHECK,STRUCT
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=3 2>&1 | FileCheck %s --check-prefixes=CHECK,STRUCT
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
extern int enzyme_out;
typedef struct { double a, b, c, d; } D4;
#if CASE == 1
typedef long R;
#elif CASE == 2
typedef int R;
#else
typedef D4 R;
#endif
R __enzyme_autodiff(void *, ...);
double f1(double x) { return 3 * x; }
double f3(double x, double y, double z) { return x * y * z; }
#if CASE == 3
#define ARGS (void *)f3, enzyme_out, x, enzyme_out, y, enzyme_out, z
#else
#define ARGS (void *)f1, enzyme_out, x
#endif
R g(double x, double y, double z) {
  // CHECK: return-type-spelling.c:[[@LINE+6]]:10: error: tapestry: the call to __enzyme_autodiff is declared to return
  // CHECK-NOT: %struct
  // CHECK-NOT: = type
  // LONG-SAME: {{ }}long, which does not match its 1 result(s) (double)
  // INT-SAME: {{ }}int, which does not match its 1 result(s) (double)
  // STRUCT-SAME: {{ (struct )?}}D4{{.*}}, which does not match its 3 result(s) (double, double, double)
  return __enzyme_autodiff(ARGS);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
