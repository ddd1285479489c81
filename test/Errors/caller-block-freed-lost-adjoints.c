// A block the caller's memory points to, freed or grown by realloc inside
// the differentiated function after values read from it feed the result:
// in reverse mode the adjoints of those values reach the shadow of the
// freed block, which the caller can no longer see (its struct now points
// to the new block), so the gradient came back 0 without a word (probe25b
// W1). The program now stops when the request ends, naming the function.
// Each such shadow is copied when its block is freed; a word that changed
// to a nonzero value since is a lost adjoint ("ones": adjoints 2, 2, whose
// bit patterns summed to 0 in the first version, a fingerprint). Blocks
// whose old contents get no adjoint run and match the analytic gradient: a
// buffer grown from empty, one whose old contents are overwritten before
// the growth (also with a seed in the caller's shadow, which the reverse
// consumes: a word that became 0), a block the function allocates itself.
// RUN: %clang -O0 %s -lm -o %t0
// RUN: %t0 ok | FileCheck %s
// RUN: not --crash %t0 realloc 2>&1 | FileCheck %s --check-prefix=REALLOC
// RUN: not --crash %t0 replace 2>&1 | FileCheck %s --check-prefix=REPLACE
// RUN: not --crash %t0 param 2>&1 | FileCheck %s --check-prefix=PARAM
// RUN: not --crash %t0 ones 2>&1 | FileCheck %s --check-prefix=REALLOC
// RUN: %clang -O2 %s -lm -o %t2
// RUN: %t2 ok | FileCheck %s
// RUN: not --crash %t2 realloc 2>&1 | FileCheck %s --check-prefix=REALLOC
// RUN: not --crash %t2 replace 2>&1 | FileCheck %s --check-prefix=REPLACE
// RUN: not --crash %t2 param 2>&1 | FileCheck %s --check-prefix=PARAM
// RUN: not --crash %t2 ones 2>&1 | FileCheck %s --check-prefix=REALLOC
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// REALLOC: tapestry: the reverse derivative of 'grow_after_read' lost adjoints: 'grow_after_read' freed or reallocated a block the caller passed it
// REALLOC-SAME: and the derivatives with respect to the block's old contents (the values read from it, or moved out of it when it grew) went to the shadow of the freed block, which the caller can no longer see, or the seeds the caller gave that shadow (an output's adjoints) stayed there unused. Leave the caller's block in place: give it its final size before the call, write its elements or copy into it (v = w) instead of moving or swapping a new block into it, and free it after the call rather than inside.
// REALLOC-NOT: d/d
// REPLACE: tapestry: the reverse derivative of 'replace_after_read' lost adjoints
// PARAM: tapestry: the reverse derivative of 'consume' lost adjoints
#include "../Integration/Inputs/check.h"
#include <stdlib.h>
#include <string.h>

static char label_[96];
#define LABEL(...) (snprintf(label_, sizeof label_, __VA_ARGS__), label_)

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

typedef struct {
  double *data;
  int n;
} Buf;

/* Reads the caller's values, then grows their block and appends. */
double grow_after_read(Buf *b) {
  double s = 0;
  for (int i = 0; i < b->n; i++)
    s += b->data[i] * b->data[i];
  b->data = realloc(b->data, (b->n + 8) * sizeof(double));
  b->data[b->n] = s;
  b->n += 1;
  return s * b->data[0];
}

/* Reads the caller's values, frees their block and replaces it. */
double replace_after_read(Buf *b) {
  double a = b->data[0], c = b->data[1];
  free(b->data);
  b->data = malloc(3 * sizeof(double));
  b->data[0] = a * c, b->data[1] = a + c, b->data[2] = a;
  b->n = 3;
  return b->data[0] * b->data[1];
}

/* Frees the block it was given. */
double consume(double *x) {
  double s = x[0] * x[1] * 3;
  free(x);
  return s;
}

/* Grows the caller's empty buffer: realloc of a null pointer. */
double grow_from_empty(Buf *b, const double *in, int n) {
  for (int i = 0; i < n; i++) {
    b->data = realloc(b->data, (b->n + 1) * sizeof(double));
    b->data[b->n++] = in[i] * in[i];
  }
  double s = 0;
  for (int i = 0; i < b->n; i++)
    s += b->data[i] * sin(b->data[i]);
  return s;
}

/* Overwrites the caller's two values, then grows the block. */
double overwrite_then_grow(Buf *b, const double *in) {
  b->data[0] = in[0] * in[1];
  b->data[1] = in[1];
  b->data = realloc(b->data, 3 * sizeof(double));
  b->data[2] = in[0];
  b->n = 3;
  return b->data[0] * b->data[1] + b->data[2] * b->data[2];
}

/* Overwrites the caller's two values (the first seeded by the caller),
   grows the block, returns a. */
double seeded_overwrite(Buf *b, const double *pa) {
  double a = *pa;
  b->data[0] = a * a;
  b->data[1] = sin(a);
  b->data = realloc(b->data, 3 * sizeof(double));
  b->data[2] = a;
  b->n = 3;
  return a;
}

/* Its own block, grown and freed. */
double own_block(const double *in, int n) {
  double *w = malloc(sizeof(double));
  w[0] = in[0];
  for (int i = 1; i < n; i++) {
    w = realloc(w, (i + 1) * sizeof(double));
    w[i] = w[i - 1] * in[i];
  }
  double r = w[n - 1];
  free(w);
  return r;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "ok";
  if (!strcmp(mode, "realloc")) {
    Buf b = {malloc(2 * sizeof(double)), 2},
        db = {calloc(2, sizeof(double)), 2};
    b.data[0] = 1.5, b.data[1] = 2.0;
    __enzyme_autodiff((void *)grow_after_read, enzyme_dup, &b, &db);
    printf("d/dx0 = %g\n", db.data[0]);
    return 0;
  }
  if (!strcmp(mode, "ones")) {
    Buf b = {malloc(2 * sizeof(double)), 2},
        db = {calloc(2, sizeof(double)), 2};
    b.data[0] = 1.0, b.data[1] = 1.0;
    __enzyme_autodiff((void *)grow_after_read, enzyme_dup, &b, &db);
    printf("d/dx0 = %g\n", db.data[0]);
    return 0;
  }
  if (!strcmp(mode, "replace")) {
    Buf b = {malloc(2 * sizeof(double)), 2},
        db = {calloc(2, sizeof(double)), 2};
    b.data[0] = 1.5, b.data[1] = 2.0;
    __enzyme_autodiff((void *)replace_after_read, enzyme_dup, &b, &db);
    printf("d/dx0 = %g\n", db.data[0]);
    return 0;
  }
  if (!strcmp(mode, "param")) {
    double *x = malloc(2 * sizeof(double)), *dx = calloc(2, sizeof(double));
    x[0] = 1.5, x[1] = 2.0;
    __enzyme_autodiff((void *)consume, enzyme_dup, x, dx);
    printf("d/dx0 = %g\n", dx[0]);
    return 0;
  }
  {
    double in[3] = {0.7, -1.1, 1.3}, din[3] = {0};
    Buf b = {NULL, 0}, db = {NULL, 0};
    __enzyme_autodiff((void *)grow_from_empty, enzyme_dup, &b, &db, enzyme_dup,
                      in, din, enzyme_const, 3);
    for (int i = 0; i < 3; i++) {
      double u = in[i] * in[i];
      check_close(LABEL("grow_from_empty d/din[%d]", i), din[i],
                  2 * in[i] * (sin(u) + u * cos(u)), 1e-12);
    }
    free(b.data), free(db.data);
  }
  {
    double in[2] = {0.6, -1.7}, din[2] = {0};
    Buf b = {malloc(2 * sizeof(double)), 2},
        db = {calloc(2, sizeof(double)), 2};
    b.data[0] = 5, b.data[1] = 7;
    __enzyme_autodiff((void *)overwrite_then_grow, enzyme_dup, &b, &db,
                      enzyme_dup, in, din);
    check_close("overwrite_then_grow d/din[0]", din[0],
                in[1] * in[1] + 2 * in[0], 1e-12);
    check_close("overwrite_then_grow d/din[1]", din[1], 2 * in[0] * in[1],
                1e-12);
    free(b.data), free(db.data);
  }
  {
    double a = 0.7, da = 0;
    Buf b = {malloc(2 * sizeof(double)), 2},
        db = {calloc(2, sizeof(double)), 2};
    b.data[0] = 5, b.data[1] = 7;
    db.data[0] = 1; // d(a + data[0] at exit)/da = 1 + 2a
    __enzyme_autodiff((void *)seeded_overwrite, enzyme_dup, &b, &db, enzyme_dup,
                      &a, &da);
    check_close("seeded_overwrite d/da", da, 1 + 2 * a, 1e-12);
    free(b.data), free(db.data);
  }
  {
    double in[4] = {0.6, -1.7, 1.2, 0.9}, din[4] = {0};
    __enzyme_autodiff((void *)own_block, enzyme_dup, in, din, enzyme_const, 4);
    double prod = in[0] * in[1] * in[2] * in[3];
    for (int i = 0; i < 4; i++)
      check_close(LABEL("own_block d/din[%d]", i), din[i], prod / in[i], 1e-12);
  }
  return check_report();
}
