// __enzyme_shadow(&global, width, lane) without a context: what cannot be
// honoured is an error at the call, saying what to pass: a width or lane
// that is not a compile-time constant in range, a constant global (it
// carries no derivative), and an address that is not into a global.
// RUN: not %clang_fplugin -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang_fplugin -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
extern void *__enzyme_shadow(void *, int, int);

double g = 2.0;
const double table[2] = {1, 2};

void *width_zero(void) {
  // CHECK: global-shadow-query.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: the width passed to __enzyme_shadow(&global, width, lane) must be a compile-time constant integer from 1 to 64 (the width of the derivatives that use the shadow)
  return __enzyme_shadow(&g, 0, 0);
}

void *lane_out_of_range(void) {
  // CHECK: global-shadow-query.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: the lane passed to __enzyme_shadow(&global, width, lane) must be a compile-time constant integer from 0 to 1
  return __enzyme_shadow(&g, 2, 2);
}

void *constant_global(void) {
  // CHECK: global-shadow-query.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: the global 'table' is constant: it carries no derivative, and its shadow would hold none; make it non-const to seed or read its shadow
  return __enzyme_shadow((void *)&table[1], 1, 0);
}

void *not_a_global(double *p) {
  // CHECK: global-shadow-query.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_shadow gives the shadow of a global variable; '{{.*}}' is not the address of a global variable or of a part of one at a constant offset
  return __enzyme_shadow(p, 1, 0);
}
// CHECK-NOT: error:
