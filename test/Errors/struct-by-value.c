// XFAIL: *
// A C function taking a 16-byte struct by value: on x86-64 clang passes V as
// two doubles, both to sf and through the request's '...', so the decoder sees
// three parameters (a, b, x) where the user wrote two (v, x), and a marker
// before v applies to v.a only.
//   CASE=1 reverse, enzyme_const v, enzyme_out x: misleading error
//     "declared to return double, which does not match its 2 result(s)
//     (double, double)"
//     (v.b defaulted to active).
//   CASE=2 forward, enzyme_const v, enzyme_dup x: misleading error
//     "expected the shadow of parameter 2 of 'sf' (double) but found the
//     marker enzyme_dup" (in C, parameter 2 of sf is x).
//   CASE=3 forward, enzyme_dup v, dv, enzyme_const x: NO error and a wrong
//     tangent: v.b is taken as the tangent of v.a and dv.a as the value of
//     v.b, so (v.a + 2 v.b) x with v = {2,3}, dv = {1,0}, x = 5 gives 15
//     instead of 5.
// With -g the split is visible in the debug info (DISubprogram types).
// Expected: each request either works, or is an error saying that sf takes a
// struct by value and to pass a pointer to it instead. Never a wrong number.
// Bug: tools/bugs/errors-struct-by-value.c
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=1 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=1 2>&1 | FileCheck %s
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=2 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=2 2>&1 | FileCheck %s
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=3 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=3 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
// CHECK: struct-by-value.c:{{[0-9]+}}:10: error: tapestry: {{.*}}by value
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
extern int enzyme_out, enzyme_const, enzyme_dup;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
typedef struct { double a, b; } V;
double sf(V v, double x) { return (v.a + 2 * v.b) * x; }
double g(V v, V dv, double x) {
#if CASE == 1
  return __enzyme_autodiff((void *)sf, enzyme_const, v, enzyme_out, x);
#elif CASE == 2
  return __enzyme_fwddiff((void *)sf, enzyme_const, v, enzyme_dup, x, 1.0);
#else
  return __enzyme_fwddiff((void *)sf, enzyme_dup, v, dv, enzyme_const, x);
#endif
}
