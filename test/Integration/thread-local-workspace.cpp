// A thread_local workspace (a common way to keep scratch memory without
// allocating per call) holding active values in the differentiated
// function, filled by a loop or by memcpy: clang reads its address through
// llvm.threadlocal.address, which was "an external function with no
// derivative" (probe21a R10). Its shadow is a thread_local global like it,
// so threads differentiating at once do not share adjoints: four threads
// run the gradient and the tangent many times each, concurrently.
// f = sum_i (i+1) x_i^2 (loop) or sum_i (i+1) x_i^2 through memcpy;
// df/dx_i = 2 (i+1) x_i; tangent along v: sum_i 2 (i+1) x_i v_i.
// RUN: %clangxx -O0 -pthread %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O2 -pthread %s -o %t2 && %t2 | FileCheck %s
// RUN: %plain_cxx -O2 -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.bc
// RUN: %plain_cxx -O2 -pthread %t.bc -o %to && %to | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <cstring>
#include <thread>
#include <vector>

extern "C" {
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

enum { N = 6 };
static thread_local double scratch[64];

double weightedLoop(const double *x, int n) {
  for (int i = 0; i < n; i++)
    scratch[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; i++)
    s += (i + 1) * scratch[i];
  return s;
}

double weightedCopy(const double *x, int n) {
  double sq[N];
  for (int i = 0; i < n; i++)
    sq[i] = x[i] * x[i];
  std::memcpy(scratch, sq, n * sizeof(double));
  double s = 0;
  for (int i = 0; i < n; i++)
    s += (i + 1) * scratch[i];
  return s;
}

// One request per helper: optimised IR would otherwise merge two requests
// that differ only in their function into one whose function is a phi.
__attribute__((noinline)) static void gradient(bool loop, double *x,
                                               double *dx) {
  if (loop)
    __enzyme_autodiff((void *)weightedLoop, enzyme_dup, x, dx, enzyme_const,
                      (int)N);
  else
    __enzyme_autodiff((void *)weightedCopy, enzyme_dup, x, dx, enzyme_const,
                      (int)N);
}

__attribute__((noinline)) static double tangent(bool loop, double *x,
                                                double *v) {
  if (loop)
    return __enzyme_fwddiff((void *)weightedLoop, enzyme_dup, x, v,
                            enzyme_const, (int)N);
  double t = __enzyme_fwddiff((void *)weightedCopy, enzyme_dup, x, v,
                              enzyme_const, (int)N);
  return t;
}

// Failures seen by one thread (checked after the threads join).
static int runThread(int id) {
  int bad = 0;
  for (int round = 0; round < 200; round++) {
    double x[N], dx[N] = {0}, v[N];
    double expected = 0;
    for (int i = 0; i < N; i++) {
      x[i] = 0.5 + 0.1 * i + 0.01 * id + 0.001 * round;
      v[i] = 1.0 + 0.25 * i;
      expected += 2 * (i + 1) * x[i] * v[i];
    }
    gradient(round % 2, x, dx);
    for (int i = 0; i < N; i++)
      bad += std::fabs(dx[i] - 2 * (i + 1) * x[i]) > 1e-12 * (1 + dx[i]);
    double t = tangent(round % 2, x, v);
    bad += std::fabs(t - expected) > 1e-12 * (1 + expected);
  }
  return bad;
}

int main() {
  int bad[4] = {0, 0, 0, 0};
  std::vector<std::thread> threads;
  for (int id = 0; id < 4; id++)
    threads.emplace_back([&bad, id] { bad[id] = runThread(id); });
  for (std::thread &t : threads)
    t.join();
  char what[32];
  for (int id = 0; id < 4; id++) {
    snprintf(what, sizeof what, "thread %d mismatches", id);
    check_close(what, bad[id], 0, 0);
  }
  // And once on the main thread, against the formula, with the values.
  double x[N] = {1, 2, 3, 4, 5, 6}, dx[N] = {0};
  __enzyme_autodiff((void *)weightedLoop, enzyme_dup, x, dx, enzyme_const,
                    (int)N);
  for (int i = 0; i < N; i++) {
    snprintf(what, sizeof what, "d/dx[%d]", i);
    check_close(what, dx[i], 2 * (i + 1) * x[i], 1e-12);
  }
  return check_report();
}
