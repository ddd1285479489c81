// A call to a function that is only declared, with an active argument, inside
// the differentiated function is an error at that call which names the
// function and shows the three ways to supply its derivative (in both modes),
// and how to build when another file defines it (probe35: it did not say).
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O0 -g -c %s -o /dev/null -DFWD 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null -DFWD 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
extern int enzyme_out, enzyme_dup;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
double mystery(double);
double f(double x) {
  // CHECK: unknown-external-function.c:[[@LINE+1]]:10: error: tapestry: cannot differentiate 'f': no derivative is known for external function 'mystery': give its body, register one with 'void *__enzyme_register_gradient_mystery[3] = {(void*)mystery, (void*)aug, (void*)rev};' or 'void *__enzyme_register_derivative_mystery[2] = {(void*)mystery, (void*)fwd};', or, only if nothing it returns or writes depends on differentiated values (it only prints or checks them), declare it inactive with 'void *__enzyme_inactivefn[] = {(void*)mystery};'; if another file of the program defines it, compile every file and link with -flto and the plugin (docs/multi-file-lto.md)
  return mystery(x) * x;
}
double g(double x) {
#ifndef FWD
  return __enzyme_autodiff((void *)f, enzyme_out, x);
#else
  return __enzyme_fwddiff((void *)f, enzyme_dup, x, 1.0);
#endif
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
