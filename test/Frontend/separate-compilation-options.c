// Enzyme's separate compilation (-enzyme-separate-compilation, and
// -enzyme-export-derivatives in the file that defines the function) is not
// a Tapestry feature: the build stops with an error naming the option and
// saying what to do instead (link-time optimisation), in the file that
// exports derivatives and in the file that calls them, with clang and
// with opt; never an unknown-option message, never silently no exports.
// RUN: not %clang_fplugin -O0 -DMODULE_CALLEE -c %s -o /dev/null -mllvm -enzyme-separate-compilation -mllvm -enzyme-export-derivatives=reverse,forward 2>&1 | FileCheck %s --check-prefix=EXPORT
// RUN: not %clang_fplugin -O2 -c %s -o /dev/null -mllvm -enzyme-separate-compilation 2>&1 | FileCheck %s --check-prefix=SEPARATE
// RUN: %plain_cc -O0 -DMODULE_CALLEE %s -S -emit-llvm -o - | not %opt -passes=enzyme -enzyme-export-derivatives=reverse -S -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPORT
// EXPORT: error: {{.*}}tapestry: Enzyme's option -enzyme-export-derivatives (exporting derivatives for separate compilation) is not supported: Tapestry differentiates a function whose body is in another file when the files are compiled and linked with -flto (see docs/multi-file-lto.md); drop the option and add -flto to the compile and link lines
// SEPARATE: error: {{.*}}tapestry: Enzyme's option -enzyme-separate-compilation is not supported: Tapestry differentiates a function whose body is in another file when the files are compiled and linked with -flto
// EXPORT-NOT: Unknown command line argument
// SEPARATE-NOT: Unknown command line argument
extern double sin(double);
#ifdef MODULE_CALLEE
void g(double *x, double *y, int n) {
  for (int i = 0; i < n; i++)
    y[i] = sin(x[i]) * x[i];
}
#else
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
void g(double *x, double *y, int n);
double f(double *x, int n) {
  double y[4] = {0};
  g(x, y, n);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += y[i] * x[i];
  return s;
}
void df(double *x, double *dx, int n) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);
}
#endif
