// A C library in the style whose helpers return their output pointer so
// calls can be chained (like strcpy): axpy, scale and normalise return y,
// and a lookup returns a pointer into the array it is given. The program
// under differentiation chains them on restrict-qualified arrays:
//   out = dot(w, normalise(axpy(a, x, y)))  (in place in y)
//   out += (*largest(y)) ^ 2
// The entry point is spelled through a macro alias and called without
// markers (pointers are duplicated, a double is active, as Enzyme's
// defaults say), with the output written through a pointer whose shadow
// holds the seed. Run the way Enzyme's integration tests run, through
// opt -passes=enzyme (with and without -enzyme-inline=1) and lli.
// Expected: the closed-form gradient of the normalised vector and a central
// finite difference.
// RUN: %plain_cc -std=c11 -O0 %s -S -emit-llvm -o - | %opt - -passes=enzyme -S | lli - | FileCheck %s
// RUN: %plain_cc -std=c11 -O1 %s -S -emit-llvm -o - | %opt - -passes=enzyme -S | lli - | FileCheck %s
// RUN: %plain_cc -std=c11 -O2 %s -S -emit-llvm -o - | %opt - -passes=enzyme -S | lli - | FileCheck %s
// RUN: %plain_cc -std=c11 -O3 %s -S -emit-llvm -o - | %opt - -passes=enzyme -S | lli - | FileCheck %s
// RUN: %plain_cc -std=c11 -O0 %s -S -emit-llvm -o - | %opt - -passes=enzyme -enzyme-inline=1 -S | lli - | FileCheck %s
// RUN: %plain_cc -std=c11 -O3 %s -S -emit-llvm -o - | %opt - -passes=enzyme -enzyme-inline=1 -S | lli - | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t && %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdlib.h>
#include <string.h>

#define __builtin_autodiff __enzyme_autodiff
void __enzyme_autodiff(void *, ...);

#define N 5

double *axpy(double a, const double *x, double *y, int n) {
  for (int i = 0; i < n; i++)
    y[i] += a * x[i];
  return y;
}

double *normalise(double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += v[i] * v[i];
  double inv = 1 / sqrt(s);
  for (int i = 0; i < n; i++)
    v[i] *= inv;
  return v;
}

double *largest(double *v, int n) {
  double *best = v;
  for (int i = 1; i < n; i++)
    if (fabs(v[i]) > fabs(*best))
      best = v + i;
  return best;
}

double dot(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

void model(double a, const double *__restrict x, double *__restrict y,
           const double *__restrict w, double *__restrict out) {
  double *u = normalise(axpy(a, x, y, N), N);
  double *m = largest(u, N);
  *out = dot(w, u, N) + (*m) * (*m);
}

static double run(double a, const double *x, const double *y0,
                  const double *w) {
  double y[N], out;
  memcpy(y, y0, sizeof y);
  model(a, x, y, w, &out);
  return out;
}

typedef struct {
  double da;
} AGrad;

int main(void) {
  const double a = 0.7;
  double x[N] = {0.3, -1.1, 0.8, 0.2, -0.4};
  double y0[N] = {1.0, 0.5, -0.3, 0.9, 0.1};
  double w[N] = {0.2, -0.6, 1.3, 0.4, -0.9};

  double y[N], dx[N] = {0}, dy[N] = {0}, dw[N] = {0}, out = 0, dout = 1;
  memcpy(y, y0, sizeof y);
  AGrad (*ad)(void *, ...) = (AGrad(*)(void *, ...))__builtin_autodiff;
  AGrad g = ad((void *)model, a, x, dx, y, dy, w, dw, &out, &dout);

  /* Closed form: z = y0 + a x, u = z / |z|, m = argmax |u|. */
  double z[N], nz = 0;
  for (int i = 0; i < N; i++) {
    z[i] = y0[i] + a * x[i];
    nz += z[i] * z[i];
  }
  nz = sqrt(nz);
  int m = 0;
  for (int i = 1; i < N; i++)
    if (fabs(z[i]) > fabs(z[m]))
      m = i;
  /* dF/du = w + 2 u_m e_m; dF/dz = (I - u u^T)/|z| dF/du */
  double u[N], dFdu[N], uTd = 0;
  for (int i = 0; i < N; i++)
    u[i] = z[i] / nz;
  for (int i = 0; i < N; i++) {
    dFdu[i] = w[i] + (i == m ? 2 * u[m] : 0);
    uTd += u[i] * dFdu[i];
  }
  double dz[N], da = 0;
  for (int i = 0; i < N; i++) {
    dz[i] = (dFdu[i] - u[i] * uTd) / nz;
    da += dz[i] * x[i];
  }
  check_close("primal", out, run(a, x, y0, w), 1e-15);
  check_close("output seed consumed", dout, 0, 0);
  check_close("dF/da", g.da, da, 1e-12);
  check_close("dF/da FD", g.da, CENTRAL_DIFF(run(t_, x, y0, w), a, 1e-6),
              1e-7);
  for (int i = 0; i < N; i++) {
    char name[32];
    snprintf(name, sizeof name, "dF/dx[%d]", i);
    check_close(name, dx[i], a * dz[i], 1e-12);
    snprintf(name, sizeof name, "dF/dy[%d]", i);
    check_close(name, dy[i], dz[i], 1e-12);
    snprintf(name, sizeof name, "dF/dw[%d]", i);
    check_close(name, dw[i], u[i], 1e-12);
  }
  return check_report();
}
