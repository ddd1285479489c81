// The plugin registers itself at the start of clang's pipeline at every
// optimisation level, -O0 included: each request is resolved, and no entry
// point or marker is left for the linker. At -O0 the caller keeps a call to
// the synthesised derivative; from -O1 on the internal derivative is inlined
// into it and removed.
//
// RUN: %clang -O0 -S -emit-llvm -o - %s | FileCheck %s --check-prefixes=CHECK,O0 \
// RUN:   --implicit-check-not=__enzyme_ --implicit-check-not=@enzyme_
// RUN: %clang -O1 -S -emit-llvm -o - %s | FileCheck %s --check-prefixes=CHECK,OPT \
// RUN:   --implicit-check-not=__enzyme_ --implicit-check-not=@enzyme_
// RUN: %clang -O2 -S -emit-llvm -o - %s | FileCheck %s --check-prefixes=CHECK,OPT \
// RUN:   --implicit-check-not=__enzyme_ --implicit-check-not=@enzyme_
// RUN: %clang -O3 -S -emit-llvm -o - %s | FileCheck %s --check-prefixes=CHECK,OPT \
// RUN:   --implicit-check-not=__enzyme_ --implicit-check-not=@enzyme_

#include <math.h>

extern int enzyme_out, enzyme_dup, enzyme_const;
typedef struct {
  double dx, dy;
} Gradient;
Gradient __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

double f(double x, double y) { return sin(x * y) + exp(x) / y; }

Gradient grad(double x, double y) {
  return __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_out, y);
}

double tangent(double x, double y) {
  return __enzyme_fwddiff((void *)f, enzyme_dup, x, 1.0, enzyme_const, y);
}

// CHECK-LABEL: define {{.*}} @grad(
// O0:          call { double, double } @f.tapestry.rev_aa_ra(
// OPT-NOT:     call {{.*}}tapestry
// OPT:         call double @llvm.cos.f64(
// CHECK:       ret { double, double }

// CHECK-LABEL: define {{.*}} @tangent(
// O0:          call double @f.tapestry.fwd_dc_ra(
// OPT-NOT:     call {{.*}}tapestry
// OPT:         call double @llvm.cos.f64(
// CHECK:       ret double

// O0-DAG:      define internal { double, double } @f.tapestry.rev_aa_ra(
// O0-DAG:      define internal double @f.tapestry.fwd_dc_ra(
// OPT-NOT:     @f.tapestry
