// Strict floating-point semantics (-ffp-model=strict, -frounding-math,
// -ffp-exception-behavior=maytrap, #pragma STDC FENV_ACCESS ON) make each
// operation a constrained intrinsic, which Tapestry does not differentiate
// yet. The error names the mode and the options that select it (it told
// users to "write that step in plain C", which it was: probe45b F6).
// RUN: not %clang -O2 -g -ffp-model=strict -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O0 -g -frounding-math -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O1 -g -ffp-exception-behavior=maytrap -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -DPRAGMA -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK: error: tapestry: cannot differentiate 'f': 'llvm.experimental.constrained.{{[a-z]+}}.f64' is arithmetic under strict floating-point semantics (-ffp-model=strict, -frounding-math, -ffp-exception-behavior=maytrap or strict, or #pragma STDC FENV_ACCESS ON), which Tapestry does not differentiate yet; compile the differentiated code without these options, or keep the pragma out of it

extern int enzyme_out;
double __enzyme_autodiff(void *, ...);

double f(double x) {
#ifdef PRAGMA
#pragma STDC FENV_ACCESS ON
#endif
  return x * x + 3 * x;
}

double df(double x) { return __enzyme_autodiff((void *)f, enzyme_out, x); }
