// __attribute__((enzyme_nofree)) promises the function frees no memory:
// Tapestry gives it LLVM's nofree, as Enzyme does, on a definition and on a
// declaration alike.
// RUN: %clang_fplugin -O0 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang_enzyme -O1 -S -emit-llvm %s -o - | FileCheck %s
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);

__attribute__((enzyme_nofree)) double scale(double x) { return 2 * x; }
__attribute__((enzyme_nofree)) double external_scale(double x);

double f(double x) { return scale(x) * x; }
double g(double x) { return __enzyme_autodiff((void *)f, enzyme_out, x); }
double h(double x) { return external_scale(x); }

// CHECK-DAG: define {{.*}}double @scale(double {{[^)]*}}) [[DEF:#[0-9]+]]
// CHECK-DAG: declare {{.*}}double @external_scale(double {{[^)]*}}) [[DECL:#[0-9]+]]
// CHECK-DAG: attributes [[DEF]] = { {{.*}}nofree
// CHECK-DAG: attributes [[DECL]] = { {{.*}}nofree
