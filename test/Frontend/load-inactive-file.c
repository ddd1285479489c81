// Enzyme's -enzyme-load-inactive-file=PATH (repeatable): each line of the
// file names a function to treat as enzyme_inactive. Here jitter() is
// listed, so its result is a constant to the derivative:
// d/dx (jitter(x) x + x^2) = jitter(x) + 2x.
// RUN: echo jitter > %t.list
// RUN: printf 'unused_name\n\n' > %t.other
// RUN: %clang_fplugin -O0 %s -mllvm -enzyme-load-inactive-file=%t.list -mllvm -enzyme-load-inactive-file=%t.other -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang_fplugin -O1 %s -mllvm -enzyme-load-inactive-file=%t.list -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang_fplugin -O2 %s -mllvm -enzyme-load-inactive-file=%t.list -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang_fplugin -O3 %s -mllvm -enzyme-load-inactive-file=%t.list -lm -o %t3 && %t3 | FileCheck %s
// RUN: %plain_cc -O0 %s -S -emit-llvm -o - | %opt -passes=enzyme -enzyme-load-inactive-file=%t.list -enzyme-print-activity -S -o %t.ll 2>&1 | FileCheck %s --check-prefix=PRINT
// RUN: %plain_cc %t.ll -lm -o %t4 && %t4 | FileCheck %s
// Without the file jitter() is differentiated: the check fails.
// RUN: %clang_fplugin -O0 %s -lm -o %t5 && not %t5 | FileCheck %s --check-prefix=ACTIVE
// RUN: not %clang_fplugin -O0 %s -mllvm -enzyme-load-inactive-file=%t.missing -c -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// PRINT: [activity] loaded file forced instruction to be inactive: jitter
// ACTIVE: FAIL
// ERR: error: {{.*}}cannot read the file given with -enzyme-load-inactive-file={{.*}}.missing
#include "../Integration/Inputs/check.h"

double __enzyme_autodiff(void *, ...);

__attribute__((noinline)) double jitter(double x) { return sin(3 * x); }

double f(double x) { return jitter(x) * x + x * x; }

int main(void) {
  for (double x = 0.25; x < 2; x += 0.5)
    check_close("d/dx with jitter inactive", __enzyme_autodiff((void *)f, x),
                jitter(x) + 2 * x, 1e-12);
  return check_report();
}
