// The textbook recursive list reversal with an accumulator that starts as
// NULL: rev(list, NULL) returns a node of the list or the accumulator it
// was given. The NULL gets a shadow (null) because the call's result
// needs one; it was refused ("returns a pointer whose shadow its caller
// needs, but what it returns here has none"). Found by a probe of
// recursive data structures. f = 3 c_last + c_before_last over the
// reversed list: df/dc = (1, 3) for a two-node list; reverse and forward
// (tangent da.c + 3 db.c).
// RUN: %clang -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

typedef struct T {
  double c;
  struct T *next;
} T;

static T *rev(T *t, T *acc) {
  if (!t)
    return acc;
  T *rest = t->next;
  t->next = acc;
  return rev(rest, t);
}

double f(T *l) {
  T *r = rev(l, NULL);
  double v = r->c * 3 + r->next->c;
  rev(r, NULL); // put the list back as it was
  return v;
}

int main(void) {
  T b = {2.0, NULL}, a = {1.0, &b}, db = {0, NULL}, da = {0, &db};
  __enzyme_autodiff((void *)f, enzyme_dup, &a, &da);
  check_close("df/da", da.c, 1, 0);
  check_close("df/db", db.c, 3, 0);
  T tb = {0.5, NULL}, ta = {1.0, &tb};
  check_close("tangent", __enzyme_fwddiff((void *)f, enzyme_dup, &a, &ta),
              1.0 + 3 * 0.5, 0);
  check_close("list restored", a.next == &b && b.next == NULL, 1, 0);
  return check_report();
}
