// What Tapestry cannot honour in Enzyme's fixed-point calls is an error at
// the call, in the user's terms: a control function (Tapestry
// differentiates the iterations themselves, so it would never be called),
// a marker that is not one of the fixed point's, a step whose parameters
// do not match the arguments, a step that is not `int step(int64_t, ...)`,
// a step that is not named directly, a control function given to
// __enzyme_set_fixed_point, and the entry point's address stored away.
// RUN: not %clang_fplugin -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang_fplugin -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
#include <enzyme/fixed_point.h>

extern int enzyme_dup;

static int step(int64_t i, double *u, const double *p) {
  double old = *u;
  *u = 0.5 * *u + *p + 0 * (double)i;
  return old != *u;
}

static double not_a_step(double *u) { return *u; }

static int control(double *cumul, double *reduction) {
  return *cumul < 0 || *cumul > *reduction;
}

void (*volatile kept)(void *, ...);
void through_pointer(void) {
  // CHECK: fixed-point-misuse.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: the address of '__enzyme_fixed_point' goes where its calls cannot be found
  kept = __enzyme_fixed_point;
}

void controlled(double *u, double *p) {
  // CHECK: fixed-point-misuse.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_fixed_point: enzyme_fp_control is not supported: Tapestry differentiates the iterations themselves, so there is no adjoint iteration for the control function to stop, and it would never be called; remove the marker and the function
  __enzyme_fixed_point((void *)step, enzyme_fp_state, u, sizeof *u,
                       enzyme_fp_control, (void *)control, u, p);
}

void foreign_marker(double *u, double *p) {
  // CHECK: fixed-point-misuse.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_fixed_point: 'enzyme_dup' is not one of its markers (enzyme_fp_state, enzyme_fp_reduction, enzyme_fp_max_iters, enzyme_checkpoint_region)
  __enzyme_fixed_point((void *)step, enzyme_fp_state, u, sizeof *u,
                       enzyme_dup, u, p);
}

void too_few(double *u) {
  // CHECK: fixed-point-misuse.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_fixed_point: the step 'step' takes 2 arguments after the iteration number, and the call passes 1 after the markers
  __enzyme_fixed_point((void *)step, enzyme_fp_state, u, sizeof *u, u);
}

void wrong_step(double *u) {
  // CHECK: fixed-point-misuse.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_fixed_point: the step 'not_a_step' must be `int step(int64_t i, args...)`: it takes the iteration number first and returns whether to iterate again
  __enzyme_fixed_point((void *)not_a_step, enzyme_fp_state, u, sizeof *u, u);
}

void marked(double *u, double *p) {
  int64_t i = 0;
  do
    // CHECK: fixed-point-misuse.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_set_fixed_point: its control function (third argument) must be null: Tapestry differentiates the loop's iterations themselves, so there is no adjoint iteration for it to stop, and it would never be called
    __enzyme_set_fixed_point(1e-12, 10, (void *)control, u, sizeof *u);
  while (step(i++, u, p));
}
void bad_operands(double *u, double *p, double *q) {
  // CHECK: fixed-point-misuse.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_fixed_point: 'enzyme_fp_state' must be followed by a pointer and a size in bytes
  __enzyme_fixed_point((void *)step, enzyme_fp_state, sizeof *u, u, u, p);
  // CHECK: fixed-point-misuse.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_fixed_point: enzyme_fp_reduction must be followed by a double
  __enzyme_fixed_point((void *)step, enzyme_fp_reduction, 1, u, p);
  // CHECK: fixed-point-misuse.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_fixed_point: enzyme_fp_max_iters must be followed by an integer
  __enzyme_fixed_point((void *)step, enzyme_fp_max_iters, 1e3, u, p);
  // CHECK: fixed-point-misuse.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_fixed_point: argument 2 after the markers does not fit parameter 3 of the step 'step'
  __enzyme_fixed_point((void *)step, enzyme_fp_state, u, sizeof *u, u, 2.0);
  (void)q;
}

void unknown_step(double *u, double *p, int which) {
  void *chosen = which ? (void *)step : (void *)not_a_step;
  // CHECK: fixed-point-misuse.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: __enzyme_fixed_point: its first argument must be the step function, named directly ((void *)step)
  __enzyme_fixed_point(chosen, enzyme_fp_state, u, sizeof *u, u, p);
}

// CHECK-NOT: error:
