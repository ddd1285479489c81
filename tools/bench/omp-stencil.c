/* An OpenMP stencil: `steps` explicit steps of a nonlinear diffusion on n
 * points, each a `parallel for` from one array into another, then a loss.
 * Prints the primal and gradient times at the current OMP_NUM_THREADS
 * (tools/bench/run-omp.sh runs it at 1, 2 and 4 threads) and checks the
 * gradient against central finite differences on a few entries.
 *   omp-stencil [n] [steps] */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);

double stencil(double *u, double *v, int n, int steps) {
  for (int t = 0; t < steps; t++) {
#pragma omp parallel for schedule(static)
    for (int i = 1; i < n - 1; i++)
      v[i] = u[i] + 0.2 * (u[i - 1] - 2 * u[i] + u[i + 1]) -
             0.01 * u[i] * u[i] + 0.001 * sin(u[i]);
    v[0] = u[0];
    v[n - 1] = u[n - 1];
    double *w = u;
    u = v;
    v = w;
  }
  double loss = 0;
#pragma omp parallel for reduction(+ : loss)
  for (int i = 0; i < n; i++)
    loss += u[i] * u[i];
  return loss;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100000;
  int steps = argc > 2 ? atoi(argv[2]) : 100;
  double *u0 = malloc(8 * n), *u = malloc(8 * n), *du = malloc(8 * n);
  double *v = malloc(8 * n), *dv = malloc(8 * n);
  for (int i = 0; i < n; i++)
    u0[i] = sin(0.01 * i) + 0.5;
  double primal = BENCH_BEST_MS(5, {
    memcpy(u, u0, 8 * n);
    bench_sink = stencil(u, v, n, steps);
  });
#define GRADIENT                                                               \
  do {                                                                         \
    memcpy(u, u0, 8 * n);                                                      \
    memset(du, 0, 8 * n);                                                      \
    memset(dv, 0, 8 * n);                                                      \
    __enzyme_autodiff((void *)stencil, enzyme_dup, u, du, enzyme_dup, v, dv,   \
                      enzyme_const, n, enzyme_const, steps);                   \
  } while (0)
  double grad = BENCH_BEST_MS(5, GRADIENT);
  char name[64];
  snprintf(name, sizeof name, "omp_stencil_n%d_steps%d_threads%d", n, steps,
           omp_get_max_threads());
  BENCH_REPORT(name, primal, grad, GRADIENT);
  int bad = 0;
  for (int k = 1; k < n - 1; k += n / 4) {
    double h = 1e-6;
    memcpy(u, u0, 8 * n);
    u[k] += h;
    double fp = stencil(u, v, n, steps);
    memcpy(u, u0, 8 * n);
    u[k] -= h;
    double fm = stencil(u, v, n, steps);
    double fd = (fp - fm) / (2 * h);
    if (fabs(fd - du[k]) > 1e-5 * (1 + fabs(fd))) {
      printf("omp-stencil: gradient check FAILED at %d: %g vs %g\n", k, du[k],
             fd);
      bad = 1;
    }
  }
  return bad;
}
