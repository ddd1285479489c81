// Issue 4: "each callee's derivative appears once per distinct request in
// the output IR". Here leaf() is reached by 8 paths (three levels that each
// call the next one twice, with different arguments), always with the same
// activity, so its derivative must be synthesised once: the derivative of
// its sin, a cos, appears once in the module, in reverse and in forward
// mode: at -O0 every function is noinline, so each callee is differentiated
// on its own (augmented forward and reverse per request in reverse mode, one
// tangent function in forward mode). The numbers are checked in
// test/Integration/calls-call-tree.c.
// RUN: %clang -O0 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang -O0 -DFWD -S -emit-llvm %s -o - | FileCheck %s
// CHECK: call {{.*}}@llvm.cos.f64(
// CHECK-NOT: call {{.*}}@llvm.cos.f64(
#include <math.h>
extern int enzyme_out, enzyme_dup;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) double leaf(double x) { return sin(x); }
__attribute__((noinline)) double l2(double x) { return leaf(x) + leaf(0.5 * x); }
__attribute__((noinline)) double l1(double x) { return l2(x) + l2(0.5 * x); }
__attribute__((noinline)) double l0(double x) { return l1(x) + l1(0.5 * x); }

int main(void) {
#ifndef FWD
  return __enzyme_autodiff((void *)l0, enzyme_out, 0.3) > 0;
#else
  return __enzyme_fwddiff((void *)l0, enzyme_dup, 0.3, 1.0) > 0;
#endif
}
