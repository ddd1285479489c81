// Reverse-mode spellings for structs passed by value whose members include
// pointers that would lose a derivative are errors showing a spelling that
// works: enzyme_out would take the data the pointers point to as constant
// (case 1), and enzyme_dup would lose the floating-point member's adjoint
// in the copy (case 2). A struct with pointers and no floating-point member
// marked enzyme_out is told to use enzyme_dup with a shadow struct
// (case 3; it was told to use enzyme_out, probe22a M1).
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=1 2>&1 | FileCheck %s --check-prefixes=CHECK,OUT
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=1 2>&1 | FileCheck %s --check-prefixes=CHECK,OUT
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=2 2>&1 | FileCheck %s --check-prefixes=CHECK,DUP
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCASE=2 2>&1 | FileCheck %s --check-prefixes=CHECK,DUP
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCASE=3 2>&1 | FileCheck %s --check-prefixes=CHECK,NOFLOAT
// CHECK-NOT: PLEASE submit a bug report
typedef struct {
  const double *data;
  double scale;
} Scaled;
typedef struct {
  double *data;
  int n;
} Vec;
extern int enzyme_dup, enzyme_out;
void __enzyme_autodiff(void *, ...);
Scaled __enzyme_autodiff_scaled(void *, ...);
Vec __enzyme_autodiff_vec(void *, ...);

double scaled(Scaled v) { return v.scale * (v.data[0] * v.data[0]); }
double sumsq(Vec v) {
  double s = 0;
  for (int i = 0; i < v.n; i++)
    s += v.data[i] * v.data[i];
  return s;
}

void grad(Scaled v, Scaled dv, Vec w) {
#if CASE == 1
  // OUT: [[@LINE+1]]:3: error: tapestry: enzyme_out on parameter 1 of 'scaled', {{.*}}, which has pointer members: enzyme_out returns the adjoints of its floating-point members, and the data its pointers point to would be taken as constant; change 'scaled' to take a pointer to the struct (then enzyme_dup, &v, &dv); or give each member its own marker: enzyme_dup, v.data, dv.data, enzyme_out, v.scale
  __enzyme_autodiff_scaled((void *)scaled, enzyme_out, v);
#elif CASE == 2
  // DUP: [[@LINE+1]]:3: error: tapestry: enzyme_dup on parameter 1 of 'scaled', {{.*}}: in reverse mode change 'scaled' to take a pointer and pass enzyme_dup, &v, &dv; or give each member its own marker: enzyme_dup, v.data, dv.data, enzyme_out, v.scale
  __enzyme_autodiff((void *)scaled, enzyme_dup, v, dv);
#else
  // NOFLOAT: [[@LINE+1]]:3: error: tapestry: enzyme_out marks active floating-point values, but parameter 1 of 'sumsq', {{.*}} has no floating-point member the C ABI passes as one; for the data its pointers point to, pass a struct of the same type whose pointers point to the shadows: enzyme_dup, w, dw
  __enzyme_autodiff_vec((void *)sumsq, enzyme_out, w);
#endif
}
