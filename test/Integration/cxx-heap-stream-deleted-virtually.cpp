// A library object the differentiated function allocates on the heap and
// deletes through its virtual destructor (`delete` of a `new std::ofstream`
// or `std::filebuf`, Enzyme's ReverseMode/fbuff.cpp). Every heap block the
// function allocates got a shadow, so the virtual calls on it took shadowed
// memory and their targets are libstdc++'s: the derivative stopped at run
// time, "calls, through a function pointer, a function that was not in the
// translation unit" (at every -O level; probe35b/probe36). Nothing
// differentiable ever enters such an object: it is constructed, written to
// and closed by the library's inactive functions (a double printed through
// it becomes text), and its virtual table is read only to call the
// library's virtual functions with the object, constants and integers. So
// it needs no shadow (Analysis/PlainHeapBlocks.h), as the same objects on
// the stack (cpp-stdlib-io-maps.cpp).
// f(x) = x^2 written to a stream, then returned: df/dx = 2x.
// RUN: %clangxx_fplugin -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx_fplugin -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx_fplugin -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx_fplugin -O3 %s -o %t3 && %t3 | FileCheck %s
// RUN: %clangxx_fplugin -O2 -fsanitize=address -fno-omit-frame-pointer %s -o %ta && %ta | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <fstream>
#include <iostream>

extern double __enzyme_autodiff(void *, double);

double logged_square(double x) {
  double y = x * x;
  std::ofstream *log = new std::ofstream("/dev/null");
  *log << "y = " << y << "\n";
  delete log;
  return y;
}

double filebuf_square(double x) {
  std::filebuf *buf = new std::filebuf();
  buf->open("/dev/null", std::ios::out);
  buf->sputn("ab", 2);
  buf->close();
  delete buf;
  return x * x;
}

int main() {
  for (double x = -1.5; x <= 2.0; x += 1.75) {
    check_close("logged", __enzyme_autodiff((void *)logged_square, x), 2 * x,
                1e-12);
    check_close("filebuf", __enzyme_autodiff((void *)filebuf_square, x),
                2 * x, 1e-12);
  }
  return check_report();
}
