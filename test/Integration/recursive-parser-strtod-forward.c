// Forward mode through a small recursive-descent parser (mutual recursion
// through '('), whose node builders return pointers, the cursor advanced
// by strtod's end pointer and the operator read with `*ps->s++` and stored
// in the node. Found by a probe of recursive data structures (Dec 2026).
// XFAIL: *
// Known bug: the derivative crashes (a read of address 0) at every -O
// level. strtod's end pointer has no shadow, so the parser's shadow cursor
// becomes null when it is stored; the operator character is an integer
// copied into a node with a shadow, and the copy of its bytes reads them
// through the shadow cursor. (Until this session the program was refused:
// the parser's functions return pointers and are recursive.) Without
// strtod, or without storing the character, it is right; reverse mode is
// right. Expected: d/dx (1 + x + (x + 2)) = 2.
// RUN: %clang -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>

extern int enzyme_dup;
double __enzyme_fwddiff(void *, ...);

typedef struct Expr {
  char op;
  double v;
  struct Expr *a, *b;
} Expr;
typedef struct {
  const char *s;
  double x;
} Parser;

static Expr *mk(char op, double v, Expr *a, Expr *b) {
  Expr *e = malloc(sizeof *e);
  e->op = op;
  e->v = v;
  e->a = a;
  e->b = b;
  return e;
}

static Expr *parse_sum(Parser *ps);

static Expr *parse_atom(Parser *ps) {
  char c = *ps->s;
  if (c == '(') {
    ps->s++;
    Expr *e = parse_sum(ps);
    ps->s++;
    return e;
  }
  if (c == 'x') {
    ps->s++;
    return mk('v', ps->x, NULL, NULL);
  }
  char *end;
  double v = strtod(ps->s, &end);
  ps->s = end;
  return mk('c', v, NULL, NULL);
}

static Expr *parse_sum(Parser *ps) {
  Expr *l = parse_atom(ps);
  while (*ps->s == '+') {
    char op = *ps->s++;
    l = mk(op, 0, l, parse_atom(ps));
  }
  return l;
}

static double eval(const Expr *e) {
  if (e->op == '+')
    return eval(e->a) + eval(e->b);
  return e->v;
}

double model(double x) {
  Parser ps = {"1+x+(x+2)", x};
  return eval(parse_sum(&ps));
}

int main(void) {
  check_close("d/dx", __enzyme_fwddiff((void *)model, enzyme_dup, 0.8, 1.0), 2,
              0);
  return check_report();
}
