// Linked lists passed enzyme_dup with a shadow list of the same shape (each
// shadow node's next points to the next shadow node), in reverse and forward
// mode against central finite differences: a nonlinear sum over the list, a
// walk carrying the previous value, nodes mixing int, double and pointer
// fields, and a pass that rescales the values in place before summing.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;
void __enzyme_autodiff(void *, ...);
double __enzyme_autodiff_d(void *, ...);
double __enzyme_fwddiff(void *, ...);
void __enzyme_fwddiff_v(void *, ...);

#include "Inputs/gradcheck.h"

struct Node {
  double val;
  struct Node *next;
};

double list_sum(const struct Node *n) {
  double s = 0;
  while (n) {
    s += n->val * n->val + sin(n->val);
    n = n->next;
  }
  return s;
}

/* sum of products of neighbours, and the values' exp */
double list_pairs(const struct Node *n) {
  double s = 0, prev = 1;
  for (; n; n = n->next) {
    s += prev * n->val + 0.1 * exp(n->val);
    prev = n->val;
  }
  return s;
}

struct Rec {
  int id;
  double a;
  struct Rec *next;
  double b;
};

double rec_sum(const struct Rec *r) {
  double s = 0;
  while (r != NULL) {
    s += (r->id % 2 ? r->a * r->b : r->a / (1 + r->b * r->b));
    r = r->next;
  }
  return s;
}

/* val <- val * val' for each node (its successor's value, 1 for the last),
   in place, then sum of cos(val). */
double list_rescale(struct Node *n) {
  for (struct Node *p = n; p; p = p->next)
    p->val *= p->next ? p->next->val : 1.0;
  return list_sum(n) + cos(n->val);
}

#define NL 7

/* Lists in one array of nodes, linked in a shuffled order to make the shadow
   shape follow the links, not the memory layout. */
static const int order[NL] = {3, 0, 5, 1, 6, 2, 4};
static struct Node *make_list(struct Node *nodes, const double *vals) {
  for (int k = 0; k < NL; k++) {
    nodes[order[k]].val = vals ? vals[k] : 0.0;
    nodes[order[k]].next = k + 1 < NL ? &nodes[order[k + 1]] : NULL;
  }
  return &nodes[order[0]];
}
static void read_list(const struct Node *n, double *out) {
  for (int k = 0; n; n = n->next, k++)
    out[k] = n->val;
}

#define LIST_TEST(F)                                                           \
  static double F##_eval(const double *p) {                                    \
    struct Node nodes[NL];                                                     \
    return F(make_list(nodes, p));                                             \
  }                                                                            \
  static void F##_grad(const double *p, double *g) {                           \
    struct Node nodes[NL], shadow[NL];                                         \
    __enzyme_autodiff((void *)F, enzyme_dup, make_list(nodes, p),              \
                      make_list(shadow, NULL));                                \
    read_list(&shadow[order[0]], g);                                           \
  }                                                                            \
  static double F##_tangent(const double *p, int j) {                          \
    struct Node nodes[NL], shadow[NL];                                         \
    double *t = unit_slice(j, 0, NL);                                          \
    double r = __enzyme_fwddiff((void *)F, enzyme_dup, make_list(nodes, p),    \
                                make_list(shadow, t));                         \
    free(t);                                                                   \
    return r;                                                                  \
  }
LIST_TEST(list_sum)
LIST_TEST(list_pairs)
LIST_TEST(list_rescale)

/* Records: p = [a_0, b_0, a_1, b_1, ...] */
static struct Rec *make_recs(struct Rec *r, const double *ab) {
  for (int k = 0; k < NL; k++) {
    r[k].id = k + 1;
    r[k].a = ab ? ab[2 * k] : 0;
    r[k].b = ab ? ab[2 * k + 1] : 0;
    r[k].next = k + 1 < NL ? &r[k + 1] : NULL;
  }
  return r;
}
static double rec_eval(const double *p) {
  struct Rec r[NL];
  return rec_sum(make_recs(r, p));
}
static void rec_grad(const double *p, double *g) {
  struct Rec r[NL], dr[NL];
  __enzyme_autodiff((void *)rec_sum, enzyme_dup, make_recs(r, p),
                    make_recs(dr, NULL));
  for (int k = 0; k < NL; k++) {
    g[2 * k] = dr[k].a;
    g[2 * k + 1] = dr[k].b;
  }
}
static double rec_tangent(const double *p, int j) {
  struct Rec r[NL], dr[NL];
  double *t = unit_slice(j, 0, 2 * NL);
  double res = __enzyme_fwddiff((void *)rec_sum, enzyme_dup, make_recs(r, p),
                                make_recs(dr, t));
  free(t);
  return res;
}

/* A heap-allocated list, node by node. */
static struct Node *heap_list(const double *vals, int n) {
  struct Node *head = NULL;
  for (int k = n - 1; k >= 0; k--) {
    struct Node *nd = malloc(sizeof *nd);
    nd->val = vals ? vals[k] : 0;
    nd->next = head;
    head = nd;
  }
  return head;
}
static void free_list(struct Node *n) {
  while (n) {
    struct Node *next = n->next;
    free(n);
    n = next;
  }
}
static void heap_list_check(const double *p) {
  struct Node *l = heap_list(p, NL), *dl = heap_list(NULL, NL);
  __enzyme_autodiff((void *)list_sum, enzyme_dup, l, dl);
  int k = 0;
  for (struct Node *d = dl; d; d = d->next, k++)
    check_close(LABEL("list_sum, heap list: d/dval[%d] = 2v + cos v", k),
                d->val, 2 * p[k] + cos(p[k]), 1e-14);
  free_list(l);
  free_list(dl);
}

int main(void) {
  double p[2 * NL];
  fill(p, 2 * NL, -1.5, 1.5, 11);
  compare("list_sum", NL, p, list_sum_eval, list_sum_grad, list_sum_tangent);
  compare("list_pairs", NL, p, list_pairs_eval, list_pairs_grad,
          list_pairs_tangent);
  compare("list_rescale", NL, p, list_rescale_eval, list_rescale_grad,
          list_rescale_tangent);
  compare("rec_sum", 2 * NL, p, rec_eval, rec_grad, rec_tangent);
  heap_list_check(p);
  return check_report();
}
