// Structs passed by value whose request does not line up with the pieces
// the C ABI passes them as (x86-64: {double, double} as two doubles,
// {double x3} in memory, {float, int} as one i64, {float, int, double} as an
// i64 and a double) are errors at the request's line, in source terms, with
// a spelling that works; never a silent wrong tangent (which CASE 1 gave
// before: the tangent of v.a was read from v.b). The spellings that work
// are in test/Integration/struct-by-value.c. Formerly
// tools/bugs/errors-struct-by-value.c.
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=1 2>&1 | FileCheck %s --check-prefixes=CHECK,C1
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=1 2>&1 | FileCheck %s --check-prefixes=CHECK,C1
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=2 2>&1 | FileCheck %s --check-prefixes=CHECK,C2
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=2 2>&1 | FileCheck %s --check-prefixes=CHECK,C2
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=3 2>&1 | FileCheck %s --check-prefixes=CHECK,C3
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=3 2>&1 | FileCheck %s --check-prefixes=CHECK,C3
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=4 2>&1 | FileCheck %s --check-prefixes=CHECK,C4
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=4 2>&1 | FileCheck %s --check-prefixes=CHECK,C4
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=5 2>&1 | FileCheck %s --check-prefixes=CHECK,C5
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=5 2>&1 | FileCheck %s --check-prefixes=CHECK,C5
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=6 2>&1 | FileCheck %s --check-prefixes=CHECK,C6
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=6 2>&1 | FileCheck %s --check-prefixes=CHECK,C6
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=7 2>&1 | FileCheck %s --check-prefixes=CHECK,C7
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=7 2>&1 | FileCheck %s --check-prefixes=CHECK,C7
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=8 2>&1 | FileCheck %s --check-prefixes=CHECK,C8
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=8 2>&1 | FileCheck %s --check-prefixes=CHECK,C8
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=9 2>&1 | FileCheck %s --check-prefixes=CHECK,C9
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=9 2>&1 | FileCheck %s --check-prefixes=CHECK,C9
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=10 2>&1 | FileCheck %s --check-prefixes=CHECK,C10
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=10 2>&1 | FileCheck %s --check-prefixes=CHECK,C10
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=11 2>&1 | FileCheck %s --check-prefixes=CHECK,C11
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=11 2>&1 | FileCheck %s --check-prefixes=CHECK,C11
// Without debug info the message names no variable.
// RUN: not %clang -O1 -c %s -o /dev/null -DCASE=1 2>&1 | FileCheck %s --check-prefixes=CHECK,NODBG
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
// NODBG: error: tapestry: the C ABI passes struct V as 2 values to __enzyme_fwddiff, and Enzyme's markers apply to each of them, so its pieces do not line up with the parameters of 'two': they would be the value of parameter 1 and the tangent of parameter 1; pass each member after its own marker
#include <tapestry/thunk.h>
extern int enzyme_out, enzyme_const, enzyme_dup, enzyme_width;
typedef struct { double l0a, l0b, l1a, l1b; } Lanes;
Lanes __enzyme_autodiff_lanes(void *, ...);
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
void __enzyme_reverse(void *, ...);
typedef struct { double a, b; } V;
typedef struct { double a, b, c; } V3;
typedef struct { float a; int i; } FI;
typedef struct { float a; int i; double d; } FID;
typedef struct { double d; int n; } DI;
double sf(V v, double x) { return (v.a + 2 * v.b) * x; }
double two(double a, double b) { return a * b; }
double three(double a, double b, double c) { return a * b * c; }
double s3(V3 v) { return v.a * v.b * v.c; }
double fi(FI v) { return v.a * v.i; }
double fid(FID v) { return v.a * v.i * v.d; }
V rv(double x, double y) {
  V r = {x * y, x + y};
  return r;
}
DI rdi(double x) {
  DI r = {x * x, 7};
  return r;
}
double g(V v, V dv, V3 w, V3 dw, FI q, FI dq, FID r, double x) {
#if CASE == 0
  return 0;
#elif CASE == 1
  // C1: struct-by-value.c:[[@LINE+1]]:10: error: tapestry: the C ABI passes struct V 'v' as 2 values to __enzyme_fwddiff, and Enzyme's markers apply to each of them, so its pieces do not line up with the parameters of 'two': they would be the value of parameter 1 and the tangent of parameter 1; pass each member after its own marker (enzyme_dup, v.a, dv.a, enzyme_dup, v.b, dv.b)
  return __enzyme_fwddiff((void *)two, enzyme_dup, v, dv);
#elif CASE == 2
  // C2: struct-by-value.c:[[@LINE+1]]:10: error: tapestry: enzyme_dup on parameter 1 of 'sf', struct V 'v', which the C ABI passes by value as 2 values, must be followed by the struct and its tangent of the same type (enzyme_dup, v, dv), or each member after its own marker: enzyme_dup, v.a, dv.a, enzyme_dup, v.b, dv.b
  return __enzyme_fwddiff((void *)sf, enzyme_dup, v, dv.a, dv.b, enzyme_const, x);
#elif CASE == 3
  // C3: struct-by-value.c:[[@LINE+1]]:10: error: tapestry: enzyme_dup on parameter 1 of 'sf', struct V 'v', which the C ABI passes by value as 2 values: in reverse mode write enzyme_out, v to get its adjoint returned (a struct of the same type), or change 'sf' to take a pointer and pass enzyme_dup, &v, &dv
  return __enzyme_autodiff((void *)sf, enzyme_dup, v, dv, enzyme_const, x);
#elif CASE == 4
  // C4: struct-by-value.c:[[@LINE+1]]:10: error: tapestry: enzyme_dup on parameter 1 of 's3', struct V3 'v', which the C ABI passes by value in memory: its adjoint would be accumulated into a copy of the shadow and lost; write enzyme_out, w to get its adjoint returned (as a V3), or pass pointers: enzyme_dup, &w, &dw
  return __enzyme_autodiff((void *)s3, enzyme_dup, w, dw);
#elif CASE == 5
  // C5: struct-by-value.c:[[@LINE+1]]:10: error: tapestry: enzyme_dup needs a pointer (or, in forward mode, a floating-point value with its tangent), but parameter 1 of 'fi' (long), which is struct FI 'v' that the C ABI passes by value as one long is neither; use enzyme_const
  return __enzyme_fwddiff((void *)fi, enzyme_dup, q, dq);
#elif CASE == 6
  // C6: struct-by-value.c:[[@LINE+1]]:10: error: tapestry: parameter 1 of 'fid', struct FID 'v' is passed by value as 2 values, and the C ABI packs its floating-point member 'a' with integer members into an integer register, where its derivative cannot be followed; change 'fid' to take a pointer to the struct (then pass enzyme_dup, &r, &dr) or mark it enzyme_const
  return __enzyme_autodiff((void *)fid, enzyme_out, r);
#elif CASE == 7
  // C7: struct-by-value.c:[[@LINE+1]]:10: error: tapestry: the C ABI passes struct V 'v' as 2 values to __enzyme_autodiff, and Enzyme's markers apply to each of them: enzyme_const before it marks only the first (parameter 1 of 'three'), and the others get the default activity; mark each member after its own marker (enzyme_const, v.a, enzyme_const, v.b)
  return __enzyme_autodiff((void *)three, enzyme_const, v, enzyme_out, x);
#elif CASE == 8
  // C8: struct-by-value.c:[[@LINE+1]]:3: error: tapestry: the return seed of 'rv' is struct { double, double }, which the C ABI passes in pieces; pass its address with its size before it: enzyme_byref, sizeof(seed), &seed (Enzyme's spelling)
  __enzyme_reverse((void *)rv, enzyme_out, x, enzyme_const, x, v, (void *)0);
  return 0;
#elif CASE == 9
  // C9: struct-by-value.c:[[@LINE+1]]:10: error: tapestry: 'rdi' returns struct DI by value, which mixes floating-point and other members; the derivative of such a result is not supported: return it through a pointer parameter (enzyme_dup, &out, &dout), or add enzyme_const_return if the result is not to be differentiated
  return __enzyme_fwddiff((void *)rdi, x, 1.0);
#elif CASE == 10
  // C10: struct-by-value.c:[[@LINE+1]]:28: error: tapestry: 'sf' takes struct V 'v' by value, which the C ABI passes as 2 values, and the markers of __tapestry_thunk apply to each of them: give one marker per value, 3 markers rather than 2 (parameters 1 to 2 are the struct's pieces)
  return x + (double)(long)__tapestry_thunk((void *)sf, enzyme_out, enzyme_const);
#elif CASE == 11
  // C11: struct-by-value.c:[[@LINE+1]]:13: error: tapestry: enzyme_out on parameter 1 of 'sf', struct V 'v', which the C ABI passes by value as 2 values, is not supported in batch mode (enzyme_width); request one lane at a time, or change 'sf' to take a pointer to the struct (then enzyme_dup with one shadow per lane)
  Lanes l = __enzyme_autodiff_lanes((void *)sf, enzyme_width, 2, enzyme_out, v, enzyme_const, x);
  return l.l0a;
#endif
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
