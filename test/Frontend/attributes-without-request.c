// A file that differentiates nothing (a library compiled apart from the
// file that calls __enzyme_autodiff) still gets the IR attributes Enzyme's
// enzyme_nofree and enzyme_no_escaping_allocation stand for, and the
// registrations the clang part made for them are gone.
// RUN: %clang_fplugin -O0 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang_enzyme -O1 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang_enzyme -O2 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang_enzyme -O3 -S -emit-llvm %s -o - | FileCheck %s

__attribute__((enzyme_no_escaping_allocation)) void
check_bounds(const double *);

__attribute__((enzyme_nofree, noinline)) double twice(double x) {
  return 2 * x;
}

__attribute__((enzyme_no_escaping_allocation, noinline)) void
validate(const double *x) {
  check_bounds(x);
}

void plain(const double *);

double use(const double *x) {
  validate(x);
  plain(x);
  return twice(x[0]);
}

// CHECK-NOT: __enzyme_nofree
// CHECK-NOT: __enzyme_no_escaping_allocation
// CHECK-DAG: define {{.*}}double @twice({{.*}}) {{.*}}[[TWICE:#[0-9]+]]
// CHECK-DAG: define {{.*}}void @validate({{.*}}) {{.*}}[[VALIDATE:#[0-9]+]]
// CHECK-DAG: declare void @check_bounds({{.*}}) {{.*}}[[CHECK:#[0-9]+]]
// CHECK-DAG: declare void @plain({{.*}}) {{.*}}[[PLAIN:#[0-9]+]]
// CHECK-DAG: attributes [[TWICE]] = { {{.*}}nofree
// CHECK-DAG: attributes [[VALIDATE]] = { {{.*}}"enzyme_no_escaping_allocation"
// CHECK-DAG: attributes [[CHECK]] = { {{.*}}"enzyme_no_escaping_allocation"
// CHECK-DAG: attributes [[PLAIN]] = { {{("frame-pointer"="all" )?}}"no-trapping-math"
