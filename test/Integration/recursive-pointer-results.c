// Recursive functions that return pointers to data with derivatives stay
// calls (they cannot be inlined), and their splits return the pointer's
// shadow beside it: a balanced tree built from the inputs, a linked list
// copied recursively, a search returning the address of a node's value
// (or NULL), all in one objective, at -O0..-O3, gradient, split and
// forward mode (whose derivatives return the shadow as the result's
// tangent), and under AddressSanitizer (nothing leaks, no shadow is read after it is
// freed).
//
// f(x) = sum_i w_i x_i^2 (tree: node i holds x_i^2, weighted by depth
//        w_i = depth + 1)
//      + sum_i 3 x_i (list: each cell copies and triples its value)
//      + x_k * x_k (k found by key in the tree)
// so df/dx_i = 2 w_i x_i + 3 + (i == k ? 2 x_k : 0).
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O2 -fsanitize=address -fno-omit-frame-pointer %s -lm -o %ta && %ta | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
typedef struct {
  void *tape;
  double value;
} aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

typedef struct node {
  double val;
  int key;
  struct node *left, *right;
} node;

/* Node i of x[lo..hi) at the middle; its value is x_i^2. */
static node *build(const double *x, int lo, int hi) {
  if (lo >= hi)
    return NULL;
  int mid = (lo + hi) / 2;
  node *n = malloc(sizeof *n);
  n->val = x[mid] * x[mid];
  n->key = mid;
  n->left = build(x, lo, mid);
  n->right = build(x, mid + 1, hi);
  return n;
}

static double weighted(const node *n, int depth) {
  if (!n)
    return 0;
  return (depth + 1) * n->val + weighted(n->left, depth + 1) +
         weighted(n->right, depth + 1);
}

/* The address of the value of the node with this key, or NULL. */
static double *find(node *n, int key) {
  if (!n)
    return NULL;
  if (n->key == key)
    return &n->val;
  return key < n->key ? find(n->left, key) : find(n->right, key);
}

static void drop(node *n) {
  if (!n)
    return;
  drop(n->left);
  drop(n->right);
  free(n);
}

typedef struct cell {
  double v;
  struct cell *next;
} cell;

static cell *tripled_copy(const cell *c) {
  if (!c)
    return NULL;
  cell *d = malloc(sizeof *d);
  d->v = 3 * c->v;
  d->next = tripled_copy(c->next);
  return d;
}

double objective(const double *x, int n, int k) {
  node *root = build(x, 0, n);
  double f = weighted(root, 0);
  cell *list = NULL;
  for (int i = n - 1; i >= 0; --i) {
    cell *c = malloc(sizeof *c);
    c->v = x[i];
    c->next = list;
    list = c;
  }
  cell *copy = tripled_copy(list);
  for (cell *c = copy; c; c = c->next)
    f += c->v;
  double *xk = find(root, k);
  if (xk)
    f += *xk;
  while (list) {
    cell *next = list->next;
    free(list);
    list = next;
  }
  while (copy) {
    cell *next = copy->next;
    free(copy);
    copy = next;
  }
  drop(root);
  return f;
}

/* Depth of index i in the tree build makes of [lo, hi). */
static int depth_of(int i, int lo, int hi) {
  int mid = (lo + hi) / 2;
  return i == mid ? 0 : 1 + (i < mid ? depth_of(i, lo, mid)
                                     : depth_of(i, mid + 1, hi));
}

int main(void) {
  enum { N = 11, K = 7 };
  double x[N], dx[N] = {0}, sx[N] = {0};
  for (int i = 0; i < N; ++i)
    x[i] = 0.3 + 0.17 * i - 0.02 * i * i;
  __enzyme_autodiff((void *)objective, enzyme_dup, x, dx, enzyme_const, N,
                    enzyme_const, K);
  aug_t a = __enzyme_augmentfwd((void *)objective, enzyme_dup, x, sx,
                                enzyme_const, N, enzyme_const, K);
  __enzyme_reverse((void *)objective, enzyme_dup, x, sx, enzyme_const, N,
                   enzyme_const, K, 1.0, a.tape);
  double v[N];
  for (int i = 0; i < N; ++i)
    v[i] = 1.0 - 0.25 * i;
  double tangent = __enzyme_fwddiff((void *)objective, enzyme_dup, x, v,
                                    enzyme_const, N, enzyme_const, K);
  double f = 0, dot = 0;
  for (int i = 0; i < N; ++i) {
    double w = depth_of(i, 0, N) + 1;
    f += w * x[i] * x[i] + 3 * x[i] + (i == K ? x[K] * x[K] : 0);
    double want = 2 * w * x[i] + 3 + (i == K ? 2 * x[K] : 0);
    check_close("gradient", dx[i], want, 1e-12);
    check_close("split reverse", sx[i], want, 1e-12);
    dot += want * v[i];
  }
  check_close("tangent", tangent, dot, 1e-12);
  check_close("split primal", a.value, f, 1e-12);
  return check_report();
}
