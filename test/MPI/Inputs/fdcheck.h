/* Finite differences of a parallel program: every rank holds L parameters
 * p; eval(p) runs the program (a collective call on every rank) and
 * returns this rank's result, J being the sum over ranks. check_fd
 * compares each rank's gradient g (of J with respect to its own p) with
 * central differences, perturbing one parameter of one rank at a time.
 * (Include after mpicheck.h.) */
#ifndef TAPESTRY_TEST_FDCHECK_H
#define TAPESTRY_TEST_FDCHECK_H

#include <string.h>

#define FD_MAXL 64

typedef double (*mpi_eval_fn)(const double *p);

static void check_fd(const char *name, int L, const double *p, const double *g,
                     mpi_eval_fn eval, double h, double tol) {
  for (int q = 0; q < mpi_size; q++)
    for (int j = 0; j < L; j++) {
      double pp[FD_MAXL], pm[FD_MAXL];
      memcpy(pp, p, L * sizeof *p);
      memcpy(pm, p, L * sizeof *p);
      if (q == mpi_rank)
        pp[j] += h, pm[j] -= h;
      double fd =
          (mpi_total(eval(pp)) - mpi_total(eval(pm))) / (2 * h);
      if (q == mpi_rank)
        mpi_check(name, j, g[j], fd, tol);
    }
}

#endif
