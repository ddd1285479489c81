// A scanf-family call reading into differentiated memory must say, in its
// format, which arguments receive a float or a double (their derivative
// becomes zero there). A format that is not a string literal cannot be
// read at compile time: an error at the call, not a stale derivative.
// A format chosen at run time that only reads into memory without a
// shadow (a local int, a constant argument) is fine.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
#include <stdio.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

void read_into(double *a, const char *text, const char *format) {
  // CHECK: scanf-format-not-literal.c:[[@LINE+1]]:3: error: tapestry: cannot differentiate 'read_into': this call to 'sscanf' reads numbers into differentiated memory with a format that is not a string literal Tapestry can read (it must know which arguments receive a float or a double: their derivative becomes zero); write the format as a string literal
  sscanf(text, format, &a[1]);
  a[0] *= a[1];
}

double scaled(double x, const char *text, const char *format) {
  int n = 1;
  sscanf(text, format, &n);
  return x * n;
}

void run(double *a, double *da, const char *text, const char *format) {
  __enzyme_autodiff((void *)read_into, enzyme_dup, a, da, enzyme_const, text,
                    enzyme_const, format);
  __enzyme_autodiff((void *)scaled, 2.0, enzyme_const, text, enzyme_const,
                    format);
}
// CHECK: 1 error generated.
