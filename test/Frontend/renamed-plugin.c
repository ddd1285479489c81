// A copy of the pass plugin under another name, in a directory that also
// holds TapestryPlugin-19.so and the clang part (a package that installs
// a versionless symlink or renamed copy, a build system that copies the
// plugin): loading the renamed copy loads the clang part, whose
// initialisers used to load the TapestryPlugin-19.so beside them as well,
// and clang aborted ("Option ... registered more than once"). The clang
// part now uses the pass plugin that loads it. d/dx (x^2 + noise(x)) at 3
// is 8; with -fplugin, Enzyme's attributes must still be honoured: 6 with
// noise marked enzyme_inactive (8 if the attribute were lost). (With
// -fpass-plugin alone clang parses before any plugin is loaded, so that
// build has no attribute: docs/enzyme-compatibility.md.)
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: cp %plugin %clang_part %t.dir/ && cp %plugin %t.dir/Renamed.so
// RUN: %plain_cc -O1 -fpass-plugin=%t.dir/Renamed.so %s -o %t1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BUILD --allow-empty
// RUN: %t1 | FileCheck %s --check-prefix=ACTIVE
// RUN: %plain_cc -O0 -DINACTIVE -fplugin=%t.dir/Renamed.so %s -o %t2 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BUILD --allow-empty
// RUN: %t2 | FileCheck %s
// BUILD-NOT: registered more than once
// BUILD-NOT: error
// ACTIVE: d/dx = 8 (want 8)
// CHECK: d/dx = 6 (want 6)
#include <stdio.h>
extern double __enzyme_autodiff(void *, double);
#ifdef INACTIVE
#define WANT 6
__attribute__((enzyme_inactive))
#else
#define WANT 8
#endif
double noise(double x) { return 2 * x; }
double f(double x) { return x * x + noise(x); }
int main(void) {
  printf("d/dx = %g (want %d)\n", __enzyme_autodiff((void *)f, 3.0), WANT);
  return 0;
}
