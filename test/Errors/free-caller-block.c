// A block the caller's memory points to (a struct's buffer), grown by
// realloc or freed and replaced inside the differentiated function: the
// adjoints of its old contents were left in the caller's old shadow block,
// which the derivative freed, and the caller's shadow then pointed to the
// new block: the gradient came out 0 silently, and AddressSanitizer saw a
// use after free (probe25b W1). The realloc of a parameter itself was
// already an error; one level down now is too, in reverse mode. Forward
// mode differentiates it (expected: analytic).
// RUN: not %clang -O0 -c %s -o /dev/null -DREVERSE -DREALLOC 2>&1 | FileCheck %s --check-prefix=REALLOC
// RUN: not %clang -O2 -c %s -o /dev/null -DREVERSE -DREALLOC 2>&1 | FileCheck %s --check-prefix=REALLOC
// RUN: not %clang -O0 -c %s -o /dev/null -DREVERSE 2>&1 | FileCheck %s --check-prefix=FREE
// RUN: not %clang -O2 -c %s -o /dev/null -DREVERSE 2>&1 | FileCheck %s --check-prefix=FREE
// RUN: %clang -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -o %t2 && %t2 | FileCheck %s
// REALLOC: error: tapestry: cannot differentiate 'grow': realloc of a block that parameter 1 points to (the caller's memory, passed with a shadow): the derivative with respect to the block's old contents would be left in the caller's shadow block, which the derivative frees with it
// FREE: error: tapestry: cannot differentiate 'grow': freeing a block that parameter 1 points to (the caller's memory, passed with a shadow)
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

typedef struct {
  double *data;
  int n;
} Buf;

/* Appends the square of the last value, then sums squares. */
double grow(Buf *b) {
#ifdef REALLOC
  b->data = realloc(b->data, sizeof(double) * (b->n + 1));
#else
  double *bigger = malloc(sizeof(double) * (b->n + 1));
  memcpy(bigger, b->data, sizeof(double) * b->n);
  free(b->data);
  b->data = bigger;
#endif
  b->data[b->n] = b->data[b->n - 1] * b->data[b->n - 1];
  b->n++;
  double s = 0;
  for (int i = 0; i < b->n; i++)
    s += b->data[i] * b->data[i];
  return s;
}

#ifdef REVERSE
double reverse(Buf *b, Buf *db) {
  return __enzyme_autodiff((void *)grow, enzyme_dup, b, db);
}
#endif

int main(void) {
  Buf b = {malloc(2 * sizeof(double)), 2}, db = {calloc(2, sizeof(double)), 2};
  b.data[0] = 1.5;
  b.data[1] = 0.5;
  db.data[1] = 1.0; /* tangent along data[1] */
  /* s = x0^2 + x1^2 + x1^4: ds/dx1 = 2 x1 + 4 x1^3 */
  double t = __enzyme_fwddiff((void *)grow, enzyme_dup, &b, &db);
  check_close("forward d/dx1", t, 2 * 0.5 + 4 * 0.125, 1e-15);
  free(b.data);
  free(db.data);
  return check_report();
}
