// Kernels of type void(void) called through a table of function pointers,
// communicating through globals: a pointer to the input kept in a static
// global, or in a context block a static pointer holds (review30 m7, p55).
// Calls through pointers of a type that passes nothing differentiable were
// taken for inactive: the derivative stopped at run time with "a function
// that was not in the translation unit", and, once a static pointer to a
// block stopped counting as an escape, the gradient came out 0 silently.
// Such calls are now dispatched over this file's functions of the type, and
// the kernels' reads through the pointers, which get no shadow (their
// readers' addresses are taken, so the analysis cannot show each read
// follows a store in the same call), are errors naming the global and the
// store.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump

#include <stdio.h>
#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

// A pointer to the input in a static global.
static double *input;
static double acc;
// CHECK-DAG: global-pointer-kernel-table.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: cannot differentiate 'square': the pointer read from the global 'input' (line [[@LINE+1]]) may point to memory with derivatives ('kernels' stores one into it (line [[@LINE+5]])), but the global gets no shadow, because not every read of it in the differentiated code follows a store into it in the same call
static void square(void) { acc = input[0] * input[0]; }
static void scale(void) { acc = acc * 3.0; }
static void (*steps[2])(void) = {square, scale};
double kernels(double *x) {
  input = x;
  for (int k = 0; k < 2; k++)
    steps[k]();
  return acc;
}

// A context block a static pointer holds, the input stored in it.
typedef struct {
  const double *x;
  double *w;
  int n;
} Ctx;
static Ctx *ctx;
// CHECK-DAG: global-pointer-kernel-table.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: cannot differentiate 'fill': the pointer read from the global 'ctx' (line [[@LINE+1]]) may point to memory with derivatives ('context' stores one into it (line [[@LINE+6]]))
static void fill(void) { for (int i = 0; i < ctx->n; i++) ctx->w[i] = ctx->x[i] * ctx->x[i]; }
static void (*stages[1])(void) = {fill};
double context(const double *x, int n) {
  ctx = (Ctx *)malloc(sizeof(Ctx));
  ctx->n = n;
  ctx->x = x;
  ctx->w = (double *)malloc(n * sizeof(double));
  for (int k = 0; k < 1; k++) {
    stages[k]();
    fflush(stdout);
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    // CHECK-DAG: global-pointer-kernel-table.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: cannot differentiate 'context': the pointer read from the global 'ctx' (line [[@LINE+1]]) may point to memory with derivatives ('context' stores one into it (line [[@LINE-8]]))
    s += ctx->w[i];
  free(ctx->w);
  free(ctx);
  return s;
}

void gradients(double *x, double *dx, int n) {
  __enzyme_autodiff((void *)kernels, enzyme_dup, x, dx);
  __enzyme_autodiff((void *)context, enzyme_dup, x, dx, enzyme_const, n);
}
