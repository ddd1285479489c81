// A heap block freed on some paths and kept on the others: handed to the
// caller through an out-parameter, or linked into a list the caller owns.
// The reverse sweep freed the block where it undid the allocation,
// whichever path the forward sweep took, so the caller's block was freed
// by the gradient (a use after free, found with the std::map probe: a
// node dropped when insertion fails, else linked into the tree). A free
// now waits for the reverse only if the function frees the block on every
// path, or if nothing else can free it (an address kept as an integer,
// uintptr_t, counts as kept: found in review). Gradient and split mode,
// -O0..-O3 and ASan. Expected derivatives are analytic:
// f = x0^2 sin(x1): df/dx0 = 2 x0 sin(x1), df/dx1 = x0^2 cos(x1);
// g = sum_i x_i^3 over kept and dropped nodes: dg/dx_i = 3 x_i^2.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O0 -fsanitize=address -fno-omit-frame-pointer %s -lm -o %ta && %ta | FileCheck %s
// RUN: %clang -O2 -fsanitize=address -fno-omit-frame-pointer %s -lm -o %tb && %tb | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
typedef struct {
  void *tape;
  double primal;
} aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

// The buffer goes to the caller unless `drop`.
double f(const double *x, double **out, int drop) {
  double *p = malloc(2 * sizeof(double));
  p[0] = x[0] * x[0];
  p[1] = sin(x[1]);
  double r = p[0] * p[1];
  if (drop)
    free(p);
  else
    *out = p;
  return r;
}

// The same, handed back as an integer address (its shadow beside it).
double fi(const double *x, uintptr_t *out, int drop) {
  double *p = malloc(2 * sizeof(double));
  p[0] = x[0] * x[0];
  p[1] = sin(x[1]);
  double r = p[0] * p[1];
  if (drop)
    free(p);
  else
    *out = (uintptr_t)p;
  return r;
}

typedef struct Node {
  double v;
  struct Node *next;
} Node;

// Nodes with an odd index are linked into the caller's list, the others
// dropped after use.
double g(const double *x, int n, Node **list) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    Node *k = malloc(sizeof(Node));
    k->v = x[i] * x[i] * x[i];
    s += k->v;
    if (i % 2) {
      k->next = *list;
      *list = k;
    } else {
      free(k);
    }
  }
  return s;
}

int main(void) {
  double x[4] = {0.8, 1.3, -0.6, 2.1};
  for (int split = 0; split < 2; split++)
    for (int drop = 0; drop < 2; drop++) {
      double dx[2] = {0, 0}, *o = NULL, *d_o = NULL;
      if (split) {
        aug_t a = __enzyme_augmentfwd((void *)f, enzyme_dup, x, dx, enzyme_dup,
                                      &o, &d_o, enzyme_const, drop);
        __enzyme_reverse((void *)f, enzyme_dup, x, dx, enzyme_dup, &o, &d_o,
                         enzyme_const, drop, 1.0, a.tape);
      } else {
        __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, &o, &d_o,
                          enzyme_const, drop);
      }
      check_close("df/dx0", dx[0], 2 * x[0] * sin(x[1]), 1e-12);
      check_close("df/dx1", dx[1], x[0] * x[0] * cos(x[1]), 1e-12);
      if (drop) {
        check_close("nothing handed back", o == NULL, 1, 0);
      } else {
        // The caller's block is intact and its shadow is the caller's.
        check_close("kept p[0]", o[0], x[0] * x[0], 1e-15);
        check_close("kept p[1]", o[1], sin(x[1]), 1e-15);
        free(o);
        free(d_o);
      }
    }
  for (int drop = 0; drop < 2; drop++) {
    double dx[2] = {0, 0};
    uintptr_t o = 0, d_o = 0;
    __enzyme_autodiff((void *)fi, enzyme_dup, x, dx, enzyme_dup, &o, &d_o,
                      enzyme_const, drop);
    check_close("dfi/dx0", dx[0], 2 * x[0] * sin(x[1]), 1e-12);
    check_close("dfi/dx1", dx[1], x[0] * x[0] * cos(x[1]), 1e-12);
    if (!drop) {
      double *kept = (double *)o;
      check_close("kept as integer [0]", kept[0], x[0] * x[0], 1e-15);
      check_close("kept as integer [1]", kept[1], sin(x[1]), 1e-15);
      free(kept);
      free((void *)d_o); // its shadow, stored beside it as an integer
    }
  }
  for (int split = 0; split < 2; split++) {
    double dx[4] = {0, 0, 0, 0};
    Node *list = NULL, *d_list = NULL;
    if (split) {
      aug_t a = __enzyme_augmentfwd((void *)g, enzyme_dup, x, dx, enzyme_const,
                                    4, enzyme_dup, &list, &d_list);
      __enzyme_reverse((void *)g, enzyme_dup, x, dx, enzyme_const, 4,
                       enzyme_dup, &list, &d_list, 1.0, a.tape);
    } else {
      __enzyme_autodiff((void *)g, enzyme_dup, x, dx, enzyme_const, 4,
                        enzyme_dup, &list, &d_list);
    }
    for (int i = 0; i < 4; i++)
      check_close("dg/dx", dx[i], 3 * x[i] * x[i], 1e-12);
    int kept = 3;
    for (Node *k = list, *dk = d_list; k;) {
      check_close("kept node", k->v, x[kept] * x[kept] * x[kept], 1e-15);
      kept -= 2;
      Node *next = k->next, *dnext = dk->next;
      free(k);
      free(dk);
      k = next;
      dk = dnext;
    }
    check_close("kept nodes", kept, -1, 0);
  }
  return check_report();
}
