// A buffer grown by doubling its capacity when full: allocate a larger one,
// copy (memcpy), free the old, with the copy inside an `if` in the loop, in
// reverse and forward mode against central finite differences. The buffer
// behind the phi at the join is typed (for the memcpy adjoint) from the
// buffers flowing into it.
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

/* Push 1 to 3 values per input into a buffer that starts with room for 2
   and doubles by malloc + memcpy + free when full, then reduce it. */
double grow_buffer(const double *x, int n) {
  int cap = 2, len = 0;
  double *buf = malloc(cap * sizeof *buf);
  for (int i = 0; i < n; i++)
    for (int k = 0; k <= i % 3; k++) {
      if (len == cap) {
        double *bigger = malloc(2 * cap * sizeof *bigger);
        memcpy(bigger, buf, len * sizeof *buf);
        free(buf);
        buf = bigger;
        cap *= 2;
      }
      buf[len++] = (k + 1) * x[i] + sin(x[i]);
    }
  double s = 0;
  for (int k = 0; k < len; k++)
    s += buf[k] * buf[len - 1 - k] + 0.01 * k * buf[k];
  free(buf);
  return s;
}

#define NM 9

static double grow_eval(const double *p) {
  double *x = copy_of(p, NM);
  double r = grow_buffer(x, NM);
  free(x);
  return r;
}
static void grow_grad(const double *p, double *g) {
  double *x = copy_of(p, NM);
  __enzyme_autodiff((void *)grow_buffer, enzyme_dup, x, g, enzyme_const, NM);
  free(x);
}
static double grow_tangent(const double *p, int j) {
  double *x = copy_of(p, NM), *tx = unit_slice(j, 0, NM);
  double t = __enzyme_fwddiff((void *)grow_buffer, enzyme_dup, x, tx,
                              enzyme_const, NM);
  free(x), free(tx);
  return t;
}

int main(void) {
  double p[NM];
  fill(p, NM, -1.0, 1.5, 12);
  compare("grow_buffer", NM, p, grow_eval, grow_grad, grow_tangent);
  return check_report();
}
