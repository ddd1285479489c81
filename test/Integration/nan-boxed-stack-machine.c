// A stack machine that keeps its values NaN-boxed, as small interpreters
// do: each double moves through a union into a uint64_t slot of a heap
// stack and back, by helper functions. At -O0 the helpers stayed calls and
// the derivative was rejected ("a double is reinterpreted as a long here",
// probe 37); they are now inlined like the optimiser would. The stack holds
// doubles' bits, so it keeps its shadow (a heap block of integers that
// are not bits of doubles would not need one). Reverse and forward, against
// analytic derivatives of the program the machine runs:
// y = (x0 * x1 + sin(x2)) * x0.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdint.h>
#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

typedef union {
  double d;
  uint64_t u;
} Box;

static uint64_t box(double d) {
  Box b;
  b.d = d;
  return b.u;
}

static double unbox(uint64_t u) {
  Box b;
  b.u = u;
  return b.d;
}

enum Op { PUSH_ARG, MUL, ADD, SIN, END };
struct Instr {
  enum Op op;
  int arg;
};

static const struct Instr program[] = {
    {PUSH_ARG, 0}, {PUSH_ARG, 1}, {MUL, 0}, {PUSH_ARG, 2}, {SIN, 0},
    {ADD, 0},      {PUSH_ARG, 0}, {MUL, 0}, {END, 0}};

double run(const double *args) {
  uint64_t *stack = malloc(8 * sizeof(uint64_t));
  int top = 0;
  for (const struct Instr *pc = program; pc->op != END; pc++) {
    switch (pc->op) {
    case PUSH_ARG:
      stack[top++] = box(args[pc->arg]);
      break;
    case MUL:
      top--;
      stack[top - 1] = box(unbox(stack[top - 1]) * unbox(stack[top]));
      break;
    case ADD:
      top--;
      stack[top - 1] = box(unbox(stack[top - 1]) + unbox(stack[top]));
      break;
    case SIN:
      stack[top - 1] = box(sin(unbox(stack[top - 1])));
      break;
    case END:
      break;
    }
  }
  double y = unbox(stack[top - 1]);
  free(stack);
  return y;
}

int main(void) {
  double x[3] = {1.25, -0.75, 0.4}, dx[3] = {0};
  double want[3] = {2 * x[0] * x[1] + sin(x[2]), x[0] * x[0],
                    cos(x[2]) * x[0]};
  __enzyme_autodiff((void *)run, enzyme_dup, x, dx);
  for (int i = 0; i < 3; i++) {
    check_close("stack machine reverse", dx[i], want[i], 1e-14);
    double e[3] = {0};
    e[i] = 1;
    check_close("stack machine forward",
                __enzyme_fwddiff((void *)run, enzyme_dup, x, e), want[i],
                1e-14);
  }
  return check_report();
}
