// LeakSanitizer, registered gradients whose augmented forward function
// mallocs a tape that the reverse function frees, called in a loop of the
// differentiated function so that one user tape per iteration must be kept
// (on Tapestry's own tape) and handed back to the matching reverse call.
// Both tape forms of Enzyme's convention: aug returning { tape, result }, and
// aug returning the bare tape (with a pointer argument and its shadow). A
// tape handed back twice would be a double free, one dropped a leak. The
// program is compiled with AddressSanitizer and run with leak detection: no
// leak and no memory error may be reported, every derivative call must leave
// no heap bytes behind, and the gradients must match their analytic values.
// REQUIRES: lsan
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O0 %s -lm %tapestry_rt -o %t0 && %lsan_run %t0 2>&1 | FileCheck %s
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O2 %s -lm %tapestry_rt -o %t2 && %lsan_run %t2 2>&1 | FileCheck %s
// CHECK-NOT: {{FAIL|Sanitizer|ERROR}}
// CHECK: ALL PASSED: 0 failure(s)
// CHECK-NOT: {{FAIL|Sanitizer|ERROR}}
#include "Inputs/heap.h"
#include <stdlib.h>

extern int enzyme_out, enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

#define TOL 1e-11

/* ---- cube(x) = x^3; aug returns { tape, x^3 }, the tape holds x and x^2 */
double cube(double x) { return x * x * x; }
typedef struct {
  void *tape;
  double result;
} cube_aug_t;
static long live_tapes; /* tapes aug allocated that rev has not freed yet */
cube_aug_t cube_aug(double x) {
  double *t = malloc(2 * sizeof *t);
  t[0] = x;
  t[1] = x * x;
  live_tapes++;
  return (cube_aug_t){t, x * t[1]};
}
double cube_rev(double x, double d_result, void *tape) {
  double *t = tape;
  (void)x;
  double d = 3 * t[1] * d_result;
  free(t);
  live_tapes--;
  return d;
}
void *__enzyme_register_gradient_cube[3] = {(void *)cube, (void *)cube_aug,
                                            (void *)cube_rev};

/* ---- weigh(v, w) = w v[0] v[1]; aug returns the bare tape (v0 v1) */
double weigh(const double *v, double w) { return w * v[0] * v[1]; }
void *weigh_aug(const double *v, const double *dv, double w) {
  (void)dv;
  (void)w;
  double *t = malloc(sizeof *t);
  *t = v[0] * v[1];
  live_tapes++;
  return t;
}
double weigh_rev(const double *v, double *dv, double w, double d_result,
                 void *tape) {
  double p = *(double *)tape;
  dv[0] += d_result * w * v[1];
  dv[1] += d_result * w * v[0];
  free(tape);
  live_tapes--;
  return d_result * p;
}
void *__enzyme_register_gradient_weigh[3] = {(void *)weigh, (void *)weigh_aug,
                                             (void *)weigh_rev};

/* s = sum_i sin(cube(x_i)) */
double sum_cubes(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += sin(cube(x[i]));
  return s;
}
static double sum_cubes_d(double x) { return cos(x * x * x) * 3 * x * x; }

/* w_0 = 1, w_(i+1) = weigh(&v[i], w_i) + 0.1 = w_i v_i v_(i+1) + 0.1 */
double chain(const double *v, int n) {
  double w = 1.0;
  for (int i = 0; i + 1 < n; i++)
    w = weigh(&v[i], w) + 0.1;
  return w;
}
/* d w_final / d v_k by the tangent of the recurrence */
static double chain_d(const double *v, int n, int k) {
  double w = 1.0, dw = 0.0;
  for (int i = 0; i + 1 < n; i++) {
    double dvi = i == k, dvj = i + 1 == k;
    dw = dw * v[i] * v[i + 1] + w * (dvi * v[i + 1] + v[i] * dvj);
    w = w * v[i] * v[i + 1] + 0.1;
  }
  return dw;
}

static char label[128];
#define LABEL(...) (snprintf(label, sizeof label, __VA_ARGS__), label)

enum { N = 31 };

int main(void) {
  double x[N], dx[N];
  for (int i = 0; i < N; i++)
    x[i] = 0.4 + 0.5 * sin(1.7 * i);
  for (int rep = 0; rep < 3; rep++) {
    for (int i = 0; i < N; i++)
      dx[i] = 0.0;
    HEAP_CHECK("sum_cubes", 1,
               __enzyme_autodiff((void *)sum_cubes, enzyme_dup, x, dx,
                                 enzyme_const, N));
    check_close("sum_cubes: every aug tape freed by rev", live_tapes, 0, 0);
    for (int i = 0; i < N; i++)
      check_close(LABEL("sum_cubes d/dx[%d]", i), dx[i], sum_cubes_d(x[i]),
                  TOL);

    for (int i = 0; i < N; i++)
      dx[i] = 0.0;
    HEAP_CHECK("chain", 1,
               __enzyme_autodiff((void *)chain, enzyme_dup, x, dx,
                                 enzyme_const, N));
    check_close("chain: every aug tape freed by rev", live_tapes, 0, 0);
    for (int k = 0; k < N; k++)
      check_close(LABEL("chain d/dx[%d]", k), dx[k], chain_d(x, N, k), TOL);
  }
  return check_report();
}
