// Forward mode through a small recursive-descent parser (mutual recursion
// through '('), whose node builders return pointers, the cursor advanced
// by strtod's end pointer and the operator read with `*ps->s++` and stored
// in the node. Found by a probe of recursive data structures (Dec 2026).
// strtod stores where the number ends, a pointer into the text, through
// its second argument; the parser keeps it as its cursor. Its shadow was
// left null, and the operator character, an integer copied into a node
// with a shadow, had its bytes read through the null shadow cursor: a
// crash at every -O level. The end pointer's shadow is now the same offset
// into the text's shadow (SynthesizerBase::storeEndPointerShadow).
// Expected: d/dx (1 + x + (x + 2)) = 2.
// RUN: %clang -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O3 %s -o %t3 && %t3 | FileCheck %s
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
