// A caller's linked list, passed enzyme_dup with a shadow list of the same
// shape, whose last node the function detaches by storing NULL into the
// link before it. The shadow list must follow: its link is cleared too, so
// that the caller walking the shadow list after the call finds the same
// nodes as in the primal list (a stale shadow link kept the detached
// node in the shadow list, and a hash table's rehash, which resets its
// list head to null before relinking, made the shadow list loop: a double
// free destroying a shadow std::unordered_map).
// RUN: %clang -O0 %s -o %t0 -lm && %t0 | FileCheck %s
// RUN: %clang -O1 %s -o %t1 -lm && %t1 | FileCheck %s
// RUN: %clang -O2 %s -o %t2 -lm && %t2 | FileCheck %s
// RUN: %clang -O3 %s -o %t3 -lm && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <math.h>
#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

struct Node {
  double v;
  struct Node *next;
};
struct List {
  struct Node *head;
  struct Node *tail;
};

// Detaches the last node, then sums sin(v) over the remaining nodes and
// adds 3 * v of the detached one.
__attribute__((noinline)) double pop_and_sum(struct List *l) {
  struct Node *p = l->head, *prev = 0;
  while (p->next) {
    prev = p;
    p = p->next;
  }
  prev->next = 0;
  l->tail = prev;
  double s = 3 * p->v;
  for (struct Node *q = l->head; q; q = q->next)
    s += sin(q->v);
  return s;
}

enum { N = 6 };

static void build(struct List *l, struct Node *nodes, const double *v) {
  for (int i = 0; i < N; ++i) {
    nodes[i].v = v[i];
    nodes[i].next = i + 1 < N ? &nodes[i + 1] : 0;
  }
  l->head = &nodes[0];
  l->tail = &nodes[N - 1];
}

static int length(const struct Node *p) {
  int n = 0;
  for (; p && n < 100; p = p->next)
    ++n;
  return n;
}

int main(void) {
  double v[N] = {0.1, 0.7, -0.4, 1.2, 0.5, -1.1}, zero[N] = {0};
  {
    struct Node nodes[N], dnodes[N];
    struct List l, dl;
    build(&l, nodes, v);
    build(&dl, dnodes, zero);
    __enzyme_autodiff((void *)pop_and_sum, enzyme_dup, &l, &dl);
    check_close("reverse: primal list length", length(l.head), N - 1, 0);
    check_close("reverse: shadow list length", length(dl.head), N - 1, 0);
    check_close("reverse: shadow tail is the shadow of the new tail",
                dl.tail == &dnodes[N - 2], 1, 0);
    for (int i = 0; i < N - 1; ++i)
      check_close("reverse: d/dv[i]", dnodes[i].v, cos(v[i]), 1e-12);
    check_close("reverse: d/dv[last]", dnodes[N - 1].v, 3, 1e-12);
  }
  {
    double t[N] = {0.3, -0.2, 0.9, 0.4, -0.6, 1.5};
    struct Node nodes[N], tnodes[N];
    struct List l, tl;
    build(&l, nodes, v);
    build(&tl, tnodes, t);
    double d = __enzyme_fwddiff((void *)pop_and_sum, enzyme_dup, &l, &tl);
    double want = 3 * t[N - 1];
    for (int i = 0; i < N - 1; ++i)
      want += cos(v[i]) * t[i];
    check_close("forward: directional derivative", d, want, 1e-12);
    check_close("forward: shadow list length", length(tl.head), N - 1, 0);
  }
  return check_report();
}
