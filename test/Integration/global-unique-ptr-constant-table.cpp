// A constant table built lazily into a static std::unique_ptr on the first
// call, read by the differentiated function: the table holds no
// derivatives, so the derivative is right. A first version of the check
// for pointers kept in class objects in globals refused it, taking the
// block make_unique hands over for one that may hold derivatives
// (review31b p12). f(x) = x (1 + 2 + 3): f'(x) = 6.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <memory>
#include <vector>

extern "C" int enzyme_out;
extern "C" double __enzyme_autodiff(void *, ...);

static std::unique_ptr<std::vector<double>> table;
static const double entries[3] = {1, 2, 3};

double f(double x) {
  if (!table)
    table = std::make_unique<std::vector<double>>(entries, entries + 3);
  double s = 0;
  for (size_t i = 0; i < table->size(); i++)
    s += x * (*table)[i];
  return s;
}

int main() {
  check_close("f'", __enzyme_autodiff((void *)f, enzyme_out, 1.5), 6, 1e-12);
  check_close("f' again", __enzyme_autodiff((void *)f, enzyme_out, -0.5), 6,
              1e-12);
  return check_report();
}
