// A symbolic-computation user's program: an expression tree of nodes
// (constants, variables, +, *, sin, exp) allocated on the heap and
// evaluated recursively; the gradient of the expression with respect to
// the variables, the tree passed enzyme_const. The expression is
// f = sin(x0 * x1) + exp(x2) * (x0 + 2.5) * x1, so the analytic gradient is
// (x1 cos(x0 x1) + exp(x2) x1, x0 cos(x0 x1) + exp(x2)(x0 + 2.5),
//  exp(x2)(x0 + 2.5) x1).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O3 -march=native -ffast-math %s -lm -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>

enum Op { CONST, VAR, ADD, MUL, SIN, EXP };

typedef struct Node {
  enum Op op;
  double value;
  int var;
  struct Node *l, *r;
} Node;

extern int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);

static Node *mk(enum Op op, double value, int var, Node *l, Node *r) {
  Node *n = (Node *)malloc(sizeof(Node));
  n->op = op;
  n->value = value;
  n->var = var;
  n->l = l;
  n->r = r;
  return n;
}

double eval(const Node *n, const double *x) {
  switch (n->op) {
  case CONST:
    return n->value;
  case VAR:
    return x[n->var];
  case ADD:
    return eval(n->l, x) + eval(n->r, x);
  case MUL:
    return eval(n->l, x) * eval(n->r, x);
  case SIN:
    return sin(eval(n->l, x));
  case EXP:
    return exp(eval(n->l, x));
  }
  return 0;
}

static void release(Node *n) {
  if (!n)
    return;
  release(n->l);
  release(n->r);
  free(n);
}

int main(void) {
  Node *x0 = mk(VAR, 0, 0, 0, 0), *x1 = mk(VAR, 0, 1, 0, 0);
  Node *x0b = mk(VAR, 0, 0, 0, 0), *x1b = mk(VAR, 0, 1, 0, 0);
  Node *x2 = mk(VAR, 0, 2, 0, 0);
  Node *t1 = mk(SIN, 0, 0, mk(MUL, 0, 0, x0, x1), 0);
  Node *t2 = mk(MUL, 0, 0,
                mk(MUL, 0, 0, mk(EXP, 0, 0, x2, 0),
                   mk(ADD, 0, 0, x0b, mk(CONST, 2.5, 0, 0, 0))),
                x1b);
  Node *root = mk(ADD, 0, 0, t1, t2);
  double x[3] = {0.3, -1.2, 0.4}, dx[3] = {0};
  __enzyme_autodiff((void *)eval, enzyme_const, root, enzyme_dup, x, dx);
  double e = exp(x[2]), c = cos(x[0] * x[1]);
  check_close("df/dx0", dx[0], x[1] * c + e * x[1], 1e-13);
  check_close("df/dx1", dx[1], x[0] * c + e * (x[0] + 2.5), 1e-13);
  check_close("df/dx2", dx[2], e * (x[0] + 2.5) * x[1], 1e-13);
  release(root);
  return check_report();
}
