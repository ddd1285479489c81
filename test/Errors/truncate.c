// What floating-point truncation cannot do is an error at the user's line,
// never a silently wrong or silently untruncated number.
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCUSTOM 2>&1 | FileCheck %s --check-prefix=CUSTOM
// RUN: not %clang -O2 -g -c %s -o /dev/null -DNOTCONST 2>&1 | FileCheck %s --check-prefix=NOTCONST
// RUN: not %clang -O0 -g -c %s -o /dev/null -DWIDER 2>&1 | FileCheck %s --check-prefix=WIDER
// RUN: not %clang -O0 -g -c %s -o /dev/null -DPRINT 2>&1 | FileCheck %s --check-prefix=PRINT
// RUN: not %clang -O2 -g -c %s -o /dev/null -DPRINT 2>&1 | FileCheck %s --check-prefix=PRINT
// RUN: not %clang -O0 -g -c %s -o /dev/null -DEXTERN 2>&1 | FileCheck %s --check-prefix=EXTERN
// RUN: not %clang -O2 -g -c %s -o /dev/null -DEXTERN 2>&1 | FileCheck %s --check-prefix=EXTERN
// RUN: not %clang -O0 -g -c %s -o /dev/null -DFNPTR 2>&1 | FileCheck %s --check-prefix=FNPTR
// RUN: not %clang -O0 -g -c %s -o /dev/null -DGLOBAL 2>&1 | FileCheck %s --check-prefix=GLOBAL
// RUN: not %clang -O2 -g -c %s -o /dev/null -DGLOBAL 2>&1 | FileCheck %s --check-prefix=GLOBAL
// RUN: not %clang -O0 -g -c %s -o /dev/null -DMEMORY 2>&1 | FileCheck %s --check-prefix=MEMORY
// RUN: not %clang -O1 -g -c %s -o /dev/null -DMODF 2>&1 | FileCheck %s --check-prefix=MODF
// RUN: not %clang -O0 -g -c %s -o /dev/null -DVALUE 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: not %clang -O0 -g -c %s -o /dev/null -DGLOBAL_EMULATED 2>&1 | FileCheck %s --check-prefix=GLOBAL_EMULATED
// RUN: not %clang -O2 -g -c %s -o /dev/null -DINT128 2>&1 | FileCheck %s --check-prefix=INT128
// RUN: not %clang -O0 -g -c %s -o /dev/null -DEXTERN_EMULATED 2>&1 | FileCheck %s --check-prefix=EXTERN_EMULATED
// CHECK-NOT: PLEASE submit a bug report
#include <math.h>
#include <stdio.h>

typedef double (*fn)(double);
fn __enzyme_truncate_op_func(void *, ...);
fn __enzyme_truncate_mem_func(void *, ...);
float __enzyme_truncate_mem_value(double, int, int);
double other(double);
void fill(double *);
double scale_factor = 2.0;
double square(double x) { return x * x; }

#ifdef CUSTOM
// Formats the target lacks are emulated (EntryPoints/truncate-emulated.c)
// within FROM's exponent range and 2 mantissa bits short of FROM's (the
// errors come in no particular order).
double use(double x) {
  // CUSTOM-DAG: truncate.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_truncate_op_func: a format with 12 exponent and 7 mantissa bits needs 2 to 11 exponent bits when truncating from a format with 11
  return __enzyme_truncate_op_func((void *)square, 64, 12, 7)(x);
}
double use_mantissa(double x) {
  // CUSTOM-DAG: truncate.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_truncate_mem_func: a format with 8 exponent and 51 mantissa bits needs 1 to 50 mantissa bits when truncating from a format with 52: Tapestry emulates it with correctly rounded operations at the wider precision, which needs 2 more bits than the format has
  return __enzyme_truncate_mem_func((void *)square, 64, 8, 51)(x);
}
double use_float(double x) {
  // CUSTOM-DAG: truncate.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_truncate_op_func: a format with 1 exponent and 7 mantissa bits needs 2 to 8 exponent bits when truncating from a format with 8
  return __enzyme_truncate_op_func((void *)square, 32, 1, 7)(x);
}
double use_zero(double x) {
  // CUSTOM-DAG: truncate.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_truncate_op_func: a format with 5 exponent and 0 mantissa bits has no mantissa bits; it needs at least 1
  return __enzyme_truncate_op_func((void *)square, 16, 5, 0)(x);
}
#endif

#ifdef NOTCONST
double use(double x, int bits) {
  // NOTCONST: truncate.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_truncate_op_func: argument 3 must be a compile-time integer constant
  return __enzyme_truncate_op_func((void *)square, 64, bits)(x);
}
#endif

#ifdef WIDER
double use(double x) {
  // WIDER: truncate.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_truncate_mem_func: the format to truncate to (double) must be narrower than the one truncated (float)
  return __enzyme_truncate_mem_func((void *)square, 32, 64)(x);
}
#endif

#ifdef PRINT
double show(double x) {
  // PRINT: truncate.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_truncate_mem_func cannot compute 'show' in float instead of double: 'printf', whose body is not in this file, takes or returns double values and would misread their mem-mode representation
  printf("%f\n", x);
  return x;
}
double use(double x) { return __enzyme_truncate_mem_func((void *)show, 64, 32)(x); }
#endif

#ifdef EXTERN
double twice(double x) {
  // EXTERN: truncate.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_truncate_op_func cannot compute 'twice' in float instead of double: 'other', whose body is not in this file, takes or returns double values and would compute with them untruncated
  return other(x) * 2;
}
double use(double x) { return __enzyme_truncate_op_func((void *)twice, 64, 32)(x); }
#endif

#ifdef FNPTR
static fn chosen = square;
double through(double x) {
  // FNPTR: truncate.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_truncate_op_func cannot compute 'through' in float instead of double: the call goes through a function pointer
  return chosen(x) + 1;
}
double use(double x) { return __enzyme_truncate_op_func((void *)through, 64, 32)(x); }
#endif

#ifdef GLOBAL
double scaled(double x) {
  // GLOBAL: truncate.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_truncate_mem_func keeps double values in mem mode as float values in their first bytes, but the global 'scale_factor' holds ordinary ones
  return x * scale_factor;
}
double use(double x) { return __enzyme_truncate_mem_func((void *)scaled, 64, 32)(x); }
#endif

#ifdef MEMORY
double filled(double x) {
  double buf[2];
  // MEMORY: truncate.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_truncate_op_func cannot compute 'filled' in float instead of double: it passes memory to 'fill', whose body is not in this file
  fill(buf);
  return buf[0] * x;
}
double use(double x) { return __enzyme_truncate_op_func((void *)filled, 64, 32)(x); }
#endif

#ifdef MODF
double frac(double x) {
  double ip;
  // MODF: truncate.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_truncate_op_func cannot compute 'frac' in float instead of double: Tapestry does not truncate this call to modf
  return modf(x, &ip) + ip;
}
double use(double x) { return __enzyme_truncate_op_func((void *)frac, 64, 32)(x); }
#endif

#ifdef VALUE
float use(double x) {
  // VALUE: truncate.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_truncate_mem_value: it returns a double (the FROM format); declare it to return that type
  return __enzyme_truncate_mem_value(x, 64, 32);
}
#endif

// Emulated formats (5 exponent, 3 mantissa bits): a mutable global holds
// values not rounded to the format; integers wider than 64 bits are not
// converted; functions of other files would compute unrounded.
#ifdef GLOBAL_EMULATED
double scaled(double x) {
  // GLOBAL_EMULATED: truncate.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_truncate_mem_func keeps double values in mem mode rounded to the format with 5 exponent and 3 mantissa bits, but the global 'scale_factor' holds ordinary ones
  return x * scale_factor;
}
double use(double x) { return __enzyme_truncate_mem_func((void *)scaled, 64, 5, 3)(x); }
#endif

#ifdef INT128
__int128 wide_count;
double counted(double x) {
  // INT128: truncate.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_truncate_op_func cannot compute 'counted' in the format with 5 exponent and 3 mantissa bits instead of double: Tapestry converts integers of at most 64 bits to emulated formats
  return x + (double)wide_count;
}
double use(double x) { return __enzyme_truncate_op_func((void *)counted, 64, 5, 3)(x); }
#endif

#ifdef EXTERN_EMULATED
double twice(double x) {
  // EXTERN_EMULATED: truncate.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_truncate_mem_func cannot compute 'twice' in the format with 5 exponent and 3 mantissa bits instead of double: 'other', whose body is not in this file, takes or returns double values and would compute with them untruncated
  return other(x) * 2;
}
double use(double x) { return __enzyme_truncate_mem_func((void *)twice, 64, 5, 3)(x); }
#endif
