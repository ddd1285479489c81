// MPI calls Tapestry cannot differentiate are errors at the call's line that
// name the routine and say what to do: an MPI routine with no rule
// (MPI_Scan), a request started in the differentiated function and waited
// for outside it (or the reverse: a wait for a request started outside),
// a reduction of doubles with an operation other than sum, product, max
// and min, and a non-blocking receive from MPI_ANY_SOURCE.
// REQUIRES: mpi
// RUN: not %clang -O0 -g %mpi_cflags -c %s -o /dev/null -DCASE=1 2>&1 | FileCheck %s --check-prefix=SCAN
// RUN: not %clang -O2 -g %mpi_cflags -c %s -o /dev/null -DCASE=1 2>&1 | FileCheck %s --check-prefix=SCAN
// RUN: not %clang -O0 -g %mpi_cflags -c %s -o /dev/null -DCASE=2 2>&1 | FileCheck %s --check-prefix=NOWAIT
// RUN: not %clang -O2 -g %mpi_cflags -c %s -o /dev/null -DCASE=2 2>&1 | FileCheck %s --check-prefix=NOWAIT
// RUN: not %clang -O0 -g %mpi_cflags -c %s -o /dev/null -DCASE=3 2>&1 | FileCheck %s --check-prefix=NOSTART
// RUN: not %clang -O1 -g %mpi_cflags -c %s -o /dev/null -DCASE=3 2>&1 | FileCheck %s --check-prefix=NOSTART
// RUN: not %clang -O0 -g %mpi_cflags -c %s -o /dev/null -DCASE=4 2>&1 | FileCheck %s --check-prefix=OP
// RUN: not %clang -O0 -g %mpi_cflags -c %s -o /dev/null -DCASE=5 2>&1 | FileCheck %s --check-prefix=ANYSRC
// RUN: not %clang -O2 -g %mpi_cflags -c %s -o /dev/null -DCASE=5 2>&1 | FileCheck %s --check-prefix=ANYSRC
// CHECK-NOT: PLEASE submit a bug report
#include <mpi.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

#if CASE == 1
double f(double *x) {
  double y;
  // SCAN: mpi-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: {{.*}}'MPI_Scan' is an MPI routine Tapestry has no derivative for (it differentiates MPI_Send, {{.*}}
  MPI_Scan(x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return y * y;
}
void g(double *x, double *dx) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
}
#elif CASE == 2
MPI_Request pending;
__attribute__((noinline)) void post(double *x) {
  // NOWAIT: mpi-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: {{.*}}the request of this 'MPI_Isend' is not completed (MPI_Wait, MPI_Waitall) in the differentiated function; {{.*}} move the wait into the function
  MPI_Isend(x, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, &pending);
}
double f(double *x) {
  post(x);
  return x[0];
}
void g(double *x, double *dx) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  MPI_Wait(&pending, MPI_STATUS_IGNORE);
}
#elif CASE == 3
double f(double *x, MPI_Request *r) {
  // NOSTART: mpi-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: {{.*}}this 'MPI_Wait' completes requests that no MPI_Isend or MPI_Irecv of the differentiated function started; {{.*}}
  MPI_Wait(r, MPI_STATUS_IGNORE);
  return x[0] * x[0];
}
double g(double *x, double *dx, MPI_Request *r) {
  return __enzyme_fwddiff((void *)f, enzyme_dup, x, dx, enzyme_const, r);
}
#elif CASE == 4
double f(double *x) {
  double y;
  // OP: mpi-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: {{.*}}'MPI_Allreduce' reduces with MPI_LAND; Tapestry differentiates reductions of MPI_DOUBLE and MPI_FLOAT data with MPI_SUM, MPI_PROD, MPI_MAX and MPI_MIN only
  MPI_Allreduce(x, &y, 1, MPI_DOUBLE, MPI_LAND, MPI_COMM_WORLD);
  return y;
}
void g(double *x, double *dx) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
}
#elif CASE == 5
double f(double *x) {
  double y;
  MPI_Request r;
  // ANYSRC: mpi-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: {{.*}}this 'MPI_Irecv' receives from MPI_ANY_SOURCE or with MPI_ANY_TAG; {{.*}}use MPI_Recv
  MPI_Irecv(&y, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  return y * x[0];
}
void g(double *x, double *dx) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
}
#endif
