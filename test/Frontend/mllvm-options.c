// Enzyme's options on clang command lines (-mllvm -enzyme-...) work with the
// front end loaded, in both spellings, and the pass is registered once even
// when the command line also names the plugin with -fpass-plugin (under
// another path): -enzyme-print prints the one derivative once.
// RUN: %clang_fplugin -O1 -c %s -o /dev/null -mllvm -enzyme-print 2>&1 \
// RUN:   | FileCheck %s
// RUN: %clang_enzyme -O1 -c %s -o /dev/null -mllvm -enzyme-print 2>&1 \
// RUN:   | FileCheck %s
// RUN: rm -f %t.so && ln -s %plugin %t.so
// RUN: %plain_cc -fplugin=%plugin -fpass-plugin=%t.so -O1 -c %s -o /dev/null \
// RUN:   -mllvm -enzyme-print 2>&1 | FileCheck %s
// CHECK: define internal {{.*}}cube
// CHECK-NOT: define
//
// The pass runs once per module, however the plugin is named (twice, the
// pass manager would run it twice).
// RUN: %clang_fplugin -O1 -c %s -o /dev/null -Xclang -fdebug-pass-manager \
// RUN:   2>&1 | FileCheck %s --check-prefix=ONCE
// RUN: %clang_enzyme -O0 -c %s -o /dev/null -Xclang -fdebug-pass-manager \
// RUN:   2>&1 | FileCheck %s --check-prefix=ONCE
// RUN: %plain_cc -fplugin=%plugin -fpass-plugin=%t.so -O2 -c %s -o /dev/null \
// RUN:   -Xclang -fdebug-pass-manager 2>&1 | FileCheck %s --check-prefix=ONCE
// ONCE: Running pass: tapestry::TapestryPass on [module]
// ONCE-NOT: Running pass: tapestry::TapestryPass
//
// -enzyme-print-activity and -enzyme-print-type through clang.
// RUN: %clang_fplugin -O0 -c %s -o /dev/null -mllvm -enzyme-print-activity \
// RUN:   -mllvm -enzyme-print-type 2>&1 | FileCheck %s --check-prefix=ANALYSES
// ANALYSES-DAG: activity of 'cube.tapestry.primal':
// ANALYSES-DAG: types of 'cube.tapestry.primal':
// clang discards value names: unnamed values print as the IR prints them
// (they printed as a bare '%').
// RUN: %clang_fplugin -O1 -c %s -o /dev/null -mllvm -enzyme-print-activity \
// RUN:   2>&1 | FileCheck %s --check-prefix=SLOTS
// SLOTS-LABEL: activity of 'cube.tapestry.primal':
// SLOTS-NEXT:    arg %0: active
// SLOTS-NEXT:    %2: active
// SLOTS-NEXT:    %3: active
// SLOTS-NOT:     {{^  %:}}
//
// -enzyme-truncate-all through clang: every function computes in float
// (test/EntryPoints/truncate-all.c runs it); a format Tapestry does not
// have stops the build.
// RUN: %clang_fplugin -O0 -S -emit-llvm %s -o - \
// RUN:   -mllvm -enzyme-truncate-all=64to32 | FileCheck %s --check-prefix=TRUNC
// TRUNC-LABEL: define {{.*}}double @cube(
// TRUNC: fmul float
// RUN: not %clang_fplugin -O0 -c %s -o /dev/null \
// RUN:   -mllvm -enzyme-truncate-all=64to11-3-7 2>&1 | FileCheck %s --check-prefix=TRUNC-ERR
// TRUNC-ERR: error: tapestry: -enzyme-truncate-all=64to11-3-7: '11-3-7' is neither a width
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);

double cube(double x) { return x * x * x; }
double dcube(double x) { return __enzyme_autodiff((void *)cube, enzyme_out, x); }
