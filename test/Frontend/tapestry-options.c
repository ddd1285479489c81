// Tapestry's own options through clang, as users pass them:
// -fplugin=<plugin> -mllvm -tapestry-... (with or without -fpass-plugin).
// Each changes the generated code as test/Plugin/*-option.ll shows on IR;
// here only that clang hands it to the pass. An environment variable of
// the compiler changes nothing (TAPESTRY_TAPE_STATS was once read there).
//
// -tapestry-tape-stats: the reverse sweep's record arrays count their bytes.
// RUN: %clang_fplugin -O1 -S -emit-llvm %s -o - -mllvm -tapestry-tape-stats \
// RUN:   | FileCheck %s --check-prefix=STATS
// RUN: %clang -fplugin=%plugin -O1 -S -emit-llvm %s -o - \
// RUN:   -mllvm -tapestry-tape-stats | FileCheck %s --check-prefix=STATS
// RUN: %clang_fplugin -O1 -S -emit-llvm %s -o - \
// RUN:   | FileCheck %s --check-prefix=NOSTATS
// RUN: env TAPESTRY_TAPE_STATS=1 %clang -O1 -S -emit-llvm %s -o - \
// RUN:   | FileCheck %s --check-prefix=NOSTATS
// STATS: @__tapestry_tape_high_water = external {{.*}}global i64
// STATS: store i64 {{.*}}, ptr @__tapestry_tape_high_water
// NOSTATS-NOT: __tapestry_tape_high_water
//
// -tapestry-inline-budget: below the size of sum, its callee stays a call
// of the callee's own derivative (-enzyme-print lists the derivatives as
// they are made, before clang's optimiser inlines them).
// RUN: %clang_fplugin -O1 -c %s -o /dev/null -mllvm -enzyme-print 2>&1 \
// RUN:   | FileCheck %s --check-prefix=INLINED
// RUN: %clang_fplugin -O1 -c %s -o /dev/null -mllvm -enzyme-print \
// RUN:   -mllvm -tapestry-inline-budget=1 2>&1 | FileCheck %s --check-prefix=CALLED
// INLINED: define internal {{.*}}@sum.tapestry
// INLINED-NOT: define {{.*}}@term.tapestry
// CALLED: define internal {{.*}}@term.tapestry
//
// -tapestry-tape-checks=false: split mode's reverse does not check its tape.
// (At -O0: at -O1 the optimiser folds the check of a tape it sees filled.)
// RUN: %clang_fplugin -O0 -S -emit-llvm %s -o - \
// RUN:   | FileCheck %s --check-prefix=CHECKED
// RUN: %clang_fplugin -O0 -S -emit-llvm %s -o - \
// RUN:   -mllvm -tapestry-tape-checks=false | FileCheck %s --check-prefix=UNCHECKED
// CHECKED: define internal void @square.tapestry.split_dd.reverse(
// CHECKED-NOT: {{^}}}
// CHECKED: call void @abort()
// UNCHECKED: define internal void @square.tapestry.split_dd.reverse(
// UNCHECKED-NOT: @abort
// UNCHECKED: {{^}}}
#include <math.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

static double term(double v) { return sin(v) * v; }

// sum of sin(x[i]) * x[i], i < n, zeroing x as it goes: a loop whose
// records (the x[i] it overwrites) are taped.
double sum(double *x, long n) {
  double s = 0;
  for (long i = 0; i < n; i++) {
    double v = x[i];
    x[i] = 0;
    s += term(v);
  }
  return s;
}

void grad(double *x, double *dx, long n) {
  __enzyme_autodiff((void *)sum, enzyme_dup, x, dx, enzyme_const, n);
}

void square(const double *x, double *y) { *y = *x * *x; }

void split(const double *x, double *dx, double *y, double *dy) {
  void *tape = __enzyme_augmentfwd((void *)square, enzyme_dup, x, dx,
                                   enzyme_dup, y, dy);
  __enzyme_reverse((void *)square, enzyme_dup, x, dx, enzyme_dup, y, dy,
                   tape);
}
