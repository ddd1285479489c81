// Inactive logging calls in a hot loop of a differentiated function generate
// no derivative code: printf, fprintf(stderr, ...), puts, an assert, and a
// user function declared inactive with __enzyme_inactivefn. In the reverse
// derivative each appears once, in the forward sweep's loop, and never in
// the reverse sweep (after the derivative of sin, a cos, appears); in the
// forward derivative each appears once; no derivative function is made for
// any of them. Checked on the IR at -O0 (the derivative functions) and at
// -O2 (inlined into the non-inlined wrappers grad and tangent), and run: the
// log lines come out once per iteration per request, in loop order, and the
// derivatives match their analytic values.
//
// RUN: %clang -O0 -S -emit-llvm %s -o %t.O0.ll
// RUN: %clang -O2 -S -emit-llvm %s -o %t.O2.ll
// DEFINE: %{once} = FileCheck %s --check-prefix=ONCE
// DEFINE: %{rev0} = --input-file=%t.O0.ll -DFN=@loop_log.tapestry.rev_
// DEFINE: %{fwd0} = --input-file=%t.O0.ll -DFN=@loop_log.tapestry.fwd_
// DEFINE: %{rev2} = --input-file=%t.O2.ll -DFN=@grad(
// DEFINE: %{fwd2} = --input-file=%t.O2.ll -DFN=@tangent(
// RUN: %{once} %{rev0} -DCALLEE=printf
// RUN: %{once} %{rev0} -DCALLEE=fprintf
// RUN: %{once} %{rev0} -DCALLEE=puts
// RUN: %{once} %{rev0} -DCALLEE=trace
// RUN: %{once} %{rev0} -DCALLEE=__assert_fail
// RUN: %{once} %{fwd0} -DCALLEE=printf
// RUN: %{once} %{fwd0} -DCALLEE=fprintf
// RUN: %{once} %{fwd0} -DCALLEE=puts
// RUN: %{once} %{fwd0} -DCALLEE=trace
// RUN: %{once} %{fwd0} -DCALLEE=__assert_fail
// RUN: %{once} %{rev2} -DCALLEE=printf
// RUN: %{once} %{rev2} -DCALLEE=fprintf
// RUN: %{once} %{rev2} -DCALLEE=puts
// RUN: %{once} %{rev2} -DCALLEE=trace
// RUN: %{once} %{rev2} -DCALLEE=__assert_fail
// RUN: %{once} %{fwd2} -DCALLEE=printf
// RUN: %{once} %{fwd2} -DCALLEE=fprintf
// RUN: %{once} %{fwd2} -DCALLEE=puts
// RUN: %{once} %{fwd2} -DCALLEE=trace
// RUN: %{once} %{fwd2} -DCALLEE=__assert_fail
// RUN: FileCheck %s --check-prefix=SWEEP %{rev0}
// RUN: FileCheck %s --check-prefix=SWEEP %{rev2}
// RUN: FileCheck %s --check-prefix=NODERIV --input-file=%t.O0.ll
// RUN: FileCheck %s --check-prefix=NODERIV --input-file=%t.O2.ll
// RUN: %clang -O0 %s -lm -o %t0 && %t0 2>%t0.err | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --input-file=%t0.err --check-prefix=ERR
// RUN: %clang -O2 %s -lm -o %t2 && %t2 2>%t2.err | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --input-file=%t2.err --check-prefix=ERR

// ---- each logging call appears exactly once in each derivative (at -O0
// the derivative function, at -O2 the wrapper it was inlined into)
// ONCE: define {{.*}}[[FN]]
// ONCE-NOT: @[[CALLEE]](
// ONCE: call {{.*}}@[[CALLEE]](
// ONCE-NOT: @[[CALLEE]](
// ONCE: {{^}$}}

// ---- the reverse sweep (from the derivative of sin on) logs nothing
// SWEEP: define {{.*}}[[FN]]
// SWEEP: call void @trace(
// SWEEP: @llvm.cos.f64
// SWEEP-NOT: {{@(printf|fprintf|puts|trace|__assert_fail)\(|@stderr}}
// SWEEP: {{^}$}}

// ---- no derivative (or shadow) function for any logging call
// NODERIV-NOT: {{(printf|fprintf|puts|trace|__assert_fail)[._]tapestry}}
// NODERIV: define {{.*}}@main(
// NODERIV-NOT: {{(printf|fprintf|puts|trace|__assert_fail)[._]tapestry}}

// ---- run: one log line per iteration per request, in order
// OUT: == reverse
// OUT-NEXT: step 0
// OUT-NEXT: step 1
// OUT-NEXT: step 2
// OUT-NEXT: step 3
// OUT-NEXT: step 4
// OUT-NEXT: step 5
// OUT-NEXT: == forward
// OUT-NEXT: step 0
// OUT-NEXT: step 1
// OUT-NEXT: step 2
// OUT-NEXT: step 3
// OUT-NEXT: step 4
// OUT-NEXT: step 5
// OUT-NEXT: == checks
// OUT-NOT: FAIL
// OUT-NOT: step
// OUT: ALL PASSED
// ERR-COUNT-12: stderr step
// ERR-NOT: stderr step

#include <assert.h>
#include <math.h>
#include <stdio.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static long trace_calls;
__attribute__((noinline)) void trace(const char *what, double v) {
  trace_calls++;
  if (v > 1e300)
    puts(what);
}
void *__enzyme_inactivefn[] = {(void *)trace};

double loop_log(const double *x, double w, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    s += sin(w * x[i]) * x[i];
    assert(!isnan(s));
    if (i < 6) /* the run's check counts these lines */
      printf("step %d s=%.6f\n", i, s);
    else if (s > 1e300)
      puts("overflow");
    if (i < 6)
      fprintf(stderr, "stderr step %d\n", i);
    trace("s", s);
  }
  return s;
}

__attribute__((noinline)) double grad(const double *x, double *dx, double w,
                                      int n) {
  return __enzyme_autodiff((void *)loop_log, enzyme_dup, x, dx, enzyme_out, w,
                           enzyme_const, n);
}
__attribute__((noinline)) double tangent(const double *x, double *tx,
                                         double w, double tw, int n) {
  return __enzyme_fwddiff((void *)loop_log, enzyme_dup, x, tx, enzyme_dup, w,
                          tw, enzyme_const, n);
}

static int failures;
static void check(const char *what, double got, double want) {
  int ok = fabs(got - want) <= 1e-12 * (1 + fabs(want));
  failures += !ok;
  printf("%s %s: got %.15g want %.15g\n", ok ? "PASS" : "FAIL", what, got,
         want);
}

#define N 2000

int main(void) {
  static double x[N], dx[N], tx[N];
  for (int i = 0; i < N; i++)
    x[i] = 0.5 * sin(0.37 * i + 0.1);
  double w = 1.3;

  printf("== reverse\n");
  fflush(stdout);
  long t0 = trace_calls;
  double dw = grad(x, dx, w, N);
  long rev_traces = trace_calls - t0;

  printf("== forward\n");
  fflush(stdout);
  tx[3] = 1.0;
  t0 = trace_calls;
  double t3 = tangent(x, tx, w, 0.5, N);
  long fwd_traces = trace_calls - t0;

  printf("== checks\n");
  /* s = sum_i sin(w x_i) x_i */
  double want_dw = 0;
  for (int i = 0; i < N; i++)
    want_dw += x[i] * x[i] * cos(w * x[i]);
  check("reverse d/dw", dw, want_dw);
  for (int i = 0; i < N; i += 397)
    check("reverse d/dx_i", dx[i], sin(w * x[i]) + w * x[i] * cos(w * x[i]));
  check("forward along e_3 + 0.5 dw", t3,
        sin(w * x[3]) + w * x[3] * cos(w * x[3]) + 0.5 * want_dw);
  check("trace ran once per iteration in reverse", rev_traces, N);
  check("trace ran once per iteration in forward", fwd_traces, N);
  printf("%s: %d failure(s)\n", failures ? "FAILED" : "ALL PASSED", failures);
  return failures != 0;
}
