/* An explicit heat-equation stencil that overwrites its array in place for
 * `steps` time steps, then returns a loss; gradient w.r.t. the initial
 * state, checked against central finite differences on a few entries.
 *   heat [n] [steps] */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);

double heat(double *u, int n, int steps) {
  for (int t = 0; t < steps; t++) {
    double left = u[0];
    for (int i = 1; i < n - 1; i++) {
      double here = u[i];
      u[i] = here + 0.2 * (left - 2 * here + u[i + 1]) - 0.01 * here * here;
      left = here;
    }
  }
  double loss = 0;
  for (int i = 0; i < n; i++)
    loss += u[i] * u[i];
  return loss;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  int steps = argc > 2 ? atoi(argv[2]) : 1000;
  double *u0 = malloc(8 * n), *u = malloc(8 * n), *du = malloc(8 * n);
  for (int i = 0; i < n; i++)
    u0[i] = sin(0.01 * i) + 0.5;
  double primal = BENCH_BEST_MS(5, {
    memcpy(u, u0, 8 * n);
    bench_sink = heat(u, n, steps);
  });
#define GRADIENT                                                               \
  do {                                                                         \
    memcpy(u, u0, 8 * n);                                                      \
    memset(du, 0, 8 * n);                                                      \
    __enzyme_autodiff((void *)heat, enzyme_dup, u, du, enzyme_const, n,        \
                      enzyme_const, steps);                                    \
  } while (0)
  double grad = BENCH_BEST_MS(5, GRADIENT);
  char name[64];
  snprintf(name, sizeof name, "heat_n%d_steps%d", n, steps);
  BENCH_REPORT(name, primal, grad, GRADIENT);
  int bad = 0;
  for (int k = 1; k < n - 1; k += n / 5) {
    double h = 1e-6;
    memcpy(u, u0, 8 * n);
    u[k] += h;
    double fp = heat(u, n, steps);
    memcpy(u, u0, 8 * n);
    u[k] -= h;
    double fm = heat(u, n, steps);
    double fd = (fp - fm) / (2 * h);
    if (fabs(fd - du[k]) > 1e-5 * (1 + fabs(fd))) {
      printf("MISMATCH u[%d]: gradient %.10g finite difference %.10g\n", k,
             du[k], fd);
      bad++;
    }
  }
  printf("%s\n", bad ? "GRADIENT CHECK FAILED" : "gradient check OK");
  return bad != 0;
}
