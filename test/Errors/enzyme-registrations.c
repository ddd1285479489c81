// Enzyme's registration globals that Tapestry does not implement, and any
// other global named __enzyme_*, are errors naming them: ignoring one could
// change a derivative silently. (Malformed __enzyme_allocation_like
// registrations: allocation-like.c.)
// RUN: not %clang -O0 -g -c %s -o /dev/null -DSPLIT 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: not %clang -O0 -g -c %s -o /dev/null -DOTHER 2>&1 | FileCheck %s --check-prefix=OTHER
// CHECK-NOT: PLEASE submit a bug report
#include <stdlib.h>
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);

double f(double x) { return x * x; }
double f_fwd(double x, double dx, void *t) { return 2 * x * dx; }
void f_rev(double x, double *dx, double d, void *t) { *dx += 2 * x * d; }

#ifdef SPLIT
// SPLIT: error: tapestry: in '__enzyme_register_splitderivative_f': Enzyme's registration of a split-mode forward derivative; Tapestry does not support it yet
void *__enzyme_register_splitderivative_f[3] = {(void *)f, (void *)f,
                                                (void *)f_fwd};
#endif
#ifdef OTHER
// OTHER: error: tapestry: in '__enzyme_register_mystery_f': a global whose name starts with __enzyme_ is an Enzyme registration, and Tapestry does not know this one
void *__enzyme_register_mystery_f = (void *)f;
#endif

double g(double x) { return __enzyme_autodiff((void *)f, enzyme_out, x); }
// CHECK-NOT: PLEASE submit a bug report
