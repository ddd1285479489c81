// A program built with Enzyme users' typical command lines: the clang
// plugin with -mllvm options (-fplugin), and the pass plugin plus the clang
// plugin (-fpass-plugin=X -Xclang -load -Xclang X), at every -O level, and
// the clang part alone (-Xclang -load -Xclang TapestryClang-19.so).
// Expected derivatives are analytic: f(x, y) = x^2 y + sin(x y), with
// df/dx = 2xy + y cos(xy), df/dy = x^2 + x cos(xy).
// RUN: %clang_fplugin -O0 %s -lm -o %t0 -mllvm -enzyme-loose-types \
// RUN:   -mllvm -enzyme-inline=1 -mllvm -enzyme-print=0 && %t0 | FileCheck %s
// RUN: %clang_fplugin -O1 %s -lm -o %t1 -mllvm -enzyme-loose-types \
// RUN:   -mllvm -enzyme-runtime-activity && %t1 | FileCheck %s
// RUN: %clang_fplugin -O2 %s -lm -o %t2 -mllvm -enzyme-postopt \
// RUN:   -mllvm -enzyme-max-cache=1 -mllvm -enzyme-strict-aliasing=0 \
// RUN:   && %t2 | FileCheck %s
// RUN: %clang_fplugin -O3 %s -lm -o %t3 -mllvm -enzyme-inline-count=3 \
// RUN:   -mllvm -enzyme-inline && %t3 | FileCheck %s
// RUN: %clang_enzyme -O0 %s -lm -o %t4 -mllvm -enzyme-loose-types && %t4 \
// RUN:   | FileCheck %s
// RUN: %clang_enzyme -O2 %s -lm -o %t5 -mllvm -enzyme-coalese \
// RUN:   -mllvm -enzyme-zero-cache -mllvm -enzyme-cache-always && %t5 \
// RUN:   | FileCheck %s
// RUN: %clang_enzyme -O3 %s -lm -o %t6 -mllvm -enzyme-preopt=false && %t6 \
// RUN:   | FileCheck %s
// The clang part loaded on its own finds the pass plugin beside itself (it
// used to register the attributes and options but run no pass: the link
// failed on __enzyme_autodiff).
// RUN: %plain_cc -Xclang -load -Xclang %clang_part -I%src_root/include -O2 \
// RUN:   %s -lm -o %t7 -mllvm -enzyme-loose-types && %t7 | FileCheck %s
// Enzyme's spelling with the clang part in both places, as Enzyme's users
// name ClangEnzyme-19.so (-fpass-plugin=ClangEnzyme-19.so -Xclang -load
// -Xclang ClangEnzyme-19.so): its pass plugin entry point is the pass
// plugin's (it was "Plugin entry point not found"), and the pass is added
// once.
// RUN: %plain_cc -fpass-plugin=%clang_part -Xclang -load -Xclang %clang_part \
// RUN:   -I%src_root/include -O2 %s -lm -o %t8 -mllvm -enzyme-loose-types \
// RUN:   && %t8 | FileCheck %s
// RUN: %plain_cc -fpass-plugin=%clang_part -I%src_root/include -O1 %s -lm \
// RUN:   -o %t9 && %t9 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"

extern int enzyme_out, enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static double term(double x, double y) { return sin(x * y); }
double f(double x, double y) { return x * x * y + term(x, y); }
void wrap(const double *in, double *out) { *out = f(in[0], in[1]); }

int main(void) {
  double in[2] = {0.6, -1.4}, din[2] = {0, 0}, out = 0, dout = 1;
  __enzyme_autodiff((void *)wrap, enzyme_dup, in, din, enzyme_dup, &out,
                    &dout);
  double x = in[0], y = in[1];
  check_close("df/dx", din[0], 2 * x * y + y * cos(x * y), 1e-12);
  check_close("df/dy", din[1], x * x + x * cos(x * y), 1e-12);
  check_close("forward df/dy",
              __enzyme_fwddiff((void *)f, enzyme_const, x, enzyme_dup, y, 1.0),
              x * x + x * cos(x * y), 1e-12);
  return check_report();
}
