// Enzyme's memory hints are dropped; what cannot be is an error at the
// call: a hint's result used (they return nothing), and
// __enzyme_ptr_size_hint naming a memory space other than the host's (a
// device buffer behind a plain pointer), which Tapestry would read and
// write as host memory.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
#include <stddef.h>

void __enzyme_ptr_size_hint(void *, size_t, ...);
long __enzyme_double(void *, size_t);
extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);

static void scale(double *u) {
  // CHECK-DAG: type-hints.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_ptr_size_hint names a memory space other than the host's (its third argument): Tapestry differentiates code that runs on the host, reading and writing host memory; pass 0, or leave the argument out
  __enzyme_ptr_size_hint(u, 2 * sizeof(double), (size_t)1);
  u[0] *= u[1];
}

long used(double *u) {
  // CHECK-DAG: type-hints.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_double is one of Enzyme's type hints and returns nothing; its result cannot be used
  return __enzyme_double(u, sizeof(double));
}

void dscale(double *u, double *du) {
  __enzyme_autodiff((void *)scale, enzyme_dup, u, du);
}
// CHECK-NOT: error:
