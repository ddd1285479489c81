// Enzyme's metamalloc test as written: the allocator is a field of a global
// struct with external linkage initialised to malloc
// (`struct { int count; void *(*allocfn)(size_t); } tup = {0, malloc}`),
// called from a noinline wrapper; the block it returns holds the active
// value. Another file could store another function there, so the dispatch
// on the pointer keeps its fallback, which stops the derivative at run time
// with a message; but its result had no shadow, and the program was
// rejected ("the pointer 'a pointer computed' may point to differentiable
// memory but has no shadow"; found by running Enzyme's own tests,
// probe35b). Expected values are analytic: alldiv(x) = (x*x) via a noinline
// square, d/dx = 2x; cube(x) = x^3 in a block, d/dx = 3x^2. Reverse and
// forward, -O0..-O3. When the program does store another file's allocator
// there, the derivative stops with the message instead of a wrong number.
// RUN: %clang -O0 -g %s %S/Inputs/allocator-other-file.c -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s %S/Inputs/allocator-other-file.c -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 -g %s %S/Inputs/allocator-other-file.c -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s %S/Inputs/allocator-other-file.c -lm -o %t3 && %t3 | FileCheck %s
// RUN: not --crash %t0 other 2>&1 | FileCheck %s --check-prefix=STOP
// RUN: not --crash %t2 other 2>&1 | FileCheck %s --check-prefix=STOP
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// STOP: Tapestry: {{.*}}malloc-through-global-struct.c:[[@LINE+15]]: the derivative of 'alldiv' calls, through a function pointer, a function that was not in the translation unit
// STOP-NOT: PASS
#include "Inputs/check.h"
#include <stdlib.h>

double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
void *(*other_file_allocator_address(void))(size_t);

struct {
  int count;
  void *(*allocfn)(size_t);
} tup = {0, malloc};

__attribute__((noinline)) void *metamalloc(size_t size) {
  void *ret = tup.allocfn(size);
  return ret;
}

__attribute__((noinline)) void square(double *x) { *x *= *x; }

double alldiv(double x) {
  double *mem = (double *)metamalloc(8);
  *mem = x;
  square(mem);
  double r = mem[0];
  free(mem);
  return r;
}

double cube(double x) {
  double *mem = (double *)metamalloc(2 * sizeof(double));
  mem[0] = x * x;
  mem[1] = mem[0] * x;
  double r = mem[1];
  free(mem);
  return r;
}

int main(int argc, char **argv) {
  (void)argv;
  if (argc > 1)
    tup.allocfn = other_file_allocator_address();
  for (double x = -1.5; x <= 2.0; x += 0.875) {
    check_close("d alldiv/dx", __enzyme_autodiff((void *)alldiv, x), 2 * x,
                1e-12);
    check_close("d cube/dx", __enzyme_autodiff((void *)cube, x), 3 * x * x,
                1e-12);
    check_close("fwd alldiv", __enzyme_fwddiff((void *)alldiv, x, 1.0), 2 * x,
                1e-12);
    check_close("fwd cube", __enzyme_fwddiff((void *)cube, x, 1.0), 3 * x * x,
                1e-12);
  }
  return check_report();
}
