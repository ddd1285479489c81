// Misuse of Enzyme's shadow contexts (__enzyme_context, __enzyme_shadow,
// __enzyme_zero_shadows, enzyme_context) is an error at the call that says
// what to do.
// clang-format off
// RUN: not %clang -O0 -g -c %s -o /dev/null -DWIDTH 2>&1 | FileCheck %s --check-prefix=WIDTH
// RUN: not %clang -O0 -g -c %s -o /dev/null -DPARAM 2>&1 | FileCheck %s --check-prefix=PARAM
// RUN: not %clang -O2 -g -c %s -o /dev/null -DPARAM 2>&1 | FileCheck %s --check-prefix=PARAM
// RUN: not %clang -O0 -g -c %s -o /dev/null -DLOCAL 2>&1 | FileCheck %s --check-prefix=LOCAL
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCONSTANT 2>&1 | FileCheck %s --check-prefix=CONSTANT
// RUN: not %clang -O0 -g -c %s -o /dev/null -DLANE 2>&1 | FileCheck %s --check-prefix=LANE
// RUN: not %clang -O0 -g -c %s -o /dev/null -DMISMATCH 2>&1 | FileCheck %s --check-prefix=MISMATCH
// RUN: not %clang -O0 -g -c %s -o /dev/null -DNOTCONTEXT 2>&1 | FileCheck %s --check-prefix=NOTCONTEXT
// RUN: not %clang -O0 -g -c %s -o /dev/null -DSPLITBATCH 2>&1 | FileCheck %s --check-prefix=SPLITBATCH
// RUN: not %clang -O0 -g -c %s -o /dev/null -DERRORESTIMATE 2>&1 | FileCheck %s --check-prefix=ERRORESTIMATE
// RUN: not %clang -O0 -g -c %s -o /dev/null -DRUNTIMEPTR 2>&1 | FileCheck %s --check-prefix=RUNTIMEPTR
// RUN: not %clang -O2 -g -c %s -o /dev/null -DRUNTIMEPTR 2>&1 | FileCheck %s --check-prefix=RUNTIMEPTR
// RUN: not %clang -O2 -flto -g -c %s -o /dev/null -DLTO 2>&1 | FileCheck %s --check-prefix=LTO
// CHECK-NOT: PLEASE submit a bug report
#include <stdlib.h>
extern int enzyme_context, enzyme_width, enzyme_dup, enzyme_out;
void *__enzyme_context(int);
void *__enzyme_shadow(void *, void *, int);
void __enzyme_zero_shadows(void *);
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
double __enzyme_error_estimate(void *, ...);
void *__enzyme_augmentfwd(void *, ...);

double g = 2.0;
const double c = 3.0;
double *heap;
double f(double x) { return g * x * x; }
double fh(double x) { return heap[0] * x; }
double other_file(double);
double fo(double x) { return other_file(x) * g; }

void *get_context(void) { return __enzyme_context(1); }

double use(int n, void *given) {
#ifdef WIDTH
  // WIDTH: shadow-context.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_context takes one argument, the context's width (the number of lanes of each shadow, the width of the derivatives requested in it): a compile-time constant integer from 1 to 64
  void *ctx = __enzyme_context(n);
  (void)ctx;
#endif
#ifdef PARAM
  // PARAM: shadow-context.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: the first argument of __enzyme_shadow must be a context that __enzyme_context made in this function (Enzyme's rule: each call of __enzyme_context is one context, made in the function that uses it; in C++, an enzyme::context made in this function and not copied)
  *(double *)__enzyme_shadow(given, &g, 0) = 1.0;
  // PARAM: shadow-context.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_zero_shadows takes one argument, a context that __enzyme_context made in this function (Enzyme's rule: each call of __enzyme_context is one context, made in the function that uses it; in C++, an enzyme::context made in this function and not copied)
  __enzyme_zero_shadows(given);
#endif
#ifdef LOCAL
  void *ctx = __enzyme_context(1);
  double local = 1.0;
  // LOCAL: shadow-context.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_shadow gives the shadow of a global variable; '{{.*}}' is not the address of a global variable or of a part of one at a constant offset (pass other memory to the function as an enzyme_dup argument with its shadow)
  *(double *)__enzyme_shadow(ctx, &local, 0) = 1.0;
#endif
#ifdef CONSTANT
  void *ctx = __enzyme_context(1);
  // CONSTANT: shadow-context.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: the global 'c' is constant: it carries no derivative, and its shadow would hold none; make it non-const to seed or read its shadow
  *(double *)__enzyme_shadow(ctx, (void *)&c, 0) = 1.0;
#endif
#ifdef LANE
  void *ctx = __enzyme_context(2);
  // LANE: shadow-context.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: the lane passed to __enzyme_shadow must be a compile-time constant integer from 0 to 1 (the context has width 2)
  *(double *)__enzyme_shadow(ctx, &g, 2) = 1.0;
#endif
#ifdef MISMATCH
  void *ctx = __enzyme_context(2);
  // MISMATCH: shadow-context.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: the context after enzyme_context has width 2 but enzyme_width says 4; a request in a context has its width
  return __enzyme_fwddiff((void *)f, enzyme_width, 4, enzyme_context, ctx, 1.0, 1.0, 1.0, 1.0, 1.0);
#endif
#ifdef NOTCONTEXT
  // NOTCONTEXT: shadow-context.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: enzyme_context must be followed by a context that __enzyme_context made in this function (each call of __enzyme_context is one context, made in the function that uses it; in C++, an enzyme::context made in this function and not copied); got '{{.*}}'
  return __enzyme_autodiff((void *)f, enzyme_context, get_context(), 1.0);
#endif
#ifdef SPLITBATCH
  void *ctx = __enzyme_context(2);
  // SPLITBATCH: shadow-context.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: a context of width 2 makes a batch derivative, which split mode does not support yet; use __enzyme_autodiff or __enzyme_fwddiff in it, or a context of width 1
  __enzyme_augmentfwd((void *)f, enzyme_context, ctx, 1.0);
#endif
#ifdef ERRORESTIMATE
  void *ctx = __enzyme_context(1);
  // ERRORESTIMATE: shadow-context.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: enzyme_context is not supported with __enzyme_error_estimate, which propagates round-off errors, not derivatives, through globals; remove the context
  return __enzyme_error_estimate((void *)f, enzyme_context, ctx, 1.0, 0.0);
#endif
#ifdef RUNTIMEPTR
  // RUNTIMEPTR: shadow-context.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: the global 'heap' gets a pointer here, outside the differentiated code, and has a shadow in a context (__enzyme_context): Tapestry gives a context's shadow of a pointer in a global only the global's initial value (pointing to the shadow of the global it points to), so the shadow would not point to the shadow of this memory; pass the memory to the function as an enzyme_dup argument with its shadow instead
  heap = (double *)malloc(sizeof(double));
  void *ctx = __enzyme_context(1);
  double **dheap = (double **)__enzyme_shadow(ctx, &heap, 0);
  (void)dheap;
  return __enzyme_autodiff((void *)fh, enzyme_context, ctx, 1.0);
#endif
#ifdef LTO
  void *ctx = __enzyme_context(1);
  // LTO: shadow-context.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: this request in a shadow context (enzyme_context) differentiates code of other files, which -flto differentiates at link time; Tapestry resolves the requests of a context when their file is compiled: put the code it differentiates in this file, or compile without -flto
  return __enzyme_autodiff((void *)fo, enzyme_context, ctx, 1.0);
#endif
  return 0;
}
// clang-format on
