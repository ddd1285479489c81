// Structs whose int (or char, float) members and padding the differentiated
// function never reads, only copies with the rest: once optimised, or once
// Tapestry's own preparation has split the local copy, the int and the
// padding after it move as one i64 through the caller's memory, which
// nothing in the function types. They were refused as "cannot tell what
// the memory this instruction copies holds" (probe24a R1 layouts). The
// request's own arguments are the caller's variables, allocated with the
// struct's type: the type analysis now reads them as it reads a direct
// caller's. Also a history of such structs assigned in a loop and read back
// through an invariant address (LICM's GEP naming the array type at a
// member, whose word was shifted by the member's offset). Expected:
// analytic (step: x * coef[0]) and central differences (run).
// RUN: %clang -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %plain_cc -O2 -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.bc
// RUN: %plain_cc -O2 %t.bc -o %to && %to | FileCheck %s
// RUN: %plain_cc -O3 -ffast-math -S -emit-llvm %s -o %tf.ll
// RUN: %opt -passes=tapestry %tf.ll -o %tf.bc
// RUN: %plain_cc -O2 %tf.bc -o %tf && %tf | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

/* An int before the pointer: padding 4..8. */
typedef struct {
  int n;
  const double *coef;
  double x;
} LeadInt;
/* A float after the double: padding 12..16. */
typedef struct {
  double x;
  float w;
  const double *coef;
} MidFloat;
/* A char after the double: padding 9..16. */
typedef struct {
  double x;
  char flag;
  const double *coef;
} MidChar;
/* Padding at the end. */
typedef struct {
  const double *coef;
  double x;
  int n;
} TailInt;

#define STEP(S)                                                                \
  void step_##S(const S *in, S *out) {                                         \
    S s = *in;                                                                 \
    s.x *= s.coef[0];                                                          \
    *out = s;                                                                  \
  }
STEP(LeadInt)
STEP(MidFloat)
STEP(MidChar)
STEP(TailInt)

#define CHECK_STEP(S)                                                          \
  do {                                                                         \
    double c[1] = {3.0}, dc[1] = {0};                                          \
    S in, din, out, dout;                                                      \
    memset(&in, 0, sizeof in);                                                 \
    memset(&din, 0, sizeof din);                                               \
    memset(&out, 0, sizeof out);                                               \
    memset(&dout, 0, sizeof dout);                                             \
    in.x = 0.5;                                                                \
    in.coef = c;                                                               \
    din.coef = dc;                                                             \
    dout.coef = dc;                                                            \
    dout.x = 1.0;                                                              \
    __enzyme_autodiff((void *)step_##S, enzyme_dup, &in, &din, enzyme_dup,     \
                      &out, &dout);                                            \
    check_close(#S " reverse d/dx", din.x, 3.0, 1e-15);                        \
    check_close(#S " reverse d/dcoef", dc[0], 0.5, 1e-15);                     \
    memset(&din, 0, sizeof din);                                               \
    memset(&dout, 0, sizeof dout);                                             \
    double tc[1] = {0};                                                        \
    din.x = 1.0;                                                               \
    din.coef = tc;                                                             \
    dout.coef = tc;                                                            \
    __enzyme_fwddiff((void *)step_##S, enzyme_dup, &in, &din, enzyme_dup,      \
                     &out, &dout);                                             \
    check_close(#S " forward d/dx", dout.x, 3.0, 1e-15);                       \
    check_close(#S " value", out.x, 1.5, 1e-15);                               \
  } while (0)

/* A state with an int, padding and a pointer, kept in a history array. */
typedef struct {
  double pos[2];
  int step;
  const double *coef;
  double vel;
} State;

static State advance(State s) {
  State n = s;
  n.vel = s.vel - 0.1 * s.coef[0] * s.pos[0];
  n.pos[0] = s.pos[0] + 0.1 * n.vel;
  n.step = s.step + 1;
  return n;
}

double run(const State *init, int steps) {
  State hist[16], s = *init;
  for (int k = 0; k < steps; k++) {
    hist[k] = s;
    s = advance(s);
  }
  double L = s.pos[0] * s.pos[1];
  for (int k = 0; k < steps; k += 5)
    L += hist[k].vel * hist[k].vel;
  return L;
}

int main(void) {
  CHECK_STEP(LeadInt);
  CHECK_STEP(MidFloat);
  CHECK_STEP(MidChar);
  CHECK_STEP(TailInt);

  double coef[1] = {2.0}, dcoef[1] = {0};
  State s = {{0.5, -0.3}, 0, coef, 0.1}, ds;
  memset(&ds, 0, sizeof ds);
  ds.coef = dcoef;
  __enzyme_autodiff((void *)run, enzyme_dup, &s, &ds, enzyme_const, 10);
  const double h = 1e-6;
  State p = s, m = s;
  p.pos[0] += h;
  m.pos[0] -= h;
  check_close("history d/dpos0", ds.pos[0], (run(&p, 10) - run(&m, 10)) / (2 * h),
              1e-7);
  p = s;
  m = s;
  p.vel += h;
  m.vel -= h;
  check_close("history d/dvel", ds.vel, (run(&p, 10) - run(&m, 10)) / (2 * h),
              1e-7);
  double cp[1] = {2.0 + h}, cm[1] = {2.0 - h};
  p = s;
  m = s;
  p.coef = cp;
  m.coef = cm;
  check_close("history d/dcoef", dcoef[0],
              (run(&p, 10) - run(&m, 10)) / (2 * h), 1e-7);
  return check_report();
}
