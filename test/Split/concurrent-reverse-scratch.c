// Reverse sweeps from four threads at once on one reusable tape whose
// function has a heap scratch block: the tape owns the block and its
// shadow, which each sweep zeroes and accumulates into. The first sweep on
// the tape uses the tape's shadow; a sweep that finds the tape busy uses a
// zeroed shadow of its own (Split/ScratchGuard.cpp). Before, the sweeps
// added into one shadow and whole rows of the Jacobian came back wrong
// (split21 probe F2). Each sweep's row is checked against the analytic
// Jacobian of y_i = t_i t_{i-1}, t_i = sin(x_i) x_{i+1} (indices mod n).
// RUN: %clang -O0 -pthread %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 -pthread %s -lm -o %t2 && %t2 | FileCheck %s
// CHECK: reusable 1
// CHECK: wrong entries: 0
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tapestry/enzyme.h>
#include <tapestry/thunk.h>

void scratchy(const double *x, double *y, int n) {
  double *t = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++)
    t[i] = sin(x[i]) * x[(i + 1) % n];
  for (int i = 0; i < n; i++)
    y[i] = t[i] * t[(i + n - 1) % n];
  free(t);
}

enum { N = 3000, THREADS = 4, REPS = 30 };
typedef void (*Rev)(const double *, double *, double *, double *, int, void *,
                    void *);
typedef void (*Aug)(const double *, double *, double *, double *, int, void *);
static const tapestry_thunk *T;
static void *Tape;
static double X[N], Y[N];
static int Wrong[THREADS];

static double t(int i) { return sin(X[i % N]) * X[(i + 1) % N]; }

/// Row `row` of the Jacobian at X, analytically, into J.
static void jacobianRow(int row, double *J) {
  memset(J, 0, sizeof(double) * N);
  int im = (row + N - 1) % N, ip = (row + 1) % N;
  // y_row = t_row t_im; dt_k/dx_k = cos(x_k) x_{k+1}, dt_k/dx_{k+1} = sin x_k
  J[row] += t(im) * cos(X[row]) * X[ip];
  J[ip] += t(im) * sin(X[row]);
  J[im] += t(row) * cos(X[im]) * X[row];
  J[row] += t(row) * sin(X[im]);
}

static void *worker(void *arg) {
  int id = (int)(long)arg;
  static double DX[THREADS][N], DY[THREADS][N], J[THREADS][N];
  for (int r = 0; r < REPS; r++) {
    int row = (id * 7 + r * 13) % N;
    memset(DX[id], 0, sizeof DX[id]);
    memset(DY[id], 0, sizeof DY[id]);
    DY[id][row] = 1;
    ((Rev)T->reverse)(X, DX[id], Y, DY[id], N, Tape, NULL);
    jacobianRow(row, J[id]);
    for (int j = 0; j < N; j++)
      if (fabs(DX[id][j] - J[id][j]) > 1e-12)
        Wrong[id]++;
  }
  return NULL;
}

int main(void) {
  T = __tapestry_thunk((void *)scratchy, enzyme_dup, enzyme_dup,
                       enzyme_const);
  printf("reusable %d\n", T->reusable);
  for (int i = 0; i < N; i++)
    X[i] = 0.0005 * i - 0.6;
  static double dx[N], dy[N];
  Tape = tapestry_tape_new(T);
  ((Aug)T->augmented)(X, dx, Y, dy, N, Tape);
  pthread_t th[THREADS];
  for (long i = 0; i < THREADS; i++)
    pthread_create(&th[i], NULL, worker, (void *)i);
  for (int i = 0; i < THREADS; i++)
    pthread_join(th[i], NULL);
  int w = 0;
  for (int i = 0; i < THREADS; i++)
    w += Wrong[i];
  printf("wrong entries: %d\n", w);
  tapestry_tape_delete(T, Tape);
  return w != 0;
}
