// A pointer without a shadow (an enzyme_const argument, a global table)
// stored in a struct beside an active pointer, and the struct passed to a
// function differentiated on its own that cannot be told which of its
// parameters may be constant (here a variadic one; a recursive one with
// fixed parameters is: test/Integration/runtime-activity-callee-params.c):
// that function would find no shadow for the constant pointer. A clear
// error names it and says what to do (it used to crash at run time).
// RUN: not %clang -g -O0 -c %s -o /dev/null -DCONST_ARG 2>&1 | FileCheck %s --check-prefix=ARG
// RUN: not %clang -g -O2 -c %s -o /dev/null -DCONST_ARG 2>&1 | FileCheck %s --check-prefix=ARG
// RUN: not %clang -g -O2 -c %s -o /dev/null -DGLOBAL 2>&1 | FileCheck %s --check-prefix=GLOBAL
// CHECK-NOT: PLEASE submit a bug report
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

typedef struct {
  const double *x, *q;
} Ctx;
static double rec(const Ctx *c, int n, ...) {
  return n == 0 ? 0.0 : c->x[n - 1] * c->q[n - 1] + rec(c, n - 1, 0);
}
static const double TABLE[3] = {4, 5, 6};

#ifdef CONST_ARG
double f(const double *x, const double *q, int n) {
  // ARG: const-pointer-in-struct.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: cannot differentiate 'f': parameter 2{{( \('q'\))?}} has no shadow (it is constant) but is stored into memory that has one, which 'rec', differentiated on its own, reads: it cannot tell the pointer is constant. Pass it as enzyme_dup with a zeroed shadow
  Ctx c = {x, q};
  return rec(&c, n, 0);
}
void grad(const double *x, double *dx, const double *q) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, q, enzyme_const, 3);
}
#endif

#ifdef GLOBAL
double f(const double *x, int n) {
  // GLOBAL: const-pointer-in-struct.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: cannot differentiate 'f': TABLE has no shadow (it is constant) but is stored into memory that has one, which 'rec', differentiated on its own, reads: it cannot tell the pointer is constant. Pass it as enzyme_dup with a zeroed shadow (a global table: copy it into an array passed that way)
  Ctx c = {x, TABLE};
  return rec(&c, n, 0);
}
void grad(const double *x, double *dx) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 3);
}
#endif
