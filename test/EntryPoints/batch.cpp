// __enzyme_batch from C++ as Enzyme's tests write it: a variadic declaration
// with C++ linkage returning a struct of the lanes' results, the function
// passed by name.
// RUN: %clangxx -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"

struct Vector {
  double x1, x2, x3, x4;
};
extern Vector __enzyme_batch(...);
extern int enzyme_width;
extern int enzyme_vector;
extern int enzyme_scalar;

double square(double x) { return x * x; }

Vector vecsquare(double x1, double x2, double x3, double x4) {
  return __enzyme_batch(square, enzyme_width, 4, enzyme_vector, x1, x2, x3, x4);
}

int main() {
  double v[] = {23.1, 10.0, 100.0, 3.14};
  Vector r = vecsquare(v[0], v[1], v[2], v[3]);
  check_close("x1", r.x1, v[0] * v[0], 1e-15);
  check_close("x2", r.x2, v[1] * v[1], 1e-15);
  check_close("x3", r.x3, v[2] * v[2], 1e-15);
  check_close("x4", r.x4, v[3] * v[3], 1e-15);
  return check_report();
}
