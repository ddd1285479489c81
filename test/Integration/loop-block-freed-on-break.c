// A block allocated in each iteration of a loop and freed both at the end
// of the iteration and on the path that leaves the loop (`free(b); break;`
// or `free(b); return`): the forward sweep freed the last block on the
// break path and the reverse freed it again with the others (a double
// free at -O0, split21 probe F1). Now neither free waits for the reverse.
// Gradient and split mode, -O0..-O3 and ASan. Expected derivatives are
// analytic: e1 sums x_i^2 sin x_i until the sum exceeds thr; e2 returns
// (s - sin(3 x_i)) x_i at the first i, j with sin((j+1) x_i) > thr.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O0 -fsanitize=address -fno-omit-frame-pointer %s -lm -o %ta && %ta | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <math.h>
#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
typedef struct {
  void *tape;
  double primal;
} aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

double e1(const double *x, int n, double thr) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double *b = malloc(2 * sizeof(double));
    b[0] = x[i] * x[i];
    b[1] = sin(x[i]);
    s += b[0] * b[1];
    if (s > thr) {
      free(b);
      break;
    }
    free(b);
  }
  return s;
}

double e2(const double *x, int n, double thr) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double *b = malloc(4 * sizeof(double));
    for (int j = 0; j < 4; j++) {
      b[j] = sin(x[i] * (j + 1));
      if (b[j] > thr) {
        s -= b[j];
        free(b);
        return s * x[i];
      }
    }
    for (int j = 0; j < 4; j++)
      s += b[j] * b[j];
    free(b);
  }
  return s;
}

int main(void) {
  double x[4] = {0.5, 0.7, 1.2, 1.1};
  // e1: the sum passes 0.5 at i = 2.
  for (int split = 0; split < 2; split++) {
    double dx[4] = {0, 0, 0, 0};
    if (split) {
      aug_t a = __enzyme_augmentfwd((void *)e1, enzyme_dup, x, dx,
                                    enzyme_const, 4, enzyme_const, 0.5);
      __enzyme_reverse((void *)e1, enzyme_dup, x, dx, enzyme_const, 4,
                       enzyme_const, 0.5, 1.0, a.tape);
    } else {
      __enzyme_autodiff((void *)e1, enzyme_dup, x, dx, enzyme_const, 4,
                        enzyme_const, 0.5);
    }
    for (int i = 0; i < 4; i++)
      check_close(split ? "e1 split" : "e1 gradient", dx[i],
                  i <= 2 ? 2 * x[i] * sin(x[i]) + x[i] * x[i] * cos(x[i])
                         : 0,
                  1e-12);
  }
  // e2 with thr = 0.99: x_0 = 0.5 has sin(1.5) = 0.9975 at j = 2.
  double dx[4] = {0, 0, 0, 0};
  __enzyme_autodiff((void *)e2, enzyme_dup, x, dx, enzyme_const, 4,
                    enzyme_const, 0.99);
  double s = -sin(1.5);
  check_close("e2 gradient x0", dx[0], s - 3 * cos(1.5) * x[0], 1e-12);
  for (int i = 1; i < 4; i++)
    check_close("e2 gradient", dx[i], 0, 1e-12);
  return check_report();
}
