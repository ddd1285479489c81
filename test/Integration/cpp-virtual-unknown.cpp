// A virtual call whose dynamic type is not known at compile time (the object
// pointer is passed in, enzyme_const) with an active argument, where no
// class of this file implements the method, is a clear error naming the
// call, at -O0 and -O2.
// RUN: not %clangxx -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clangxx -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
extern "C" int enzyme_const, enzyme_out;
extern "C" double __enzyme_autodiff(void *, ...);

struct Shape {
  virtual ~Shape() = default;
  virtual double area(double s) const = 0;
};

double through_ptr(const Shape *s, double x) {
  // CHECK: cpp-virtual-unknown.cpp:[[@LINE+1]]:13: error: tapestry: cannot differentiate 'through_ptr(Shape const*, double)': this virtual call takes active arguments, and no function of its type has its address taken in this file (Tapestry differentiates such a call by dispatching on the pointer over the functions it may hold); define the classes that implement it in this file, or call the method non-virtually (Class::method)
  return s->area(x) * x;
}
double grad(const Shape *s, double x) {
  return __enzyme_autodiff((void *)through_ptr, enzyme_const, s, enzyme_out, x);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
