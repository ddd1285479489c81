// The IR -S -emit-llvm writes with the plugin can be read back (by opt,
// llc, lli, clang) when a function takes a struct by value: the struct's
// grouping is kept in the function's metadata, which named a type the file
// never defined where the optimiser had split the struct into doubles
// (-O1 and up: "use of undefined type named 'struct.P2'", probe45b F3).
// The IR read back runs and gives the analytic gradient of |p|^2 + p.x q.y:
// (2 p.x + q.y, 2 p.y) with respect to p.
// RUN: %clang -O0 -S -emit-llvm %s -o %t0.ll && %opt -passes=verify -disable-output %t0.ll
// RUN: %plain_cc %t0.ll -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 -S -emit-llvm %s -o %t2.ll && %opt -passes=verify -disable-output %t2.ll
// RUN: %plain_cc %t2.ll -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -Os -S -emit-llvm %s -o %ts.ll && %opt -passes=verify -disable-output %ts.ll
// RUN: %plain_cc %ts.ll -lm -o %ts && %ts | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

typedef struct {
  double x, y;
} P2;

extern int enzyme_out, enzyme_const;
extern P2 __enzyme_autodiff(void *, ...);

double energy(P2 p, P2 q) { return p.x * p.x + p.y * p.y + p.x * q.y; }

int main(void) {
  P2 p = {3, 4}, q = {0.5, -2};
  P2 d = __enzyme_autodiff((void *)energy, enzyme_out, p, enzyme_const, q);
  check_close("d energy / d p.x", d.x, 2 * p.x + q.y, 1e-14);
  check_close("d energy / d p.y", d.y, 2 * p.y, 1e-14);
  return check_report();
}
