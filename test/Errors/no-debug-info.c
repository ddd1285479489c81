// Without -g there is no source line for the request or the offending
// instruction: the error is reported at the enclosing function's name and
// the message still names the function being differentiated. Request errors
// are located at the function that makes the request (g), errors found while
// differentiating at the differentiated function (f).
// RUN: not %clang -O0 -c %s -o /dev/null -DDECODE 2>&1 | FileCheck %s --check-prefix=DECODE
// RUN: not %clang -O2 -c %s -o /dev/null -DDECODE 2>&1 | FileCheck %s --check-prefix=DECODE
// RUN: not %clang -O0 -c %s -o /dev/null -DSYNTH 2>&1 | FileCheck %s --check-prefix=SYNTH
// RUN: not %clang -O2 -c %s -o /dev/null -DSYNTH 2>&1 | FileCheck %s --check-prefix=SYNTH
// RUN: not %clang -O0 -c %s -o /dev/null -DSPLIT 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: not %clang -O2 -c %s -o /dev/null -DSPLIT 2>&1 | FileCheck %s --check-prefix=SPLIT
// DECODE-NOT: PLEASE submit a bug report
// DECODE-NOT: Stack dump
// SYNTH-NOT: PLEASE submit a bug report
// SYNTH-NOT: Stack dump
// SPLIT-NOT: PLEASE submit a bug report
// SPLIT-NOT: Stack dump
extern int enzyme_out, enzyme_const;
double __enzyme_autodiff(void *, ...);
void *__enzyme_augmentfwd(void *, ...);
double mystery(double);
#ifdef SYNTH
// SYNTH: no-debug-info.c:[[@LINE+1]]:8: error: tapestry: cannot differentiate 'f': no derivative is known for external function 'mystery': give its body
double f(double x, double y) {
  return mystery(x) * y;
}
#else
double f(double x, double y) { return x * y; }
#endif

#ifdef DECODE
// DECODE: no-debug-info.c:[[@LINE+1]]:8: error: tapestry: too few arguments: 'f' takes 2 parameters but the call to __enzyme_autodiff ends before the value of parameter 2
double g(double x) {
  return __enzyme_autodiff((void *)f, enzyme_out, x);
}
#elif defined(SYNTH)
double g(double x, double y) {
  return __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_const, y);
}
#else
// SPLIT: no-debug-info.c:[[@LINE+1]]:7: error: tapestry: the call to __enzyme_augmentfwd is declared to return pointer, which does not match its 2 result(s) (pointer, double)
void *g(double x, double y) {
  return __enzyme_augmentfwd((void *)f, enzyme_out, x, enzyme_const, y);
}
#endif
// DECODE: 1 error generated.
// DECODE-NOT: PLEASE submit a bug report
// DECODE-NOT: Stack dump
// SYNTH: 1 error generated.
// SYNTH-NOT: PLEASE submit a bug report
// SYNTH-NOT: Stack dump
// SPLIT: 1 error generated.
// SPLIT-NOT: PLEASE submit a bug report
// SPLIT-NOT: Stack dump
