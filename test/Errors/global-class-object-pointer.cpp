// A class object kept in a global that holds a pointer to differentiated
// data, set and read through a function that returns the global's address
// (a singleton returned by get()): the analysis cannot follow where the
// address goes, so it cannot show that every read follows a store in the
// same call, and the global gets no shadow. What was read through the
// pointer was taken for a constant, a gradient of 0 at every -O level,
// silently (review30 m4). Each read is an error naming the global, the
// store and the function that returns its address; likewise for a setter
// the analysis cannot follow into (one that calls itself). (A setter and an
// accessor given the global's address, and a std::unique_ptr assigned with
// make_unique, are followed into and differentiated:
// test/Integration/global-class-object-setter.cpp,
// global-smart-pointer-reloaded.cpp; the C shapes:
// test/Integration/global-pointer-reloaded.c.)
// RUN: not %clangxx -std=c++17 -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clangxx -std=c++17 -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clangxx -std=c++17 -O1 -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NODEBUG
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
// NODEBUG: error: tapestry: cannot differentiate 'squareOfFirst()': the pointer read from the global 'Registry::get()::r' may point to memory with derivatives ('singleton(double*)' stores one into it), but the global gets no shadow, because its address is returned by 'Registry::get', and the analysis does not follow where it goes

#include <cmath>
#include <cstdio>

extern "C" int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff(void *, ...);

// A setter the analysis cannot follow into: it calls itself.
struct Chain {
  const double *p = nullptr;
  void setAfter(const double *q, int hops) {
    if (hops > 0)
      setAfter(q, hops - 1);
    else
      p = q;
  }
  double at(int i) const { return p[i]; }
};
static Chain chain;

double chainSum(const double *x, int n) {
  chain.setAfter(x, 2);
  std::fflush(stdout);
  double s = 0;
  for (int i = 0; i < n; i++)
    // CHECK-DAG: global-class-object-pointer.cpp:[[@LINE+1]]:16: error: tapestry: cannot differentiate 'chainSum(double const*, int)': the pointer read from the global 'chain' (line {{[0-9]+}}) may point to memory with derivatives ('chainSum(double const*, int)' stores one into it (line [[@LINE-4]])), but the global gets no shadow, because its address is given to 'Chain::setAfter' (line [[@LINE-4]]), and the analysis does not follow what a callee does with it (a class object kept in a global, a std::unique_ptr, is set and read by its member functions): what is read through it would be taken for a constant; keep the object in a local variable, or pass the data to the function as an argument
    s += chain.at(i) * chain.at(i);
  return s;
}

struct Registry {
  double *p;
  static Registry &get() {
    static Registry r;
    return r;
  }
};
__attribute__((noinline)) static double squareOfFirst() {
  // CHECK-DAG: global-class-object-pointer.cpp:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: cannot differentiate 'squareOfFirst()': the pointer read from the global 'Registry::get()::r' (line [[@LINE+1]]) may point to memory with derivatives ('singleton(double*)' stores one into it (line [[@LINE+4]])), but the global gets no shadow, because its address is returned by 'Registry::get' (line [[@LINE-4]]), and the analysis does not follow where it goes
  return Registry::get().p[0] * Registry::get().p[0];
}
double singleton(double *x) {
  Registry::get().p = x;
  return squareOfFirst();
}

void gradients(const double *x, double *dx, int n) {
  double y[1] = {x[0]}, dy[1] = {0};
  __enzyme_autodiff((void *)singleton, enzyme_dup, y, dy);
  __enzyme_autodiff((void *)chainSum, enzyme_dup, x, dx, enzyme_const, n);
}
