// Enzyme's metamalloc test's shape: the allocator is called through a
// static function pointer initialised to malloc and never written
// (`static void *(*allocfn)(size_t) = malloc`), from a noinline wrapper;
// and through a constant table of two allocators indexed at run time. The
// pointer can hold no other function, so the call is the allocator's: the
// block gets a shadow. Was rejected ("the pointer ... may point to
// differentiable memory but has no shadow; pass it as enzyme_dup") because
// the dispatch kept a fallback call to an unknown function whose result
// had no shadow. Expected values are analytic: f(x) = x*x, so df/dx = 2x;
// g(x, k) = sin(x) * x, dg/dx = cos(x) x + sin(x). Reverse and forward,
// -O0..-O3.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static void *(*allocfn)(size_t) = malloc;

__attribute__((noinline)) void *metamalloc(size_t size) {
  return allocfn(size);
}

double square_in_block(double x) {
  double *mem = (double *)metamalloc(8);
  *mem = x * x;
  double r = mem[0];
  free(mem);
  return r;
}

static void *zeroed(size_t size) {
  void *p = malloc(size);
  memset(p, 0, size);
  return p;
}

static void *(*const allocators[2])(size_t) = {malloc, zeroed};

double sin_times_x(double x, int k) {
  double *buf = (double *)allocators[k & 1](2 * sizeof(double));
  buf[0] = sin(x);
  buf[1] = buf[0] * x;
  double r = buf[1];
  free(buf);
  return r;
}

int main(void) {
  for (int i = 0; i < 3; i++) {
    double x = 3.14 - 1.7 * i;
    check_close("metamalloc reverse",
                __enzyme_autodiff((void *)square_in_block, x), 2 * x, 1e-12);
    check_close("metamalloc forward",
                __enzyme_fwddiff((void *)square_in_block, x, 1.0), 2 * x,
                1e-12);
    for (int k = 0; k < 2; k++) {
      double want = cos(x) * x + sin(x);
      check_close("table reverse",
                  __enzyme_autodiff((void *)sin_times_x, x, enzyme_const, k),
                  want, 1e-12);
      check_close(
          "table forward",
          __enzyme_fwddiff((void *)sin_times_x, x, 1.0, enzyme_const, k), want,
          1e-12);
    }
  }
  return check_report();
}
