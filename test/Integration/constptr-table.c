// Constant pointers stored beside active ones (Enzyme's "runtime
// activity"): pointers into an enzyme_const argument or a global table kept
// in a heap table or a struct that also holds active (enzyme_dup) pointers,
// read back and used in active arithmetic. The shadow of a constant pointer
// is the pointer itself, and every derivative access through a pointer read
// back from such memory tests that at run time. Reverse, forward, split and
// batch mode against central finite differences (reverse) and reverse
// (forward, split, batch), at every -O level. The table filled through a
// pointer advanced in a loop (`*p++ = &seq[b * i]`, what push_back of
// pointers becomes) used to crash: the derivative accumulated into the null
// shadow of the table.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_width;
typedef struct {
  double d[2];
} D2;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
D2 __enzyme_fwddiff_2(void *, ...);
typedef struct {
  void *tape;
  double primal;
} Aug;
Aug __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

#include "Inputs/gradcheck.h"

#define NB 3 /* active weights */
#define NS 4 /* sequence length */

static const double TABLE[NB] = {0.7, -1.3, 0.4};

/* (4) rows filled through a pointer advanced in a loop. */
double loop_table(const double *w, const double *seq, int n, int b) {
  const double **rows = malloc(n * sizeof *rows);
  const double **p = rows;
  for (int i = 0; i < n; i++)
    *p++ = &seq[b * i];
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < b; j++)
      s += sin(w[j] * rows[i][j]) + w[j] * w[j] * rows[i][j];
  free(rows);
  return s;
}

/* The indexed form, rows[i] = ... */
double indexed_table(const double *w, const double *seq, int n, int b) {
  const double **rows = malloc(n * sizeof *rows);
  for (int i = 0; i < n; i++)
    rows[i] = &seq[b * i];
  double s = 0;
  for (int i = n - 1; i >= 0; i--)
    for (int j = 0; j < b; j++)
      s = tanh(s + w[j] * rows[i][j]);
  free(rows);
  return s;
}

/* Active and constant rows in one table: the test decides per row. */
double mixed_table(const double *w, const double *seq, int n, int b) {
  const double **rows = malloc(2 * n * sizeof *rows);
  for (int i = 0; i < n; i++) {
    rows[2 * i] = (i % 2) ? w : TABLE;
    rows[2 * i + 1] = &seq[b * i];
  }
  double s = 0;
  for (int i = 0; i < 2 * n; i++)
    for (int j = 0; j < b; j++)
      s += rows[i][j] * w[(j + i) % b] * rows[(i + 1) % (2 * n)][j];
  free(rows);
  return s;
}

/* A context struct {const double *table; double *w;}, kept in memory (a
 * heap array of them, chosen at run time). */
typedef struct {
  const double *table;
  double *w;
} Ctx;
/* Inlined at -O0 too: a helper differentiated on its own cannot test
 * its pointers (test/Errors/const-pointer-in-struct.c). */
__attribute__((always_inline)) static inline double ctx_term(const Ctx *c, int b) {
  double s = 0;
  for (int j = 0; j < b; j++)
    s += exp(0.3 * c->w[j] * c->table[j]);
  return s;
}
double context(double *w, const double *seq, int n, int b) {
  Ctx *cs = malloc(n * sizeof *cs);
  for (int i = 0; i < n; i++) {
    cs[i].table = (i % 2) ? TABLE : &seq[b * i];
    cs[i].w = w;
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    s += ctx_term(&cs[i], b) * cs[i].w[i % b];
  free(cs);
  return s;
}

/* A global table stored in a stack struct beside an active pointer. */
double global_in_struct(double *w, const double *seq, int n, int b) {
  Ctx c = {TABLE, w};
  Ctx *volatile vc = &c; /* kept in memory even when optimised */
  double s = 0;
  for (int j = 0; j < b; j++)
    s += vc->w[j] * vc->table[j] * seq[j] + sin(vc->w[j]);
  return s;
}

/* ---- Harness: the weights w are the active inputs ----------------------- */

static double seq[NS * NB];

/* Split mode and batch (width 2, forward and reverse) against the one-shot
 * gradient g. */
#define HARNESS(K)                                                             \
  static double eval_##K(const double *p) {                                    \
    double w[NB];                                                              \
    memcpy(w, p, sizeof w);                                                    \
    return K(w, seq, NS, NB);                                                  \
  }                                                                            \
  static void grad_##K(const double *p, double *g) {                           \
    double w[NB];                                                              \
    memcpy(w, p, sizeof w);                                                    \
    __enzyme_autodiff((void *)K, enzyme_dup, w, g, enzyme_const, seq,          \
                      enzyme_const, NS, enzyme_const, NB);                     \
  }                                                                            \
  static double tangent_##K(const double *p, int j) {                          \
    double w[NB], dw[NB] = {0};                                                \
    memcpy(w, p, sizeof w);                                                    \
    dw[j] = 1;                                                                 \
    return __enzyme_fwddiff((void *)K, enzyme_dup, w, dw, enzyme_const, seq,   \
                            enzyme_const, NS, enzyme_const, NB);               \
  }                                                                            \
  static void split_batch_##K(const double *p, const double *g) {              \
    double w[NB], dw[NB] = {0};                                                \
    memcpy(w, p, sizeof w);                                                    \
    Aug a = __enzyme_augmentfwd((void *)K, enzyme_dup, w, dw, enzyme_const,    \
                                seq, enzyme_const, NS, enzyme_const, NB);      \
    __enzyme_reverse((void *)K, enzyme_dup, w, dw, enzyme_const, seq,          \
                     enzyme_const, NS, enzyme_const, NB, 1.0, a.tape);         \
    check_close(#K ": split primal", a.primal, K(w, seq, NS, NB), 1e-12);     \
    for (int j = 0; j < NB; j++)                                               \
      check_close(LABEL(#K ": split vs one-shot, d/dw[%d]", j), dw[j], g[j],   \
                  1e-12);                                                      \
    for (int j = 0; j + 1 < NB; j++) {                                         \
      double e0[NB] = {0}, e1[NB] = {0};                                       \
      e0[j] = 1;                                                               \
      e1[j + 1] = 1;                                                           \
      memcpy(w, p, sizeof w);                                                  \
      D2 t = __enzyme_fwddiff_2((void *)K, enzyme_width, 2, enzyme_dup, w, e0, \
                                e1, enzyme_const, seq, enzyme_const, NS,       \
                                enzyme_const, NB);                             \
      check_close(LABEL(#K ": batch forward lane 0, d/dw[%d]", j), t.d[0],     \
                  g[j], 1e-10);                                                \
      check_close(LABEL(#K ": batch forward lane 1, d/dw[%d]", j + 1), t.d[1], \
                  g[j + 1], 1e-10);                                            \
    }                                                                          \
    double ga[NB] = {0}, gb[NB] = {0};                                         \
    memcpy(w, p, sizeof w);                                                    \
    __enzyme_autodiff((void *)K, enzyme_width, 2, enzyme_dup, w, ga, gb,       \
                      enzyme_const, seq, enzyme_const, NS, enzyme_const, NB);  \
    for (int j = 0; j < NB; j++) {                                             \
      check_close(LABEL(#K ": batch reverse lane 0, d/dw[%d]", j), ga[j],      \
                  g[j], 1e-12);                                                \
      check_close(LABEL(#K ": batch reverse lane 1, d/dw[%d]", j), gb[j],      \
                  g[j], 1e-12);                                                \
    }                                                                          \
  }                                                                            \
  static void run_##K(void) {                                                  \
    const double p[NB] = {0.3, 0.5, -0.2};                                     \
    double g[NB] = {0};                                                        \
    compare(#K, NB, p, eval_##K, grad_##K, tangent_##K);                       \
    grad_##K(p, g);                                                            \
    split_batch_##K(p, g);                                                     \
  }

HARNESS(loop_table)
HARNESS(indexed_table)
HARNESS(mixed_table)
HARNESS(context)
HARNESS(global_in_struct)

int main(void) {
  for (int i = 0; i < NS * NB; i++)
    seq[i] = 0.1 * i + 0.05;
  const double before = seq[5], table1 = TABLE[1];
  run_loop_table();
  run_indexed_table();
  run_mixed_table();
  run_context();
  run_global_in_struct();
  /* The constant data was never written. */
  check_close("seq unchanged", seq[5], before, 0);
  check_close("TABLE unchanged", TABLE[1], table1, 0);
  return check_report();
}
