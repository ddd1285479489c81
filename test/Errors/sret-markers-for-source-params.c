// Markers written for the source parameters of a function whose struct
// result the C ABI returns in memory (24 bytes: sret) are one off against
// the compiled function, whose first parameter is the result. The error
// names the parameter the marker met and says why, in split mode and in
// __enzyme_autodiff (it named a parameter the user had marked otherwise,
// with no reason; found by a split-mode probe of stranger programs).
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -DONESHOT -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: sret-markers-for-source-params.c:{{3[0-9]}}:{{[0-9]+}}: error: tapestry: enzyme_out marks an active floating-point value, but parameter 2 'k' of 'rot' (const double *) is not one; use enzyme_dup with a shadow for pointers or enzyme_const ('rot' returns struct Vec { double, double, double } in memory, so its result comes first: pass a result object and its shadow before the markers of its parameters, enzyme_dup, &result, &dresult)
// CHECK-NOT: PLEASE submit a bug report
#include <math.h>

typedef struct {
  double x, y, z;
} Vec;
typedef struct {
  void *tape;
  Vec v;
} AugV;
extern int enzyme_dup, enzyme_const, enzyme_out;
AugV __enzyme_augmentfwd(void *, ...);
double __enzyme_autodiff(void *, ...);

Vec rot(const double *p, const double *k, double th) {
  Vec r = {p[0] * cos(th) + k[0] * sin(th), p[1] * sin(th) * k[1],
           p[0] * p[1] * th};
  return r;
}

void requests(double *p, double *dp, double *k, double th) {
#ifndef ONESHOT
  (void)__enzyme_augmentfwd((void *)rot, enzyme_dup, p, dp, enzyme_const, k,
                            enzyme_out, th);
#endif
  (void)__enzyme_autodiff((void *)rot, enzyme_dup, p, dp, enzyme_const, k,
                          enzyme_out, th);
}
