// Split mode: the reverse given another shadow than its augmented forward
// was. Most tapes take the shadows from the reverse's own arguments, and
// any shadow works (the first two requests below, right); but a tape that
// keeps addresses into the forward's shadows (a pointer walking an array
// with a data-dependent step, rows read from an array of pointers) would
// send the adjoints there, and the shadow the reverse was given stayed 0
// with no message (probe27 W1). Now the reverse compares and stops.
// RUN: %clang -O0 %s -o %t0 -lm
// RUN: %t0 flat | FileCheck %s --check-prefix=RIGHT
// RUN: not %t0 walk 2>&1 | FileCheck %s --check-prefix=WALK
// RUN: not %t0 rows 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: %t0 same | FileCheck %s --check-prefix=RIGHT
// RUN: %clang -O2 %s -o %t2 -lm
// RUN: %t2 flat | FileCheck %s --check-prefix=RIGHT
// RUN: not %t2 walk 2>&1 | FileCheck %s --check-prefix=WALK
// RUN: not %t2 rows 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: %t2 same | FileCheck %s --check-prefix=RIGHT
// RIGHT-NOT: FAIL
// RIGHT: ALL PASSED
// WALK: tapestry: the reverse of 'walk' was given another shadow of parameter 1 than its augmented forward (__enzyme_augmentfwd, a thunk's augmented) was, but its tape keeps addresses into the forward's shadows, where the adjoints would go: pass the same shadow to both halves (zero it between reverses to start again).
// ROWS: tapestry: the reverse of 'rows' was given another shadow of parameter 1{{.*}} than its augmented forward
#include "../Integration/Inputs/check.h"
#include <math.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
typedef struct {
  void *tape;
  double primal;
} Aug;
Aug __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

// A flat sum: the reverse indexes the shadow it is given.
double flat(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += sin(x[i]);
  return s;
}

// A pointer stepping by a data-dependent amount: the tape keeps the
// addresses the forward computed in its shadow.
double walk(const double *x, int n) {
  const double *p = x;
  double s = 0;
  while (p < x + n) {
    s += *p * *p;
    p += *p > 0 ? 1 : 2;
  }
  return s;
}

// Rows of a matrix as an array of pointers.
double rows(double *const *r, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += r[i][0] * r[i][1];
  return s;
}

int main(int argc, char **argv) {
  const char *what = argc > 1 ? argv[1] : "flat";
  double x[6] = {1, -2, 5, 3, -1, 7}, d1[6] = {0}, d2[6] = {0};
  if (!strcmp(what, "flat")) {
    Aug a = __enzyme_augmentfwd((void *)flat, enzyme_dup, x, d1, enzyme_const,
                                6);
    __enzyme_reverse((void *)flat, enzyme_dup, x, d2, enzyme_const, 6, 1.0,
                     a.tape);
    for (int i = 0; i < 6; ++i)
      check_close("flat: d/dx into the reverse's shadow", d2[i], cos(x[i]),
                  1e-12);
    check_close("flat: the forward's shadow untouched", d1[0], 0, 0);
  } else if (!strcmp(what, "walk")) {
    Aug a = __enzyme_augmentfwd((void *)walk, enzyme_dup, x, d1, enzyme_const,
                                6);
    __enzyme_reverse((void *)walk, enzyme_dup, x, d2, enzyme_const, 6, 1.0,
                     a.tape);
    check_close("walk: not reached", 1, 0, 0);
  } else if (!strcmp(what, "rows")) {
    double *r[3] = {x, x + 2, x + 4}, *dr1[3] = {d1, d1 + 2, d1 + 4},
           *dr2[3] = {d2, d2 + 2, d2 + 4};
    Aug a = __enzyme_augmentfwd((void *)rows, enzyme_dup, r, dr1,
                                enzyme_const, 3);
    __enzyme_reverse((void *)rows, enzyme_dup, r, dr2, enzyme_const, 3, 1.0,
                     a.tape);
    check_close("rows: not reached", 1, 0, 0);
  } else {
    // The same shadow in both halves: the gradient of walk, visiting
    // elements 0, 1, 3, 4 (a negative element skips the next one).
    Aug a = __enzyme_augmentfwd((void *)walk, enzyme_dup, x, d1, enzyme_const,
                                6);
    __enzyme_reverse((void *)walk, enzyme_dup, x, d1, enzyme_const, 6, 1.0,
                     a.tape);
    const double want[6] = {2, -4, 0, 6, -2, 0};
    for (int i = 0; i < 6; ++i)
      check_close("same: d/dx", d1[i], want[i], 1e-12);
  }
  return check_report();
}
