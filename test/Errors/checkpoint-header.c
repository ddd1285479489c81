// A program written for Enzyme's user control of checkpointing includes
// <enzyme/checkpoint.h> and hands a time loop to a checkpointing scheme
// (here Enzyme's reference Revolve scheme, with its configuration). It
// compiles up to the call, where the one error names the entry point (and,
// for __enzyme_checkpoint_for, the feature); never a loop run another way
// than the scheme asks, silently. Found through -fplugin alone too, as
// Enzyme's users build. Like Enzyme's, the header includes <stdio.h>,
// <stdlib.h> and <string.h>, on which Enzyme's own tests rely (memset,
// malloc and printf without their headers: was "call to undeclared library
// function 'memset'", probe35b).
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang_fplugin -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O1 -g -c %s -o /dev/null -DWHILE 2>&1 | FileCheck %s --check-prefix=WHILE
// CHECK-NOT: file not found
// CHECK-NOT: PLEASE submit a bug report
#include <enzyme/checkpoint.h>
#include <math.h>

void __enzyme_autodiff(void *, ...);
extern int enzyme_dup;
extern int enzyme_const;

static void step(int64_t i, double *u) { u[0] = u[0] * cos(u[1] + i); }
static int step_while(int64_t i, double *u) {
  u[0] = 0.5 * u[0] + u[1];
  return i < 10;
}

static double run(double *u, int64_t n, EnzymeCkptConfig *config) {
#ifndef WHILE
  // CHECK: checkpoint-header.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_checkpoint_for is Enzyme's entry point for user control of checkpointing; Tapestry does not support it yet
  __enzyme_checkpoint_for((void *)step, 0, n, enzyme_scheme,
                          &EnzymeCkptRevolve, config,
                          enzyme_checkpoint_region, u,
                          (int64_t)(2 * sizeof(double)), u);
#else
  // WHILE: checkpoint-header.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_checkpoint_while is Enzyme's entry point for user control of checkpointing; Tapestry does not support it yet. Remove it and write the loop itself
  __enzyme_checkpoint_while((void *)step_while, enzyme_scheme,
                            &EnzymeCkptStoreAll, config, u);
#endif
  return u[0];
}

void drun(double *u, double *du, int64_t n) {
  EnzymeCkptStats stats;
  EnzymeCkptConfig config = {2, 0, NULL, 0, &stats};
  memset(&stats, 0, sizeof stats);
  double *copy = (double *)malloc(2 * sizeof(double));
  printf("%p\n", (void *)copy);
  free(copy);
  __enzyme_autodiff((void *)run, enzyme_dup, u, du, enzyme_const, n,
                    enzyme_const, &config);
}
// CHECK-NOT: error:
// WHILE-NOT: error:
